/*
 * op_mpi_census.c - every part's halos from the partition vectors alone.
 *
 * The parts that run element e of set S are its owner and every part that
 * owns an entry of e's rows (of any map from S): those hold e in their
 * execute halo. Each entry t of a row that part q runs, with t owned
 * elsewhere, is in q's halo of t's set: its execute halo if q runs t, else
 * its non-execute halo. Only such boundary pairs are stored, so the count
 * costs memory in proportion to the halos, not to the mesh.
 */
#include "op_mpi_census.h"

#include <stdlib.h>
#include <string.h>

#include "op_mpi_check.h"
#include "op_mpi_dist.h"

/* Up to this many distinct parts run one element (entries of its rows + 1). */
enum { MAX_RUNNERS = 256 };

/* The parts that run element e of set s: its owner first, then the others. */
static int runners(op_mpi_mesh m, op_mpi_set s, int e, int *out) {
  int n = 1;
  out[0] = s->part[e];
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    if (p->from != s) continue;
    for (int j = 0; j < p->dim; j++) {
      int q = p->to->part[p->slice[(size_t)e * p->dim + j]], k = 0;
      while (k < n && out[k] != q) k++;
      if (k == n) {
        if (n == MAX_RUNNERS) op_mpi_fatal("census: element %d of set '%s' has over %d parts", e, s->name, MAX_RUNNERS);
        out[n++] = q;
      }
    }
  }
  return n;
}

static int runs(op_mpi_mesh m, op_mpi_set s, int e, int q) {
  int r[MAX_RUNNERS], n = runners(m, s, e, r);
  for (int k = 0; k < n; k++)
    if (r[k] == q) return 1;
  return 0;
}

typedef struct {
  int *v; /* triples */
  size_t n, cap;
} triples;

static void push(triples *t, int a, int b, int c) {
  if (t->n == t->cap) t->v = op_mpi_grow(int, t->v, 3 * (t->cap = t->cap ? 2 * t->cap : 4096));
  t->v[3 * t->n] = a, t->v[3 * t->n + 1] = b, t->v[3 * t->n + 2] = c;
  t->n++;
}

static int cmp3(const void *a, const void *b) {
  const int *x = a, *y = b;
  for (int i = 0; i < 3; i++)
    if (x[i] != y[i]) return (x[i] > y[i]) - (x[i] < y[i]);
  return 0;
}

static size_t unique3(triples *t) {
  op_mpi_qsort(t->v, t->n, 3 * sizeof(int), cmp3);
  size_t k = 0;
  for (size_t i = 0; i < t->n; i++)
    if (k == 0 || cmp3(t->v + 3 * i, t->v + 3 * (k - 1))) memmove(t->v + 3 * k++, t->v + 3 * i, 3 * sizeof(int));
  return t->n = k;
}

/* Counts, per part, the distinct neighbours of (owner, importer) pairs. */
static void count_neighbours(int *pairs, size_t n, int nparts, int *recv_from, int *send_to) {
  op_mpi_qsort(pairs, n, 2 * sizeof(int), op_mpi_cmp_int2);
  for (size_t i = 0; i < n; i++) {
    if (i > 0 && pairs[2 * i] == pairs[2 * i - 2] && pairs[2 * i + 1] == pairs[2 * i - 1]) continue;
    send_to[pairs[2 * i]]++;
    recv_from[pairs[2 * i + 1]]++;
  }
  (void)nparts;
}

void op_mpi_census_take(op_mpi_mesh m, op_mpi_census *c) {
  if (m->nprocs != 1) op_mpi_fatal("census: run on one process (the mesh has %d)", m->nprocs);
  if (m->stage != OP_MPI_PARTITIONED) op_mpi_fatal("census: partition the mesh first");
  int P = m->nparts, S = m->nsets;
  memset(c, 0, sizeof *c);
  c->nparts = P;
  c->nsets = S;
  size_t n = (size_t)P * S;
  c->owned = op_mpi_zalloc(int, n), c->exec = op_mpi_zalloc(int, n), c->nonexec = op_mpi_zalloc(int, n);
  c->recv_from = op_mpi_zalloc(int, n), c->send_to = op_mpi_zalloc(int, n), c->sent = op_mpi_zalloc(int, n);

  /* Halo pairs (element, part) per set, as triples (set, element, part). */
  triples halo = {0};
  int r[MAX_RUNNERS];
  for (int si = 0; si < S; si++) {
    op_mpi_set s = m->sets[si];
    for (int e = 0; e < s->global_size; e++) {
      c->owned[(size_t)si * P + s->part[e]]++;
      int nr = runners(m, s, e, r);
      for (int k = 1; k < nr; k++) push(&halo, si, e, r[k]); /* e in r[k]'s execute halo */
      for (int i = 0; i < m->nmaps; i++) {
        op_mpi_map p = m->maps[i];
        if (p->from != s) continue;
        for (int j = 0; j < p->dim; j++) {
          int t = p->slice[(size_t)e * p->dim + j];
          for (int k = 0; k < nr; k++)
            if (r[k] != p->to->part[t]) push(&halo, p->to->index, t, r[k]);
        }
      }
    }
  }
  unique3(&halo);

  /* Classify, count, and collect (owner, importer) pairs per set. */
  int **pairs = op_mpi_zalloc(int *, S);
  size_t *npairs = op_mpi_zalloc(size_t, S);
  for (size_t i = 0; i < halo.n; i++) npairs[halo.v[3 * i]]++;
  for (int si = 0; si < S; si++) pairs[si] = op_mpi_alloc(int, 2 * (npairs[si] ? npairs[si] : 1)), npairs[si] = 0;
  for (size_t i = 0; i < halo.n; i++) {
    int si = halo.v[3 * i], t = halo.v[3 * i + 1], q = halo.v[3 * i + 2];
    op_mpi_set s = m->sets[si];
    size_t at = (size_t)si * P;
    if (runs(m, s, t, q)) c->exec[at + q]++;
    else c->nonexec[at + q]++;
    c->sent[at + s->part[t]]++;
    pairs[si][2 * npairs[si]] = s->part[t];
    pairs[si][2 * npairs[si]++ + 1] = q;
  }
  for (int si = 0; si < S; si++) {
    count_neighbours(pairs[si], npairs[si], P, c->recv_from + (size_t)si * P, c->send_to + (size_t)si * P);
    free(pairs[si]);
  }
  free(pairs);
  free(npairs);
  free(halo.v);
}

void op_mpi_census_free(op_mpi_census *c) {
  free(c->owned);
  free(c->exec);
  free(c->nonexec);
  free(c->recv_from);
  free(c->send_to);
  free(c->sent);
  memset(c, 0, sizeof *c);
}
