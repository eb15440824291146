/*
 * op_mpi_halo.c - migration to owners, OP2's execute and non-execute halos,
 * local renumbering (see op_mpi_halo.h).
 *
 * Memory is what this file is written around: a process never holds more
 * than one array of the mesh twice (its slice while the array it builds
 * fills), and every exchange goes in batches of OP_MPI_BATCH_ROWS rows.
 *
 *  1. Runners. The process holding an element's slice finds who runs it: its
 *     owner, and every process owning an entry of its rows (of any map from
 *     its set), which holds it in its execute halo. Only the extra runners
 *     are listed (boundary elements).
 *  2. Arrivals. Each runner learns its elements' global numbers and whether
 *     each is core (owned, run nowhere else), boundary (owned, run elsewhere
 *     too) or execute halo (and whose): with that it lays out its local
 *     numbering, core, boundary, execute halo grouped by owner, each group in
 *     global order, before any row arrives. An importer tells each owner
 *     which elements it imports (the export lists, element for element).
 *  3. Map rows go from the slice to every runner, straight into their final
 *     place (allocated once, at their final size, in huge-page memory).
 *  4. Entries become local indices; entries held nowhere here make the
 *     non-execute halo, their owners found in the partition vector.
 *  5. Dat rows go to their owners, straight into their final place; the
 *     halos are filled by a first exchange.
 * On one part (and wherever no element moves and none is a boundary) the
 * slices already are the local arrays: they are kept, not copied.
 *
 * Every segment of the local numbering (core, boundary, each neighbour's
 * execute and non-execute rows) is in global order, so a global number is
 * found by binary search in each (op_mpi_local_index), with no table.
 */
#include "op_mpi_halo.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "op_mpi_check.h"
#include "op_mpi_dist.h"
#include "op_mpi_exchange.h"
#include "op_mpi_partition.h"
#include "op_parallel.h" /* op_alloc_big: huge-page memory, as the core's arrays */

/* An array of the mesh, in the memory the core gives its own (aborting the
 * job when there is none). */
static void *alloc_rows(size_t n, size_t row_bytes) {
  return op_alloc_big(n * row_bytes > 0 ? n * row_bytes : 1);
}

/* ---- halo lists ------------------------------------------------------------------- */

/* A list from (rank, local index) pairs sorted by rank. */
static void list_from_pairs(op_mpi_halo_list *h, const int *pairs, int n) {
  int nr = 0;
  for (int k = 0; k < n; k++) nr += (k == 0 || pairs[2 * k] != pairs[2 * k - 2]);
  h->nranks = nr;
  h->ranks = op_mpi_alloc(int, nr);
  h->offset = op_mpi_alloc(int, nr + 1);
  h->list = op_mpi_alloc(int, n);
  nr = 0;
  for (int k = 0; k < n; k++) {
    if (k == 0 || pairs[2 * k] != pairs[2 * k - 2]) {
      h->ranks[nr] = pairs[2 * k];
      h->offset[nr++] = k;
    }
    h->list[k] = pairs[2 * k + 1];
  }
  h->offset[nr] = n;
}

/* A list of consecutive local indices first, first + 1, ..., counted per source rank. */
static void list_from_counts(op_mpi_halo_list *h, const int *counts, int nprocs, int first) {
  int *pairs = NULL, n = 0;
  for (int r = 0; r < nprocs; r++) n += counts[r];
  pairs = op_mpi_alloc(int, 2 * (size_t)n + 1);
  for (int r = 0, k = 0; r < nprocs; r++)
    for (int c = 0; c < counts[r]; c++, k++) pairs[2 * k] = r, pairs[2 * k + 1] = first + k;
  list_from_pairs(h, pairs, n);
  free(pairs);
}

/* ---- local numbers -------------------------------------------------------------------- */

