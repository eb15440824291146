/*
 * op_plan_affine.c - the affine runs of a plan (op_plan.h): stretches of a
 * block in which every map the loop reads gives the element's number plus a
 * constant, as on a structured part of a mesh (a row of a grid). The CPU
 * backends run such a stretch as a direct loop: its indices computed, not
 * read, and its data streamed as SIMD lanes.
 *
 * Each map is looked at once, whatever the loops using it: it is cut into
 * runs of rows in which each entry steps by 0 or by 1 from row to row (a
 * row of a grid: its neighbours step by 1; a column of a dense matrix: its
 * column number steps by 0). A map with more breaks than one per
 * OP_AFFINE_MIN_RUN rows is marked as having no runs, and loops using it
 * take the general way everywhere.
 */
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op_at_exit.h"
#include "op_parallel.h"
#include "op_plan_parts.h"
#include "op_state.h"

/* ---- the breaks of a map --------------------------------------------------------- */

typedef struct {
  int known;    /* looked at */
  int scattered;/* too many breaks: no runs worth having */
  int nbreaks;
  int *breaks;  /* ascending rows n >= 1 where a run starts */
} map_breaks;

static map_breaks *maps_seen;
static int nmaps_seen;

void op_plan_affine_forget_maps(void) {
  for (int i = 0; i < nmaps_seen; i++) free(maps_seen[i].breaks);
  free(maps_seen);
  maps_seen = NULL;
  nmaps_seen = 0;
}

/* Rows are scanned in pieces over the threads (op_plan_row_pieces), each
 * piece starting a run. */
/* Map dims up to this are scanned with a fixed-size step array. */
#define SCAN_MAX_DIM 64

typedef struct {
  const int *map;
  int dim;
  long rows;
  long limit;      /* more breaks than this in a piece: scattered */
  long pieces;
  long *count;     /* per piece: its breaks (counting stops past limit) */
  int *out;        /* where the pieces write their breaks */
  long *at;        /* per piece: its first position in out */
  long *room;      /* per piece: how many fit there; more are only counted */
  int rescan;      /* second pass: only the pieces that had more than room */
} break_job;

/* Row n differs from row n - 1 by step in every entry (NULL step: by 0 or 1,
 * then written into fill). D is a constant in the common cases, so that the
 * comparison is unrolled. */
static inline int same_step(const int *map, int D, long n, const int *step, int *fill) {
  const int *r = map + n * D, *q = r - D;
  int ok = 1;
  if (step) {
    for (int k = 0; k < D; k++) ok &= r[k] - q[k] == step[k];
  } else {
    for (int k = 0; k < D; k++) {
      fill[k] = r[k] - q[k];
      ok &= fill[k] == 0 || fill[k] == 1;
    }
  }
  return ok;
}

/* Rows [n, n + SCAN_CHUNK) all keep the run's steps: r points at row n,
 * pat holds the steps once per row of the chunk. Branch-free over the
 * chunk's entries, so that it runs as SIMD lanes. */
#define SCAN_CHUNK 16
static inline int chunk_same_step(const int *r, int D, const int *pat) {
  int bad = 0;
  for (int i = 0; i < SCAN_CHUNK * D; i++) bad |= (r[i] - r[i - D]) ^ pat[i];
  return bad == 0;
}

/* The breaks of rows [r0, r1): the rows where a run starts (r0 itself, but
 * for row 0). A run's second row fixes each entry's step, 0 or 1; the run
 * goes on while every row keeps those steps. Once a run is SCAN_CHUNK rows
 * long, its rows are checked a chunk at a time (row by row where a chunk
 * holds a break). Writes the first `room` breaks from out; returns how
 * many, stopping past limit. */
