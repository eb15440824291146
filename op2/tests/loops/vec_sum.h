/* A reduction of a vector global (dim 3) with an expression dim. */
static inline void vec_sum(const double *x, double *acc) {
  acc[0] += x[0];
  acc[1] += x[0] * x[0];
  acc[2] += 1.0;
}