/* Index of g in the ascending gid[lo, hi), or -1. */
static int search(const int *gid, int lo, int hi, int g) {
  hi--;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (gid[mid] < g) lo = mid + 1;
    else if (gid[mid] > g) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/* The local index of g among the elements held so far (owned, then the
 * halos built), or -1. */
static int held_index(const op_mpi_set s, int g) {
  int l = search(s->gid, 0, s->core_size, g);
  if (l < 0) l = search(s->gid, s->core_size, s->size, g);
  const op_mpi_halo_list *h[2] = {&s->imp_exec, &s->imp_nonexec};
  for (int k = 0; k < 2 && l < 0; k++)
    for (int r = 0; r < h[k]->nranks && l < 0; r++) {
      const int first = h[k]->list[h[k]->offset[r]], n = h[k]->offset[r + 1] - h[k]->offset[r];
      l = search(s->gid, first, first + n, g);
    }
  return l;
}

int op_mpi_local_index(op_mpi_set s, int g) {
  if (!s->gid) return -1;
  return held_index(s, g);
}

/* Each importer tells the owners which of their elements it reads (wanted:
 * counts[r] global numbers from rank r, in the importer's order); the owners'
 * export lists hold them in that order. */
static void build_exports(op_mpi_mesh m, op_mpi_set t, const int *counts, const int *wanted,
                          op_mpi_halo_list *exports) {
  int *asked = NULL, *asked_counts = NULL;
  int n = op_mpi_alltoallv_rows(m->comm, wanted, counts, sizeof(int), (void **)&asked, &asked_counts);
  int *pairs = op_mpi_alloc(int, 2 * (size_t)n + 1);
  for (int r = 0, k = 0; r < m->nprocs; r++)
    for (int c = 0; c < asked_counts[r]; c++, k++) {
      int e = search(t->gid, 0, t->core_size, asked[k]);
      if (e < 0) e = search(t->gid, t->core_size, t->size, asked[k]);
      if (e < 0)
        op_mpi_fatal("internal error: rank %d asked for element %d of set '%s', not owned here", r,
                     asked[k], t->name);
      pairs[2 * k] = r;
      pairs[2 * k + 1] = e;
    }
  list_from_pairs(exports, pairs, n);
  free(pairs);
  free(asked);
  free(asked_counts);
}

/* ---- 1. who runs each element ------------------------------------------------------------ */

/* The processes besides its owner that run element i of a set's slice:
 * rank[off[i] .. off[i + 1]) (off NULL: none, for any element). */
typedef struct {
  int *off, *rank;
} runners;

static void find_runners(op_mpi_mesh m, op_mpi_set s, runners *run) {
  int *pairs = NULL, np = 0, cap = 0;
  const int n = s->slice_size, nb = op_mpi_batches(m->comm, n);
  int *own = NULL;
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    if (p->from != s) continue;
    own = op_mpi_grow(int, own, (size_t)(n < OP_MPI_BATCH_ROWS ? n : OP_MPI_BATCH_ROWS) * p->dim + 1);
    for (int b = 0; b < nb; b++) {
      int r0, r1;
      op_mpi_batch(b, n, &r0, &r1);
      op_mpi_lookup(m->comm, p->to->slice_starts, p->to->part, (r1 - r0) * p->dim,
                    p->slice + (size_t)r0 * p->dim, own);
      for (int e = r0; e < r1; e++)
        for (int j = 0; j < p->dim; j++) {
          const int q = own[(size_t)(e - r0) * p->dim + j];
          if (q == s->part[e]) continue;
          if (np == cap) pairs = op_mpi_grow(int, pairs, 2 * (size_t)(cap = cap ? 2 * cap : 1024));
          pairs[2 * np] = e;
          pairs[2 * np++ + 1] = q;
        }
    }
  }
  free(own);
  run->off = NULL;
  run->rank = NULL;
  np = (int)op_mpi_sort_unique_pairs(pairs, (size_t)np);
  if (np > 0) {
    run->off = op_mpi_zalloc(int, (size_t)n + 1);
    run->rank = op_mpi_alloc(int, np);
    for (int k = 0; k < np; k++) run->off[pairs[2 * k] + 1]++, run->rank[k] = pairs[2 * k + 1];
    for (int e = 0; e < n; e++) run->off[e + 1] += run->off[e];
  }
  free(pairs);
}

static int extra_runners(const runners *run, int e, const int **ranks) {
  if (!run->off) return 0;
  *ranks = run->rank + run->off[e];
  return run->off[e + 1] - run->off[e];
}

/* ---- 2. arrivals: the local numbering of the owned and execute-halo elements ---- */

/* What a runner learns of an element: its global number, and a code that
 * sorts it into place: 0 core, 1 boundary, 2 + owner for the execute halo. */
static int cmp_arrival(const void *a, const void *b) {
  const int *x = a, *y = b;
  if (x[1] != y[1]) return (x[1] > y[1]) - (x[1] < y[1]);
  return (x[0] > y[0]) - (x[0] < y[0]);
}

