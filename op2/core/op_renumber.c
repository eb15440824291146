/*
 * op_renumber.c - renumbering a mesh for locality (op2_renumber.h).
 *
 * op_renumber(base) orders base's to-set (the cells of an edge-to-cell map):
 * quadrilaterals that form one structured block in rows (op_renumber_quads.c),
 * anything else by reverse Cuthill-McKee on the graph base's rows make; then
 * every set the maps reach, nearest first: a set with a map into an ordered
 * set follows it (its rows by their lowest entries), after reverse
 * Cuthill-McKee with windows in which no two elements share an entry; a set
 * an ordered set maps into is numbered by first use.
 * Dats, map rows and map entries are then permuted in place, and each set
 * keeps its user's numbering for everything that leaves the library.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_renumber.h"
#include "op_at_exit.h"
#include "op_dist.h"
#include "op_parallel.h"
#include "op_plan.h"
#include "op_state.h"

/* Elements a window holds, and how far ahead a window may look for them. */
#define FREE_WINDOW 64
#define FREE_LOOKAHEAD 1024

/* ---- orderings on arrays ------------------------------------------------------------ */

void op_renumber_invert(int n, const int *order, int *new_of_old) {
  for (int k = 0; k < n; k++) new_of_old[order[k]] = k;
}

void op_renumber_map_graph(int nfrom, int dim, const int *map, int nto, int **xadj_out,
                           int **adj_out) {
  int *deg = op_calloc((size_t)nto + 1, sizeof(int));
  for (long r = 0; r < nfrom; r++)
    for (int a = 0; a < dim; a++)
      for (int b = 0; b < dim; b++)
        if (map[r * dim + a] != map[r * dim + b]) deg[map[r * dim + a]]++;
  int *xadj = op_malloc(sizeof(int) * ((size_t)nto + 1));
  long total = 0;
  for (int v = 0; v < nto; v++) {
    xadj[v] = (int)total;
    total += deg[v];
    OP_CHECK(total <= 0x7fffffff, "op_renumber: the graph of %d elements has too many edges", nto);
  }
  xadj[nto] = (int)total;
  int *adj = op_malloc(sizeof(int) * ((size_t)total + 1));
  memset(deg, 0, sizeof(int) * (size_t)nto);
  for (long r = 0; r < nfrom; r++)
    for (int a = 0; a < dim; a++)
      for (int b = 0; b < dim; b++) {
        const int u = map[r * dim + a], v = map[r * dim + b];
        if (u != v) adj[xadj[u] + deg[u]++] = v;
      }
  /* Sorted neighbours without repeats (two rows may join the same pair). */
  long out = 0;
  for (int v = 0; v < nto; v++) {
    int *nb = adj + xadj[v];
    const int m = xadj[v + 1] - xadj[v];
    for (int i = 1; i < m; i++) { /* insertion sort: degrees are small */
      const int x = nb[i];
      int j = i - 1;
      while (j >= 0 && nb[j] > x) {
        nb[j + 1] = nb[j];
        j--;
      }
      nb[j + 1] = x;
    }
    const long start = out;
    for (int i = 0; i < m; i++)
      if (i == 0 || nb[i] != nb[i - 1]) adj[out++] = nb[i];
    xadj[v] = (int)start;
  }
  xadj[nto] = (int)out;
  free(deg);
  *xadj_out = xadj;
  *adj_out = adj;
}

/* Breadth-first levels from root over unvisited vertices (level[v] < 0):
 * fills queue from position at, neighbours by increasing degree (ties by
 * number); returns the new end of the queue. */
