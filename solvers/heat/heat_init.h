/* heat_init: the manufactured solution at t = 0, sin(pi x / L) sin(pi y / L),
 * at interior point (i, j) = (idx mod n, idx div n), x = coord[i],
 * y = coord[j] (the grid's coordinates, built once on the host: see
 * grid_coordinates in heat.c). */
static inline void heat_init(const int *idx, const double *coord, double *u) {
  const int i = idx[0] % heat_n, j = idx[0] / heat_n;
  const double x = coord[i], y = coord[j];
  u[0] = sin(heat_pi * x / heat_length) * sin(heat_pi * y / heat_length);
}
