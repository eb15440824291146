/*
 * op_plan_columns.c - what the columns of maps reach over a loop's elements
 * (op_plan_parts.h): how many distinct elements, and whether one is reached
 * twice; from that, which loops need no colouring at all (each dat they
 * write reached through one one-to-one map column, as a structured grid's
 * loop writes its own cell).
 *
 * Each column is read once, in pieces over the threads: a piece marks its
 * rows in a bitmap of its own (a target marked twice within the piece is a
 * repeat), then the bitmaps are combined word by word (a bit set in two of
 * them is a repeat). A pass over the map, whatever the mesh; no sorting.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_at_exit.h"
#include "op_dist.h"
#include "op_parallel.h"
#include "op_plan_parts.h"
#include "op_state.h"

/* Rows marked by one piece at least (fewer pieces for fewer rows: each
 * piece zeroes a bitmap over the whole target set). */
#define COLUMN_PIECE_ROWS 65536L
#define COLUMN_MAX_PIECES 64L
/* Words of the combined bitmaps per piece of the combining pass. */
#define COMBINE_PIECE_WORDS 16384L

typedef struct {
  int ncols;
  const int *map[OP_PLAN_MAX_ARGS];
  int dim[OP_PLAN_MAX_ARGS], idx[OP_PLAN_MAX_ARGS];
  long rows, words, pieces;
  uint64_t **bits; /* per piece that began a range of pieces: its bitmap */
  int *repeated;   /* per piece that began a range: a target marked twice in it */
} mark_job;

static void mark_rows(long lo, long hi, void *ctx) {
  mark_job *j = ctx;
  uint64_t *b = op_calloc((size_t)j->words, sizeof(uint64_t));
  const long r0 = j->rows * lo / j->pieces, r1 = j->rows * hi / j->pieces;
  uint64_t rep = 0;
  for (int c = 0; c < j->ncols; c++) {
    const int *m = j->map[c] + j->idx[c];
    const long D = j->dim[c];
    for (long n = r0; n < r1; n++) {
      const unsigned t = (unsigned)m[n * D];
      const uint64_t bit = (uint64_t)1 << (t & 63u);
      rep |= b[t >> 6] & bit;
      b[t >> 6] |= bit;
    }
  }
  j->bits[lo] = b;
  j->repeated[lo] = rep != 0;
}

typedef struct {
  const mark_job *m;
  long pieces;
  long *count;   /* per combining piece: distinct targets */
  int *repeated; /* per combining piece: a bit set in two bitmaps */
} combine_job;

static void combine_words(long lo, long hi, void *ctx) {
  combine_job *j = ctx;
  for (long p = lo; p < hi; p++) {
    const long w0 = p * COMBINE_PIECE_WORDS;
    const long w1 = w0 + COMBINE_PIECE_WORDS < j->m->words ? w0 + COMBINE_PIECE_WORDS : j->m->words;
    long count = 0;
    uint64_t rep = 0;
    for (long w = w0; w < w1; w++) {
      uint64_t acc = 0;
      for (long k = 0; k < j->m->pieces; k++) {
        const uint64_t *b = j->m->bits[k];
        if (!b) continue;
        rep |= acc & b[w];
        acc |= b[w];
      }
      count += __builtin_popcountll(acc);
    }
    j->count[p] = count;
    j->repeated[p] = rep != 0;
  }
}

op_plan_footprint op_plan_columns_footprint(int ncols, const op_map *maps, const int *idx,
                                            long rows, long to_size) {
  OP_CHECK(ncols >= 1 && ncols <= OP_PLAN_MAX_ARGS, "%d map columns (1 to %d)", ncols,
           OP_PLAN_MAX_ARGS);
  op_plan_footprint f = {0, 0};
  if (rows <= 0) return f;
  mark_job m;
  memset(&m, 0, sizeof m);
  m.ncols = ncols;
  for (int c = 0; c < ncols; c++) {
    m.map[c] = maps[c]->map;
    m.dim[c] = maps[c]->dim;
    m.idx[c] = idx[c];
  }
  m.rows = rows;
  m.words = to_size / 64 + 1;
  m.pieces = rows / COLUMN_PIECE_ROWS;
  if (m.pieces < 1) m.pieces = 1;
  if (m.pieces > COLUMN_MAX_PIECES) m.pieces = COLUMN_MAX_PIECES;
  m.bits = op_calloc((size_t)m.pieces, sizeof(uint64_t *));
  m.repeated = op_calloc((size_t)m.pieces, sizeof(int));
  op_parallel_for(m.pieces, mark_rows, &m);

  combine_job c;
  c.m = &m;
  c.pieces = (m.words + COMBINE_PIECE_WORDS - 1) / COMBINE_PIECE_WORDS;
  c.count = op_calloc((size_t)c.pieces, sizeof(long));
  c.repeated = op_calloc((size_t)c.pieces, sizeof(int));
  op_parallel_for(c.pieces, combine_words, &c);
  for (long p = 0; p < c.pieces; p++) {
    f.distinct += c.count[p];
    f.repeated |= c.repeated[p];
  }
  for (long k = 0; k < m.pieces; k++) {
    f.repeated |= m.repeated[k] && m.bits[k];
    free(m.bits[k]);
  }
  free(m.bits);
  free(m.repeated);
  free(c.count);
  free(c.repeated);
  return f;
}

