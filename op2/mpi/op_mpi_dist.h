/*
 * op_mpi_dist.h - the communication patterns the MPI layer is built from
 * (private to op2/mpi): rows sent to computed destinations, and look-ups of
 * values held by the process whose slice holds a global number.
 *
 * Every pattern is deterministic: rows arrive grouped by source rank in rank
 * order, and within a source in the order the source listed them.
 */
#ifndef OP_MPI_DIST_H
#define OP_MPI_DIST_H

#include <mpi.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Sends, to each process r, counts[r] rows of row_bytes bytes taken in order
 * from send (grouped by destination, destinations ascending). Returns the
 * rows received (grouped by source, ascending) in a malloc'd *recv; the rows
 * from each source are counted in recv_counts (nprocs entries, malloc'd)
 * when recv_counts is not NULL. Returns the number of rows received. */
int op_mpi_alltoallv_rows(MPI_Comm comm, const void *send, const int *counts, size_t row_bytes,
                          void **recv, int **recv_counts);

/* A permutation grouping items by destination: items i with dest[i] == r come
 * out in their original order, destinations ascending. order[k] is the item
 * at position k; counts (nprocs) how many go to each process. */
void op_mpi_group_by_dest(int n, const int *dest, int nprocs, int *order, int *counts);

/* For each of the n global numbers g[i] (of a set whose slices start at
 * starts, nprocs + 1 entries), out[i] = values[g[i] - start] as held by the
 * process whose slice holds g[i] (values: that process's slice array). */
void op_mpi_lookup(MPI_Comm comm, const int *starts, const int *values, int n, const int *g,
                   int *out);

/* qsort, for any n (base may be NULL when n is 0). */
void op_mpi_qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* qsort comparators. */
int op_mpi_cmp_int(const void *a, const void *b);
int op_mpi_cmp_int2(const void *a, const void *b); /* pairs (int[2]), lexicographic */

/* Sorts (a, b) pairs and removes repeated ones; returns the new count. */
size_t op_mpi_sort_unique_pairs(int *pairs, size_t n);

/* Rows of a big slice are handled in batches of OP_MPI_BATCH_ROWS, so that no
 * process has more than a batch of rows in flight. op_mpi_batches is
 * collective: every process runs the largest number any process needs;
 * op_mpi_batch gives batch b's rows [r0, r1) (empty past the end). */
enum { OP_MPI_BATCH_ROWS = 1 << 15 };
int op_mpi_batches(MPI_Comm comm, int nrows);
void op_mpi_batch(int b, int nrows, int *r0, int *r1);

/* Sorts and removes duplicates; returns the new length. */
int op_mpi_sort_unique(int *v, int n);
/* Index of key in the ascending array v of n, or -1. */
int op_mpi_bsearch(const int *v, int n, int key);

#ifdef __cplusplus
}
#endif

#endif /* OP_MPI_DIST_H */
