/*
 * euler_fix_x.h - kernel: an x-face beside a flagged cell (flag of the cell
 * on each side: fa, fb) takes the first-order Godunov flux between the two
 * cell averages qa and qb (on a reflective wall, wall = 1 or 2: between the
 * interior one and its mirror image); nfix counts such faces.
 */
#include "euler_scheme.h"

static inline void euler_fix_x(const double *qa, const double *qb, const int *fa, const int *fb,
                               const int *wall, double *flux, int *nfix) {
  if (fa[0] || fb[0]) {
    euler_godunov_flux(qa, qb, wall[0], (const riemann_gas *)euler_gas, flux);
    nfix[0] += 1;
  }
}
