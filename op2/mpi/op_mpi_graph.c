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

/* ---- a coarser graph for a big one -------------------------------------------------- */

/* PT-Scotch holds about 110 to 140 bytes for each vertex a process gives it
 * (measured on heat's grid, 2 to 8 processes), three times what heat itself
 * holds for a cell. A big graph is first coarsened here: elements of a slice
 * are grouped (each group grown from its first element through its
 * neighbours in the slice, at most COARSEN_SIZE elements, so groups are
 * compact patches), and PT-Scotch partitions the graph of the groups,
 * weighted by their sizes (vertices) and by the arcs between them (edges).
 * Only parts of COARSEN_FROM vertices or more are made this way (a run on as
 * many processes as parts then gives PT-Scotch at least that many a
 * process): smaller ones cost PT-Scotch little, and patches of 16 would be
 * too coarse for them (on airfoil's 2.88M cells in 1024 parts they cut 43%
 * more edges than the whole graph). The decision depends on the parts
 * alone, so the partition model, on one process, decides as a run does. */
enum { COARSEN_FROM = 1 << 15, COARSEN_SIZE = 16 };

int op_mpi_coarsen_size(MPI_Comm comm, const op_mpi_part_input *in, int nparts) {
  int nprocs;
  OP_MPI_CHECK(MPI_Comm_size(comm, &nprocs));
  return (long long)in->vtxdist[nprocs] / nparts >= COARSEN_FROM ? COARSEN_SIZE : 1;
}

void op_mpi_graph_coarsen(MPI_Comm comm, const op_mpi_part_input *in, int size, op_mpi_coarse *c) {
  int rank, nprocs;
  OP_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  OP_MPI_CHECK(MPI_Comm_size(comm, &nprocs));
  const int n = in->nlocal, lo = in->vtxdist[rank];
  memset(c, 0, sizeof *c);
  c->group = op_mpi_alloc(int, n + 1);
  for (int i = 0; i < n; i++) c->group[i] = -1;
  int *queue = op_mpi_alloc(int, size), ng = 0;
  for (int i = 0; i < n; i++) {
    if (c->group[i] >= 0) continue;
    int len = 0, head = 0;
    c->group[i] = ng;
    queue[len++] = i;
    while (head < len && len < size) {
      const int v = queue[head++];
      for (int a = in->xadj[v]; a < in->xadj[v + 1] && len < size; a++) {
        const int u = in->adjncy[a] - lo;
        if (u < 0 || u >= n || c->group[u] >= 0) continue;
        c->group[u] = ng;
        queue[len++] = u;
      }
    }
    ng++;
  }
  free(queue);
  c->ngroups = ng;
  c->vtxdist = op_mpi_alloc(int, nprocs + 1);
  int *counts = op_mpi_alloc(int, nprocs);
  OP_MPI_CHECK(MPI_Allgather(&ng, 1, MPI_INT, counts, 1, MPI_INT, comm));
  c->vtxdist[0] = 0;
  for (int r = 0; r < nprocs; r++) c->vtxdist[r + 1] = c->vtxdist[r] + counts[r];
  free(counts);
  const int g0 = c->vtxdist[rank];
  /* Each element's group by global number, for the neighbours' look-ups. */
  int *gglob = op_mpi_alloc(int, n + 1);
  for (int i = 0; i < n; i++) gglob[i] = g0 + c->group[i];
  /* (group, neighbouring group) for every arc between two groups. */
  int *pairs = NULL, np = 0, cap = 0, nb = op_mpi_batches(comm, n);
  for (int b = 0; b < nb; b++) {
    int r0, r1;
    op_mpi_batch(b, n, &r0, &r1);
    const int a0 = in->xadj[r0], na = in->xadj[r1] - a0;
    int *ng_of = op_mpi_alloc(int, na + 1);
    op_mpi_lookup(comm, in->vtxdist, gglob, na, in->adjncy + a0, ng_of);
    for (int v = r0; v < r1; v++)
      for (int a = in->xadj[v]; a < in->xadj[v + 1]; a++) {
        const int h = ng_of[a - a0];
        if (h == gglob[v]) continue;
        if (np == cap) pairs = op_mpi_grow(int, pairs, 2 * (size_t)(cap = cap ? 2 * cap : 4096));
        pairs[2 * np] = c->group[v];
        pairs[2 * np++ + 1] = h;
      }
    free(ng_of);
  }
  free(gglob);
  op_mpi_qsort(pairs, (size_t)np, 2 * sizeof(int), op_mpi_cmp_int2);
  c->xadj = op_mpi_zalloc(int, ng + 1);
  c->vwgt = op_mpi_zalloc(int, ng + 1);
  c->adjncy = op_mpi_alloc(int, np + 1);
  c->ewgt = op_mpi_alloc(int, np + 1);
  int narcs = 0;
  for (int k = 0; k < np;) {
    int q = k;
    while (q < np && pairs[2 * q] == pairs[2 * k] && pairs[2 * q + 1] == pairs[2 * k + 1]) q++;
    c->xadj[pairs[2 * k] + 1]++;
    c->adjncy[narcs] = pairs[2 * k + 1];
    c->ewgt[narcs++] = q - k;
    k = q;
  }
  for (int g = 0; g < ng; g++) c->xadj[g + 1] += c->xadj[g];
  for (int i = 0; i < n; i++) c->vwgt[c->group[i]]++;
  free(pairs);
}

void op_mpi_coarse_free(op_mpi_coarse *c) {
  free(c->group);
  free(c->vtxdist);
  free(c->xadj);
  free(c->adjncy);
  free(c->vwgt);
  free(c->ewgt);
  memset(c, 0, sizeof *c);
}
