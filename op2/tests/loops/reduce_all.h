/* Reductions of every kind and type, and a global read. */
static inline void reduce_all(const double *x, const int *k, const double *offset, double *sum,
                              double *mn, double *mx, int *isum, int *imin, int *imax,
                              float *fsum, float *fmx) {
  *sum += *x + *offset;
  if (*x < *mn) *mn = *x;
  if (*x > *mx) *mx = *x;
  *isum += *k;
  if (*k < *imin) *imin = *k;
  if (*k > *imax) *imax = *k;
  *fsum += (float)*k;
  if ((float)*x > *fmx) *fmx = (float)*x;
}
