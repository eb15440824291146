/*
 * euler_totals.h - kernel: sums of the conserved variables over the interior
 * cells (tot[0..3]: mass, x- and y-momentum, energy) and of their absolute
 * values (tot[4..7], the scale of their rounding errors). The program
 * multiplies by the cell area.
 */
static inline void euler_totals(const double *q, double *tot) {
  tot[0] += q[0];
  tot[1] += q[1];
  tot[2] += q[2];
  tot[3] += q[3];
  tot[4] += fabs(q[0]);
  tot[5] += fabs(q[1]);
  tot[6] += fabs(q[2]);
  tot[7] += fabs(q[3]);
}
