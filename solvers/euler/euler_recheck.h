/*
 * euler_recheck.h - kernel: euler_check again after first-order fluxes were
 * put on the faces of the flagged cells, which changes the updates of their
 * neighbours too: flags the cells that have become unphysical since (nnew
 * counts them); a flagged cell stays flagged.
 */
#include "euler_scheme.h"

static inline void euler_recheck(const double *fm, const double *fp, const double *dtdx,
                                 const double *q, int *flag, int *nnew) {
  if (flag[0] == 0 && !euler_update_physical(q, fm, fp, dtdx[0], euler_gamma)) {
    flag[0] = 1;
    nnew[0] += 1;
  }
}
