/* edge_spread: each edge adds its weight times the integer at its second node
 * to its first node (an increment through a map: the execute halo runs, and
 * the integers' halo is exchanged). */
static inline void edge_spread(const double *w, const int *k2, double *acc1) {
  *acc1 += *w * *k2;
}
