/* op_mpi_dist.c - rows to computed destinations, owner look-ups, sorting helpers. */
#include "op_mpi_dist.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "op_mpi_check.h"
#include "op_mpi_mesh.h" /* op_mpi_slice_owner */

int op_mpi_cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int op_mpi_cmp_int2(const void *a, const void *b) {
  const int *x = a, *y = b;
  if (x[0] != y[0]) return (x[0] > y[0]) - (x[0] < y[0]);
  return (x[1] > y[1]) - (x[1] < y[1]);
}

void op_mpi_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  if (n > 1) qsort(base, n, size, cmp); /* base may be NULL when n is 0 */
}

int op_mpi_sort_unique(int *v, int n) {
  if (n <= 1) return n;
  op_mpi_qsort(v, (size_t)n, sizeof *v, op_mpi_cmp_int);
  int k = 1;
  for (int i = 1; i < n; i++)
    if (v[i] != v[k - 1]) v[k++] = v[i];
  return k;
}

size_t op_mpi_sort_unique_pairs(int *pairs, size_t n) {
  op_mpi_qsort(pairs, n, 2 * sizeof(int), op_mpi_cmp_int2);
  size_t k = 0;
  for (size_t q = 0; q < n; q++)
    if (k == 0 || pairs[2 * q] != pairs[2 * k - 2] || pairs[2 * q + 1] != pairs[2 * k - 1]) {
      pairs[2 * k] = pairs[2 * q];
      pairs[2 * k++ + 1] = pairs[2 * q + 1];
    }
  return k;
}

int op_mpi_batches(MPI_Comm comm, int nrows) {
  int mine = (nrows + OP_MPI_BATCH_ROWS - 1) / OP_MPI_BATCH_ROWS, all = 0;
  OP_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, comm));
  return all;
}

void op_mpi_batch(int b, int nrows, int *r0, int *r1) {
  long long lo = (long long)b * OP_MPI_BATCH_ROWS, hi = lo + OP_MPI_BATCH_ROWS;
  *r0 = (int)(lo < nrows ? lo : nrows);
  *r1 = (int)(hi < nrows ? hi : nrows);
}

int op_mpi_bsearch(const int *v, int n, int key) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (v[mid] < key) lo = mid + 1;
    else if (v[mid] > key) hi = mid - 1;
    else return mid;
  }
  return -1;
}

void op_mpi_group_by_dest(int n, const int *dest, int nprocs, int *order, int *counts) {
  int *next = op_mpi_zalloc(int, nprocs);
  for (int r = 0; r < nprocs; r++) counts[r] = 0;
  for (int i = 0; i < n; i++) {
    if (dest[i] < 0 || dest[i] >= nprocs)
      op_mpi_fatal("internal error: destination %d of item %d outside [0, %d)", dest[i], i, nprocs);
    counts[dest[i]]++;
  }
  for (int r = 1; r < nprocs; r++) next[r] = next[r - 1] + counts[r - 1];
  for (int i = 0; i < n; i++) order[next[dest[i]]++] = i;
  free(next);
}

/* Displacements (in rows) from counts; the total must fit in an int. */
static int displs_from_counts(const int *counts, int nprocs, int *displs, const char *what) {
  long long total = 0;
  for (int r = 0; r < nprocs; r++) {
    displs[r] = (int)total;
    total += counts[r];
    if (total > INT_MAX)
      op_mpi_fatal("more than %d rows to %s in one exchange: the mesh is too large for one "
                   "process (use more processes)",
                   INT_MAX, what);
  }
  return (int)total;
}

int op_mpi_alltoallv_rows(MPI_Comm comm, const void *send, const int *counts, size_t row_bytes,
                          void **recv, int **recv_counts) {
  int nprocs;
  OP_MPI_CHECK(MPI_Comm_size(comm, &nprocs));
  if (row_bytes > INT_MAX) op_mpi_fatal("internal error: a row of %zu bytes", row_bytes);
  int *rcounts = op_mpi_alloc(int, nprocs);
  int *sdispls = op_mpi_alloc(int, nprocs);
  int *rdispls = op_mpi_alloc(int, nprocs);
  OP_MPI_CHECK(MPI_Alltoall(counts, 1, MPI_INT, rcounts, 1, MPI_INT, comm));
  displs_from_counts(counts, nprocs, sdispls, "send");
  int nrecv = displs_from_counts(rcounts, nprocs, rdispls, "receive");
  char *rbuf = op_mpi_alloc(char, (size_t)nrecv * row_bytes);
  if (row_bytes > 0) {
    MPI_Datatype row;
    OP_MPI_CHECK(MPI_Type_contiguous((int)row_bytes, MPI_BYTE, &row));
    OP_MPI_CHECK(MPI_Type_commit(&row));
    OP_MPI_CHECK(MPI_Alltoallv(send, counts, sdispls, row, rbuf, rcounts, rdispls, row, comm));
    OP_MPI_CHECK(MPI_Type_free(&row));
  }
  free(sdispls);
  free(rdispls);
  *recv = rbuf;
  if (recv_counts) *recv_counts = rcounts;
  else free(rcounts);
  return nrecv;
}

void op_mpi_lookup(MPI_Comm comm, const int *starts, const int *values, int n, const int *g,
                   int *out) {
  int nprocs, rank;
  OP_MPI_CHECK(MPI_Comm_size(comm, &nprocs));
  OP_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  if (nprocs == 1) { /* everything is here: no copies (the partition model's big meshes) */
    for (int i = 0; i < n; i++) {
      if (g[i] < starts[0] || g[i] >= starts[1])
        op_mpi_fatal("internal error: look-up of global number %d outside [0, %d)", g[i], starts[1]);
      out[i] = values[g[i] - starts[0]];
    }
    return;
  }
  int *dest = op_mpi_alloc(int, n);
  for (int i = 0; i < n; i++) dest[i] = op_mpi_slice_owner(starts, nprocs, g[i]);
  int *order = op_mpi_alloc(int, n);
  int *counts = op_mpi_alloc(int, nprocs);
  op_mpi_group_by_dest(n, dest, nprocs, order, counts);
  int *query = op_mpi_alloc(int, n);
  for (int k = 0; k < n; k++) query[k] = g[order[k]];
  int *asked = NULL, *asked_counts = NULL;
  int nasked = op_mpi_alltoallv_rows(comm, query, counts, sizeof(int), (void **)&asked, &asked_counts);
  /* Answer from this process's slice. */
  int lo = starts[rank], hi = starts[rank + 1];
  for (int k = 0; k < nasked; k++) {
    if (asked[k] < lo || asked[k] >= hi)
      op_mpi_fatal("internal error: look-up of global number %d on the process holding [%d, %d)",
                   asked[k], lo, hi);
    asked[k] = values[asked[k] - lo];
  }
  int *answers = NULL;
  op_mpi_alltoallv_rows(comm, asked, asked_counts, sizeof(int), (void **)&answers, NULL);
  for (int k = 0; k < n; k++) out[order[k]] = answers[k];
  free(dest);
  free(order);
  free(counts);
  free(query);
  free(asked);
  free(asked_counts);
  free(answers);
}
