/*
 * op_plan.c - construction and caching of execution plans (Giles, OP2
 * Developers Guide, 2011, section 3).
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_at_exit.h"
#include "op_dist.h"
#include "op_parallel.h"
#include "op_plan.h"
#include "op_plan_parts.h"
#include "op_state.h"

/* Index of the lowest zero bit of a 32-bit colour mask (mask != all ones). */
static inline int find_first_zero(uint32_t mask) { return __builtin_ctz(~mask); }

/* Global index of the indirect element argument i touches for element n. */
static inline int target(const op_arg *a, int n) { return a->map->map[n * a->map->dim + a->idx]; }

/* ---- the parts of a plan ---------------------------------------------------------- */

static void find_indirect_dats(op_plan *p, int nargs, const op_arg *args) {
  p->inds = op_malloc(sizeof(int) * (size_t)(nargs ? nargs : 1));
  p->ind_dat = op_malloc(sizeof(int) * (size_t)(nargs ? nargs : 1));
  p->ind_writes = op_calloc((size_t)(nargs ? nargs : 1), sizeof(int));
  p->ninds = 0;
  for (int i = 0; i < nargs; i++) {
    p->inds[i] = -1;
    if (args[i].kind != OP_ARG_DAT || !args[i].map) continue;
    /* One indirect dataset per dat, whatever the map: two maps into the same
     * dat can still touch the same element. */
    int k;
    for (k = 0; k < p->ninds; k++)
      if (p->ind_dat[k] == args[i].dat->index) break;
    if (k == p->ninds) p->ind_dat[p->ninds++] = args[i].dat->index;
    p->inds[i] = k;
    if (args[i].acc != OP_READ) p->ind_writes[k] = 1;
  }
}

/* Blocks of [lo, hi) from block b on; returns the next block number. */
static int blocks_of_range(op_plan *p, int b, long long lo, long long hi) {
  const long long ps = p->part_size;
  for (long long start = lo; start < hi; start += ps, b++) {
    p->offset[b] = (int)start;
    p->nelems[b] = (int)(start + ps <= hi ? ps : hi - start);
  }
  return b;
}

/* Blocks of a range of n elements. */
static long long blocks_for(long long n, long long ps) { return n <= 0 ? 0 : (n - 1) / ps + 1; }

/* Any partition size in [1, INT_MAX] is valid: a block holds at most the
 * whole set, and every product below is formed in 64 bits. The core
 * elements [0, core_size), the other owned ones and (on many processes, a
 * loop that writes through a map) the execute halo are blocked apart: the
 * halo's blocks come last, and their reduction partials are left out (an
 * element there is another process's, which counts it: nblocks_owned). */
static void make_blocks(op_plan *p) {
  const long long size = p->set_size, core = p->core_size, ps = p->part_size;
  const long long owned = p->set->size < size ? p->set->size : size;
  const long long ncore = blocks_for(core, ps), nown = blocks_for(owned - core, ps);
  p->nblocks = (int)(ncore + nown + blocks_for(size - owned, ps));
  p->nblocks_owned = (int)(ncore + nown);
  p->offset = op_malloc(sizeof(int) * ((size_t)p->nblocks + 1));
  p->nelems = op_malloc(sizeof(int) * ((size_t)p->nblocks + 1));
  blocks_of_range(p, blocks_of_range(p, blocks_of_range(p, 0, 0, core), core, owned), owned, size);
}

/* Does argument i take part in conflicts (its dat is written indirectly)? */
static inline int conflicting(const op_plan *p, int i) {
  return p->inds[i] >= 0 && p->ind_writes[p->inds[i]];
}

/* One 32-bit colour mask per element of every conflicting indirect dat
 * (halo copies included: a loop may write them). */
