/* heat_copy: dst = src on every cell (ghosts included), used to bring the
 * solution back into the dat named "u" before it is written out. */
static inline void heat_copy(const double *src, double *dst) { dst[0] = src[0]; }
