/* RW through a map where one node is touched by many edges of a block: the
 * running maximum must see every earlier edge's write. */
static inline void max_rw(const double *w, double *a, double *b) {
  if (*w > *a) *a = *w;
  if (*w > *b) *b = *w;
}