static uint32_t **alloc_masks(const op_plan *p, const op_arg *args, int nargs) {
  uint32_t **work = op_calloc((size_t)(p->ninds ? p->ninds : 1), sizeof(uint32_t *));
  for (int i = 0; i < nargs; i++) {
    int k = p->inds[i];
    if (k >= 0 && p->ind_writes[k] && !work[k])
      work[k] = op_calloc((size_t)op_set_held(args[i].dat->set) + 1, sizeof(uint32_t));
  }
  return work;
}

static void free_masks(uint32_t **work, int ninds) {
  for (int k = 0; k < ninds; k++) free(work[k]);
  free(work);
}

static void clear_masks(uint32_t **work, const op_plan *p, const op_arg *args, int nargs) {
  for (int i = 0; i < nargs; i++) {
    int k = p->inds[i];
    if (k >= 0 && work[k])
      memset(work[k], 0, sizeof(uint32_t) * (size_t)op_set_held(args[i].dat->set));
  }
}

/* The colours already taken by what block b touches (bit == 0), or marks
 * them taken by colour bit. With the local renumbering, each distinct
 * element once; else element by element. */
static uint32_t block_mask(const op_plan *p, const op_arg *args, int nargs, uint32_t **work,
                           int b, uint32_t bit) {
  uint32_t mask = 0;
  const int start = p->offset[b], end = start + p->nelems[b];
  if (p->ind_maps) {
    for (int k = 0; k < p->ninds; k++) {
      if (!work[k]) continue;
      const size_t at = (size_t)k * (size_t)p->nblocks + (size_t)b;
      const int *list = p->ind_maps[k] + p->ind_offs[at];
      uint32_t *w = work[k];
      for (int j = 0; j < p->ind_sizes[at]; j++) {
        if (bit)
          w[list[j]] |= bit;
        else
          mask |= w[list[j]];
      }
    }
    return mask;
  }
  for (int i = 0; i < nargs; i++) {
    if (!conflicting(p, i)) continue;
    uint32_t *w = work[p->inds[i]];
    for (int n = start; n < end; n++) {
      if (bit)
        w[target(&args[i], n)] |= bit;
      else
        mask |= w[target(&args[i], n)];
    }
  }
  return mask;
}

/* Colours blocks [b0, b1) with colours from `first` on, in passes of 32;
 * returns the colours used (first + the number). Masks are left clear;
 * without a conflict (any_conflict 0) there are none and one colour does. */
static int colour_block_range(op_plan *p, const op_arg *args, int nargs, int any_conflict,
                              uint32_t **work, int *colour, int b0, int b1, int first) {
  if (!any_conflict) {
    for (int b = b0; b < b1; b++) colour[b] = first;
    return first + (b1 > b0);
  }
  int ncolors = first, remaining = b1 - b0, base = first;
  while (remaining > 0) {
    for (int b = b0; b < b1; b++) {
      if (colour[b] >= 0) continue;
      const uint32_t mask = block_mask(p, args, nargs, work, b, 0);
      if (mask == 0xffffffffu) continue; /* no free colour in this pass */
      int c = find_first_zero(mask);
      colour[b] = base + c;
      if (base + c + 1 > ncolors) ncolors = base + c + 1;
      remaining--;
      block_mask(p, args, nargs, work, b, 1u << c);
    }
    base += 32;
    clear_masks(work, p, args, nargs);
  }
  return ncolors;
}

/* The core blocks first, then the others in colours of their own, so that a
 * loop can wait for its halos between the two (ncolors_core). */
