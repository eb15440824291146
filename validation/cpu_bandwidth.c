/*
 * op2-cpu-bandwidth - a STREAM-like copy: b[i] = a[i] over arrays much larger
 * than the caches, with OpenMP threads, best of several repetitions. Bytes
 * counted as STREAM does: 16 per element (one read, one write). The floor
 * for a memory-bound loop is its bytes divided by this bandwidth.
 *
 *   op2-cpu-bandwidth [MiB per array, default 512] [repetitions, default 10]
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_version.h"

int main(int argc, char **argv) {
  if (op_asks_version(argc, argv)) {
    op_print_version("op2-cpu-bandwidth");
    return 0;
  }
  if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    printf("usage: op2-cpu-bandwidth [MiB per array >= 1, default 512] [repetitions >= 1, "
           "default 10]\n"
           "  A STREAM-like copy b[i] = a[i] with OpenMP threads, best of the repetitions;\n"
           "  16 bytes counted per element. Set OMP_NUM_THREADS for the threads.\n");
    return 0;
  }
  long mib = argc > 1 ? atol(argv[1]) : 512;
  int reps = argc > 2 ? atoi(argv[2]) : 10;
  if (mib < 1 || reps < 1) {
    fprintf(stderr, "usage: op2-cpu-bandwidth [MiB per array >= 1] [repetitions >= 1]\n");
    return 2;
  }
  size_t n = (size_t)mib * 1024 * 1024 / sizeof(double);
  double *a = malloc(n * sizeof(double)), *b = malloc(n * sizeof(double));
  if (!a || !b) {
    fprintf(stderr, "op2-cpu-bandwidth: cannot allocate 2 x %ld MiB\n", mib);
    return 1;
  }
#pragma omp parallel for schedule(static)
  for (size_t i = 0; i < n; i++) a[i] = (double)i, b[i] = 0.0;
  double best = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
    for (size_t i = 0; i < n; i++) b[i] = a[i];
    double t = omp_get_wtime() - t0;
    if (t < best) best = t;
  }
  double check = 0.0;
  for (size_t i = 0; i < n; i += n / 16 + 1) check += b[i] - a[i];
  printf("copy: %d thread(s), 2 x %ld MiB, best of %d: %.4f s, %.2f GB/s%s\n",
         omp_get_max_threads(), mib, reps, best, 16.0 * (double)n / best * 1e-9,
         check == 0.0 ? "" : " (copy check FAILED)");
  free(a);
  free(b);
  return check == 0.0 ? 0 : 1;
}
