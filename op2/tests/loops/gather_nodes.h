/* READ indirect, WRITE direct: the sum of an edge's node values, and the
 * index of its second node (op_arg_idx through a map). */
static inline void gather_nodes(const double *a, const double *b, const int *second, double *s,
                                int *which) {
  *s = *a + *b;
  *which = *second;
}