static void arrive(op_mpi_mesh m, op_mpi_set s, const runners *run) {
  const int n = s->slice_size, nb = op_mpi_batches(m->comm, n), P = m->nprocs;
  int *arr = NULL;
  size_t narr = 0;
  for (int b = 0; b < nb; b++) {
    int r0, r1, nrec = 0;
    op_mpi_batch(b, n, &r0, &r1);
    for (int e = r0; e < r1; e++) {
      const int *q = NULL;
      nrec += 1 + extra_runners(run, e, &q);
    }
    int *dest = op_mpi_alloc(int, nrec + 1), *rec = op_mpi_alloc(int, 2 * (size_t)nrec + 1);
    int *order = op_mpi_alloc(int, nrec + 1), *counts = op_mpi_alloc(int, P);
    int k = 0;
    for (int e = r0; e < r1; e++) {
      const int *q = NULL, nq = extra_runners(run, e, &q), g = s->slice_start + e;
      dest[k] = s->part[e], rec[2 * k] = g, rec[2 * k++ + 1] = nq > 0;
      for (int j = 0; j < nq; j++) dest[k] = q[j], rec[2 * k] = g, rec[2 * k++ + 1] = 2 + s->part[e];
    }
    op_mpi_group_by_dest(nrec, dest, P, order, counts);
    int *sorted = op_mpi_alloc(int, 2 * (size_t)nrec + 1), *got = NULL;
    for (int i = 0; i < nrec; i++) sorted[2 * i] = rec[2 * order[i]], sorted[2 * i + 1] = rec[2 * order[i] + 1];
    int ngot = op_mpi_alltoallv_rows(m->comm, sorted, counts, 2 * sizeof(int), (void **)&got, NULL);
    arr = op_mpi_grow(int, arr, 2 * (narr + (size_t)ngot) + 1);
    memcpy(arr + 2 * narr, got, 2 * (size_t)ngot * sizeof(int));
    narr += (size_t)ngot;
    free(dest), free(rec), free(order), free(counts), free(sorted), free(got);
  }
  op_mpi_qsort(arr, narr, 2 * sizeof(int), cmp_arrival);
  int core = 0, owned = 0, *from = op_mpi_zalloc(int, P);
  for (size_t k = 0; k < narr; k++) {
    core += arr[2 * k + 1] == 0;
    owned += arr[2 * k + 1] <= 1;
    if (arr[2 * k + 1] >= 2) from[arr[2 * k + 1] - 2]++;
  }
  /* The global numbers, compacted in place (the records shrink to them). */
  for (size_t k = 0; k < narr; k++) arr[k] = arr[2 * k];
  s->gid = op_mpi_grow(int, arr, narr + 1);
  s->core_size = core;
  s->size = owned;
  s->exec_size = (int)narr - owned;
  list_from_counts(&s->imp_exec, from, P, s->size);
  build_exports(m, s, from, s->gid + s->size, &s->exp_exec);
  free(from);
}

/* ---- 3 and 5. rows from the slices to their places ----------------------------------------- */

/* Sends each slice element's row (row_bytes at rows + e * row_bytes) to its
 * owner and, with run, to its extra runners, in batches; each receiver copies
 * it to dst at the element's local index, which must be below limit.
 * Returns the rows this process placed. */
static size_t send_rows(op_mpi_mesh m, op_mpi_set s, const runners *run, const char *rows,
                        size_t row_bytes, char *dst, int limit) {
  const int n = s->slice_size, nb = op_mpi_batches(m->comm, n);
  const size_t rec = sizeof(int) + row_bytes;
  size_t placed = 0;
  for (int b = 0; b < nb; b++) {
    int r0, r1, nrec = 0;
    op_mpi_batch(b, n, &r0, &r1);
    for (int e = r0; e < r1; e++) {
      const int *q = NULL;
      nrec += 1 + (run ? extra_runners(run, e, &q) : 0);
    }
    int *dest = op_mpi_alloc(int, nrec + 1), *src = op_mpi_alloc(int, nrec + 1);
    int *order = op_mpi_alloc(int, nrec + 1), *counts = op_mpi_alloc(int, m->nprocs);
    int k = 0;
    for (int e = r0; e < r1; e++) {
      const int *q = NULL, nq = run ? extra_runners(run, e, &q) : 0;
      dest[k] = s->part[e], src[k++] = e;
      for (int j = 0; j < nq; j++) dest[k] = q[j], src[k++] = e;
    }
    op_mpi_group_by_dest(nrec, dest, m->nprocs, order, counts);
    char *buf = op_mpi_alloc(char, (size_t)nrec * rec + 1), *got = NULL;
    for (int i = 0; i < nrec; i++) {
      const int e = src[order[i]], g = s->slice_start + e;
      memcpy(buf + (size_t)i * rec, &g, sizeof g);
      memcpy(buf + (size_t)i * rec + sizeof g, rows + (size_t)e * row_bytes, row_bytes);
    }
    free(dest), free(src), free(order);
    int ngot = op_mpi_alltoallv_rows(m->comm, buf, counts, rec, (void **)&got, NULL);
    free(buf), free(counts);
    for (int i = 0; i < ngot; i++) {
      int g;
      memcpy(&g, got + (size_t)i * rec, sizeof g);
      const int l = held_index(s, g);
      if (l < 0 || l >= limit)
        op_mpi_fatal("internal error: element %d of set '%s' arrived at local index %d of [0, %d)",
                     g, s->name, l, limit);
      memcpy(dst + (size_t)l * row_bytes, got + (size_t)i * rec + sizeof g, row_bytes);
    }
    placed += (size_t)ngot;
    free(got);
  }
  return placed;
}

