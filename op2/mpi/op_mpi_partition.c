/*
 * op_mpi_partition.c - the partitioner registry, and partitioning a whole
 * mesh: the primary set by the chosen partitioner, every other set through
 * the maps (see op_mpi_partition.h).
 */
#include "op_mpi_partition.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_mpi_check.h"
#include "op_mpi_dist.h"
#include "op2_slice.h"

static const op_mpi_partitioner registry[] = {
    {"PTSCOTCH", "KWAY", OP_MPI_NEEDS_GRAPH, op_mpi_part_ptscotch,
     "PT-Scotch k-way on the graph of map->to (cells sharing a row of the map are adjacent)"},
    {"GEOM", "RCB", OP_MPI_NEEDS_COORDS, op_mpi_part_rcb,
     "recursive coordinate bisection of coords->set, longest extent first"},
    {"BLOCK", "BLOCK", 0, op_mpi_part_block, "contiguous blocks of global numbers of set"},
};

int op_mpi_num_partitioners(void) { return (int)(sizeof registry / sizeof registry[0]); }

const op_mpi_partitioner *op_mpi_partitioner_at(int i) {
  return i >= 0 && i < op_mpi_num_partitioners() ? &registry[i] : NULL;
}

const op_mpi_partitioner *op_mpi_partitioner_find(const char *lib, const char *routine) {
  if (!lib) return NULL;
  for (int i = 0; i < op_mpi_num_partitioners(); i++) {
    if (strcmp(registry[i].lib, lib)) continue;
    if (!routine || !routine[0] || !strcmp(registry[i].routine, routine)) return &registry[i];
  }
  return NULL;
}

/* ---- blocks ------------------------------------------------------------------ */

int op_mpi_block_part(int g, int n, int nparts) {
  return op_slice_owner(n, nparts, g); /* the inverse of op_mpi_slice */
}

void op_mpi_part_block(MPI_Comm comm, const op_mpi_part_input *in, int nparts, int *part) {
  int rank, nprocs;
  OP_MPI_CHECK(MPI_Comm_rank(comm, &rank));
  OP_MPI_CHECK(MPI_Comm_size(comm, &nprocs));
  int n = in->vtxdist[nprocs];
  for (int i = 0; i < in->nlocal; i++) part[i] = op_mpi_block_part(in->vtxdist[rank] + i, n, nparts);
}

/* ---- following the maps ---------------------------------------------------------- */

/* The most frequent value of v[0..n) (n small), ties to the lowest. */
static int mode_of(const int *v, int n) {
  int best = v[0], best_count = 0;
  for (int i = 0; i < n; i++) {
    int c = 0;
    for (int j = 0; j < n; j++) c += (v[j] == v[i]);
    if (c > best_count || (c == best_count && v[i] < best)) {
      best = v[i];
      best_count = c;
    }
  }
  return best;
}

/* from-set elements take the part most of their entries are in. */
static void derive_from(op_mpi_mesh m, op_mpi_map map) {
  op_mpi_set s = map->from;
  int n = s->slice_size, dim = map->dim, nb = op_mpi_batches(m->comm, n);
  int *tp = op_mpi_alloc(int, (size_t)(n < OP_MPI_BATCH_ROWS ? n : OP_MPI_BATCH_ROWS) * dim);
  s->part = op_mpi_alloc(int, n);
  for (int b = 0; b < nb; b++) {
    int r0, r1;
    op_mpi_batch(b, n, &r0, &r1);
    op_mpi_lookup(m->comm, map->to->slice_starts, map->to->part, (r1 - r0) * dim, map->slice + (size_t)r0 * dim, tp);
    for (int i = r0; i < r1; i++) s->part[i] = mode_of(tp + (size_t)(i - r0) * dim, dim);
  }
  free(tp);
}

/* to-set elements take the part most of the rows naming them are in: the
 * (element, part) pairs of every row go to the element's process, in
 * batches, and are counted there as they come (each element's first part
 * and its count; other parts, at partition boundaries only, in a list). */
static int cmp_int3(const void *a, const void *b) {
  const int *x = a, *y = b;
  for (int k = 0; k < 2; k++)
    if (x[k] != y[k]) return (x[k] > y[k]) - (x[k] < y[k]);
  return 0;
}

