/*
 * op_mpi_halo.c - migration to owners, OP2's execute and non-execute halos,
 * local renumbering (see op_mpi_halo.h).
 *
 * While this runs, map rows are kept in global numbers (rows[map index], one
 * row per owned element, then per execute-halo element) and owners of their
 * entries are looked up in the partition vectors, which stay in slices.
 */
#include "op_mpi_halo.h"

#include <stdlib.h>
#include <string.h>

#include "op_mpi_check.h"
#include "op_mpi_dist.h"
#include "op_mpi_exchange.h"
#include "op_mpi_partition.h"

/* ---- migration --------------------------------------------------------------- */

/* Sends every slice element of s to its part: global numbers into s->gid,
 * rows of the maps from s into rows[], rows of the dats on s into data. */
static void migrate_set(op_mpi_mesh m, op_mpi_set s, int **rows) {
  int n = s->slice_size;
  int *order = op_mpi_alloc(int, n), *counts = op_mpi_alloc(int, m->nprocs);
  op_mpi_group_by_dest(n, s->part, m->nprocs, order, counts);

  int *g = op_mpi_alloc(int, n);
  for (int k = 0; k < n; k++) g[k] = s->slice_start + order[k];
  s->size = op_mpi_alltoallv_rows(m->comm, g, counts, sizeof(int), (void **)&s->gid, NULL);
  free(g);

  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    if (p->from != s) continue;
    size_t rb = (size_t)p->dim * sizeof(int);
    int *buf = op_mpi_alloc(int, (size_t)n * p->dim);
    for (int k = 0; k < n; k++) memcpy(buf + (size_t)k * p->dim, p->slice + (size_t)order[k] * p->dim, rb);
    op_mpi_alltoallv_rows(m->comm, buf, counts, rb, (void **)&rows[i], NULL);
    free(buf);
    free(p->slice);
    p->slice = NULL;
  }
  for (int i = 0; i < m->ndats; i++) {
    op_mpi_dat d = m->dats[i];
    if (!d || d->set != s) continue; /* NULL: a freed temporary */
    char *buf = op_mpi_alloc(char, (size_t)n * d->size);
    for (int k = 0; k < n; k++) memcpy(buf + (size_t)k * d->size, d->slice + (size_t)order[k] * d->size, d->size);
    op_mpi_alltoallv_rows(m->comm, buf, counts, d->size, (void **)&d->data, NULL);
    free(buf);
    free(d->slice);
    d->slice = NULL;
  }
  free(order);
  free(counts);
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
  pairs = op_mpi_alloc(int, 2 * (size_t)n);
  for (int r = 0, k = 0; r < nprocs; r++)
    for (int c = 0; c < counts[r]; c++, k++) pairs[2 * k] = r, pairs[2 * k + 1] = first + k;
  list_from_pairs(h, pairs, n);
  free(pairs);
}

/* Owners of the entries of rows [r0, r1) of map i. */
static int *owners_of(op_mpi_mesh m, op_mpi_map p, const int *rows, int r0, int r1) {
  int n = (r1 - r0) * p->dim;
  int *own = op_mpi_alloc(int, n);
  op_mpi_lookup(m->comm, p->to->slice_starts, p->to->part, n, rows + (size_t)r0 * p->dim, own);
  return own;
}

/* Reorders owned elements: new position k holds old element perm[k]. */
static void permute_owned(op_mpi_mesh m, op_mpi_set s, const int *perm, int **rows) {
  int n = s->size;
  int *g = op_mpi_alloc(int, n);
  for (int k = 0; k < n; k++) g[k] = s->gid[perm[k]];
  memcpy(s->gid, g, (size_t)n * sizeof(int));
  free(g);
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    if (p->from != s) continue;
    int *r = op_mpi_alloc(int, (size_t)n * p->dim);
    for (int k = 0; k < n; k++)
      memcpy(r + (size_t)k * p->dim, rows[i] + (size_t)perm[k] * p->dim, (size_t)p->dim * sizeof(int));
    free(rows[i]);
    rows[i] = r;
  }
  for (int i = 0; i < m->ndats; i++) {
    op_mpi_dat d = m->dats[i];
    if (!d || d->set != s) continue; /* NULL: a freed temporary */
    char *r = op_mpi_alloc(char, (size_t)n * d->size);
    for (int k = 0; k < n; k++) memcpy(r + (size_t)k * d->size, d->data + (size_t)perm[k] * d->size, d->size);
    free(d->data);
    d->data = r;
  }
}

