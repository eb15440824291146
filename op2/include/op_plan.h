/*
 * op_plan.h - execution plans for parallel loops (Giles, OP2 Developers Guide, 2011, section 3).
 *
 * A plan splits the iteration set into contiguous mini-partitions ("blocks"),
 * renumbers the indirect data each block touches into a local, sorted range,
 * colours the elements of each block and then the blocks themselves so that
 * two elements (or blocks) of one colour never touch the same indirectly
 * written element, and lists the blocks grouped by colour (blkmap).
 *
 * Every backend executes loops through a plan: colours one after another,
 * the blocks of a colour in any order (in parallel), the elements of a block
 * in order. The order of operations is therefore the same for seq, OpenMP with
 * any number of threads, and anything else that follows the plan.
 */
#ifndef OP_PLAN_H
#define OP_PLAN_H

#include "op2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Building the plan of a loop over a set this large prints a line before and
 * after (it takes seconds): a long set-up shows progress. */
#define OP_PLAN_BIG_SET (1 << 25)

typedef struct op_plan {
  /* ---- what the plan was built for (the cache key) ---- */
  char *loop_name;
  op_set set;
  int set_size;   /* elements the loop runs (op_loop_set_size) */
  int core_size;  /* of which [0, core_size) read no halo data (all of them on one process) */
  int part_size;
  int nargs;
  int *arg_dat;   /* dat index per argument, -1 for gbl/idx */
  int *arg_bytes; /* its dat's bytes per element: a freed temporary's index may
                     come back with another dat (op_free_dat_temp), which finds
                     this plan only when it has the same shape */
  int *arg_map;   /* map index per argument, -1 when direct */
  int *arg_idx;
  int *arg_acc;
  int ninds;      /* number of indirectly accessed dats */
  int *inds;      /* per argument: its indirect dat number, or -1 */
  int *ind_dat;   /* per indirect dat: the dat index */
  int *ind_writes;/* per indirect dat: 1 when some argument writes or increments it */
  unsigned what;  /* OP_PLAN_* parts that were built */
  /* 1 when no two elements touch one element of a dat the loop writes through
   * a map (op_args_conflict_free; looked at for staged and global-colour
   * plans): every colour is then 0. */
  int conflict_free;

  /* ---- blocks ---- */
  int nblocks;
  int nblocks_owned; /* blocks [0, nblocks_owned) hold owned elements, the rest the
                        execute halo (many processes): reductions take the first only */
  int *offset;    /* first element of each block */
  int *nelems;    /* elements in each block */

  /* ---- block colouring and the block map ---- */
  int ncolors;
  /* Blocks never mix core and other elements, and the core blocks take the
   * first colours [0, ncolors_core): on many processes the halo exchanges of
   * a loop run while those do (ncolors_core == ncolors on one process). */
  int ncolors_core;
  int *ncolblk;   /* blocks of each colour */
  int *colblk_offset; /* first position in blkmap of each colour */
  int *blkmap;    /* blocks grouped by colour */

  /* ---- element (thread) colouring within each block ---- */
  int *nthrcol;   /* colours used in each block */
  int *thrcol;    /* colour of each element */
  int max_thrcol;

  /* ---- local renumbering of indirect data ---- */
  int *ind_offs;  /* [ind * nblocks + b]: offset of block b's list in ind_maps[ind] */
  int *ind_sizes; /* [ind * nblocks + b]: distinct elements of ind touched by block b */
  int **ind_maps; /* per ind: concatenated sorted global indices, block by block */
  int **loc_maps; /* per argument (NULL when direct): local index for each element */
  size_t nshared; /* bytes needed to stage the largest block's indirect data */

  /* ---- one-level global element colouring (alternative to blocks) ---- */
  int gcolors;
  int *gcol_offset; /* gcolors + 1 offsets into gcol_elems */
  int *gcol_elems;  /* elements grouped by global colour */

  /* ---- for the CPU backends' chunked loops (with OP_PLAN_AFFINE_RUNS) ---- */
  /* 1 when, in every general segment (below), no indirect element that the
   * loop writes (WRITE or RW) is touched by two elements or twice by one
   * element: then the elements of a chunk may read their data before any of
   * them writes. */
  int chunk_safe;

  /* ---- affine runs, for the CPU backends (OP_PLAN_AFFINE_RUNS) ---- */
  /* Each block is cut into segments, in order. In an affine segment every
   * indirect argument's map entry for element n is step * n + offset, with
   * step 1 (a row of a grid) or, for data only read, 0 (one element for the
   * whole segment: the column of a dense matrix), and every dat the loop
   * writes is reached with step 1 at one offset only: the segment runs as a
   * direct loop, its indices computed instead of read from the maps.
   *
   * Interleaved runs (kind 3), where a block has no affine runs: P runs of
   * L elements each, taken in turn. Element start + p + P * m (phase p < P,
   * lane m < L) reaches, through every map, the entries of element start + p
   * plus m. The loop only reads and increments through its maps (no WRITE,
   * RW, reduction or dat both read and incremented): each phase runs as SIMD
   * lanes, and the increments of a chunk of lanes are added phase by phase
   * in an order that gives every datum its additions in element order
   * (op_interleaved_order in op2_loop.h), so the results are those of the
   * general way, bit for bit.
   *
   * Other segments run the general way. */
  int nsegs;
  int *blk_seg;    /* nblocks + 1: block b's segments are blk_seg[b] .. blk_seg[b + 1] - 1 */
  int *seg_start;  /* nsegs: first element */
  int *seg_end;    /* nsegs: one past the last element */
  int *seg_affine; /* nsegs: 0 general; 1 affine, every step 1; 2 affine, some step 0;
                      3 interleaved runs */
  int *seg_step;   /* nsegs * nargs: the step of each indirect argument (0 or 1; 0 for kind 3) */
  int *seg_off;    /* nsegs * nargs: the offset of each indirect argument (0 for others and
                      for kind 3) */
  int *seg_period; /* nsegs: P of an interleaved segment (its length is a multiple), else 1 */

  /* ---- what the loop must move, for achieved bandwidth ---- */
  double bytes_moved;

  double build_seconds;
} op_plan;