/* A map's rows for the owned and execute-halo elements of its from-set, in
 * global numbers still. */
static void migrate_map(op_mpi_mesh m, op_mpi_map p, const runners *run, int identity) {
  op_mpi_set s = p->from;
  if (identity) { /* the slice is the local array */
    p->map = p->slice;
    p->slice = NULL;
    return;
  }
  const int nlocal = s->size + s->exec_size;
  const size_t rb = (size_t)p->dim * sizeof(int);
  int *dst = alloc_rows((size_t)nlocal, rb);
  size_t placed = send_rows(m, s, run, (const char *)p->slice, rb, (char *)dst, nlocal);
  if (placed != (size_t)nlocal)
    op_mpi_fatal("internal error: map '%s': %zu rows arrived for %d elements", p->name, placed, nlocal);
  free(p->slice);
  p->slice = NULL;
  p->map = dst;
}

/* ---- 4. local entries and the non-execute halo ----------------------------------------------- */

/* Entries of the maps into t become local indices; those held nowhere here
 * (owned elsewhere, not in t's execute halo) make its non-execute halo,
 * grouped by owner, each group in global order. */
static void localize(op_mpi_mesh m, op_mpi_set t) {
  int *cand = NULL, nc = 0, cap = 0;
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    if (p->to != t) continue;
    const size_t n = (size_t)(p->from->size + p->from->exec_size) * p->dim;
    for (size_t q = 0; q < n; q++) {
      const int g = p->map[q], l = held_index(t, g);
      if (l >= 0) {
        p->map[q] = l;
        continue;
      }
      p->map[q] = -1 - g; /* resolved below */
      if (nc == cap) cand = op_mpi_grow(int, cand, cap = cap ? 2 * cap : 1024);
      cand[nc++] = g;
    }
  }
  nc = op_mpi_sort_unique(cand, nc);
  int *owner = op_mpi_alloc(int, nc + 1);
  op_mpi_lookup(m->comm, t->slice_starts, t->part, nc, cand, owner);
  int *pairs = op_mpi_alloc(int, 2 * (size_t)nc + 1), *counts = op_mpi_zalloc(int, m->nprocs);
  for (int k = 0; k < nc; k++) {
    pairs[2 * k] = owner[k], pairs[2 * k + 1] = cand[k];
    if (owner[k] == m->rank)
      op_mpi_fatal("internal error: element %d of set '%s' is owned here but not held", cand[k], t->name);
    counts[owner[k]]++;
  }
  op_mpi_qsort(pairs, (size_t)nc, 2 * sizeof(int), op_mpi_cmp_int2);
  const int first = t->size + t->exec_size;
  t->nonexec_size = nc;
  t->gid = op_mpi_grow(int, t->gid, (size_t)first + nc + 1);
  for (int k = 0; k < nc; k++) t->gid[first + k] = pairs[2 * k + 1];
  list_from_counts(&t->imp_nonexec, counts, m->nprocs, first);
  build_exports(m, t, counts, t->gid + first, &t->exp_nonexec);
  /* The entries left: the candidates (ascending) give each its place. */
  int *place = op_mpi_alloc(int, nc + 1);
  for (int k = 0; k < nc; k++) place[op_mpi_bsearch(cand, nc, pairs[2 * k + 1])] = first + k;
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    if (p->to != t) continue;
    const size_t n = (size_t)(p->from->size + p->from->exec_size) * p->dim;
    for (size_t q = 0; q < n; q++)
      if (p->map[q] < 0) p->map[q] = place[op_mpi_bsearch(cand, nc, -1 - p->map[q])];
  }
  free(cand), free(owner), free(pairs), free(counts), free(place);
}

