/* update: one node's Jacobi step u += du + r, du back to 0, and the sums of
 * the squared change and of u^2 for the convergence test. */
static inline void update(const double *r, double *du, double *u, double *change_sq, double *u_sq) {
  const double change = du[0] + r[0];
  u[0] += change;
  *change_sq += change * change;
  *u_sq += u[0] * u[0];
  du[0] = 0.0;
}