/* ---- one-to-one columns, remembered per map ---------------------------------------- */

typedef struct {
  int map, idx, rows, one_to_one;
} column_seen;

static column_seen *seen;
static int nseen, cap_seen;

void op_plan_columns_forget(void) {
  free(seen);
  seen = NULL;
  nseen = cap_seen = 0;
}

/* Where the map has affine runs (the plans find them once per map), a run
 * gives the column a range of targets (step 1) or one target (step 0):
 * the column is one-to-one when no run of two rows or more has step 0 and
 * no two ranges overlap, which a bitmap of the targets tells a range at a
 * time. Returns -1 when the map has no runs worth having. */
static int one_to_one_by_runs(op_map m, int idx, int rows) {
  int nbreaks;
  const int *breaks = op_plan_map_breaks(m, &nbreaks);
  if (!breaks || rows <= 0) return -1;
  const long words = (long)op_set_held(m->to) / 64 + 1;
  uint64_t *bits = op_calloc((size_t)words, sizeof(uint64_t));
  int ok = 1;
  for (int r = 0; r <= nbreaks && ok; r++) {
    const long s = r == 0 ? 0 : breaks[r - 1];
    long e = r == nbreaks ? rows : breaks[r];
    if (e > rows) e = rows;
    if (s >= e) break;
    const long lo = m->map[s * m->dim + idx];
    const long step = e - s > 1 ? m->map[(s + 1) * m->dim + idx] - lo : 1;
    if (step == 0) {
      ok = 0;
      break;
    }
    const long hi = lo + (e - s); /* [lo, hi): step 1 */
    for (long w = lo >> 6; w <= (hi - 1) >> 6 && ok; w++) {
      uint64_t mask = ~(uint64_t)0;
      if (w == lo >> 6) mask &= ~(uint64_t)0 << (lo & 63);
      if (w == (hi - 1) >> 6) mask &= ~(uint64_t)0 >> (63 - ((hi - 1) & 63));
      ok = (bits[w] & mask) == 0;
      bits[w] |= mask;
    }
  }
  free(bits);
  return ok;
}

int op_plan_column_one_to_one(op_map m, int idx, int rows) {
  for (int i = 0; i < nseen; i++)
    if (seen[i].map == m->index && seen[i].idx == idx && seen[i].rows == rows)
      return seen[i].one_to_one;
  int one = one_to_one_by_runs(m, idx, rows);
  if (one < 0)
    one = !op_plan_columns_footprint(1, &m, &idx, rows, (long)op_set_held(m->to)).repeated;
  if (nseen == cap_seen) {
    op_at_exit(op_plan_columns_forget, "map columns");
    cap_seen = cap_seen ? 2 * cap_seen : 16;
    seen = op_realloc(seen, sizeof(*seen) * (size_t)cap_seen);
  }
  seen[nseen++] = (column_seen){m->index, idx, rows, one};
  return one;
}

/* ---- loops that need no colouring ------------------------------------------------- */

static int through_map(const op_arg *a) { return a->kind == OP_ARG_DAT && a->map && a->dat; }

int op_args_conflict_free(int nargs, const op_arg *args, int rows, int atomic_increments) {
  for (int i = 0; i < nargs; i++) {
    const op_arg *a = &args[i];
    if (a->kind == OP_ARG_DAT && a->map && !a->dat) return 0;
    if (!through_map(a) || a->acc == OP_READ) continue;
    /* a writes its dat through a map: look at every argument on that dat. */
    int increments_only = 1, one_column = 1;
    for (int j = 0; j < nargs; j++) {
      const op_arg *b = &args[j];
      if (b->kind != OP_ARG_DAT || b->dat != a->dat) continue;
      if (!b->map || b->acc != OP_INC) increments_only = 0;
      if (!b->map || b->map != a->map || b->idx != a->idx) one_column = 0;
    }
    if (atomic_increments && increments_only) continue;
    if (!one_column || !op_plan_column_one_to_one(a->map, a->idx, rows)) return 0;
  }
  return 1;
}
