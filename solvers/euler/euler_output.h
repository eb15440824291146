/*
 * euler_output.h - kernel: the output fields of one interior cell, on the
 * nx x ny output grid: density, velocity (u, v), pressure and a copy of the
 * conserved state (rho, rho u, rho v, E).
 */
#include "euler_scheme.h"

static inline void euler_output(const double *q, double *rho, double *vel, double *p,
                                double *qout) {
  rho[0] = q[0];
  vel[0] = q[1] / q[0];
  vel[1] = q[2] / q[0];
  p[0] = euler_pressure(q, euler_gamma);
  qout[0] = q[0];
  qout[1] = q[1];
  qout[2] = q[2];
  qout[3] = q[3];
}
