/*
 * euler_update.h - kernel: the conservative update of one interior cell in
 * one sweep, U += dt/dx (F_minus - F_plus), from the fluxes of its two faces
 * (minus side fm, plus side fp) in the sweep's direction. The same face flux
 * enters the two cells beside it with opposite signs, so the totals change
 * only through the boundary faces.
 */
static inline void euler_update(const double *fm, const double *fp, const double *dtdx,
                                double *q) {
  q[0] += dtdx[0] * (fm[0] - fp[0]);
  q[1] += dtdx[0] * (fm[1] - fp[1]);
  q[2] += dtdx[0] * (fm[2] - fp[2]);
  q[3] += dtdx[0] * (fm[3] - fp[3]);
}