static void derive_to(op_mpi_mesh m, op_mpi_map map, int nparts) {
  op_mpi_set s = map->from, t = map->to;
  int dim = map->dim, nrows = s->slice_size, nb = op_mpi_batches(m->comm, nrows);
  int *first = op_mpi_alloc(int, t->slice_size + 1), *count = op_mpi_zalloc(int, t->slice_size + 1);
  int *other = NULL; /* (element, part, count) */
  size_t nother = 0, cap = 0;
  for (int i = 0; i < t->slice_size; i++) first[i] = -1;
  for (int b = 0; b < nb; b++) {
    int r0, r1;
    op_mpi_batch(b, nrows, &r0, &r1);
    int n = (r1 - r0) * dim;
    const int *rows = map->slice + (size_t)r0 * dim;
    int *dest = op_mpi_alloc(int, n + 1), *order = op_mpi_alloc(int, n + 1), *counts = op_mpi_alloc(int, m->nprocs);
    for (int k = 0; k < n; k++) dest[k] = op_mpi_slice_owner(t->slice_starts, m->nprocs, rows[k]);
    op_mpi_group_by_dest(n, dest, m->nprocs, order, counts);
    int *pairs = op_mpi_alloc(int, (size_t)n * 2 + 1), *got = NULL;
    for (int k = 0; k < n; k++) {
      pairs[2 * k] = rows[order[k]];
      pairs[2 * k + 1] = s->part[r0 + order[k] / dim];
    }
    int ngot = op_mpi_alltoallv_rows(m->comm, pairs, counts, 2 * sizeof(int), (void **)&got, NULL);
    free(dest), free(order), free(counts), free(pairs);
    op_mpi_qsort(got, (size_t)ngot, 2 * sizeof(int), op_mpi_cmp_int2);
    for (int k = 0; k < ngot;) {
      int q = k;
      while (q < ngot && got[2 * q] == got[2 * k] && got[2 * q + 1] == got[2 * k + 1]) q++;
      const int e = got[2 * k] - t->slice_start, p = got[2 * k + 1];
      if (first[e] < 0 || first[e] == p) {
        first[e] = p;
        count[e] += q - k;
      } else {
        if (nother == cap) other = op_mpi_grow(int, other, 3 * (cap = cap ? 2 * cap : 1024));
        other[3 * nother] = e, other[3 * nother + 1] = p, other[3 * nother++ + 2] = q - k;
      }
      k = q;
    }
    free(got);
  }
  op_mpi_qsort(other, nother, 3 * sizeof(int), cmp_int3);
  t->part = op_mpi_alloc(int, t->slice_size + 1);
  for (int i = 0; i < t->slice_size; i++)
    t->part[i] = first[i] >= 0 ? first[i] : op_mpi_block_part(t->slice_start + i, t->global_size, nparts);
  /* The other parts, summed per (element, part): the most rows win, ties the lowest part. */
  for (size_t k = 0; k < nother;) {
    size_t q = k;
    int c = 0;
    while (q < nother && other[3 * q] == other[3 * k] && other[3 * q + 1] == other[3 * k + 1]) c += other[3 * q++ + 2];
    const int e = other[3 * k], p = other[3 * k + 1];
    if (c > count[e] || (c == count[e] && p < t->part[e])) t->part[e] = p, count[e] = c;
    k = q;
  }
  free(first), free(count), free(other);
}

/* OP2's order: a map into a partitioned set first (dim 1 before wider), then
 * a map out of one; among equals, the map declared first. */
static void derive_all(op_mpi_mesh m, int nparts) {
  int *used = op_mpi_zalloc(int, m->nmaps);
  for (;;) {
    int best = -1, best_cost = 99;
    for (int i = 0; i < m->nmaps; i++) {
      op_mpi_map p = m->maps[i];
      int cost = 99;
      if (used[i]) continue;
      if (p->to->part && !p->from->part) cost = p->dim == 1 ? 0 : 1;
      else if (p->from->part && !p->to->part) cost = 2;
      if (cost < best_cost) best = i, best_cost = cost;
    }
    if (best < 0) break;
    used[best] = 1;
    if (best_cost < 2) derive_from(m, m->maps[best]);
    else derive_to(m, m->maps[best], nparts);
  }
  free(used);
  for (int i = 0; i < m->nsets; i++) {
    op_mpi_set s = m->sets[i];
    if (s->part) continue;
    s->part = op_mpi_alloc(int, s->slice_size);
    for (int e = 0; e < s->slice_size; e++)
      s->part[e] = op_mpi_block_part(s->slice_start + e, s->global_size, nparts);
  }
}

/* ---- the driver ---------------------------------------------------------------------- */

