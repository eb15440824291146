/*
 * op_backend_openmp.c - the OpenMP backend: host memory, the blocks of one
 * colour shared among threads (Giles, OP2 Developers Guide, 2011, section 7). Thread count from
 * OMP_NUM_THREADS or --op-threads=N.
 */
#include <omp.h>

#include "op2.h"
#include "op2_loop.h"
#include "op2_parallel.h"
#include "op2_state.h"
#include "op_omp_threads.h"

static int requested_threads;

const char *op_backend_name(void) { return "openmp"; }
int op_num_threads(void) { return omp_get_max_threads(); }

void op_backend_init(void) {
  op_set_parallel_for(op_omp_parallel_for);
  op_omp_threads_apply(requested_threads);
}
void op_backend_exit(void) {}
int op_backend_default_part_size(void) { return OP_CPU_PART_SIZE; }

int op_omp_chunk(int count) {
  const long pieces = (long)op_thread_spread() * omp_get_max_threads();
  const long chunk = (count + pieces - 1) / pieces;
  return chunk > 0 ? (int)chunk : 1;
}

int op_backend_option(const char *arg) { return op_omp_threads_option(arg, &requested_threads); }
const char *op_backend_usage(void) { return OP_OMP_THREADS_USAGE; }
void op_backend_dat_to_host(op_dat dat) {}
void op_backend_dat_declared(op_dat dat) {}
void op_backend_dat_freed(op_dat dat) {}
void op_backend_const_declared(const char *name, const void *data, size_t bytes) {}