/* Export execute lists of s: owned elements with an entry owned by another
 * process go to that process. Owned elements are renumbered core first. */
static void build_exec_exports(op_mpi_mesh m, op_mpi_set s, int **rows) {
  int n = s->size, np = 0, cap = 0;
  int *pairs = NULL;
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    if (p->from != s) continue;
    int *own = owners_of(m, p, rows[i], 0, n);
    for (int e = 0; e < n; e++)
      for (int j = 0; j < p->dim; j++) {
        int r = own[(size_t)e * p->dim + j];
        if (r == m->rank) continue;
        if (np == cap) pairs = op_mpi_grow(int, pairs, 2 * (size_t)(cap = cap ? 2 * cap : 1024));
        pairs[2 * np] = r;
        pairs[2 * np++ + 1] = e;
      }
    free(own);
  }
  np = (int)op_mpi_sort_unique_pairs(pairs, (size_t)np);

  /* Core (never exported) first, then the rest, each in global order. */
  char *boundary = op_mpi_zalloc(char, n);
  for (int q = 0; q < np; q++) boundary[pairs[2 * q + 1]] = 1;
  int *perm = op_mpi_alloc(int, n), *renum = op_mpi_alloc(int, n), c = 0;
  for (int e = 0; e < n; e++)
    if (!boundary[e]) perm[c++] = e;
  s->core_size = c;
  for (int e = 0; e < n; e++)
    if (boundary[e]) perm[c++] = e;
  for (int q = 0; q < n; q++) renum[perm[q]] = q;
  permute_owned(m, s, perm, rows);
  /* Renumbering keeps the order of exported elements, so pairs stay sorted. */
  for (int q = 0; q < np; q++) pairs[2 * q + 1] = renum[pairs[2 * q + 1]];
  list_from_pairs(&s->exp_exec, pairs, np);
  free(pairs);
  free(boundary);
  free(perm);
  free(renum);
}

/* Sends every exported element, with its rows of every map from s, to the
 * process that runs it as execute halo; appends what arrives. */
static void exchange_exec(op_mpi_mesh m, op_mpi_set s, int **rows) {
  const op_mpi_halo_list *ex = &s->exp_exec;
  int width = 1; /* global number, then the rows */
  for (int i = 0; i < m->nmaps; i++)
    if (m->maps[i]->from == s) width += m->maps[i]->dim;
  int nsend = ex->offset[ex->nranks];
  int *buf = op_mpi_alloc(int, (size_t)nsend * width);
  int *counts = op_mpi_zalloc(int, m->nprocs);
  for (int r = 0; r < ex->nranks; r++) counts[ex->ranks[r]] = ex->offset[r + 1] - ex->offset[r];
  for (int k = 0; k < nsend; k++) {
    int e = ex->list[k], *out = buf + (size_t)k * width;
    *out++ = s->gid[e];
    for (int i = 0; i < m->nmaps; i++) {
      op_mpi_map p = m->maps[i];
      if (p->from != s) continue;
      memcpy(out, rows[i] + (size_t)e * p->dim, (size_t)p->dim * sizeof(int));
      out += p->dim;
    }
  }
  int *got = NULL, *got_counts = NULL;
  int nexec = op_mpi_alltoallv_rows(m->comm, buf, counts, (size_t)width * sizeof(int), (void **)&got,
                                    &got_counts);
  s->exec_size = nexec;
  s->gid = op_mpi_grow(int, s->gid, s->size + nexec);
  for (int k = 0; k < nexec; k++) s->gid[s->size + k] = got[(size_t)k * width];
  int col = 1;
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    if (p->from != s) continue;
    rows[i] = op_mpi_grow(int, rows[i], (size_t)(s->size + nexec) * p->dim);
    for (int k = 0; k < nexec; k++)
      memcpy(rows[i] + (size_t)(s->size + k) * p->dim, got + (size_t)k * width + col,
             (size_t)p->dim * sizeof(int));
    col += p->dim;
  }
  list_from_counts(&s->imp_exec, got_counts, m->nprocs, s->size);
  free(buf);
  free(counts);
  free(got);
  free(got_counts);
}

