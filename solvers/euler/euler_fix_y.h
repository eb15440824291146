/*
 * euler_fix_y.h - kernel: euler_fix_x for a y-face, in the y-sweep's frame
 * (rho, rho v, rho u, E) like euler_flux_y.
 */
#include "euler_scheme.h"

static inline void euler_fix_y(const double *qa, const double *qb, const int *fa, const int *fb,
                               const int *wall, double *flux, int *nfix) {
  if (fa[0] || fb[0]) {
    double a[4], b[4], f[4];
    a[0] = qa[0]; a[1] = qa[2]; a[2] = qa[1]; a[3] = qa[3];
    b[0] = qb[0]; b[1] = qb[2]; b[2] = qb[1]; b[3] = qb[3];
    euler_godunov_flux(a, b, wall[0], (const riemann_gas *)euler_gas, f);
    flux[0] = f[0];
    flux[1] = f[2];
    flux[2] = f[1];
    flux[3] = f[3];
    nfix[0] += 1;
  }
}