static void colour_blocks(op_plan *p, const op_arg *args, int nargs) {
  int nb = p->nblocks, nb_core = 0;
  while (nb_core < nb && p->offset[nb_core] < p->core_size) nb_core++;
  int *colour = op_malloc(sizeof(int) * (size_t)(nb ? nb : 1));
  for (int b = 0; b < nb; b++) colour[b] = -1;
  int any_conflict = 0;
  for (int i = 0; i < nargs; i++) any_conflict |= conflicting(p, i);
  /* Blocks that share no written element need no colours: one pass of
   * ranges where the plan has affine runs, instead of a mask per element. */
  if (any_conflict && (p->conflict_free || op_plan_blocks_disjoint(p, args, nargs)))
    any_conflict = 0;
  uint32_t **work = any_conflict ? alloc_masks(p, args, nargs) : NULL;
  p->ncolors_core = colour_block_range(p, args, nargs, any_conflict, work, colour, 0, nb_core, 0);
  int ncolors =
      colour_block_range(p, args, nargs, any_conflict, work, colour, nb_core, nb, p->ncolors_core);
  if (work) free_masks(work, p->ninds);

  /* The block map: blocks grouped by colour, in block order within a colour. */
  p->ncolors = ncolors;
  p->ncolblk = op_calloc((size_t)(ncolors ? ncolors : 1), sizeof(int));
  p->colblk_offset = op_calloc((size_t)ncolors + 1, sizeof(int));
  p->blkmap = op_malloc(sizeof(int) * (size_t)(nb ? nb : 1));
  for (int b = 0; b < nb; b++) p->ncolblk[colour[b]]++;
  for (int c = 0; c < ncolors; c++) p->colblk_offset[c + 1] = p->colblk_offset[c] + p->ncolblk[c];
  int *fill = op_calloc((size_t)(ncolors ? ncolors : 1), sizeof(int));
  for (int b = 0; b < nb; b++) {
    int c = colour[b];
    p->blkmap[p->colblk_offset[c] + fill[c]++] = b;
  }
  free(fill);
  free(colour);
}

/* One-level colouring of all elements: elements of one colour touch disjoint
 * indirectly written data, so a whole colour can run at once without staging. */
static void colour_globally(op_plan *p, const op_arg *args, int nargs) {
  int size = p->set_size;
  int *colour = op_malloc(sizeof(int) * (size_t)(size + 1));
  for (int n = 0; n < size; n++) colour[n] = -1;
  int any = 0;
  for (int i = 0; i < nargs; i++) any |= conflicting(p, i);
  uint32_t **work = any && !p->conflict_free ? alloc_masks(p, args, nargs) : NULL;
  int ncol = 0, remaining = size, base = 0;
  if (!any || p->conflict_free) {
    for (int n = 0; n < size; n++) colour[n] = 0;
    ncol = size > 0;
    remaining = 0;
  }
  while (remaining > 0) {
    for (int n = 0; n < size; n++) {
      if (colour[n] >= 0) continue;
      uint32_t mask = 0;
      for (int i = 0; i < nargs; i++)
        if (conflicting(p, i)) mask |= work[p->inds[i]][target(&args[i], n)];
      if (mask == 0xffffffffu) continue;
      int c = find_first_zero(mask);
      colour[n] = base + c;
      if (base + c + 1 > ncol) ncol = base + c + 1;
      remaining--;
      for (int i = 0; i < nargs; i++)
        if (conflicting(p, i)) work[p->inds[i]][target(&args[i], n)] |= 1u << c;
    }
    clear_masks(work, p, args, nargs);
    base += 32;
  }
  if (work) free_masks(work, p->ninds);
  p->gcolors = ncol;
  p->gcol_offset = op_calloc((size_t)ncol + 2, sizeof(int));
  p->gcol_elems = op_malloc(sizeof(int) * (size_t)(size + 1));
  for (int n = 0; n < size; n++) p->gcol_offset[colour[n] + 1]++;
  for (int c = 0; c < ncol; c++) p->gcol_offset[c + 1] += p->gcol_offset[c];
  int *fill = op_calloc((size_t)ncol + 1, sizeof(int));
  for (int n = 0; n < size; n++) {
    int c = colour[n];
    p->gcol_elems[p->gcol_offset[c] + fill[c]++] = n;
  }
  free(fill);
  free(colour);
}

/* The bytes a loop must move at least: every dat element it touches once
 * (twice when it is read and written), and the map entries it uses. */