/* Non-execute halo of t: entries of the rows this process runs (owned and
 * execute halo, of every map into t) owned elsewhere and not in t's execute
 * halo, grouped by owner, in global order. */
static void build_nonexec_imports(op_mpi_mesh m, op_mpi_set t, int **rows, int *nonexec_counts,
                                  int **wanted) {
  int np = 0, cap = 0, *pairs = NULL;
  int nexec = t->exec_size;
  int *exec_sorted = op_mpi_alloc(int, nexec);
  memcpy(exec_sorted, t->gid + t->size, (size_t)nexec * sizeof(int));
  op_mpi_qsort(exec_sorted, (size_t)nexec, sizeof(int), op_mpi_cmp_int);
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    if (p->to != t) continue;
    int nrows = p->from->size + p->from->exec_size;
    int *own = owners_of(m, p, rows[i], 0, nrows);
    for (size_t q = 0; q < (size_t)nrows * p->dim; q++) {
      int g = rows[i][q];
      if (own[q] == m->rank || op_mpi_bsearch(exec_sorted, nexec, g) >= 0) continue;
      if (np == cap) pairs = op_mpi_grow(int, pairs, 2 * (size_t)(cap = cap ? 2 * cap : 1024));
      pairs[2 * np] = own[q];
      pairs[2 * np++ + 1] = g;
    }
    free(own);
  }
  np = (int)op_mpi_sort_unique_pairs(pairs, (size_t)np);
  t->nonexec_size = np;
  t->gid = op_mpi_grow(int, t->gid, t->size + nexec + np);
  for (int r = 0; r < m->nprocs; r++) nonexec_counts[r] = 0;
  *wanted = op_mpi_alloc(int, np);
  for (int q = 0; q < np; q++) {
    t->gid[t->size + nexec + q] = pairs[2 * q + 1];
    (*wanted)[q] = pairs[2 * q + 1];
    nonexec_counts[pairs[2 * q]]++;
  }
  list_from_counts(&t->imp_nonexec, nonexec_counts, m->nprocs, t->size + nexec);
  free(pairs);
  free(exec_sorted);
}

static void build_lookup(op_mpi_set s) {
  int n = s->size + s->exec_size + s->nonexec_size;
  free(s->lookup);
  s->lookup = op_mpi_alloc(int, 2 * (size_t)n);
  for (int e = 0; e < n; e++) s->lookup[2 * e] = s->gid[e], s->lookup[2 * e + 1] = e;
  op_mpi_qsort(s->lookup, (size_t)n, 2 * sizeof(int), op_mpi_cmp_int2);
  for (int e = 1; e < n; e++)
    if (s->lookup[2 * e] == s->lookup[2 * e - 2])
      op_mpi_fatal("internal error: element %d of set '%s' held twice on this process",
                   s->lookup[2 * e], s->name);
}

int op_mpi_local_index(op_mpi_set s, int g) {
  int lo = 0, hi = s->size + s->exec_size + s->nonexec_size - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2, v = s->lookup[2 * mid];
    if (v < g) lo = mid + 1;
    else if (v > g) hi = mid - 1;
    else return s->lookup[2 * mid + 1];
  }
  return -1;
}