static int bfs(const int *xadj, const int *adj, int root, int *level, int *queue, int at,
               int *scratch) {
  int head = at, tail = at;
  queue[tail++] = root;
  level[root] = 0;
  while (head < tail) {
    const int v = queue[head++];
    int m = 0;
    for (int e = xadj[v]; e < xadj[v + 1]; e++)
      if (level[adj[e]] < 0) {
        level[adj[e]] = level[v] + 1;
        scratch[m++] = adj[e];
      }
    for (int i = 1; i < m; i++) { /* by degree, then number */
      const int x = scratch[i], dx = xadj[x + 1] - xadj[x];
      int j = i - 1;
      while (j >= 0 && (xadj[scratch[j] + 1] - xadj[scratch[j]] > dx ||
                        (xadj[scratch[j] + 1] - xadj[scratch[j]] == dx && scratch[j] > x))) {
        scratch[j + 1] = scratch[j];
        j--;
      }
      scratch[j + 1] = x;
    }
    for (int i = 0; i < m; i++) queue[tail++] = scratch[i];
  }
  return tail;
}

void op_renumber_rcm(int n, const int *xadj, const int *adj, int *order) {
  int *level = op_malloc(sizeof(int) * ((size_t)n + 1));
  int maxdeg = 0;
  for (int v = 0; v < n; v++)
    if (xadj[v + 1] - xadj[v] > maxdeg) maxdeg = xadj[v + 1] - xadj[v];
  int *scratch = op_malloc(sizeof(int) * ((size_t)maxdeg + 1));
  for (int v = 0; v < n; v++) level[v] = -1;
  int done = 0;
  for (int seed = 0; seed < n; seed++) {
    if (level[seed] >= 0) continue;
    /* A pseudo-peripheral root (George and Liu): from the component's first
     * vertex, move to a least-degree vertex of the last level while the
     * component gets deeper. */
    int root = seed, depth = -1;
    for (int tries = 0; tries < 8; tries++) {
      const int end = bfs(xadj, adj, root, level, order, done, scratch);
      const int d = level[order[end - 1]];
      int next = order[end - 1];
      for (int k = end - 1; k >= done && level[order[k]] == d; k--) {
        const int v = order[k], dv = xadj[v + 1] - xadj[v], dn = xadj[next + 1] - xadj[next];
        if (dv < dn || (dv == dn && v < next)) next = v;
      }
      for (int k = done; k < end; k++) level[order[k]] = -1;
      if (d <= depth) break;
      depth = d;
      root = next;
    }
    done = bfs(xadj, adj, root, level, order, done, scratch);
  }
  /* Reversed: the Cuthill-McKee order's mirror has the same bandwidth and
   * a smaller profile. */
  for (int i = 0, j = n - 1; i < j; i++, j--) {
    const int t = order[i];
    order[i] = order[j];
    order[j] = t;
  }
  free(scratch);
  free(level);
}

/* out = the positions `in` (n of them) stably ordered by key[position], keys in [0, range). */
static void counting_sort(int n, const int *in, const int *key, int range, int *out) {
  int *start = op_calloc((size_t)range + 1, sizeof(int));
  for (int i = 0; i < n; i++) start[key[in[i]] + 1]++;
  for (int k = 0; k < range; k++) start[k + 1] += start[k];
  for (int i = 0; i < n; i++) out[start[key[in[i]]]++] = in[i];
  free(start);
}

void op_renumber_by_targets(int nfrom, int dim, const int *map, const int *new_of_old,
                            int *order) {
  /* The lowest entry and the next above it (0 for rows of one entry), each plus one. Two
   * stable counting sorts, by the second key and then the first, order the rows by both
   * with ties by old number, in linear time (a comparison sort of the 1.4 million edges of
   * the standard mesh took a third of a second). */
  int *key = op_malloc(sizeof(int) * ((size_t)nfrom + 1));
  int *key2 = op_malloc(sizeof(int) * ((size_t)nfrom + 1));
  int *rows = op_malloc(sizeof(int) * ((size_t)nfrom + 1));
  int range = 1;
  for (long r = 0; r < nfrom; r++) {
    int low = new_of_old[map[r * dim]], next = -1;
    for (int a = 1; a < dim; a++) {
      const int v = new_of_old[map[r * dim + a]];
      if (v < low) {
        next = low;
        low = v;
      } else if (next < 0 || v < next) {
        next = v;
      }
    }
    key[r] = low + 1;
    key2[r] = next + 1;
    if (low + 2 > range) range = low + 2;
    if (next + 2 > range) range = next + 2;
    rows[r] = (int)r;
  }
  counting_sort(nfrom, rows, key2, range, order);
  counting_sort(nfrom, order, key, range, rows);
  memcpy(order, rows, sizeof(int) * (size_t)nfrom);
  free(rows);
  free(key2);
  free(key);
}

