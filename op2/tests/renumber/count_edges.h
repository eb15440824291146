/* count_edges: every edge adds its weight to both of its cells (integers:
 * the sums do not depend on the order). */
static inline void count_edges(const int *w, int *c1, int *c2) {
  c1[0] += w[0];
  c2[0] += w[0];
}