static void count_bytes(op_plan *p, const op_arg *args, int nargs) {
  double bytes = 0.0;
  int *factor_dat = op_calloc((size_t)op_g.ndats + 1, sizeof(int));
  int *direct_dat = op_calloc((size_t)op_g.ndats + 1, sizeof(int));
  char *map_seen = op_calloc((size_t)op_g.nmaps + 1, 1);
  for (int i = 0; i < nargs; i++) {
    const op_arg *a = &args[i];
    if (a->map && a->kind != OP_ARG_GBL && !map_seen[a->map->index]) {
      map_seen[a->map->index] = 1;
      bytes += (double)p->set_size * a->map->dim * (double)sizeof(int);
    }
    if (a->kind != OP_ARG_DAT) continue;
    int f = (a->acc == OP_RW || a->acc == OP_INC) ? 2 : 1;
    if (f > factor_dat[a->dat->index]) factor_dat[a->dat->index] = f;
    if (!a->map) direct_dat[a->dat->index] = 1;
  }
  for (int d = 0; d < op_g.ndats; d++) {
    if (!factor_dat[d]) continue;
    op_dat dat = op_g.dats[d];
    const long touched = direct_dat[d] ? p->set_size : op_plan_touched(p, args, nargs, dat);
    bytes += (double)touched * dat->size * factor_dat[d];
  }
  free(factor_dat);
  free(direct_dat);
  free(map_seen);
  p->bytes_moved = bytes;
}

/* The bytes of a plan without blocks, counted over blocks and affine runs
 * made for the purpose and dropped after: a structured map's footprint is
 * then a few ranges a row (one pass over its map, remembered per map),
 * where element by element it would take a pass per column. */
static void count_bytes_unblocked(op_plan *p, const op_arg *args, int nargs) {
  op_plan t = *p; /* shares the argument tables, owns what is made below */
  t.part_size = OP_CPU_PART_SIZE;
  t.what = OP_PLAN_AFFINE_RUNS;
  make_blocks(&t);
  op_plan_find_affine_runs(&t, args, nargs);
  count_bytes(&t, args, nargs);
  p->bytes_moved = t.bytes_moved;
  free(t.offset);
  free(t.nelems);
  free(t.blk_seg);
  free(t.seg_start);
  free(t.seg_end);
  free(t.seg_affine);
  free(t.seg_off);
  free(t.seg_step);
  free(t.seg_period);
}

static op_plan *plan_built(op_plan *p, double t0, int big) {
  p->build_seconds = op_wtime() - t0;
  if (big) {
    printf("OP2: plan of loop \"%s\" built in %.1f s\n", p->loop_name, p->build_seconds);
    fflush(stdout);
  }
  return p;
}

