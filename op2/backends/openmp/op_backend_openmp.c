/*
 * op_backend_openmp.c - the OpenMP backend: host memory, the blocks of one
 * colour shared among threads (Giles, OP2 Developers Guide, 2011, section 7). Thread count from
 * OMP_NUM_THREADS or --op-threads=N; how idle threads wait, --op-wait
 * (op_omp_wait.h).
 */
#include <omp.h>

#include "op2.h"
#include "op2_loop.h"
#include "op_omp_threads.h"
#include "op_omp_wait.h"
#include "op_parallel.h"
#include "op_state.h"

static int requested_threads;
/* Checked here with the other options; applied before main (op_omp_wait.c). */
static op_omp_wait_option wait_option;

const char *op_backend_name(void) { return "openmp"; }
int op_num_threads(void) { return omp_get_max_threads(); }

void op_backend_init(void) {
  op_set_parallel_for(op_omp_parallel_for);
  op_omp_threads_apply(requested_threads);
  if (op_g.diags >= 2) op_printf("OpenMP threads wait: %s\n", op_omp_wait_text());
}

long op_omp_parallel_regions;

void op_backend_exit(void) {
  if (op_g.diags >= 2)
    op_printf("OpenMP: %ld parallel regions (each ending at a barrier) in the loops run\n",
              op_omp_parallel_regions);
  op_omp_parallel_regions = 0;
}
int op_backend_default_part_size(void) { return OP_CPU_PART_SIZE; }

int op_omp_chunk(int count) {
  const long pieces = (long)op_thread_spread() * omp_get_max_threads();
  const long chunk = (count + pieces - 1) / pieces;
  return chunk > 0 ? (int)chunk : 1;
}

int op_backend_option(const char *arg) {
  return op_omp_threads_option(arg, &requested_threads) ||
         op_omp_wait_option_parse(arg, &wait_option);
}
const char *op_backend_usage(void) { return OP_OMP_THREADS_USAGE OP_OMP_WAIT_USAGE; }
void op_backend_dat_to_host(op_dat dat) {}
void op_backend_dat_declared(op_dat dat) {}
void op_backend_dat_freed(op_dat dat) {}
void op_backend_const_declared(const char *name, const void *data, size_t bytes) {}