/* The owners learn which of their elements each neighbour reads. */
static void build_nonexec_exports(op_mpi_mesh m, op_mpi_set t, const int *counts, const int *wanted) {
  int *asked = NULL, *asked_counts = NULL;
  int n = op_mpi_alltoallv_rows(m->comm, wanted, counts, sizeof(int), (void **)&asked, &asked_counts);
  int *pairs = op_mpi_alloc(int, 2 * (size_t)n);
  for (int r = 0, k = 0; r < m->nprocs; r++)
    for (int c = 0; c < asked_counts[r]; c++, k++) {
      int e = op_mpi_local_index(t, asked[k]);
      if (e < 0 || e >= t->size)
        op_mpi_fatal("internal error: rank %d asked for element %d of set '%s', not owned here", r,
                     asked[k], t->name);
      pairs[2 * k] = r;
      pairs[2 * k + 1] = e;
    }
  list_from_pairs(&t->exp_nonexec, pairs, n);
  free(pairs);
  free(asked);
  free(asked_counts);
}

void op_mpi_halo_create(op_mpi_mesh m) {
  if (m->stage != OP_MPI_PARTITIONED)
    op_mpi_fatal("op_mpi_halo_create: the mesh must be partitioned first (and only once)");
  if (m->nparts != m->nprocs)
    op_mpi_fatal("op_mpi_halo_create: the mesh is partitioned into %d parts for %d processes",
                 m->nparts, m->nprocs);
  int **rows = op_mpi_zalloc(int *, m->nmaps);
  for (int i = 0; i < m->nsets; i++) migrate_set(m, m->sets[i], rows);
  for (int i = 0; i < m->nsets; i++) build_exec_exports(m, m->sets[i], rows);
  for (int i = 0; i < m->nsets; i++) exchange_exec(m, m->sets[i], rows);
  int *counts = op_mpi_alloc(int, m->nprocs);
  for (int i = 0; i < m->nsets; i++) {
    op_mpi_set t = m->sets[i];
    int *wanted = NULL;
    build_nonexec_imports(m, t, rows, counts, &wanted);
    build_lookup(t);
    build_nonexec_exports(m, t, counts, wanted);
    free(wanted);
  }
  free(counts);

  /* Maps to local indices. */
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    size_t n = (size_t)(p->from->size + p->from->exec_size) * p->dim;
    p->map = rows[i] ? rows[i] : op_mpi_alloc(int, 0);
    for (size_t q = 0; q < n; q++) {
      int l = op_mpi_local_index(p->to, p->map[q]);
      if (l < 0)
        op_mpi_fatal("internal error: map '%s' names element %d of set '%s', not held here", p->name,
                     p->map[q], p->to->name);
      p->map[q] = l;
    }
  }
  free(rows);

  /* Dats get their halo rows, filled by a first exchange. */
  for (int i = 0; i < m->nsets; i++) op_mpi_exchange_plan_build(m->sets[i]);
  for (int i = 0; i < m->ndats; i++) {
    op_mpi_dat d = m->dats[i];
    if (!d) continue;
    op_mpi_set s = d->set;
    size_t total = (size_t)(s->size + s->exec_size + s->nonexec_size);
    d->data = op_mpi_grow(char, d->data, total * d->size);
    memset(d->data + (size_t)s->size * d->size, 0, (total - (size_t)s->size) * d->size);
  }
  m->stage = OP_MPI_DISTRIBUTED;
  for (int i = 0; i < m->ndats; i++)
    if (m->dats[i]) op_mpi_exchange_begin(m->dats[i]);
  for (int i = 0; i < m->ndats; i++)
    if (m->dats[i]) op_mpi_exchange_finish(m->dats[i]);
}

void op_mpi_distribute(op_mpi_mesh m, const char *lib, const char *routine, op_mpi_set set,
                       op_mpi_map map, op_mpi_dat coords, FILE *out) {
  op_mpi_partition_parts(m, lib, routine, set, map, coords, m->nprocs);
  op_mpi_halo_create(m);
  if (out) op_mpi_print_summary(m, out);
}
