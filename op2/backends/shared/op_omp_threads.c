/* op_omp_threads.c - see op_omp_threads.h. */
#include "op_omp_threads.h"

#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "op2_error.h"
#include "op_text.h"

/* OMP_NUM_THREADS as OpenMP reads it: positive integers, comma-separated
 * (one per nesting level), blanks around them allowed. */
static int valid_thread_list(const char *s) {
  int numbers = 0;
  for (;;) {
    while (*s == ' ' || *s == '\t') s++;
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v < 1 || v > 1000000) return 0;
    numbers++;
    s = end;
    while (*s == ' ' || *s == '\t') s++;
    if (*s == '\0') return numbers > 0;
    if (*s++ != ',') return 0;
  }
}

void op_omp_threads_apply(int threads) {
  if (threads > 0) {
    omp_set_num_threads(threads);
    return;
  }
  /* The OpenMP runtime only warns about a bad value and runs on all cores:
   * a typo in a job script would go unnoticed. */
  const char *env = getenv("OMP_NUM_THREADS");
  if (env && *env && !valid_thread_list(env)) {
    char shown[64];
    op_fatal("environment variable OMP_NUM_THREADS=\"%s\" is not a positive integer (or a "
             "comma-separated list of them): set it right, unset it, or give --op-threads=N",
             op_text_shown(shown, sizeof shown, env));
  }
}

int op_omp_threads_option(const char *arg, int *threads) {
  if (strncmp(arg, "--op-threads=", 13) != 0) return 0;
  char *end;
  long v = strtol(arg + 13, &end, 10);
  if (end == arg + 13 || *end || v < 1 || v > 4096)
    op_fatal("option %s: the thread count must be an integer in [1, 4096]", arg);
  *threads = (int)v;
  return 1;
}

void op_omp_parallel_for(long n, void (*fn)(long lo, long hi, void *ctx), void *ctx) {
#pragma omp parallel
  {
    const long t = omp_get_thread_num(), nt = omp_get_num_threads();
    const long lo = n * t / nt, hi = n * (t + 1) / nt;
    if (lo < hi) fn(lo, hi, ctx);
  }
}
