/* record_idx: a cell's own number as op_arg_idx gives it, and the number of
 * its first neighbour through the map. */
static inline void record_idx(const int *self, const int *first, int *out) {
  out[0] = self[0];
  out[1] = first[0];
}
