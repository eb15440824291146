/*
 * op_mpi_reduce.h - global reductions that give the same bits every run.
 *
 * A loop's backend leaves one partial per block (the shared-memory backends
 * already combine per-block partials in block order: op_reduce_blocks_* in
 * op2/core). Here every process's block partials are gathered, in rank
 * order, to every process, which combines them into gbl in that fixed order:
 * rank 0's blocks, then rank 1's, and so on, with the same arithmetic as the
 * shared-memory combination. So the result is the same on every process and
 * in every run on a given number of processes, and on one process it is the
 * seq backend's, bit for bit. (MPI_Allreduce promises neither: its order of
 * additions depends on the algorithm the library picks.)
 */
#ifndef OP_MPI_REDUCE_H
#define OP_MPI_REDUCE_H

#include <mpi.h>

#include "op2.h" /* op_type, op_access */

#ifdef __cplusplus
extern "C" {
#endif

/* gbl (dim values of type) holds the value before the loop on entry and the
 * combined value on return, on every process; part holds this process's
 * nblocks * dim block partials (OP_INC: partial sums; OP_MIN/OP_MAX: partial
 * extrema). acc: OP_INC, OP_MIN or OP_MAX. Collective over comm. */
void op_mpi_reduce_blocks(MPI_Comm comm, op_type type, op_access acc, void *gbl, const void *part,
                          int nblocks, int dim);

#ifdef __cplusplus
}
#endif

#endif /* OP_MPI_REDUCE_H */