static void list_partitioners(char *buf, size_t len) {
  size_t n = 0;
  buf[0] = '\0';
  for (int i = 0; i < op_mpi_num_partitioners() && n < len; i++)
    n += (size_t)snprintf(buf + n, len - n, "%s(\"%s\", \"%s\")", i ? ", " : "", registry[i].lib,
                          registry[i].routine);
}

/* The partitioner's name and the set it splits, or NULL with the reason. */
static const op_mpi_partitioner *resolve(const char *lib, const char *routine,
                                         const op_mpi_part_mesh *pm, op_mpi_set *prime, char *why,
                                         size_t whylen) {
  const op_mpi_partitioner *pt = op_mpi_partitioner_find(lib, routine);
  *prime = NULL;
  if (!pt) {
    char names[256];
    list_partitioners(names, sizeof names);
    snprintf(why, whylen, "op_partition: no partitioner (\"%s\", \"%s\"); there are %s",
             lib ? lib : "(null)", routine ? routine : "(null)", names);
    return NULL;
  }
  *prime = pm->set;
  if (pt->needs & OP_MPI_NEEDS_GRAPH) {
    if (pm->adjacent && pm->geo_set) {
      *prime = pm->geo_set;
    } else if (pm->map && pm->map->slice) {
      *prime = pm->map->to;
    } else {
      snprintf(why, whylen, "op_partition(\"%s\", \"%s\"): needs a map (its to-set is partitioned) "
               "or the mesh's adjacency (op_partition_geometry)", pt->lib, pt->routine);
      *prime = NULL;
    }
  }
  if (pt->needs & OP_MPI_NEEDS_COORDS) {
    if (pm->coords && pm->coords->slice) {
      const op_mpi_dat c = pm->coords;
      if (c->type != OP_TYPE_DOUBLE || c->dim < 1 || c->dim > 3) {
        snprintf(why, whylen, "op_partition(\"%s\", \"%s\"): coordinates '%s' must be double, dim 1 "
                 "to 3 (not %s, dim %d)", pt->lib, pt->routine, c->name,
                 c->type == OP_TYPE_INT ? "int" : "float", c->dim);
        *prime = NULL;
      } else {
        *prime = c->set;
      }
    } else if (pm->fill_coords && pm->geo_set && pm->cdim >= 1 && pm->cdim <= 3) {
      *prime = pm->geo_set;
    } else {
      snprintf(why, whylen, "op_partition(\"%s\", \"%s\"): needs coordinates, and the program "
               "gives none%s%s%s", pt->lib, pt->routine, pm->set ? " (for its mesh of set '" : "",
               pm->set ? pm->set->name : "", pm->set ? "')" : "");
      *prime = NULL;
    }
  }
  if (*prime) return pt;
  if (!why[0]) snprintf(why, whylen, "op_partition(\"%s\", \"%s\"): no set to partition", pt->lib, pt->routine);
  return NULL;
}

op_mpi_set op_mpi_partition_prime(const char *lib, const char *routine, const op_mpi_part_mesh *pm,
                                  char *why, size_t whylen) {
  op_mpi_set prime;
  why[0] = '\0';
  return resolve(lib, routine, pm, &prime, why, whylen) ? prime : NULL;
}

/* The edge cut of the graph adjacent gives: pairs (g, h), g < h, adjacent, in
 * different parts; each counted on the process holding g. */
static long long edge_cut_fn(op_mpi_mesh m, const op_mpi_part_mesh *pm) {
  op_mpi_set s = pm->geo_set;
  int n = s->slice_size, nb = op_mpi_batches(m->comm, n), cap = pm->max_adjacent;
  int *nbr = op_mpi_alloc(int, (size_t)(n < OP_MPI_BATCH_ROWS ? n : OP_MPI_BATCH_ROWS) * cap + 1);
  int *cnt = op_mpi_alloc(int, (n < OP_MPI_BATCH_ROWS ? n : OP_MPI_BATCH_ROWS) + 1);
  int *parts = op_mpi_alloc(int, (size_t)(n < OP_MPI_BATCH_ROWS ? n : OP_MPI_BATCH_ROWS) * cap + 1);
  long long cut = 0, all = 0;
  for (int b = 0; b < nb; b++) {
    int r0, r1, k = 0;
    op_mpi_batch(b, n, &r0, &r1);
    for (int i = r0; i < r1; i++) {
      cnt[i - r0] = pm->adjacent(s->slice_start + i, nbr + k, pm->ctx);
      k += cnt[i - r0];
    }
    op_mpi_lookup(m->comm, s->slice_starts, s->part, k, nbr, parts);
    k = 0;
    for (int i = r0; i < r1; i++)
      for (int j = 0; j < cnt[i - r0]; j++, k++)
        cut += nbr[k] > s->slice_start + i && parts[k] != s->part[i];
  }
  free(nbr), free(cnt), free(parts);
  OP_MPI_CHECK(MPI_Allreduce(&cut, &all, 1, MPI_LONG_LONG, MPI_SUM, m->comm));
  return all;
}

