/* res: one edge of the sparse matrix adds A(i,j) u(j) to du(i), through the
 * edge's second node (read) and its first (increment). */
static inline void res(const double *A, const double *u, double *du) { du[0] += A[0] * u[0]; }
