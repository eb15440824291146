/* res: one stored coefficient of A' (an edge from row p1 to column p2) adds
 * its share of A'·u to its row: du[p1] += A[e] * u[p2] (Giles, "OPlus2 for
 * many-core platforms", 2010, Figure 1). Called with u read through p2 and du incremented through
 * p1. */
static inline void res(const double *A, const double *u, double *du) { *du += (*A) * (*u); }
