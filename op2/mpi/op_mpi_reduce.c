/* op_mpi_reduce.c - reductions combined in a fixed order on every process. */
#include "op_mpi_reduce.h"

#include <limits.h>
#include <stdlib.h>

#include "op2_loop.h"   /* op_reduce_blocks_*: the shared-memory backends' combination */
#include "op_io_util.h" /* op_io_type_size */
#include "op_mpi_check.h"


void op_mpi_reduce_blocks(MPI_Comm comm, op_type type, op_access acc, void *gbl, const void *part,
                          int nblocks, int dim) {
  if (acc != OP_INC && acc != OP_MIN && acc != OP_MAX)
    op_mpi_fatal("reduction with access mode %d: only OP_INC, OP_MIN and OP_MAX reduce", (int)acc);
  size_t tsize = op_io_type_size(type);
  if (tsize == 0 || dim < 1 || nblocks < 0)
    op_mpi_fatal("reduction of type %d, dim %d, %d blocks: invalid", (int)type, dim, nblocks);
  int nprocs;
  OP_MPI_CHECK(MPI_Comm_size(comm, &nprocs));
  int *counts = op_mpi_alloc(int, nprocs), *displs = op_mpi_alloc(int, nprocs);
  OP_MPI_CHECK(MPI_Allgather(&nblocks, 1, MPI_INT, counts, 1, MPI_INT, comm));
  long long total = 0;
  for (int r = 0; r < nprocs; r++) {
    displs[r] = (int)total;
    total += counts[r];
    if (total > INT_MAX) op_mpi_fatal("reduction: more than %d block partials", INT_MAX);
  }
  MPI_Datatype row;
  OP_MPI_CHECK(MPI_Type_contiguous((int)(tsize * (size_t)dim), MPI_BYTE, &row));
  OP_MPI_CHECK(MPI_Type_commit(&row));
  char *all = op_mpi_alloc(char, (size_t)total * tsize * (size_t)dim);
  OP_MPI_CHECK(MPI_Allgatherv(part, nblocks, row, all, counts, displs, row, comm));
  OP_MPI_CHECK(MPI_Type_free(&row));
  /* Every process's blocks, in rank order, combined as the seq backend combines its own. */
  switch (type) {
    case OP_TYPE_DOUBLE: op_reduce_blocks_double(acc, gbl, (const double *)all, (int)total, dim); break;
    case OP_TYPE_FLOAT: op_reduce_blocks_float(acc, gbl, (const float *)all, (int)total, dim); break;
    case OP_TYPE_INT: op_reduce_blocks_int(acc, gbl, (const int *)all, (int)total, dim); break;
  }
  free(all);
  free(counts);
  free(displs);
}