void op_renumber_by_first_use(int nfrom, int dim, const int *map, const int *from_order, int nto,
                              int *order) {
  char *seen = op_calloc((size_t)nto + 1, 1);
  int next = 0;
  for (long i = 0; i < nfrom; i++) {
    const long r = from_order ? from_order[i] : i;
    for (int a = 0; a < dim; a++) {
      const int v = map[r * dim + a];
      if (!seen[v]) {
        seen[v] = 1;
        order[next++] = v;
      }
    }
  }
  for (int v = 0; v < nto; v++)
    if (!seen[v]) order[next++] = v;
  free(seen);
}

void op_renumber_free_windows(int n, int dim, const int *map, int window, int lookahead,
                              int *order) {
  int *pending = op_malloc(sizeof(int) * ((size_t)n + 1)); /* not yet placed, in order */
  memcpy(pending, order, sizeof(int) * (size_t)n);
  char *placed = op_calloc((size_t)n + 1, 1);                /* by position in pending */
  int *stamp = NULL, nstamp = 0;                             /* entry -> window that took it */
  for (long i = 0; i < (long)n * dim; i++)
    if (map[i] + 1 > nstamp) nstamp = map[i] + 1;
  stamp = op_malloc(sizeof(int) * ((size_t)nstamp + 1));
  for (int v = 0; v < nstamp; v++) stamp[v] = -1;
  int first = 0, out = 0, win = 0;
  while (out < n) {
    const int want = n - out < window ? n - out : window;
    int got = 0;
    for (int p = first; p < n && p < first + lookahead && got < want; p++) {
      if (placed[p]) continue;
      const int *row = map + (long)pending[p] * dim;
      int clash = 0;
      for (int a = 0; a < dim; a++) clash |= stamp[row[a]] == win;
      if (clash) continue;
      for (int a = 0; a < dim; a++) stamp[row[a]] = win;
      order[out + got++] = pending[p];
      placed[p] = 1;
    }
    /* Not enough without a clash within reach: the next elements as they come. */
    for (int p = first; p < n && got < want; p++)
      if (!placed[p]) {
        order[out + got++] = pending[p];
        placed[p] = 1;
      }
    out += got;
    win++;
    while (first < n && placed[first]) first++;
  }
  free(stamp);
  free(placed);
  free(pending);
}

/* ---- applying an order ---------------------------------------------------------------- */

typedef struct {
  char *out;
  const char *in;
  size_t row;
  const int *order;
  int *entries;         /* remap: entries[i] = new_of_old[entries[i]] */
  const int *new_of_old;
} permute_job;

static void gather_rows(long lo, long hi, void *ctx) {
  const permute_job *j = ctx;
  for (long k = lo; k < hi; k++)
    memcpy(j->out + (size_t)k * j->row, j->in + (size_t)j->order[k] * j->row, j->row);
}

static void remap_entries(long lo, long hi, void *ctx) {
  const permute_job *j = ctx;
  for (long i = lo; i < hi; i++) j->entries[i] = j->new_of_old[j->entries[i]];
}

