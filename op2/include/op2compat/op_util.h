/*
 * op_util.h - of OP2's utility header, what its applications use:
 * compute_local_size (the share of a set one process declares, as the suite's
 * op_slice deals it) and OP2's checked allocation calls under their other
 * names. The rest of OP2's header (sorting and searching helpers of its MPI
 * layer) is not here: docs/op2-library.md.
 */
#ifndef OP_UTIL_H
#define OP_UTIL_H

#include <stddef.h>

#include "op2.h"
#include "op2_slice.h"

/* Elements of a set of global_size that process mpi_rank of mpi_comm_size
 * declares: balanced, the first global_size % mpi_comm_size one more. */
static inline int compute_local_size(int global_size, int mpi_comm_size, int mpi_rank) {
  return (int)op_slice_count(global_size, mpi_comm_size, mpi_rank);
}

static inline void *xmalloc(size_t size) { return op_malloc(size); }
static inline void *xcalloc(size_t number, size_t size) { return op_calloc(number, size); }
static inline void *xrealloc(void *ptr, size_t size) { return op_realloc(ptr, size); }

#endif /* OP_UTIL_H */