/* Returns the cached plan for these arguments, building (and, at diagnostics
 * level >= 1, checking) it the first time. */
/* What a plan holds beyond blocks and block colours (which every plan has). */
enum {
  OP_PLAN_STAGED = 1,        /* local renumbering, element colours, shared-memory size */
  OP_PLAN_GLOBAL_COLOURS = 2, /* one-level colouring of all elements */
  OP_PLAN_AFFINE_RUNS = 4,    /* segments of blocks whose maps are affine (CPU backends) */
  /* Not a part: no blocks and no colours at all, only the set size and the
   * bytes counted (one thread per element: the CUDA backend's plain,
   * coalesced and atomic kernels). Any plan of the loop serves such a call. */
  OP_PLAN_SIZE_ONLY = 8
};

/* Shortest affine run worth a segment of its own: shorter ones stay in the
 * general segment around them. */
#define OP_AFFINE_MIN_RUN 64
/* Interleaved runs: the most runs taken in turn (OP_PLAN_MAX_PERIOD), and
 * OP_AFFINE_MIN_RUN elements at least. */
#define OP_PLAN_MAX_PERIOD 4
/* Arguments of one loop at most (as many as op2-gen takes). */
#define OP_PLAN_MAX_ARGS 64

const op_plan *op_plan_get(const char *loop_name, op_set set, int part_size, int nargs,
                           const op_arg *args, unsigned what);

/* Builds a plan without caching it; free it with op_plan_free. */
op_plan *op_plan_build(const char *loop_name, op_set set, int part_size, int nargs,
                       const op_arg *args, unsigned what);
void op_plan_free(op_plan *plan);

/* Checks every property that safe execution relies on. Returns 0 when the plan
 * is sound; otherwise writes what is wrong into msg and returns non-zero. */
int op_plan_check(const op_plan *plan, int nargs, const op_arg *args, char *msg, size_t msglen);

/* Drops every cached plan (e.g. after the partition size changes). */
void op_plan_cache_clear(void);
int op_plan_cache_size(void);

#ifdef __cplusplus
}
#endif

#endif