/* rows (n of row bytes) = rows taken in `order`. */
static void permute_rows(void *rows, size_t row, int n, const int *order) {
  char *tmp = op_alloc_big((size_t)n * row);
  permute_job j = {tmp, rows, row, order, NULL, NULL};
  op_parallel_for(n, gather_rows, &j);
  op_parallel_copy(rows, tmp, (size_t)n * row);
  free(tmp);
}

/* ---- the user's numbering of each set -------------------------------------------------- */

typedef struct {
  int *user;    /* storage position -> user's number */
  int *storage; /* user's number -> storage position */
} numbering;

static numbering *numberings;
static int nnumberings;

static const numbering *numbering_of(op_set set) {
  return set && set->index < nnumberings && numberings[set->index].user ? &numberings[set->index]
                                                                         : NULL;
}

const int *op_set_user_ids(op_set set) {
  const numbering *nb = numbering_of(set);
  return nb ? nb->user : NULL;
}

const int *op_set_storage_ids(op_set set) {
  const numbering *nb = numbering_of(set);
  return nb ? nb->storage : NULL;
}

/* Forgets every numbering (op_exit). */
static void renumber_free(void) {
  for (int i = 0; i < nnumberings; i++) {
    free(numberings[i].user);
    free(numberings[i].storage);
  }
  free(numberings);
  numberings = NULL;
  nnumberings = 0;
}

void op_dat_to_user_order(op_dat dat, void *dest) {
  const char *src = op_fetch_data_ptr(dat);
  const int *storage = op_set_storage_ids(dat->set);
  const size_t row = (size_t)dat->size, n = (size_t)dat->set->size;
  if (!storage) {
    memcpy(dest, src, n * row);
    return;
  }
  for (size_t u = 0; u < n; u++) memcpy((char *)dest + u * row, src + (size_t)storage[u] * row, row);
}

void op_dat_from_user_order(op_dat dat, const void *src) {
  char *data = op_fetch_data_ptr(dat);
  const int *storage = op_set_storage_ids(dat->set);
  const size_t row = (size_t)dat->size, n = (size_t)dat->set->size;
  if (!storage)
    memcpy(data, src, n * row);
  else
    for (size_t u = 0; u < n; u++)
      memcpy(data + (size_t)storage[u] * row, (const char *)src + u * row, row);
  op_host_data_changed(dat);
}

void op_dat_user_rows_arrived(op_dat dat) {
  const int *user = op_set_user_ids(dat->set);
  if (user) permute_rows(dat->data, (size_t)dat->size, dat->set->size, user);
  op_host_data_changed(dat);
}

/* A map declared after its sets were renumbered: rows and entries arrive in
 * the user's numbering. */
void op_map_user_rows_arrived(op_map map) {
  const int *user = op_set_user_ids(map->from), *storage = op_set_storage_ids(map->to);
  if (user) permute_rows(map->map, sizeof(int) * (size_t)map->dim, map->from->size, user);
  if (storage) {
    permute_job j = {NULL, NULL, 0, NULL, map->map, storage};
    op_parallel_for((long)map->from->size * map->dim, remap_entries, &j);
  }
}

void op_map_to_user_order(op_map map, int *dest) {
  const int *storage = op_set_storage_ids(map->from), *user = op_set_user_ids(map->to);
  const size_t dim = (size_t)map->dim;
  for (size_t u = 0; u < (size_t)map->from->size; u++) {
    const int *row = map->map + (storage ? (size_t)storage[u] : u) * dim;
    for (size_t a = 0; a < dim; a++) dest[u * dim + a] = user ? user[row[a]] : row[a];
  }
}

/* Puts set s into `order` (new number k holds old element order[k]):
 * its dats' rows, the rows of maps from it, the entries of maps into it. */
