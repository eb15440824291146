/*
 * op_mpi_census.c - every part's halos from the partition vectors alone.
 *
 * The parts that run element e of set S are its owner and every part that
 * owns an entry of e's rows (of any map from S): the others hold e in their
 * execute halo. An element t owned by part o is also read by every part that
 * runs a row naming t: those not running t hold it in their non-execute
 * halo. Per element, then, the importers are found from the rows naming it
 * (an inverse of every map, built once per census), so memory follows the
 * mesh, never the number of (element, part) pairs, which for thin parts is
 * most of the mesh several times over.
 */
#include "op_mpi_census.h"

#include <stdlib.h>
#include <string.h>

#include "op_mpi_check.h"
#include "op_mpi_dist.h"

/* Up to this many distinct parts touch one element. */
enum { MAX_PARTS_AT = 512 };

/* Rows of map p naming each element of p->to: rows of element t are
 * row[off[t] .. off[t + 1]). */
typedef struct {
  long long *off;
  int *row;
} inverse;

static void invert(op_mpi_map p, inverse *v) {
  int nt = p->to->global_size, nr = p->from->global_size, dim = p->dim;
  v->off = op_mpi_zalloc(long long, (size_t)nt + 1);
  for (size_t q = 0; q < (size_t)nr * dim; q++) v->off[p->slice[q] + 1]++;
  for (int t = 0; t < nt; t++) v->off[t + 1] += v->off[t];
  v->row = op_mpi_alloc(int, (size_t)nr * dim);
  long long *fill = op_mpi_alloc(long long, nt);
  memcpy(fill, v->off, sizeof(long long) * (size_t)nt);
  for (size_t q = 0; q < (size_t)nr * dim; q++) v->row[fill[p->slice[q]]++] = (int)(q / dim);
  free(fill);
}

/* Adds q to the list (length *n) when it is not there yet. */
static void add_part(int *list, int *n, int q, const char *set, int e) {
  for (int k = 0; k < *n; k++)
    if (list[k] == q) return;
  if (*n == MAX_PARTS_AT) op_mpi_fatal("census: element %d of set '%s' touches over %d parts", e, set, MAX_PARTS_AT);
  list[(*n)++] = q;
}

/* The parts that run element e of set s: its owner first, then the others. */
static int runners(op_mpi_mesh m, op_mpi_set s, int e, int *out) {
  int n = 1;
  out[0] = s->part[e];
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    if (p->from != s) continue;
    for (int j = 0; j < p->dim; j++) add_part(out, &n, p->to->part[p->slice[(size_t)e * p->dim + j]], s->name, e);
  }
  return n;
}

/* Distinct (owner, importer) pairs: per importer, the owners it receives from. */
typedef struct {
  int **owners;
  int *n, *cap;
} neighbours;

static void add_neighbour(neighbours *nb, int importer, int owner) {
  int *l = nb->owners[importer];
  for (int k = 0; k < nb->n[importer]; k++)
    if (l[k] == owner) return;
  if (nb->n[importer] == nb->cap[importer])
    nb->owners[importer] = op_mpi_grow(int, nb->owners[importer], nb->cap[importer] = nb->cap[importer] ? 2 * nb->cap[importer] : 8);
  nb->owners[importer][nb->n[importer]++] = owner;
}

/* Pairs of one row of p naming e: e's neighbours v > e in another part. */
static long long cut_at(op_mpi_map p, const inverse *inv, int e, int *seen, int *nseen) {
  long long cut = 0;
  *nseen = 0;
  for (long long k = inv->off[e]; k < inv->off[e + 1]; k++) {
    const int *row = p->slice + (size_t)inv->row[k] * p->dim;
    for (int j = 0; j < p->dim; j++) {
      int v = row[j], dup = 0;
      if (v <= e || p->to->part[v] == p->to->part[e]) continue;
      for (int q = 0; q < *nseen && !dup; q++) dup = seen[q] == v;
      if (dup) continue;
      if (*nseen == MAX_PARTS_AT) op_mpi_fatal("census: element %d of '%s' has over %d neighbours", e, p->to->name, MAX_PARTS_AT);
      seen[(*nseen)++] = v;
      cut++;
    }
  }
  return cut;
}

void op_mpi_census_take(op_mpi_mesh m, op_mpi_map cut_map, op_mpi_census *c) {
  if (m->nprocs != 1) op_mpi_fatal("census: run on one process (the mesh has %d)", m->nprocs);
  if (m->stage != OP_MPI_PARTITIONED) op_mpi_fatal("census: partition the mesh first");
  int P = m->nparts, S = m->nsets;
  memset(c, 0, sizeof *c);
  c->nparts = P;
  c->nsets = S;
  size_t n = (size_t)P * S;
  c->owned = op_mpi_zalloc(int, n), c->exec = op_mpi_zalloc(int, n), c->nonexec = op_mpi_zalloc(int, n);
  c->recv_from = op_mpi_zalloc(int, n), c->send_to = op_mpi_zalloc(int, n), c->sent = op_mpi_zalloc(int, n);

  int own_runners[MAX_PARTS_AT], readers[MAX_PARTS_AT], r[MAX_PARTS_AT], seen[MAX_PARTS_AT], nseen;
  c->edge_cut = cut_map ? 0 : -1;
  for (int si = 0; si < S; si++) {
    op_mpi_set t = m->sets[si];
    int nmaps_in = 0;
    inverse *inv = op_mpi_zalloc(inverse, m->nmaps);
    for (int i = 0; i < m->nmaps; i++)
      if (m->maps[i]->to == t) invert(m->maps[i], &inv[i]), nmaps_in++;
    neighbours nb = {op_mpi_zalloc(int *, P), op_mpi_zalloc(int, P), op_mpi_zalloc(int, P)};
    size_t at = (size_t)si * P;
    for (int e = 0; e < t->global_size; e++) {
      int owner = t->part[e];
      c->owned[at + owner]++;
      int nrun = runners(m, t, e, own_runners), nread = 0;
      /* Parts that run a row naming e, and do not run e itself. */
      for (int i = 0; nmaps_in && i < m->nmaps; i++) {
        if (!inv[i].off) continue;
        op_mpi_map p = m->maps[i];
        for (long long k = inv[i].off[e]; k < inv[i].off[e + 1]; k++) {
          int nr = runners(m, p->from, inv[i].row[k], r);
          for (int q = 0; q < nr; q++) {
            int mine = 0;
            for (int j = 0; j < nrun && !mine; j++) mine = own_runners[j] == r[q];
            if (!mine) add_part(readers, &nread, r[q], t->name, e);
          }
        }
      }
      for (int j = 1; j < nrun; j++) c->exec[at + own_runners[j]]++, add_neighbour(&nb, own_runners[j], owner);
      for (int j = 0; j < nread; j++) c->nonexec[at + readers[j]]++, add_neighbour(&nb, readers[j], owner);
      c->sent[at + owner] += nrun - 1 + nread;
      if (cut_map && cut_map->to == t) c->edge_cut += cut_at(cut_map, &inv[cut_map->index], e, seen, &nseen);
    }
    for (int q = 0; q < P; q++) {
      c->recv_from[at + q] = nb.n[q];
      for (int k = 0; k < nb.n[q]; k++) c->send_to[at + nb.owners[q][k]]++;
      free(nb.owners[q]);
    }
    free(nb.owners), free(nb.n), free(nb.cap);
    for (int i = 0; i < m->nmaps; i++) free(inv[i].off), free(inv[i].row);
    free(inv);
  }
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
