/* op_mpi_reduce.c - a loop's reductions combined in rank order on every process. */
#include "op_mpi_reduce.h"

#include <stdlib.h>
#include <string.h>

#include "op_io_util.h" /* op_io_type_size */
#include "op_mpi_check.h"

/* Every value at a multiple of 8 bytes in a process's record, so that a
 * double after an int is read aligned. */
static size_t padded(size_t bytes) { return (bytes + 7) / 8 * 8; }

void op_mpi_reduce(MPI_Comm comm, int n, op_mpi_reduction *r) {
  int nprocs;
  OP_MPI_CHECK(MPI_Comm_size(comm, &nprocs));
  if (nprocs == 1 || n == 0) return;
  size_t rec = 0;
  for (int i = 0; i < n; i++) {
    const size_t t = op_io_type_size(r[i].type);
    if (r[i].acc != OP_INC && r[i].acc != OP_MIN && r[i].acc != OP_MAX)
      op_mpi_fatal("reduction with access mode %d: only OP_INC, OP_MIN and OP_MAX reduce", (int)r[i].acc);
    if (t == 0 || r[i].dim < 1 || r[i].ninfo < 0 || r[i].ninfo > OP_MAX_GBL_DIM ||
        (r[i].ninfo && r[i].acc == OP_INC))
      op_mpi_fatal("reduction of type %d, dim %d, %d info values: invalid", (int)r[i].type, r[i].dim,
                   r[i].ninfo);
    rec += padded(t * (size_t)r[i].dim);
    for (int j = 0; j < r[i].ninfo; j++) rec += padded((size_t)r[i].info_bytes[j] * (size_t)r[i].dim);
  }
  if (rec > 0x7fffffff) op_mpi_fatal("reductions of %zu bytes: at most 2 GB", rec);
  char *mine = op_mpi_zalloc(char, rec), *all = op_mpi_alloc(char, rec * (size_t)nprocs);
  size_t at = 0;
  for (int i = 0; i < n; i++) {
    const size_t vb = op_io_type_size(r[i].type) * (size_t)r[i].dim;
    memcpy(mine + at, r[i].value, vb);
    at += padded(vb);
    for (int j = 0; j < r[i].ninfo; j++) {
      const size_t ib = (size_t)r[i].info_bytes[j] * (size_t)r[i].dim;
      memcpy(mine + at, r[i].info[j], ib);
      at += padded(ib);
    }
  }
  OP_MPI_CHECK(MPI_Allgather(mine, (int)rec, MPI_BYTE, all, (int)rec, MPI_BYTE, comm));
  at = 0;
  for (int i = 0; i < n; i++) {
    const size_t vb = op_io_type_size(r[i].type) * (size_t)r[i].dim, v_at = at;
    size_t info_at[OP_MAX_GBL_DIM];
    at += padded(vb);
    for (int j = 0; j < r[i].ninfo; j++) {
      info_at[j] = at;
      at += padded((size_t)r[i].info_bytes[j] * (size_t)r[i].dim);
    }
    /* The root's record first, then each rank's, as blocks are combined. */
    memcpy(r[i].value, all + v_at, vb);
    char *info[OP_MAX_GBL_DIM];
    for (int j = 0; j < r[i].ninfo; j++) {
      memcpy(r[i].info[j], all + info_at[j], (size_t)r[i].info_bytes[j] * (size_t)r[i].dim);
      info[j] = r[i].info[j];
    }
    for (int p = 1; p < nprocs; p++) {
      const char *rec_p = all + (size_t)p * rec, *v = rec_p + v_at;
      const char *info_part[OP_MAX_GBL_DIM];
      for (int j = 0; j < r[i].ninfo; j++) info_part[j] = rec_p + info_at[j];
      const int k = r[i].ninfo, d = r[i].dim;
      switch (r[i].type) {
        case OP_TYPE_DOUBLE:
          if (k) op_reduce_blocks_info_double(r[i].acc, r[i].value, (const double *)v, 1, d, k, info, info_part, r[i].info_bytes);
          else op_reduce_blocks_double(r[i].acc, r[i].value, (const double *)v, 1, d);
          break;
        case OP_TYPE_FLOAT:
          if (k) op_reduce_blocks_info_float(r[i].acc, r[i].value, (const float *)v, 1, d, k, info, info_part, r[i].info_bytes);
          else op_reduce_blocks_float(r[i].acc, r[i].value, (const float *)v, 1, d);
          break;
        case OP_TYPE_INT:
          if (k) op_reduce_blocks_info_int(r[i].acc, r[i].value, (const int *)v, 1, d, k, info, info_part, r[i].info_bytes);
          else op_reduce_blocks_int(r[i].acc, r[i].value, (const int *)v, 1, d);
          break;
      }
    }
  }
  free(mine);
  free(all);
}