static void apply_order(op_set s, const int *order) {
  const int n = s->size;
  int *new_of_old = op_malloc(sizeof(int) * ((size_t)n + 1));
  op_renumber_invert(n, order, new_of_old);
  for (int d = 0; d < op_g.ndats; d++) {
    op_dat dat = op_g.dats[d];
    if (!dat || dat->set != s) continue; /* NULL: a freed temporary */
    OP_CHECK(!dat->user_owned,
             "op_renumber: dat \"%s\" is the application's own array (OP_NO_REALLOC), which "
             "renumbering would reorder: leave out one or the other",
             dat->name);
    permute_rows(op_fetch_data_ptr(dat), (size_t)dat->size, n, order);
    op_host_data_changed(dat);
  }
  for (int m = 0; m < op_g.nmaps; m++) {
    op_map map = op_g.maps[m];
    if (map->from == s) permute_rows(map->map, sizeof(int) * (size_t)map->dim, n, order);
    if (map->to == s) {
      permute_job j = {NULL, NULL, 0, NULL, map->map, new_of_old};
      op_parallel_for((long)map->from->size * map->dim, remap_entries, &j);
    }
  }
  /* The user's numbering, composed with any earlier renumbering. */
  numbering *nb = &numberings[s->index];
  int *user = op_malloc(sizeof(int) * ((size_t)n + 1));
  for (int k = 0; k < n; k++) user[k] = nb->user ? nb->user[order[k]] : order[k];
  free(nb->user);
  free(nb->storage);
  nb->user = user;
  nb->storage = op_malloc(sizeof(int) * ((size_t)n + 1));
  op_renumber_invert(n, user, nb->storage);
  free(new_of_old);
}

/* ---- op_renumber ------------------------------------------------------------------------ */

/* The orders op_renumber would give every set (NULL for a set no map reaches from base's
 * to-set), found on the current numbers: order[s][k] = the number of the element of set s
 * placed k-th. */
static int **find_orders(op_map base) {
  int **order = op_calloc((size_t)op_g.nsets, sizeof(int *));
  int **new_of_old = op_calloc((size_t)op_g.nsets, sizeof(int *));
  int *queue = op_malloc(sizeof(int) * (size_t)op_g.nsets), head = 0, tail = 0;

  op_set primary = base->to;
  order[primary->index] = op_malloc(sizeof(int) * ((size_t)primary->size + 1));
  /* Quadrilaterals (a map of 4 entries from the primary set) in one structured block: in
   * rows, and the sets after them in runs, not windows, which would break the runs. */
  int rows = 0, *quad_nodes = NULL;
  op_map quads = NULL;
  for (int m = 0; m < op_g.nmaps && !rows; m++) {
    op_map q = op_g.maps[m];
    if (q->from != primary || q->dim != 4 || q->to == primary) continue;
    quad_nodes = op_realloc(quad_nodes, sizeof(int) * ((size_t)q->to->size + 1));
    rows = op_renumber_quad_rows(primary->size, q->map, q->to->size, order[primary->index],
                                 quad_nodes);
    quads = q;
  }
  if (!rows) {
    int *xadj, *adj;
    op_renumber_map_graph(base->from->size, base->dim, base->map, primary->size, &xadj, &adj);
    op_renumber_rcm(primary->size, xadj, adj, order[primary->index]);
    free(xadj);
    free(adj);
  }
  queue[tail++] = primary->index;

  /* Nearest sets first, maps in the order they were declared. */
  while (head < tail) {
    op_set t = op_g.sets[queue[head++]];
    new_of_old[t->index] = op_malloc(sizeof(int) * ((size_t)t->size + 1));
    op_renumber_invert(t->size, order[t->index], new_of_old[t->index]);
    for (int m = 0; m < op_g.nmaps; m++) {
      op_map map = op_g.maps[m];
      if (map->to == t && !order[map->from->index]) {
        op_set s = map->from;
        int *o = op_malloc(sizeof(int) * ((size_t)s->size + 1));
        op_renumber_by_targets(s->size, map->dim, map->map, new_of_old[t->index], o);
        if (!rows)
          op_renumber_free_windows(s->size, map->dim, map->map, FREE_WINDOW, FREE_LOOKAHEAD, o);
        order[s->index] = o;
        queue[tail++] = s->index;
      } else if (map->from == t && !order[map->to->index]) {
        op_set s = map->to;
        if (rows && map == quads) { /* the quadrilaterals' corners, in their rows */
          order[s->index] = quad_nodes;
          quad_nodes = NULL;
        } else {
          order[s->index] = op_malloc(sizeof(int) * ((size_t)s->size + 1));
          op_renumber_by_first_use(t->size, map->dim, map->map, order[t->index], s->size,
                                   order[s->index]);
        }
        queue[tail++] = s->index;
      }
    }
  }
  for (int s = 0; s < op_g.nsets; s++) free(new_of_old[s]);
  free(new_of_old);
  free(quad_nodes);
  free(queue);
  return order;
}

