/*
 * op_mpi_reduce.h - a loop's reductions over the processes, the same bits
 * every run.
 *
 * The shared-memory backend leaves in each reduced global this process's
 * value, its blocks already combined in block order (op_reduce_blocks_* in
 * op2/core). Here every process's values are gathered, in rank order, to
 * every process, which combines them with the same arithmetic, ranks taking
 * the place of blocks: rank 0's value, then rank 1's, and so on. So the
 * result is the same on every process and in every run on a given number of
 * processes, and on one process it is the loop's own value. (MPI_Allreduce
 * promises neither: its order of additions is the library's choice.)
 *
 * For a sum the caller starts every process but the root from zero, so that
 * the value the global held before the loop is counted once (the root's).
 * MIN and MAX carry their op_arg_info values: of processes that tie, the
 * first strictly better wins, as between blocks.
 */
#ifndef OP_MPI_REDUCE_H
#define OP_MPI_REDUCE_H

#include <mpi.h>

#include "op2.h"      /* op_type, op_access */
#include "op2_loop.h" /* OP_MAX_GBL_DIM */

#ifdef __cplusplus
extern "C" {
#endif

/* One reduced global of a loop, and the op_arg_info values travelling with it. */
typedef struct {
  op_type type;
  op_access acc; /* OP_INC, OP_MIN or OP_MAX */
  int dim;
  void *value;   /* dim values: this process's on entry, the combination on return */
  int ninfo;     /* MIN/MAX only */
  void *info[OP_MAX_GBL_DIM];
  int info_bytes[OP_MAX_GBL_DIM]; /* bytes of one component of info[j] (dim components) */
} op_mpi_reduction;

/* Combines n reductions over comm (one gather for all of them). Collective. */
void op_mpi_reduce(MPI_Comm comm, int n, op_mpi_reduction *r);

#ifdef __cplusplus
}
#endif

#endif /* OP_MPI_REDUCE_H */
