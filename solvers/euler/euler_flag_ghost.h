/*
 * euler_flag_ghost.h - kernel: a ghost cell takes the positivity flag of its
 * source cell, so that with periodic sides the two copies of a boundary face
 * (west of the first column, east of the last) are fixed together and stay
 * equal.
 */
static inline void euler_flag_ghost(const int *src, int *dst) { dst[0] = src[0]; }
