/*
 * op_omp_threads.h - the OpenMP thread count of the backends that run OpenMP
 * threads on the host (openmp, and offload when it runs on the host):
 * --op-threads=N, else OMP_NUM_THREADS checked before OpenMP reads it.
 */
#ifndef OP_OMP_THREADS_H
#define OP_OMP_THREADS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Reads --op-threads=N into *threads; returns 1 when arg was that option
 * (fatal on a bad value), 0 otherwise. */
int op_omp_threads_option(const char *arg, int *threads);
/* Sets the thread count (threads > 0), or refuses an OMP_NUM_THREADS that
 * OpenMP would only warn about. */
void op_omp_threads_apply(int threads);

/* The library's own work (plans, declarations; op_parallel.h) over the
 * OpenMP threads: thread t takes the t-th of equal contiguous pieces, as a
 * static schedule gives the loops' blocks, so that the data a thread first
 * touches is the data its loops will use. Backends register it at op_init
 * with op_set_parallel_for. */
void op_omp_parallel_for(long n, void (*fn)(long lo, long hi, void *ctx), void *ctx);

#define OP_OMP_THREADS_USAGE \
  "  --op-threads=N      OpenMP threads (default: OMP_NUM_THREADS or all cores)\n"

#ifdef __cplusplus
}
#endif

#endif