/* ---- 5. dat rows to their owners ---------------------------------------------------------- */

static void migrate_dat(op_mpi_mesh m, op_mpi_dat d, int identity) {
  op_mpi_set s = d->set;
  const size_t held = (size_t)s->size + s->exec_size + s->nonexec_size;
  if (identity && (uintptr_t)d->slice % 64 == 0) { /* no element moves and there are no halos */
    d->data = d->slice;
    d->slice = NULL;
    return;
  }
  if (identity) {
    /* A temporary dat's zero pages (op_alloc_big_zero) start where calloc
     * put them: rows that straddle cache lines cost the loops a fifth of
     * their time. The core's kind of memory instead. */
    d->data = alloc_rows(held, d->size);
    memcpy(d->data, d->slice, held * d->size);
    free(d->slice);
    d->slice = NULL;
    return;
  }
  char *dst = alloc_rows(held, d->size);
  size_t placed = send_rows(m, s, NULL, d->slice, d->size, dst, s->size);
  if (placed != (size_t)s->size)
    op_mpi_fatal("internal error: dat '%s': %zu rows arrived for %d elements", d->name, placed, s->size);
  memset(dst + (size_t)s->size * d->size, 0, (held - (size_t)s->size) * d->size);
  free(d->slice);
  d->slice = NULL;
  d->data = dst;
}

/* ---- the whole ------------------------------------------------------------------------------ */

/* Whether on every process every set's owned elements are its slice, in
 * order, all core (nothing moves, no halo): then the slices are kept. */
static int nothing_moves(op_mpi_mesh m) {
  int mine = 1, all = 0;
  for (int i = 0; i < m->nsets && mine; i++) {
    op_mpi_set s = m->sets[i];
    mine = s->size == s->slice_size && s->core_size == s->size && s->exec_size == 0;
    for (int e = 0; e < s->size && mine; e++) mine = s->gid[e] == s->slice_start + e;
  }
  OP_MPI_CHECK(MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MIN, m->comm));
  return all;
}

void op_mpi_halo_create(op_mpi_mesh m) {
  if (m->stage != OP_MPI_PARTITIONED)
    op_mpi_fatal("op_mpi_halo_create: the mesh must be partitioned first (and only once)");
  if (m->nparts != m->nprocs)
    op_mpi_fatal("op_mpi_halo_create: the mesh is partitioned into %d parts for %d processes",
                 m->nparts, m->nprocs);
  runners *run = op_mpi_zalloc(runners, m->nsets + 1);
  for (int i = 0; i < m->nsets; i++) find_runners(m, m->sets[i], &run[i]);
  for (int i = 0; i < m->nsets; i++) arrive(m, m->sets[i], &run[i]);
  const int identity = nothing_moves(m);
  for (int i = 0; i < m->nmaps; i++) migrate_map(m, m->maps[i], &run[m->maps[i]->from->index], identity);
  for (int i = 0; i < m->nsets; i++) free(run[i].off), free(run[i].rank);
  free(run);
  for (int i = 0; i < m->nsets; i++) localize(m, m->sets[i]);
  for (int i = 0; i < m->ndats; i++)
    if (m->dats[i]) migrate_dat(m, m->dats[i], identity); /* NULL: a freed temporary */
  for (int i = 0; i < m->nsets; i++) op_mpi_exchange_plan_build(m->sets[i]);
  m->stage = OP_MPI_DISTRIBUTED;
  for (int i = 0; i < m->ndats; i++)
    if (m->dats[i]) op_mpi_exchange_begin(m->dats[i]);
  for (int i = 0; i < m->ndats; i++)
    if (m->dats[i]) op_mpi_exchange_finish(m->dats[i]);
}

void op_mpi_distribute_mesh(op_mpi_mesh m, const char *lib, const char *routine,
                            const op_mpi_part_mesh *pm, FILE *out) {
  op_mpi_partition_mesh(m, lib, routine, pm, m->nprocs);
  op_mpi_halo_create(m);
  if (out) op_mpi_print_summary(m, out);
}

void op_mpi_distribute(op_mpi_mesh m, const char *lib, const char *routine, op_mpi_set set,
                       op_mpi_map map, op_mpi_dat coords, FILE *out) {
  op_mpi_part_mesh pm;
  memset(&pm, 0, sizeof pm);
  pm.set = set;
  pm.map = map;
  pm.coords = coords;
  op_mpi_distribute_mesh(m, lib, routine, &pm, out);
}
