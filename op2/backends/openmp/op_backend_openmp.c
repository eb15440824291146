/*
 * op_backend_openmp.c - the OpenMP backend: host memory, the blocks of one
 * colour shared among threads (seed 000 section 7). Thread count from
 * OMP_NUM_THREADS or --op-threads=N.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op2_parallel.h"
#include "op2_state.h"
#include "op_text.h"

static int requested_threads;

const char *op_backend_name(void) { return "openmp"; }
int op_num_threads(void) { return omp_get_max_threads(); }

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

/* The library's own work (plans, declarations): thread t takes the t-th of
 * equal contiguous pieces, as a static schedule gives the loops' blocks, so
 * that the data a thread first touches is the data its loops will use. */
static void parallel_for(long n, op_range_fn fn, void *ctx) {
#pragma omp parallel
  {
    const long t = omp_get_thread_num(), nt = omp_get_num_threads();
    const long lo = n * t / nt, hi = n * (t + 1) / nt;
    if (lo < hi) fn(lo, hi, ctx);
  }
}

void op_backend_init(void) {
  op_set_parallel_for(parallel_for);
  if (requested_threads > 0) {
    omp_set_num_threads(requested_threads);
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
void op_backend_exit(void) {}
int op_backend_default_part_size(void) { return OP_CPU_PART_SIZE; }

int op_backend_option(const char *arg) {
  if (strncmp(arg, "--op-threads=", 13) != 0) return 0;
  char *end;
  long v = strtol(arg + 13, &end, 10);
  if (end == arg + 13 || *end || v < 1 || v > 4096)
    op_fatal("option %s: the thread count must be an integer in [1, 4096]", arg);
  requested_threads = (int)v;
  return 1;
}
const char *op_backend_usage(void) {
  return "  --op-threads=N      OpenMP threads (default: OMP_NUM_THREADS or all cores)\n";
}
void op_backend_dat_to_host(op_dat dat) {}
void op_backend_dat_declared(op_dat dat) {}
void op_backend_const_declared(const char *name, const void *data, size_t bytes) {}