#define SCAN_ROWS(D)                                                        \
  do {                                                                      \
    int step[SCAN_MAX_DIM] = {0}, pat[SCAN_CHUNK * SCAN_MAX_DIM];           \
    int have_pat = 0;                                                       \
    long start = r0;                                                        \
    if (r0 > 0) {                                                           \
      if (c < room) out[c] = (int)r0;                                       \
      c++;                                                                  \
    }                                                                       \
    for (long n = r0 + 1; n < r1; n++) {                                    \
      if (n - start >= SCAN_CHUNK && n + SCAN_CHUNK <= r1) {                \
        if (!have_pat) {                                                    \
          for (int i = 0; i < SCAN_CHUNK * (D); i++) pat[i] = step[i % (D)]; \
          have_pat = 1;                                                     \
        }                                                                   \
        if (chunk_same_step(j->map + n * (D), (D), pat)) {                  \
          n += SCAN_CHUNK - 1;                                              \
          continue;                                                         \
        }                                                                   \
      }                                                                     \
      if (same_step(j->map, D, n, n == start + 1 ? NULL : step, step))      \
        continue;                                                           \
      start = n;                                                            \
      have_pat = 0;                                                         \
      if (c < room) out[c] = (int)n;                                        \
      if (++c > j->limit) break;                                            \
    }                                                                       \
  } while (0)

static long scan_rows(const break_job *j, long r0, long r1, int *out, long room) {
  long c = 0;
  switch (j->dim) {
    case 1: SCAN_ROWS(1); break;
    case 2: SCAN_ROWS(2); break;
    case 4: SCAN_ROWS(4); break;
    case 5: SCAN_ROWS(5); break;
    default: SCAN_ROWS(j->dim); break;
  }
  return c;
}

static void piece_breaks(long lo, long hi, void *ctx) {
  break_job *j = ctx;
  for (long p = lo; p < hi; p++) {
    const long r0 = j->rows * p / j->pieces, r1 = j->rows * (p + 1) / j->pieces;
    if (!j->rescan)
      j->count[p] = scan_rows(j, r0, r1, j->out + j->at[p], j->room[p]);
    else if (j->count[p] > j->room[p])
      scan_rows(j, r0, r1, j->out + j->at[p], j->count[p]);
  }
}

static const map_breaks *breaks_of(op_map m) {
  if (m->index >= nmaps_seen) {
    op_at_exit(op_plan_affine_forget_maps, "affine runs of maps");
    const int n = op_g.nmaps > m->index ? op_g.nmaps : m->index + 1;
    maps_seen = op_realloc(maps_seen, sizeof(*maps_seen) * (size_t)n);
    memset(maps_seen + nmaps_seen, 0, sizeof(*maps_seen) * (size_t)(n - nmaps_seen));
    nmaps_seen = n;
  }
  map_breaks *b = &maps_seen[m->index];
  if (b->known) return b;
  b->known = 1;
  const long rows = op_plan_map_rows(m), pieces = op_plan_row_pieces(rows);
  const long limit = rows / OP_AFFINE_MIN_RUN + pieces;
  if (m->dim > SCAN_MAX_DIM) {
    b->scattered = 1;
    return b;
  }
  /* One read of the map: each piece keeps its breaks, up to its share of
   * the limit, in a slot of its own; a piece with more (breaks unevenly
   * spread, yet not too many in all) is read again into place. */
  long count[OP_PLAN_ROW_PIECES], at[OP_PLAN_ROW_PIECES], room[OP_PLAN_ROW_PIECES], slots = 0;
  for (long p = 0; p < pieces; p++) {
    const long r0 = rows * p / pieces, r1 = rows * (p + 1) / pieces;
    room[p] = (r1 - r0) / OP_AFFINE_MIN_RUN + 1;
    at[p] = slots;
    slots += room[p];
  }
  int *slot = op_malloc(sizeof(int) * ((size_t)slots + 1));
  break_job j = {m->map, m->dim, rows, limit, pieces, count, slot, at, room, 0};
  op_parallel_for(pieces, piece_breaks, &j);
  long total = 0, overflow = 0;
  for (long p = 0; p < pieces; p++) {
    total += count[p];
    overflow |= count[p] > room[p];
  }
  if (total > limit) {
    free(slot);
    b->scattered = 1;
    return b;
  }
  b->nbreaks = (int)total;
  b->breaks = op_malloc(sizeof(int) * ((size_t)total + 1));
  long next = 0;
  for (long p = 0; p < pieces; p++) {
    if (count[p] <= room[p])
      memcpy(b->breaks + next, slot + at[p], sizeof(int) * (size_t)count[p]);
    at[p] = next;
    next += count[p];
  }
  free(slot);
  if (overflow) {
    j.out = b->breaks;
    j.rescan = 1;
    op_parallel_for(pieces, piece_breaks, &j);
  }
  return b;
}

