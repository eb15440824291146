/* RW direct: v = 2 v + 1 (float). */
static inline void scale_rw(float *v) {
  v[0] = 2.0f * v[0] + 1.0f;
  v[1] = 2.0f * v[1] + 1.0f;
}
