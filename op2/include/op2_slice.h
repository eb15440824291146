/*
 * op2_slice.h - the balanced slices of n items over nparts parts: part r
 * owns the contiguous block [op_slice_first(n, nparts, r),
 * op_slice_first(n, nparts, r + 1)), of n / nparts items, the first
 * n % nparts parts one more. The one formula behind op_slice (the slice a
 * process declares), the MPI layer's slices and block partition, and the
 * mesh and matrix readers that read one part of a file: every one of them
 * must deal the same items to the same part.
 *
 * Header only, so that the readers below the library (meshes/, solvers/)
 * need not link it. The arithmetic is in long long: no intermediate exceeds
 * n, so any n >= 0 is exact, and an int n gives results that fit an int.
 * Callers check 1 <= nparts and 0 <= part <= nparts themselves.
 */
#ifndef OP2_SLICE_H
#define OP2_SLICE_H

/* The first item of part `part` (0 <= part <= nparts; part == nparts: n). */
static inline long long op_slice_first(long long n, int nparts, int part) {
  const long long base = n / nparts, extra = n % nparts;
  return part * base + (part < extra ? part : extra);
}

/* How many items part `part` owns (0 <= part < nparts). */
static inline long long op_slice_count(long long n, int nparts, int part) {
  return n / nparts + (part < n % nparts ? 1 : 0);
}

/* The part that owns item i (0 <= i < n): the inverse of op_slice_first. */
static inline int op_slice_owner(long long n, int nparts, long long i) {
  const long long base = n / nparts, extra = n % nparts, big = (base + 1) * extra;
  if (i < big) return (int)(i / (base + 1));
  return (int)(extra + (i - big) / base);
}

#endif /* OP2_SLICE_H */