const int *op_plan_map_breaks(op_map m, int *nbreaks) {
  const map_breaks *b = breaks_of(m);
  *nbreaks = b->scattered ? 0 : b->nbreaks;
  /* No breaks at all: one run, and an empty list that is not NULL. */
  return b->scattered ? NULL : b->breaks ? b->breaks : (const int *)&b->nbreaks;
}

/* ---- the segments of a plan ---------------------------------------------------- */

static inline int is_mapped(const op_arg *a) {
  return (a->kind == OP_ARG_DAT || a->kind == OP_ARG_IDX) && a->map;
}

static inline int target(const op_arg *a, int n) { return a->map->map[n * a->map->dim + a->idx]; }

/* May elements with these map steps and offsets run as SIMD lanes, each
 * reaching its data at step * (its number) + offset? Only if every dat the
 * loop writes is reached with step 1 at one offset (a direct argument: step
 * 1, offset 0): then no element reads or writes what another element writes.
 * Read-only data may be reached with step 0 (the same element for all). */
static int offsets_safe(const op_arg *args, int nargs, const int *step, const int *off) {
  for (int i = 0; i < nargs; i++) {
    if (args[i].kind != OP_ARG_DAT) continue;
    const int si = args[i].map ? step[i] : 1, oi = args[i].map ? off[i] : 0;
    if (args[i].acc != OP_READ && si != 1) return 0;
    for (int j = i + 1; j < nargs; j++) {
      if (args[j].kind != OP_ARG_DAT || args[j].dat != args[i].dat) continue;
      if (args[i].acc == OP_READ && args[j].acc == OP_READ) continue;
      if ((args[j].map ? step[j] : 1) != si || (args[j].map ? off[j] : 0) != oi) return 0;
    }
  }
  return 1;
}

/* Then the elements of a segment meet only in the data they increment,
 * which op_interleaved_order adds in element order. */
int op_plan_interleave_safe(const op_arg *args, int nargs) {
  for (int i = 0; i < nargs; i++) {
    const op_arg *a = &args[i];
    if (a->kind == OP_ARG_GBL && a->acc != OP_READ) return 0;
    if (a->kind == OP_ARG_INFO) return 0;
    if (a->kind != OP_ARG_DAT || !a->map) continue;
    if (a->acc != OP_READ && a->acc != OP_INC) return 0;
    if (a->acc != OP_INC) continue;
    for (int j = 0; j < nargs; j++)
      if (args[j].kind == OP_ARG_DAT && args[j].dat == a->dat &&
          !(args[j].map && args[j].acc == OP_INC))
        return 0;
  }
  return 1;
}

typedef struct {
  op_plan *p;
  const op_arg *args;
  int nargs;
  int nmaps;                          /* distinct maps of the mapped arguments */
  const map_breaks *maps[OP_PLAN_MAX_ARGS];
  int period; /* of the interleaved runs, where there are no affine ones; 0: none */
  const op_interleave_breaks *ibreaks[OP_PLAN_MAX_ARGS]; /* of each of the maps, for period */
  int *count;                         /* per block: its segments (first pass) */
} seg_job;

/* The first of the ascending rows[0, n) above x, or limit when none is
 * below limit. */
static int first_above(const int *rows, int n, int x, int limit) {
  int lo = 0, hi = n;
  while (lo < hi) {
    const int mid = lo + (hi - lo) / 2;
    if (rows[mid] <= x) lo = mid + 1; else hi = mid;
  }
  return lo < n && rows[lo] < limit ? rows[lo] : limit;
}

