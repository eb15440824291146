/*
 * euler_check.h - kernel: the positivity check of one interior cell after a
 * sweep's fluxes are known. flag (on the extended cells) becomes 1 when the
 * update U + dt/dx (F_minus - F_plus) would not give a positive density and
 * pressure (MUSCL-Hancock in conserved variables does not preserve them:
 * Toro's test 2 and strong rarefactions at walls), else 0; nbad counts the
 * flagged cells. Their faces then take the first-order Godunov flux
 * (euler_fix_x.h, euler_fix_y.h) before the update.
 */
#include "euler_scheme.h"

static inline void euler_check(const double *fm, const double *fp, const double *dtdx,
                               const double *q, int *flag, int *nbad) {
  flag[0] = !euler_update_physical(q, fm, fp, dtdx[0], euler_gamma);
  nbad[0] += flag[0];
}