void op_mpi_partition_mesh(op_mpi_mesh m, const char *lib, const char *routine,
                           const op_mpi_part_mesh *pm, int nparts) {
  if (m->stage == OP_MPI_DISTRIBUTED)
    op_mpi_fatal("op_partition: the mesh is already distributed (partition it once)");
  char why[512] = "";
  op_mpi_set prime;
  const op_mpi_partitioner *pt = resolve(lib, routine, pm, &prime, why, sizeof why);
  if (!pt) op_mpi_fatal("%s", why);
  if (prime->mesh != m)
    op_mpi_fatal("op_partition(\"%s\", \"%s\"): set '%s' is not of this mesh", pt->lib, pt->routine,
                 prime->name);
  if (nparts < 1 || prime->global_size < nparts)
    op_mpi_bad_input(
        "op_partition(\"%s\", \"%s\"): set '%s' has %d elements, fewer than the %d parts "
        "asked for (%s): every part needs at least one",
        pt->lib, pt->routine, prime->name, prime->global_size, nparts,
        nparts == m->nprocs ? "one per process: run on fewer processes" : "use fewer parts");
  const int by_fn = (pt->needs & OP_MPI_NEEDS_GRAPH) && pm->adjacent && pm->geo_set;
  for (int i = 0; i < m->nsets; i++) {
    free(m->sets[i]->part);
    m->sets[i]->part = NULL;
  }
  prime->part = op_mpi_zalloc(int, prime->slice_size);
  if (nparts > 1) {
    /* One part needs no partitioner: every element is in it. */
    op_mpi_part_input in = {prime->name, prime->slice_size, prime->slice_starts, NULL, NULL, 0, NULL};
    int *xadj = NULL, *adjncy = NULL;
    double *xyz = NULL;
    if (pt->needs & OP_MPI_NEEDS_GRAPH) {
      if (by_fn) op_mpi_graph_from_fn(prime, pm->max_adjacent, pm->adjacent, pm->ctx, &xadj, &adjncy);
      else op_mpi_graph_build(m, pm->map, &xadj, &adjncy);
      in.xadj = xadj;
      in.adjncy = adjncy;
    }
    if (pt->needs & OP_MPI_NEEDS_COORDS) {
      if (pm->coords && pm->coords->slice) {
        in.cdim = pm->coords->dim;
        in.coords = (const double *)pm->coords->slice;
      } else {
        /* Made for the partitioner, held only while it runs. */
        in.cdim = pm->cdim;
        xyz = op_mpi_alloc(double, (size_t)prime->slice_size * pm->cdim + 1);
        if (prime->slice_size > 0) pm->fill_coords(prime->slice_start, prime->slice_size, xyz, pm->ctx);
        in.coords = xyz;
      }
    }
    pt->fn(m->comm, &in, nparts, prime->part);
    free(xadj);
    free(adjncy);
    free(xyz);
  }
  for (int i = 0; i < prime->slice_size; i++)
    if (prime->part[i] < 0 || prime->part[i] >= nparts)
      op_mpi_fatal("partitioner %s %s gave element %d of set '%s' part %d, outside [0, %d)", pt->lib,
                   pt->routine, prime->slice_start + i, prime->name, prime->part[i], nparts);
  if (nparts == 1) { /* every element of every set in the one part */
    for (int i = 0; i < m->nsets; i++)
      if (!m->sets[i]->part) m->sets[i]->part = op_mpi_zalloc(int, m->sets[i]->slice_size + 1);
  } else {
    derive_all(m, nparts);
  }

  snprintf(m->partitioner, sizeof m->partitioner, "%s %s", pt->lib, pt->routine);
  m->prime = prime;
  m->nparts = nparts;
  if (pm->adjacent && pm->geo_set) m->edge_cut = edge_cut_fn(m, pm);
  else m->edge_cut = pm->map ? op_mpi_edge_cut(m, pm->map) : -1;
  m->stage = OP_MPI_PARTITIONED;
}

