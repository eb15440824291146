/* Adds an edge's weight to both end nodes. */
static inline void inc_edge(const double *w, double *a, double *b) {
  *a += *w;
  *b += *w;
}
