/*
 * euler_flux_x.h - kernel: the numerical flux through one x-face (between
 * cells i and i+1 of a row), from cells i-1, i, i+1, i+2 (q0..q3), with the
 * sweep's dt/dx (dtdx) and where the face lies (wall: EULER_FACE_*, 0 inside,
 * 1 or 2 on a reflective west or east wall). MUSCL-Hancock reconstruction
 * and half-step evolution, then the exact Riemann flux (euler_scheme.h).
 * fallbacks counts faces that used the first-order flux because the evolved
 * values were not physical. Reads the constants euler_gas (gamma's, a
 * riemann_gas) and euler_limiter.
 */
#include "euler_scheme.h"

static inline void euler_flux_x(const double *q0, const double *q1, const double *q2,
                                const double *q3, const double *dtdx, const int *wall,
                                double *flux, int *fallbacks) {
  fallbacks[0] += euler_face_flux(q0, q1, q2, q3, dtdx[0], (const riemann_gas *)euler_gas,
                                   euler_limiter, wall[0], flux);
}