void op_mpi_partition_parts(op_mpi_mesh m, const char *lib, const char *routine, op_mpi_set set,
                            op_mpi_map map, op_mpi_dat coords, int nparts) {
  op_mpi_part_mesh pm;
  memset(&pm, 0, sizeof pm);
  pm.set = set;
  pm.map = map;
  pm.coords = coords;
  op_mpi_partition_mesh(m, lib, routine, &pm, nparts);
}

void op_mpi_partition_as_declared(op_mpi_mesh m) {
  if (m->stage == OP_MPI_DISTRIBUTED)
    op_mpi_fatal("op_partition: the mesh is already distributed (partition it once)");
  op_mpi_set prime = NULL;
  for (int i = 0; i < m->nsets; i++) {
    op_mpi_set s = m->sets[i];
    free(s->part);
    s->part = op_mpi_alloc(int, (size_t)s->slice_size + 1);
    for (int e = 0; e < s->slice_size; e++) s->part[e] = m->rank;
    if (!prime || s->global_size > prime->global_size) prime = s;
  }
  snprintf(m->partitioner, sizeof m->partitioner, "as declared");
  m->prime = prime;
  m->nparts = m->nprocs;
  m->edge_cut = -1;
  m->stage = OP_MPI_PARTITIONED;
}

long long op_mpi_edge_cut(op_mpi_mesh m, op_mpi_map map) {
  op_mpi_set t = map->to;
  if (!t->part) op_mpi_fatal("edge cut of map '%s': set '%s' is not partitioned", map->name, t->name);
  if (!map->slice) op_mpi_fatal("edge cut of map '%s': its rows are no longer held in slices", map->name);
  /* The cut edges are the pairs of one row in different parts: only they are
   * listed (so memory follows the cut, not the mesh), each sent to the
   * process holding its lower end, which counts each pair once. */
  int dim = map->dim, nrows = map->from->slice_size, nb = op_mpi_batches(m->comm, nrows);
  int *held = NULL;
  size_t nheld = 0;
  for (int b = 0; b < nb; b++) {
    int r0, r1;
    op_mpi_batch(b, nrows, &r0, &r1);
    int n = (r1 - r0) * dim, np = 0, cap = 1024;
    const int *rows = map->slice + (size_t)r0 * dim;
    int *part = op_mpi_alloc(int, n), *pairs = op_mpi_alloc(int, 2 * (size_t)cap);
    op_mpi_lookup(m->comm, t->slice_starts, t->part, n, rows, part);
    for (int r = 0; r < r1 - r0; r++)
      for (int j = 0; j < dim; j++)
        for (int k = j + 1; k < dim; k++) {
          int u = rows[r * dim + j], v = rows[r * dim + k];
          if (u == v || part[r * dim + j] == part[r * dim + k]) continue;
          if (np == cap) pairs = op_mpi_grow(int, pairs, 2 * (size_t)(cap *= 2));
          pairs[2 * np] = u < v ? u : v;
          pairs[2 * np++ + 1] = u < v ? v : u;
        }
    int *dest = op_mpi_alloc(int, np), *order = op_mpi_alloc(int, np), *counts = op_mpi_alloc(int, m->nprocs);
    for (int q = 0; q < np; q++) dest[q] = op_mpi_slice_owner(t->slice_starts, m->nprocs, pairs[2 * q]);
    op_mpi_group_by_dest(np, dest, m->nprocs, order, counts);
    int *sorted = op_mpi_alloc(int, 2 * (size_t)np), *got = NULL;
    for (int q = 0; q < np; q++) sorted[2 * q] = pairs[2 * order[q]], sorted[2 * q + 1] = pairs[2 * order[q] + 1];
    int ngot = op_mpi_alltoallv_rows(m->comm, sorted, counts, 2 * sizeof(int), (void **)&got, NULL);
    held = op_mpi_grow(int, held, 2 * (nheld + (size_t)ngot));
    memcpy(held + 2 * nheld, got, 2 * (size_t)ngot * sizeof(int));
    nheld += (size_t)ngot;
    free(part), free(pairs), free(dest), free(order), free(counts), free(sorted), free(got);
  }
  long long cut = (long long)op_mpi_sort_unique_pairs(held, nheld), all = 0;
  free(held);
  OP_MPI_CHECK(MPI_Allreduce(&cut, &all, 1, MPI_LONG_LONG, MPI_SUM, m->comm));
  return all;
}
