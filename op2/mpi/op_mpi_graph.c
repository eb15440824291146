/*
 * op_mpi_graph.c - the graph PT-Scotch partitions, built from a map held in
 * slices: two elements of map->to are adjacent when one row of the map holds
 * both (for airfoil's edge -> cell map: the cells sharing an edge).
 *
 * Each row is sent, once per entry, to the process whose slice holds that
 * entry, which adds the row's other entries to the entry's neighbours. Rows go
 * in batches, so that no process holds more than a batch of rows in flight:
 * a first pass counts (an upper bound per element), a second fills the lists
 * without repeats, then they are compacted and sorted.
 */
#include <stdlib.h>
#include <string.h>

#include "op_mpi_check.h"
#include "op_mpi_dist.h"
#include "op_mpi_partition.h"

/* Sends, for rows [r0, r1) of the slice, one record per entry to the process
 * holding that entry: the entry first, then the row in full (the receiver
 * skips the entry itself). Returns the records received (dim + 1 ints each). */
static int send_records(op_mpi_mesh m, op_mpi_map map, int r0, int r1, int **recv) {
  int dim = map->dim, n = (r1 - r0) * dim, rec = dim + 1;
  const int *starts = map->to->slice_starts;
  int *dest = op_mpi_alloc(int, n), *order = op_mpi_alloc(int, n);
  int *counts = op_mpi_alloc(int, m->nprocs);
  for (int k = 0; k < n; k++)
    dest[k] = op_mpi_slice_owner(starts, m->nprocs, map->slice[(size_t)r0 * dim + k]);
  op_mpi_group_by_dest(n, dest, m->nprocs, order, counts);
  int *buf = op_mpi_alloc(int, (size_t)n * rec);
  for (int k = 0; k < n; k++) {
    int row = r0 + order[k] / dim, j = order[k] % dim;
    const int *src = map->slice + (size_t)row * dim;
    int *out = buf + (size_t)k * rec;
    out[0] = src[j];
    memcpy(out + 1, src, (size_t)dim * sizeof(int));
  }
  int got = op_mpi_alltoallv_rows(m->comm, buf, counts, (size_t)rec * sizeof(int), (void **)recv, NULL);
  free(dest);
  free(order);
  free(counts);
  free(buf);
  return got;
}

void op_mpi_graph_build(op_mpi_mesh m, op_mpi_map map, int **xadj_out, int **adjncy_out) {
  if (!map->slice) op_mpi_fatal("map '%s': its rows are no longer held in slices", map->name);
  op_mpi_set to = map->to;
  int nloc = to->slice_size, lo = to->slice_start, dim = map->dim, rec = dim + 1;
  int nrows = map->from->slice_size, nb = op_mpi_batches(m->comm, nrows);
  long long *bound = op_mpi_zalloc(long long, nloc + 1);

  /* Pass 1: an upper bound on each element's neighbours. */
  for (int b = 0; b < nb; b++) {
    int r0, r1, *recv = NULL;
    op_mpi_batch(b, nrows, &r0, &r1);
    int got = send_records(m, map, r0, r1, &recv);
    for (int k = 0; k < got; k++) bound[recv[(size_t)k * rec] - lo] += dim - 1;
    free(recv);
  }
  long long total = 0;
  for (int v = 0; v < nloc; v++) {
    long long c = bound[v];
    bound[v] = total;
    total += c;
  }
  bound[nloc] = total;
  if (total > 0x7fffffffLL)
    op_mpi_fatal("the graph of map '%s' has %lld arcs on one process, more than an int counts: "
                 "use more processes",
                 map->name, total);
  int *adj = op_mpi_alloc(int, total);
  int *fill = op_mpi_zalloc(int, nloc);

  /* Pass 2: each row's other entries, without repeats or self loops. */
  for (int b = 0; b < nb; b++) {
    int r0, r1, *recv = NULL;
    op_mpi_batch(b, nrows, &r0, &r1);
    int got = send_records(m, map, r0, r1, &recv);
    for (int k = 0; k < got; k++) {
      const int *r = recv + (size_t)k * rec;
      int v = r[0] - lo;
      int *list = adj + bound[v];
      for (int j = 1; j <= dim; j++) {
        int u = r[j], seen = (u == r[0]);
        for (int q = 0; q < fill[v] && !seen; q++) seen = (list[q] == u);
        if (!seen) list[fill[v]++] = u;
      }
    }
    free(recv);
  }

  /* Compact in place (lists only move towards the front) and sort. */
  int *xadj = op_mpi_alloc(int, nloc + 1);
  int pos = 0;
  for (int v = 0; v < nloc; v++) {
    xadj[v] = pos;
    memmove(adj + pos, adj + bound[v], (size_t)fill[v] * sizeof(int));
    op_mpi_qsort(adj + pos, (size_t)fill[v], sizeof(int), op_mpi_cmp_int);
    pos += fill[v];
  }
  xadj[nloc] = pos;
  free(bound);
  free(fill);
  *xadj_out = xadj;
  *adjncy_out = op_mpi_grow(int, adj, pos);
}

/* ---- a graph given by a function (a structured grid's) ----------------------------- */

void op_mpi_graph_from_fn(op_mpi_set s, int max_adjacent, int (*adjacent)(int g, int *out, void *ctx),
                          void *ctx, int **xadj_out, int **adjncy_out) {
  /* Two calls per element (count, then fill) so that the lists take exactly
   * their size: nothing is exchanged, and no row is held twice. */
  int n = s->slice_size, *buf = op_mpi_alloc(int, max_adjacent);
  int *xadj = op_mpi_alloc(int, n + 1);
  long long total = 0;
  for (int i = 0; i < n; i++) {
    const int g = s->slice_start + i, k = adjacent(g, buf, ctx);
    if (k < 0 || k > max_adjacent)
      op_mpi_fatal("set '%s': element %d has %d adjacent elements, outside [0, %d]", s->name, g, k,
                   max_adjacent);
    xadj[i] = (int)total;
    total += k;
    if (total > 0x7fffffffLL)
      op_mpi_fatal("the graph of set '%s' has %lld arcs on one process, more than an int counts: "
                   "use more processes", s->name, total);
  }
  xadj[n] = (int)total;
  int *adj = op_mpi_alloc(int, total + 1);
  for (int i = 0; i < n; i++) {
    const int g = s->slice_start + i, k = adjacent(g, adj + xadj[i], ctx);
    if (k != xadj[i + 1] - xadj[i])
      op_mpi_fatal("set '%s': element %d gave %d adjacent elements, then %d", s->name, g,
                   xadj[i + 1] - xadj[i], k);
    for (int j = 0; j < k; j++) {
      const int h = adj[xadj[i] + j];
      if (h < 0 || h >= s->global_size || h == g)
        op_mpi_fatal("set '%s': element %d is adjacent to %d, %s", s->name, g, h,
                     h == g ? "itself" : "outside the set");
    }
    op_mpi_qsort(adj + xadj[i], (size_t)k, sizeof(int), op_mpi_cmp_int);
  }
  free(buf);
  *xadj_out = xadj;
  *adjncy_out = adj;
}
