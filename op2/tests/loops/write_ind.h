/* WRITE and RW through a map: each edge writes its first node and doubles
 * the second (edges of one colour touch distinct nodes). */
static inline void write_ind(const double *w, double *first, double *second) {
  *first = *w;
  *second = 2.0 * *second;
}
