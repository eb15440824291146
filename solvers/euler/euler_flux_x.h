/*
 * euler_flux_x.h - kernel: the numerical flux through one x-face (between
 * cells i and i+1 of a row), from cells i-1, i, i+1, i+2 (q0..q3), with the
 * sweep's dt/dx (dtdx) and where the face lies (wall: EULER_FACE_*, 0 inside,
 * 1 or 2 on a reflective west or east wall). MUSCL-Hancock reconstruction
 * and half-step evolution, then the exact Riemann flux (euler_scheme.h).
 * fallbacks counts faces that used the first-order flux because the evolved
 * values were not physical. Reads the constants euler_gas (gamma's, riemann_gas) and euler_limiter.
 */
#include "euler_scheme.h"

static inline void euler_flux_x(const double *q0, const double *q1, const double *q2,
                                const double *q3, const double *dtdx, const int *wall,
                                double *flux, int *fallbacks) {
  /* The states go through local copies, in the same order as euler_flux_y
   * makes its permuted ones, so that the compiler sees the same code after
   * the loads in both kernels and contracts multiply-adds alike: the x and
   * y sweeps then stay bitwise mirror images (euler.scheme, euler.sod_xy). */
  double s0[4], s1[4], s2[4], s3[4], f[4];
  s0[0] = q0[0]; s0[1] = q0[1]; s0[2] = q0[2]; s0[3] = q0[3];
  s1[0] = q1[0]; s1[1] = q1[1]; s1[2] = q1[2]; s1[3] = q1[3];
  s2[0] = q2[0]; s2[1] = q2[1]; s2[2] = q2[2]; s2[3] = q2[3];
  s3[0] = q3[0]; s3[1] = q3[1]; s3[2] = q3[2]; s3[3] = q3[3];
  fallbacks[0] +=
      euler_face_flux(s0, s1, s2, s3, dtdx[0], (const riemann_gas *)euler_gas, euler_limiter, wall[0], f);
  flux[0] = f[0];
  flux[1] = f[1];
  flux[2] = f[2];
  flux[3] = f[3];
}
