/* edge_kernels.h - two more of inckern's kernels, in a header without an
 * include guard (the generated code must bring it once). */
#include "../inckern/sizes/inckern_sizes.h"

inline void edge_flux(const double *qa, const double *qb, double *ra, double *rb) {
  for (int k = 0; k < NCOMP; k++) {
    const double f = qb[k] - qa[k];
    ra[k] += f;
    rb[k] -= f;
  }
}

inline void count_edge(int *n) { *n += 1; }