static void free_orders(int **order) {
  for (int s = 0; s < op_g.nsets; s++) free(order[s]);
  free(order);
}

/* ---- locality ------------------------------------------------------------------------- */

/* log2(1 + d), linear between powers of two (at most 0.09 above the logarithm): a few
 * integer operations, where the logarithm itself costs more than the rest of a pass over the
 * maps. */
static inline double bit_length(long d) {
  const unsigned long x = (unsigned long)d + 1;
  const int e = 63 - __builtin_clzl(x);
  return e + (double)(x - (1UL << e)) / (double)(1UL << e);
}

void op_renumber_map_locality(int nfrom, int dim, const int *map, const int *row_order,
                              const int *new_of_old, op_locality *out) {
  double bits = 0, span = 0;
  long max_span = 0;
  for (long k = 0; k < nfrom; k++) {
    const int *row = map + (long)(row_order ? row_order[k] : k) * dim;
    const int *prev = k ? map + (long)(row_order ? row_order[k - 1] : k - 1) * dim : NULL;
    long lo = 0, hi = 0;
    for (int a = 0; a < dim; a++) {
      const long v = new_of_old ? new_of_old[row[a]] : row[a];
      if (a == 0 || v < lo) lo = v;
      if (a == 0 || v > hi) hi = v;
      if (prev) {
        const long p = new_of_old ? new_of_old[prev[a]] : prev[a];
        bits += bit_length(labs(v - p));
      }
    }
    span += (double)(hi - lo);
    if (hi - lo > max_span) max_span = hi - lo;
  }
  out->step_bits = nfrom > 1 ? bits / ((double)(nfrom - 1) * dim) : 0;
  out->mean_span = nfrom > 0 ? span / nfrom : 0;
  out->max_span = (double)max_span;
}

/* The locality of every map base's to-set reaches, under `order` (NULL: as they are): the
 * step bits averaged over the maps, each weighed by its entries (one access each); the span
 * over the maps with more than one entry a row, likewise. */
static void mesh_locality(int **order, int **reached, double *bits, double *span) {
  const char *when = order ? "renumbered" : "as declared";
  double wbits = 0, wspan = 0, nbits = 0, nspan = 0;
  for (int m = 0; m < op_g.nmaps; m++) {
    op_map map = op_g.maps[m];
    if (!reached[map->from->index] && !reached[map->to->index]) continue;
    int *new_of_old = NULL;
    if (order && order[map->to->index]) {
      new_of_old = op_malloc(sizeof(int) * ((size_t)map->to->size + 1));
      op_renumber_invert(map->to->size, order[map->to->index], new_of_old);
    }
    op_locality l;
    op_renumber_map_locality(map->from->size, map->dim, map->map,
                             order ? order[map->from->index] : NULL, new_of_old, &l);
    free(new_of_old);
    if (op_g.diags >= 2)
      op_printf("op_renumber: map \"%s\" %s: step bits %.2f, index span mean %.1f, max %.0f\n",
                map->name, when, l.step_bits, l.mean_span, l.max_span);
    const double entries = (double)map->from->size * map->dim;
    wbits += l.step_bits * entries;
    nbits += entries;
    if (map->dim > 1) {
      wspan += l.mean_span * entries;
      nspan += entries;
    }
  }
  *bits = nbits > 0 ? wbits / nbits : 0;
  *span = nspan > 0 ? wspan / nspan : 0;
}