/* The first break after n of any of the loop's maps, or limit. */
static int next_break(const seg_job *j, int n, int limit) {
  for (int k = 0; k < j->nmaps; k++)
    limit = first_above(j->maps[k]->breaks, j->maps[k]->nbreaks, n, limit);
  return limit;
}

/* The first row at or after n that breaks the interleaved runs of any of
 * the loop's maps, or limit. */
static int next_interleave_break(const seg_job *j, int n, int limit) {
  for (int k = 0; k < j->nmaps; k++)
    limit = first_above(j->ibreaks[k]->rows, j->ibreaks[k]->nrows, n - 1, limit);
  return limit;
}

/* Writes segment `at` of the plan: [lo, hi), its kind, period, steps and
 * offsets (kinds 1 and 2). */
static void put_segment(op_plan *p, int nargs, int at, int lo, int hi, int kind, int period,
                        const int *step, const int *off) {
  const int affine = kind == 1 || kind == 2;
  p->seg_start[at] = lo;
  p->seg_end[at] = hi;
  p->seg_affine[at] = kind;
  p->seg_period[at] = period;
  for (int i = 0; i < nargs; i++) {
    p->seg_step[(size_t)at * (size_t)nargs + (size_t)i] = affine ? step[i] : 0;
    p->seg_off[(size_t)at * (size_t)nargs + (size_t)i] = affine ? off[i] : 0;
  }
}

/* Cuts block b into interleaved runs of period P and general segments, as
 * block_segments does. A run from n holds rows up to the next break at or
 * after n + P (its first P rows start its phases); a shorter one than
 * OP_AFFINE_MIN_RUN elements is left to the general segment, and the next
 * run is looked for where it could be longer: just before that break. */
static int block_interleaved(const seg_job *j, int b, int at) {
  op_plan *p = j->p;
  const int s0 = p->offset[b], s1 = s0 + p->nelems[b], P = j->period;
  const int fill = p->seg_start != NULL;
  int nseg = 0, general = s0;
  for (int n = s0; n + OP_AFFINE_MIN_RUN <= s1;) {
    const int hi = next_interleave_break(j, n + P, s1), len = (hi - n) / P * P;
    if (len >= OP_AFFINE_MIN_RUN) {
      if (general < n) {
        if (fill) put_segment(p, j->nargs, at + nseg, general, n, 0, 1, NULL, NULL);
        nseg++;
      }
      if (fill) put_segment(p, j->nargs, at + nseg, n, n + len, 3, P, NULL, NULL);
      nseg++;
      general = n = n + len;
    } else {
      n = hi - P + 1 > n + 1 ? hi - P + 1 : n + 1;
    }
  }
  if (general < s1 || nseg == 0) {
    if (fill) put_segment(p, j->nargs, at + nseg, general, s1, 0, 1, NULL, NULL);
    nseg++;
  }
  return nseg;
}

/* Cuts block b into segments; writes them from position `at` when
 * p->seg_start is allocated, and returns how many there are. */
static int block_segments(const seg_job *j, int b, int at) {
  op_plan *p = j->p;
  const op_arg *args = j->args;
  const int nargs = j->nargs, s0 = p->offset[b], s1 = s0 + p->nelems[b];
  const int fill = p->seg_start != NULL;
  int step[OP_PLAN_MAX_ARGS], off[OP_PLAN_MAX_ARGS], nseg = 0, general = s0;
  int scattered = !op_g.affine_runs;
  for (int k = 0; k < j->nmaps && !scattered; k++) scattered |= j->maps[k]->scattered;
  if (scattered && j->period) return block_interleaved(j, b, at);
  for (int n = s0; n < s1 && !scattered;) {
    const int m = next_break(j, n, s1);
    int kind = 1;
    for (int i = 0; i < nargs; i++) {
      step[i] = 1;
      off[i] = 0;
      if (!is_mapped(&args[i]) || m - n < 2) continue;
      step[i] = target(&args[i], n + 1) - target(&args[i], n);
      off[i] = target(&args[i], n) - step[i] * n;
      if (step[i] != 1) kind = 2; /* some data reached at one element for all */
    }
    if (m - n >= OP_AFFINE_MIN_RUN && offsets_safe(args, nargs, step, off)) {
      if (general < n) {
        if (fill) put_segment(p, nargs, at + nseg, general, n, 0, 1, step, off);
        nseg++;
      }
      if (fill) put_segment(p, nargs, at + nseg, n, m, kind, 1, step, off);
      nseg++;
      general = m;
    }
    n = m;
  }
  if (general < s1 || nseg == 0) {
    if (fill) put_segment(p, nargs, at + nseg, general, s1, 0, 1, step, off);
    nseg++;
  }
  return nseg;
}