op_plan *op_plan_build(const char *loop_name, op_set set, int part_size, int nargs,
                       const op_arg *args, unsigned what) {
  OP_CHECK(part_size > 0, "plan for loop \"%s\": partition size must be positive, got %d",
           loop_name, part_size);
  double t0 = op_wtime();
  /* A plan for a very large set takes a while: say so before it starts. */
  const int big = set->size >= OP_PLAN_BIG_SET;
  if (big) {
    printf("OP2: building the plan of loop \"%s\" over %d elements of set \"%s\"...\n",
           loop_name, set->size, set->name ? set->name : "?");
    fflush(stdout);
  }
  op_plan *p = op_calloc(1, sizeof(*p));
  p->loop_name = op_strdup(loop_name);
  p->set = set;
  p->set_size = op_loop_set_size(set, nargs, args);
  p->core_size = set->core_size < p->set_size ? set->core_size : p->set_size;
  p->part_size = part_size;
  p->nargs = nargs;
  p->what = what;
  size_t na = (size_t)(nargs ? nargs : 1);
  p->arg_dat = op_malloc(sizeof(int) * na);
  p->arg_bytes = op_malloc(sizeof(int) * na);
  p->arg_map = op_malloc(sizeof(int) * na);
  p->arg_idx = op_malloc(sizeof(int) * na);
  p->arg_acc = op_malloc(sizeof(int) * na);
  for (int i = 0; i < nargs; i++) {
    p->arg_dat[i] = (args[i].kind == OP_ARG_DAT && args[i].dat) ? args[i].dat->index : -1;
    p->arg_bytes[i] = (args[i].kind == OP_ARG_DAT && args[i].dat) ? args[i].dat->size : 0;
    p->arg_map[i] = args[i].map ? args[i].map->index : -1;
    p->arg_idx[i] = args[i].idx;
    p->arg_acc[i] = (int)args[i].acc;
  }
  find_indirect_dats(p, nargs, args);
  if (what & OP_PLAN_SIZE_ONLY) {
    /* One thread per element: no blocks, no colours; only what is counted. */
    count_bytes_unblocked(p, args, nargs);
    return plan_built(p, t0, big);
  }
  /* Colours come cheap where nothing needs them: a loop whose written dats
   * are each reached through one one-to-one map column. One pass over the
   * column, remembered per map; the CPU backends' affine runs tell the same
   * by ranges (op_plan_blocks_disjoint). */
  if (what & (OP_PLAN_STAGED | OP_PLAN_GLOBAL_COLOURS))
    p->conflict_free = op_args_conflict_free(nargs, args, p->set_size, 0);
  make_blocks(p);
  /* First: the affine runs let the footprints below be counted by ranges. */
  if (what & OP_PLAN_AFFINE_RUNS) op_plan_find_affine_runs(p, args, nargs);
  /* The local renumbering before the block colours: a block's distinct
   * elements are then marked once each, not once per reference. */
  if (what & OP_PLAN_STAGED) op_plan_renumber(p, args, nargs);
  colour_blocks(p, args, nargs);
  if (what & OP_PLAN_STAGED) op_plan_colour_elements(p, args, nargs);
  if (what & OP_PLAN_GLOBAL_COLOURS) colour_globally(p, args, nargs);
  /* Only the CPU backends' general segments run in chunks. */
  if (what & OP_PLAN_AFFINE_RUNS) p->chunk_safe = op_plan_segments_chunk_safe(p, args, nargs);
  count_bytes(p, args, nargs);
  return plan_built(p, t0, big);
}

void op_plan_free(op_plan *p) {
  if (!p) return;
  free(p->loop_name);
  free(p->arg_dat);
  free(p->arg_bytes);
  free(p->arg_map);
  free(p->arg_idx);
  free(p->arg_acc);
  free(p->inds);
  free(p->ind_dat);
  free(p->ind_writes);
  free(p->offset);
  free(p->nelems);
  free(p->ncolblk);
  free(p->colblk_offset);
  free(p->blkmap);
  free(p->nthrcol);
  free(p->thrcol);
  free(p->ind_offs);
  free(p->ind_sizes);
  if (p->ind_maps)
    for (int k = 0; k < p->ninds; k++) free(p->ind_maps[k]);
  free(p->ind_maps);
  if (p->loc_maps)
    for (int i = 0; i < p->nargs; i++) free(p->loc_maps[i]);
  free(p->loc_maps);
  free(p->gcol_offset);
  free(p->gcol_elems);
  free(p->blk_seg);
  free(p->seg_start);
  free(p->seg_end);
  free(p->seg_affine);
  free(p->seg_off);
  free(p->seg_step);
  free(p->seg_period);
  free(p);
}

/* ---- the cache -------------------------------------------------------------------- */

static op_plan **cache;
static int ncache, cap_cache;
static void plan_cache_free(void);

