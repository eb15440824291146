/* node_reduce: every reduction kind over the nodes: a sum of doubles of very
 * different sizes (its rounding depends on the order), an exact integer sum,
 * and the largest value with the node's global number travelling with it. */
static inline void node_reduce(const double *v, const int *k, const int *idx, double *sum,
                               int *isum, double *vmax, int *where) {
  *sum += *v;
  *isum += *k;
  if (*v > *vmax) {
    *vmax = *v;
    *where = *idx;
  }
}
