/* first_not_finite: the lowest cell number whose q is not finite (NaN or
 * infinite), a state no checkpoint is written from: a restart refuses it. */
static inline void first_not_finite(const double *q, const int *idx, int *first) {
  for (int n = 0; n < 4; n++)
    if (!isfinite(q[n]) && *idx < *first) *first = *idx;
}
