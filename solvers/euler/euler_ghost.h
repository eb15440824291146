/*
 * euler_ghost.h - kernel: fills one ghost cell from its source cell.
 *
 * Loop over a set of ghost cells: src is the source cell (through the
 * ghost -> source map of the side's boundary condition), dst the ghost cell
 * itself, flip the momentum component to negate: 0 for none (transmissive
 * and periodic sides), 1 (x-momentum) on a reflective left/right wall,
 * 2 (y-momentum) on a reflective bottom/top wall.
 */
static inline void euler_ghost(const double *src, double *dst, const int *flip) {
  dst[0] = src[0];
  dst[1] = src[1];
  dst[2] = src[2];
  dst[3] = src[3];
  if (flip[0] > 0) dst[flip[0]] = -src[flip[0]];
}
