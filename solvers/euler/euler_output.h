/*
 * euler_output.h - kernel: the output fields of one interior cell, on the
 * nx x ny output grid: density, velocity (u, v), pressure, Mach number
 * |u| / a, total energy per volume, and a copy of the conserved state
 * (rho, rho u, rho v, E).
 */
#include "euler_scheme.h"

static inline void euler_output(const double *q, double *rho, double *vel, double *p,
                                double *mach, double *energy, double *qout) {
  rho[0] = q[0];
  vel[0] = q[1] / q[0];
  vel[1] = q[2] / q[0];
  p[0] = euler_pressure(q, euler_gamma);
  mach[0] = sqrt((vel[0] * vel[0] + vel[1] * vel[1]) * q[0] / (euler_gamma * p[0]));
  energy[0] = q[3];
  qout[0] = q[0];
  qout[1] = q[1];
  qout[2] = q[2];
  qout[3] = q[3];
}
