/* flow_fields: the variables a person looks at, from a cell's conserved
 * state q = (density, x-momentum, y-momentum, total energy): density,
 * momentum, energy, pressure p = (gamma - 1)(E - |m|^2 / 2 rho) and the Mach
 * number |u| / c, c = sqrt(gamma p / rho). Written once, after the last
 * iteration, for q.h5 / q.xmf and the picture. */
static inline void flow_fields(const double *q, double *density, double *momentum,
                               double *energy, double *pressure, double *mach) {
  const double ri = 1.0 / q[0];
  const double u = ri * q[1], v = ri * q[2];
  const double p = gm1 * (q[3] - 0.5 * q[0] * (u * u + v * v));
  density[0] = q[0];
  momentum[0] = q[1];
  momentum[1] = q[2];
  energy[0] = q[3];
  pressure[0] = p;
  mach[0] = sqrt((u * u + v * v) * q[0] / (gam * p));
}