/* ---- op_renumber ------------------------------------------------------------------------ */

/* The checks every renumbering makes; 0 on the MPI build, where it is not applied (and says
 * so when `say`). */
static int renumber_prepare(op_map base, int say) {
  OP_CHECK(op_g.initialised, "op_renumber called before op_init");
  OP_CHECK(base && base->from && base->to, "op_renumber: the base map is NULL");
  /* Plans, and a device's copies of maps, hold element numbers: renumbering
   * comes before the first loop. */
  OP_CHECK(op_plan_cache_size() == 0,
           "op_renumber(\"%s\"): call it before the first op_par_loop (loops have run, and "
           "their plans hold the old numbers)",
           base->name);
  /* On the MPI build the partition orders each process's elements (owned
   * core elements first, then the halos: op2/mpi/op_mpi_halo.c) and an
   * element's user number is its global one (op_global_index): the call is
   * kept for OP2's applications and changes nothing there. */
  if (op_dist) {
    if (say)
      op_printf(
          "op_renumber(\"%s\"): not applied on the MPI build: each process keeps the "
          "partition's local order\n",
          base->name);
    return 0;
  }
  if (nnumberings < op_g.nsets) {
    op_at_exit(renumber_free, "renumber");
    numberings = op_realloc(numberings, sizeof(numbering) * (size_t)op_g.nsets);
    memset(numberings + nnumberings, 0, sizeof(numbering) * (size_t)(op_g.nsets - nnumberings));
    nnumberings = op_g.nsets;
  }
  return 1;
}

/* Entries of maps are remapped with their to-set's order, rows with the
 * from-set's: applied set by set, each permutation sees the others' done. */
static void apply_orders(int **order) {
  for (int s = 0; s < op_g.nsets; s++)
    if (order[s]) apply_order(op_g.sets[s], order[s]);
}

void op_renumber(op_map base) {
  if (!renumber_prepare(base, 1)) return;
  int **order = find_orders(base);
  apply_orders(order);
  free_orders(order);
}

int op_renumber_if(op_map base, double min_gain, op_renumber_result *r) {
  memset(r, 0, sizeof *r);
  /* Asked to renumber whatever it finds, it says on the MPI build that it does not. */
  if (!renumber_prepare(base, min_gain == -HUGE_VAL)) return 0;
  r->measured = 1;
  /* The sets base's to-set reaches, to measure their maps before any order is sought. */
  int **reached = op_calloc((size_t)op_g.nsets, sizeof(int *));
  static int mark;
  reached[base->to->index] = &mark;
  for (int grew = 1; grew;) {
    grew = 0;
    for (int m = 0; m < op_g.nmaps; m++) {
      op_map map = op_g.maps[m];
      if (!!reached[map->from->index] != !!reached[map->to->index]) {
        reached[map->from->index] = reached[map->to->index] = &mark;
        grew = 1;
      }
    }
  }
  mesh_locality(NULL, reached, &r->bits_before, &r->span_before);
  free(reached);
  /* Step bits are never below 0: an order already below min_gain cannot gain it, and the
   * search (a second or more on a mesh of a million cells) is not made. */
  if (r->bits_before < min_gain) {
    r->bits_after = r->span_after = NAN;
    return 0;
  }
  int **order = find_orders(base);
  mesh_locality(order, order, &r->bits_after, &r->span_after);
  r->renumbered = r->bits_before - r->bits_after >= min_gain;
  if (r->renumbered) apply_orders(order);
  free_orders(order);
  return r->renumbered;
}
