/* heat_step: one explicit step of the 5-point stencil at an interior cell,
 * u_new = (1 - 4r) u + r (u_east + u_west + u_north + u_south).
 * The neighbours come through the interior -> cells map; a neighbour in the
 * ghost ring holds 0, the boundary value. The sum is taken in the tutorial's
 * order (centre, east, west, north, south) so that the results match it. */
static inline void heat_step(const double *u, const double *u_east, const double *u_west,
                             const double *u_north, const double *u_south, double *u_new) {
  u_new[0] = heat_r2 * u[0] + heat_r * u_east[0] + heat_r * u_west[0] + heat_r * u_north[0] +
             heat_r * u_south[0];
}
