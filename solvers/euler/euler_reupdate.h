/*
 * euler_reupdate.h - kernel: euler_update again, after the faces beside the
 * flagged cells took first-order fluxes (which changes the updates of their
 * neighbours too). A flagged cell stays flagged; a cell whose new update is
 * not physical is flagged now and counted in nnew, for another round.
 */
#include "euler_scheme.h"

static inline void euler_reupdate(const double *fm, const double *fp, const double *dtdx,
                                  const double *q, double *qn, int *flag, int *nnew) {
  double w[4];
  qn[0] = q[0] + dtdx[0] * (fm[0] - fp[0]);
  qn[1] = q[1] + dtdx[0] * (fm[1] - fp[1]);
  qn[2] = q[2] + dtdx[0] * (fm[2] - fp[2]);
  qn[3] = q[3] + dtdx[0] * (fm[3] - fp[3]);
  euler_to_primitive(qn, euler_gamma, w);
  if (flag[0] == 0 && !euler_physical(w)) {
    flag[0] = 1;
    nnew[0] += 1;
  }
}
