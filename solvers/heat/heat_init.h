/* heat_init: the manufactured solution at t = 0, sin(pi x / L) sin(pi y / L),
 * at interior point (i, j) = (idx mod n, idx div n), x = (i + 1) dx,
 * y = (j + 1) dx. */
static inline void heat_init(const int *idx, double *u) {
  const int i = idx[0] % heat_n, j = idx[0] / heat_n;
  const double x = (double)(i + 1) * heat_dx, y = (double)(j + 1) * heat_dx;
  u[0] = sin(heat_pi * x / heat_length) * sin(heat_pi * y / heat_length);
}
