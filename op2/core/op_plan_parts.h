/*
 * op_plan_parts.h - parts of a plan built outside op_plan.c. Private to the
 * library.
 */
#ifndef OP_PLAN_PARTS_H
#define OP_PLAN_PARTS_H

#include "op_plan.h"

/* ---- scanning a map for runs (op_plan_affine.c, op_plan_interleaved.c) ---- */
/* Rows are scanned in pieces over the threads: at most OP_PLAN_ROW_PIECES
 * pieces, of at least OP_PLAN_PIECE_ROWS rows. */
#define OP_PLAN_ROW_PIECES 256
#define OP_PLAN_PIECE_ROWS 65536L
/* Every row of m a plan may run: the owned elements and, on many processes,
 * the execute halo after them. */
static inline long op_plan_map_rows(op_map m) { return (long)m->from->size + m->from->exec_size; }
/* The pieces rows are scanned in. */
static inline long op_plan_row_pieces(long rows) {
  const long n = rows / OP_PLAN_PIECE_ROWS;
  return n < 1 ? 1 : n > OP_PLAN_ROW_PIECES ? OP_PLAN_ROW_PIECES : n;
}

/* ---- op_plan_affine.c ---- */
/* Fills p->nsegs, blk_seg, seg_start, seg_end, seg_affine and seg_off. */
void op_plan_find_affine_runs(op_plan *p, const op_arg *args, int nargs);
/* The rows (ascending, from 1) where map m's affine runs begin, each run
 * stepping every entry by 0 or 1 a row; NULL when its runs are too short to
 * be worth having. Found on first use, as the plans find them. */
const int *op_plan_map_breaks(op_map m, int *nbreaks);
/* Forgets what was learnt about the maps (the rows where their affine
 * pattern breaks): after their entries change (op_plan_cache_clear), and at
 * op_exit (it joins the teardown, op_at_exit.h, when it first learns). */
void op_plan_affine_forget_maps(void);
/* May the loop run interleaved runs (op_plan.h)? Only when it reads and
 * increments through its maps and nothing else: no WRITE or RW through a
 * map, no reduction, and no dat it increments reached by another argument
 * that is not an increment through a map. */
int op_plan_interleave_safe(const op_arg *args, int nargs);

/* ---- op_plan_interleaved.c ---- */
/* The rows of a map that break its interleaved runs of one period. */
typedef struct {
  int known;     /* looked at */
  int scattered; /* more than one break in OP_AFFINE_MIN_RUN rows: no runs worth having */
  int nrows;
  int *rows;     /* ascending rows n >= period that are not row n - period plus one */
} op_interleave_breaks;
/* Those of map m for period (2 to OP_PLAN_MAX_PERIOD), found on first use. */
const op_interleave_breaks *op_plan_interleave_breaks(op_map m, int period);
/* Forgets them, as op_plan_affine_forget_maps does. */
void op_plan_interleaved_forget_maps(void);

/* ---- op_plan_staged.c: what a staged plan adds (OP_PLAN_STAGED) ---- */
/* The local renumbering: ind_offs, ind_sizes, ind_maps, loc_maps, nshared. */
void op_plan_renumber(op_plan *p, const op_arg *args, int nargs);
/* The element colours within each block: thrcol, nthrcol, max_thrcol
 * (after op_plan_renumber, whose local numbers it uses). */
void op_plan_colour_elements(op_plan *p, const op_arg *args, int nargs);

/* ---- op_plan_footprint.c: what the elements touch, as ranges where the
 * plan has affine runs (a structured mesh costs a few range operations per
 * row instead of one per element) ---- */
/* 1 when no element of a dat the loop writes indirectly is touched (read or
 * written) by two different blocks: then every block may have colour 0. */
int op_plan_blocks_disjoint(const op_plan *p, const op_arg *args, int nargs);
/* 1 when, in every general (not affine) segment, no element of a dat the
 * loop writes indirectly other than by increments (WRITE, RW) is touched by
 * two elements, or twice by one (plan->chunk_safe). Needs the segments. */
int op_plan_segments_chunk_safe(const op_plan *p, const op_arg *args, int nargs);
/* How many distinct elements of dat the loop's mapped arguments touch. */
long op_plan_touched(const op_plan *p, const op_arg *args, int nargs, op_dat dat);

/* ---- op_plan_columns.c: map columns over a loop's rows, in one parallel pass ---- */
typedef struct {
  long distinct; /* distinct targets */
  int repeated;  /* some target is reached twice (by two rows, or two columns of a row) */
} op_plan_footprint;
/* Columns idx[c] of maps[c] over rows [0, rows), into a set of to_size elements. */
op_plan_footprint op_plan_columns_footprint(int ncols, const op_map *maps, const int *idx,
                                            long rows, long to_size);
/* 1 when column idx of map m gives a different element for each of rows
 * [0, rows); remembered per map until op_plan_columns_forget. */
int op_plan_column_one_to_one(op_map m, int idx, int rows);
/* Forgets what was learnt of the maps' columns, as op_plan_affine_forget_maps. */
void op_plan_columns_forget(void);

#endif