static void count_segments(long lo, long hi, void *ctx) {
  seg_job *j = ctx;
  for (long b = lo; b < hi; b++) j->count[b] = block_segments(j, (int)b, 0);
}

static void fill_segments(long lo, long hi, void *ctx) {
  seg_job *j = ctx;
  for (long b = lo; b < hi; b++) block_segments(j, (int)b, j->p->blk_seg[b]);
}

void op_plan_find_affine_runs(op_plan *p, const op_arg *args, int nargs) {
  OP_CHECK(nargs <= OP_PLAN_MAX_ARGS, "plan for loop \"%s\": %d arguments, at most %d",
           p->loop_name, nargs, OP_PLAN_MAX_ARGS);
  seg_job j;
  memset(&j, 0, sizeof j);
  j.p = p;
  j.args = args;
  j.nargs = nargs;
  op_map distinct[OP_PLAN_MAX_ARGS];
  for (int i = 0; i < nargs; i++) {
    if (!is_mapped(&args[i])) continue;
    int seen = 0;
    for (int k = 0; k < i; k++) seen |= is_mapped(&args[k]) && args[k].map == args[i].map;
    if (seen) continue;
    distinct[j.nmaps] = args[i].map;
    j.maps[j.nmaps++] = breaks_of(args[i].map);
  }
  /* No affine runs in some map: interleaved runs, of the period with the
   * fewest breaks, when the loop allows them. */
  int no_runs = 0;
  for (int k = 0; k < j.nmaps; k++) no_runs |= j.maps[k]->scattered;
  if (op_g.affine_runs && no_runs && j.nmaps && op_plan_interleave_safe(args, nargs)) {
    long best = -1;
    for (int P = 2; P <= OP_PLAN_MAX_PERIOD; P++) {
      const op_interleave_breaks *ib[OP_PLAN_MAX_ARGS];
      long total = 0;
      for (int k = 0; k < j.nmaps && total >= 0; k++) {
        ib[k] = op_plan_interleave_breaks(distinct[k], P);
        total = ib[k]->scattered ? -1 : total + ib[k]->nrows;
      }
      if (total >= 0 && (best < 0 || total < best)) {
        best = total;
        j.period = P;
        memcpy(j.ibreaks, ib, sizeof(ib[0]) * (size_t)j.nmaps);
      }
    }
  }
  j.count = op_malloc(sizeof(int) * ((size_t)p->nblocks + 1));
  op_parallel_for(p->nblocks, count_segments, &j);
  p->blk_seg = op_malloc(sizeof(int) * ((size_t)p->nblocks + 1));
  long total = 0;
  for (int b = 0; b < p->nblocks; b++) {
    p->blk_seg[b] = (int)total;
    total += j.count[b];
  }
  p->blk_seg[p->nblocks] = (int)total;
  free(j.count);
  p->nsegs = (int)total;
  const size_t ns = (size_t)total + 1;
  p->seg_start = op_malloc(sizeof(int) * ns);
  p->seg_end = op_malloc(sizeof(int) * ns);
  p->seg_affine = op_malloc(sizeof(int) * ns);
  p->seg_off = op_malloc(sizeof(int) * ns * (size_t)(nargs ? nargs : 1));
  p->seg_step = op_malloc(sizeof(int) * ns * (size_t)(nargs ? nargs : 1));
  p->seg_period = op_malloc(sizeof(int) * ns);
  op_parallel_for(p->nblocks, fill_segments, &j);
}