static int matches(const op_plan *p, const char *loop_name, op_set set, int part_size, int nargs,
                   const op_arg *args, unsigned what) {
  if (p->set != set || p->set_size != op_loop_set_size(set, nargs, args) ||
      p->core_size != (set->core_size < p->set_size ? set->core_size : p->set_size) ||
      p->part_size != part_size ||
      p->nargs != nargs || strcmp(p->loop_name, loop_name) != 0)
    return 0;
  /* Any plan serves a loop that needs only the size; a size-only plan serves
   * no other. */
  if (!(what & OP_PLAN_SIZE_ONLY) &&
      ((p->what & OP_PLAN_SIZE_ONLY) || (p->what & what) != what))
    return 0;
  for (int i = 0; i < nargs; i++) {
    const int is_dat = args[i].kind == OP_ARG_DAT && args[i].dat;
    int dat = is_dat ? args[i].dat->index : -1;
    int map = args[i].map ? args[i].map->index : -1;
    if (p->arg_dat[i] != dat || p->arg_bytes[i] != (is_dat ? args[i].dat->size : 0) ||
        p->arg_map[i] != map || p->arg_idx[i] != args[i].idx ||
        p->arg_acc[i] != (int)args[i].acc)
      return 0;
  }
  return 1;
}

static void print_plan_stats(const op_plan *p) {
  if (p->what & OP_PLAN_SIZE_ONLY) {
    printf("OP2 plan for loop \"%s\" over %s (%d elements): one thread per element, no "
           "blocks, built in %.3f s\n",
           p->loop_name, p->set->name, p->set_size, p->build_seconds);
    return;
  }
  printf("OP2 plan for loop \"%s\" over %s (%d elements): part size %d, %d blocks, %d block "
         "colours",
         p->loop_name, p->set->name, p->set_size, p->part_size, p->nblocks, p->ncolors);
  if (p->what & OP_PLAN_STAGED)
    printf(", up to %d element colours, %zu bytes staged", p->max_thrcol, p->nshared);
  if (p->what & OP_PLAN_GLOBAL_COLOURS) printf(", %d global colours", p->gcolors);
  if (p->conflict_free) printf(", conflict-free");
  if (p->what & OP_PLAN_AFFINE_RUNS) {
    long affine = 0, interleaved = 0;
    for (int g = 0; g < p->nsegs; g++) {
      const long n = p->seg_end[g] - p->seg_start[g];
      if (p->seg_affine[g] == 3) interleaved += n;
      else if (p->seg_affine[g]) affine += n;
    }
    printf(", %d segments, %.1f%% of the elements in affine runs", p->nsegs,
           p->set_size ? 100.0 * (double)affine / p->set_size : 0.0);
    if (interleaved)
      printf(", %.1f%% in interleaved runs", 100.0 * (double)interleaved / p->set_size);
  }
  printf(", built in %.3f s\n", p->build_seconds);
}

const op_plan *op_plan_get(const char *loop_name, op_set set, int part_size, int nargs,
                           const op_arg *args, unsigned what) {
  for (int c = 0; c < ncache; c++)
    if (matches(cache[c], loop_name, set, part_size, nargs, args, what)) return cache[c];
  op_plan *p = op_plan_build(loop_name, set, part_size, nargs, args, what);
  if (op_g.diags >= 1) {
    char msg[512];
    if (op_plan_check(p, nargs, args, msg, sizeof msg) != 0)
      op_fatal("plan for loop \"%s\" failed its check: %s", loop_name, msg);
  }
  if (op_g.diags >= 2) print_plan_stats(p);
  if (ncache == cap_cache) {
    op_at_exit(plan_cache_free, "plans");
    cap_cache = cap_cache ? 2 * cap_cache : 16;
    cache = op_realloc(cache, sizeof(*cache) * (size_t)cap_cache);
  }
  cache[ncache++] = p;
  return p;
}

/* Frees the cached plans (op_exit: what the plans learnt of the maps is
 * forgotten by its own files' teardowns). */
static void plan_cache_free(void) {
  for (int c = 0; c < ncache; c++) op_plan_free(cache[c]);
  free(cache);
  cache = NULL;
  ncache = cap_cache = 0;
}

void op_plan_cache_clear(void) {
  op_plan_affine_forget_maps();
  op_plan_columns_forget();
  op_plan_interleaved_forget_maps();
  plan_cache_free();
}

int op_plan_cache_size(void) { return ncache; }
