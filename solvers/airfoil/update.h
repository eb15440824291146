/* update: one explicit pseudo-time step of a cell; rms accumulates the
 * squared changes. */
static inline void update(const double *qold, double *q, double *res, const double *adt,
                          double *rms) {
  double del, adti;
  adti = 1.0 / (*adt);
  for (int n = 0; n < 4; n++) {
    del = adti * res[n];
    q[n] = qold[n] - del;
    res[n] = 0.0;
    *rms += del * del;
  }
}
