/*
 * op_plan_footprint.c - what a loop's elements touch through its maps, for
 * the plan's colouring, its chunk safety and its byte count
 * (op_plan_parts.h). The elements of an affine segment touch a contiguous
 * range of each dat, marked as a range in a bitmap of the dat's set; the
 * rest are marked element by element.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op_dist.h"
#include "op_plan_parts.h"

/* ---- a bitmap over a set ------------------------------------------------------------ */

typedef struct {
  uint64_t *w;
  int hit; /* a tested bit was set */
} bitmap;

static uint64_t *bits_alloc(long n) { return op_calloc((size_t)(n / 64 + 1), sizeof(uint64_t)); }

typedef enum { BITS_TEST, BITS_SET, BITS_CLEAR, BITS_TEST_SET } bits_op;

/* op over bits [lo, hi) (hi > lo), a word at a time. BITS_TEST_SET sets them
 * and reports whether any was set before. */
static void bits_range(bitmap *b, long lo, long hi, bits_op op) {
  const long w0 = lo >> 6, w1 = (hi - 1) >> 6;
  for (long w = w0; w <= w1; w++) {
    uint64_t mask = ~(uint64_t)0;
    if (w == w0) mask &= ~(uint64_t)0 << (lo & 63);
    if (w == w1) mask &= ~(uint64_t)0 >> (63 - ((hi - 1) & 63));
    switch (op) {
      case BITS_TEST: b->hit |= (b->w[w] & mask) != 0; break;
      case BITS_SET: b->w[w] |= mask; break;
      case BITS_CLEAR: b->w[w] &= ~mask; break;
      case BITS_TEST_SET:
        b->hit |= (b->w[w] & mask) != 0;
        b->w[w] |= mask;
        break;
    }
  }
}

/* ---- the targets of an argument over a block ------------------------------------ */

static inline int target(const op_arg *a, int n) { return a->map->map[n * a->map->dim + a->idx]; }

/* op over the targets of mapped argument i for the elements of segment
 * range [s, e) (affine with step and offset: one range, or element by
 * element). */
static void mark_range(bitmap *b, const op_arg *a, int s, int e, int affine, int step, int off,
                       bits_op op) {
  if (s >= e) return;
  if (affine) {
    bits_range(b, (long)step * s + off, (long)step * (e - 1) + off + 1, op);
    return;
  }
  for (int n = s; n < e; n++) {
    const long t = target(a, n);
    bits_range(b, t, t + 1, op);
  }
}

/* op over the targets of argument i for block blk (by segments when the
 * plan has them). */
static void mark_block(bitmap *b, const op_plan *p, const op_arg *args, int i, int blk, bits_op op) {
  if (!p->seg_start) {
    mark_range(b, &args[i], p->offset[blk], p->offset[blk] + p->nelems[blk], 0, 0, 0, op);
    return;
  }
  for (int g = p->blk_seg[blk]; g < p->blk_seg[blk + 1]; g++)
    mark_range(b, &args[i], p->seg_start[g], p->seg_end[g],
               p->seg_affine[g] == 1 || p->seg_affine[g] == 2, /* kind 3: element by element */
               p->seg_step[(size_t)g * (size_t)p->nargs + (size_t)i],
               p->seg_off[(size_t)g * (size_t)p->nargs + (size_t)i], op);
}

static int writes_indirectly(const op_arg *args, int nargs, op_dat d, int plain_only) {
  for (int i = 0; i < nargs; i++)
    if (args[i].kind == OP_ARG_DAT && args[i].map && args[i].dat == d && args[i].acc != OP_READ &&
        (!plain_only || args[i].acc == OP_WRITE || args[i].acc == OP_RW))
      return 1;
  return 0;
}

static int is_mapped_dat(const op_arg *a, op_dat d) {
  return a->kind == OP_ARG_DAT && a->map && a->dat == d;
}

/* Has argument i's dat been handled for an earlier argument? */
static int dat_seen(const op_arg *args, int i) {
  for (int j = 0; j < i; j++)
    if (is_mapped_dat(&args[j], args[i].dat)) return 1;
  return 0;
}

/* Argument i is the first to reach its dat through a map, and the loop
 * writes that dat through a map (plain_only: by WRITE or RW): the dats whose
 * footprints the checks below compare, each once. */
static int first_written_dat(const op_arg *args, int nargs, int i, int plain_only) {
  return args[i].kind == OP_ARG_DAT && args[i].map && !dat_seen(args, i) &&
         writes_indirectly(args, nargs, args[i].dat, plain_only);
}

int op_plan_blocks_disjoint(const op_plan *p, const op_arg *args, int nargs) {
  for (int i = 0; i < nargs; i++) {
    if (!first_written_dat(args, nargs, i, 0)) continue;
    const op_dat d = args[i].dat;
    bitmap b = {bits_alloc(op_set_held(d->set)), 0};
    /* Each block tests what it touches against the blocks before it, then
     * marks it: touching an element twice within one block is fine. */
    for (int blk = 0; blk < p->nblocks && !b.hit; blk++) {
      for (int j = 0; j < nargs && !b.hit; j++)
        if (is_mapped_dat(&args[j], d)) mark_block(&b, p, args, j, blk, BITS_TEST);
      for (int j = 0; j < nargs && !b.hit; j++)
        if (is_mapped_dat(&args[j], d)) mark_block(&b, p, args, j, blk, BITS_SET);
    }
    free(b.w);
    if (b.hit) return 0;
  }
  return 1;
}

int op_plan_segments_chunk_safe(const op_plan *p, const op_arg *args, int nargs) {
  OP_CHECK(p->seg_start, "plan for loop \"%s\": chunk safety needs the segments", p->loop_name);
  for (int i = 0; i < nargs; i++) {
    if (!first_written_dat(args, nargs, i, 1)) continue;
    const op_dat d = args[i].dat;
    bitmap b = {bits_alloc(op_set_held(d->set)), 0};
    for (int g = 0; g < p->nsegs && !b.hit; g++) {
      if (p->seg_affine[g]) continue;
      for (int j = 0; j < nargs && !b.hit; j++)
        if (is_mapped_dat(&args[j], d))
          mark_range(&b, &args[j], p->seg_start[g], p->seg_end[g], 0, 0, 0, BITS_TEST_SET);
      /* Cleared for the next segment (what was set, and only that). */
      for (int j = 0; j < nargs; j++)
        if (is_mapped_dat(&args[j], d))
          mark_range(&b, &args[j], p->seg_start[g], p->seg_end[g], 0, 0, 0, BITS_CLEAR);
    }
    free(b.w);
    if (b.hit) return 0;
  }
  return 1;
}

long op_plan_touched(const op_plan *p, const op_arg *args, int nargs, op_dat d) {
  bitmap b = {bits_alloc(op_set_held(d->set)), 0};
  for (int j = 0; j < nargs; j++)
    if (is_mapped_dat(&args[j], d))
      for (int blk = 0; blk < p->nblocks; blk++) mark_block(&b, p, args, j, blk, BITS_SET);
  long n = 0;
  for (long w = 0; w <= (long)op_set_held(d->set) / 64; w++) n += __builtin_popcountll(b.w[w]);
  free(b.w);
  return n;
}
