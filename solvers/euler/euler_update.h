/*
 * euler_update.h - kernel: the conservative update of one interior cell in
 * one sweep, from the state before the sweep (q) into the state after it
 * (qn): qn = q + dt/dx (F_minus - F_plus), with the fluxes of its two faces
 * (minus side fm, plus side fp) in the sweep's direction. The same face flux
 * enters the two cells beside it with opposite signs, so the totals change
 * only through the boundary faces.
 *
 * It also checks the result: flag becomes 1 when qn does not have a positive
 * density and pressure (MUSCL-Hancock in conserved variables does not
 * preserve them: Toro's test 2, strong rarefactions at walls), else 0; nbad
 * counts the flagged cells. Their faces then take the first-order Godunov
 * flux (euler_fix_x.h, euler_fix_y.h) and the update is done again
 * (euler_reupdate.h), from q, which the sweep has left untouched.
 */
#include "euler_scheme.h"

static inline void euler_update(const double *fm, const double *fp, const double *dtdx,
                                const double *q, double *qn, int *flag, int *nbad) {
  double w[4];
  qn[0] = q[0] + dtdx[0] * (fm[0] - fp[0]);
  qn[1] = q[1] + dtdx[0] * (fm[1] - fp[1]);
  qn[2] = q[2] + dtdx[0] * (fm[2] - fp[2]);
  qn[3] = q[3] + dtdx[0] * (fm[3] - fp[3]);
  euler_to_primitive(qn, euler_gamma, w);
  flag[0] = !euler_physical(w);
  nbad[0] += flag[0];
}
