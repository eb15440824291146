/*
 * op_plan_staged.c - the parts of a plan that stage a block's indirect data
 * in fast memory (Giles, OP2 Developers Guide, 2011, sections 3.2 and 3.3; op_plan.h): the local
 * renumbering (per block and indirect dat, the distinct elements the block
 * touches, sorted; per argument, each element's index into that list) and
 * the colours of the elements within each block.
 *
 * Linear in the map entries the loop reads, and spread over the threads by
 * blocks. A block's targets are made distinct and sorted by marking a bitmap
 * over the range they span when that range is small (a structured mesh: a
 * few rows of a grid), else through a small hash table and a radix sort of
 * the distinct values; no comparison sort. A block's results depend on the
 * block alone, so the plan is the same for any number of threads, and the
 * same as a sequential build.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op_dist.h"
#include "op_parallel.h"
#include "op_plan_parts.h"
#include "op_state.h"

static inline int target(const op_arg *a, int n) { return a->map->map[n * a->map->dim + a->idx]; }

/* ---- the distinct targets of one block, and their local numbers -------------------- */

/* A bitmap is used while the targets span at most this many bits per target
 * (its words are then at most as many as the targets). */
#define SPAN_BITS_PER_TARGET 64L

typedef struct {
  int *list;       /* the block's targets of one dat, as gathered */
  int *uniq;       /* distinct targets (hash path), then sorted */
  int *tmp;        /* radix sort */
  uint64_t *bits;  /* bitmap over [lo, lo + span) */
  int *rank;       /* per bitmap word: set bits in the words before it */
  int *keys, *vals;/* hash table: target -> local number */
  uint32_t *masks; /* element colours: one mask per local element of a written dat */
  size_t maxlist, hcap;
} scratch;

static void scratch_init(scratch *s, size_t maxlist, size_t maxmasks) {
  s->maxlist = maxlist;
  s->hcap = 16;
  while (s->hcap < 2 * maxlist) s->hcap *= 2;
  s->list = op_malloc(sizeof(int) * (maxlist + 1));
  s->uniq = op_malloc(sizeof(int) * (maxlist + 1));
  s->tmp = op_malloc(sizeof(int) * (maxlist + 1));
  s->bits = op_malloc(sizeof(uint64_t) * (maxlist + 2));
  s->rank = op_malloc(sizeof(int) * (maxlist + 2));
  s->keys = op_malloc(sizeof(int) * s->hcap);
  s->vals = op_malloc(sizeof(int) * s->hcap);
  s->masks = op_malloc(sizeof(uint32_t) * (maxmasks + 1));
}

static void scratch_free(scratch *s) {
  free(s->list);
  free(s->uniq);
  free(s->tmp);
  free(s->bits);
  free(s->rank);
  free(s->keys);
  free(s->vals);
  free(s->masks);
}

/* How a block's target is turned into its local number. */
typedef struct {
  int bitmap; /* 1: bitmap over [lo, lo + span); 0: hash table */
  int lo;
  unsigned hmask, hshift;
  const scratch *s;
} local_index;

static inline unsigned hash_slot(const local_index *x, int t) {
  return ((uint32_t)t * 0x9E3779B1u) >> x->hshift;
}

static inline int local_of(const local_index *x, int t) {
  if (x->bitmap) {
    const unsigned d = (unsigned)(t - x->lo);
    const uint64_t w = x->s->bits[d >> 6];
    return x->s->rank[d >> 6] + __builtin_popcountll(w & (((uint64_t)1 << (d & 63u)) - 1));
  }
  unsigned h = hash_slot(x, t);
  while (x->s->keys[h] != t) h = (h + 1) & x->hmask;
  return x->s->vals[h];
}

/* Sorts the nu values of a (all in [lo, lo + span)) by radix, 8 bits a pass. */
static void radix_sort(int *a, int *tmp, int nu, int lo, unsigned long span) {
  for (int shift = 0; shift < 32 && (span - 1) >> shift; shift += 8) {
    int count[257] = {0};
    for (int j = 0; j < nu; j++) count[(((unsigned)(a[j] - lo)) >> shift & 255u) + 1]++;
    for (int d = 0; d < 256; d++) count[d + 1] += count[d];
    for (int j = 0; j < nu; j++) tmp[count[((unsigned)(a[j] - lo)) >> shift & 255u]++] = a[j];
    memcpy(a, tmp, sizeof(int) * (size_t)nu);
  }
}

/* The distinct values of s->list[0, nl): their number; with `sorted`, also
 * written there in ascending order and made ready for local_of. */
static int distinct_targets(scratch *s, int nl, int *sorted, local_index *x) {
  memset(x, 0, sizeof *x);
  x->s = s;
  if (nl == 0) {
    x->bitmap = 1;
    x->lo = 0;
    return 0;
  }
  int lo = s->list[0], hi = s->list[0];
  for (int j = 1; j < nl; j++) {
    lo = s->list[j] < lo ? s->list[j] : lo;
    hi = s->list[j] > hi ? s->list[j] : hi;
  }
  const unsigned long span = (unsigned long)((long)hi - lo) + 1;
  x->lo = lo;
  if (span <= (unsigned long)SPAN_BITS_PER_TARGET * (unsigned long)nl) {
    x->bitmap = 1;
    const long words = (long)(span / 64) + 1;
    memset(s->bits, 0, sizeof(uint64_t) * (size_t)words);
    for (int j = 0; j < nl; j++) {
      const unsigned d = (unsigned)(s->list[j] - lo);
      s->bits[d >> 6] |= (uint64_t)1 << (d & 63u);
    }
    int nu = 0;
    for (long w = 0; w < words; w++) {
      s->rank[w] = nu;
      if (!sorted) {
        nu += __builtin_popcountll(s->bits[w]);
        continue;
      }
      for (uint64_t b = s->bits[w]; b; b &= b - 1)
        sorted[nu++] = lo + (int)(w * 64 + __builtin_ctzll(b));
    }
    return nu;
  }
  x->bitmap = 0;
  unsigned cap = 16, shift = 28;
  while (cap < 2u * (unsigned)nl) cap *= 2, shift--;
  x->hmask = cap - 1;
  x->hshift = shift;
  for (unsigned h = 0; h < cap; h++) s->keys[h] = -1;
  int nu = 0;
  for (int j = 0; j < nl; j++) {
    const int t = s->list[j];
    unsigned h = hash_slot(x, t);
    while (s->keys[h] != -1 && s->keys[h] != t) h = (h + 1) & x->hmask;
    if (s->keys[h] == -1) {
      s->keys[h] = t;
      s->uniq[nu++] = t;
    }
  }
  if (!sorted) return nu;
  radix_sort(s->uniq, s->tmp, nu, lo, span);
  for (int j = 0; j < nu; j++) {
    sorted[j] = s->uniq[j];
    unsigned h = hash_slot(x, s->uniq[j]);
    while (s->keys[h] != s->uniq[j]) h = (h + 1) & x->hmask;
    s->vals[h] = j;
  }
  return nu;
}

/* ---- the local renumbering ---------------------------------------------------------- */

typedef struct {
  op_plan *p;
  const op_arg *args;
  int nargs;
  int write;      /* 0: count each block's distinct targets; 1: write the lists */
  size_t maxlist; /* most targets of one dat in one block */
} renumber_job;

/* Gathers block b's targets of indirect dat k into s->list; returns how many. */
static int gather(const renumber_job *j, scratch *s, int b, int k) {
  const op_plan *p = j->p;
  const int start = p->offset[b], end = start + p->nelems[b];
  int nl = 0;
  for (int i = 0; i < j->nargs; i++)
    if (p->inds[i] == k)
      for (int n = start; n < end; n++) s->list[nl++] = target(&j->args[i], n);
  return nl;
}

static void renumber_blocks(long lo, long hi, void *ctx) {
  const renumber_job *j = ctx;
  op_plan *p = j->p;
  const int nb = p->nblocks;
  scratch s;
  scratch_init(&s, j->maxlist, 0);
  for (long b = lo; b < hi; b++) {
    for (int k = 0; k < p->ninds; k++) {
      const int nl = gather(j, &s, (int)b, k);
      local_index x;
      const size_t at = (size_t)k * (size_t)nb + (size_t)b;
      if (!j->write) {
        p->ind_sizes[at] = distinct_targets(&s, nl, NULL, &x);
        continue;
      }
      distinct_targets(&s, nl, p->ind_maps[k] + p->ind_offs[at], &x);
      const int start = p->offset[b], end = start + p->nelems[b];
      for (int i = 0; i < j->nargs; i++)
        if (p->inds[i] == k)
          for (int n = start; n < end; n++) p->loc_maps[i][n] = local_of(&x, target(&j->args[i], n));
    }
  }
  scratch_free(&s);
}

/* The most targets of one indirect dat in one block: its arguments through
 * maps times the largest block. */
static size_t most_targets(const op_plan *p) {
  size_t block_max = 0, most = 0;
  for (int b = 0; b < p->nblocks; b++)
    if ((size_t)p->nelems[b] > block_max) block_max = (size_t)p->nelems[b];
  for (int k = 0; k < p->ninds; k++) {
    size_t args_k = 0;
    for (int i = 0; i < p->nargs; i++) args_k += p->inds[i] == k;
    if (args_k * block_max > most) most = args_k * block_max;
  }
  return most;
}

void op_plan_renumber(op_plan *p, const op_arg *args, int nargs) {
  const int nb = p->nblocks, ni = p->ninds;
  p->ind_offs = op_calloc((size_t)ni * (size_t)nb + 1, sizeof(int));
  p->ind_sizes = op_calloc((size_t)ni * (size_t)nb + 1, sizeof(int));
  p->ind_maps = op_calloc((size_t)(ni ? ni : 1), sizeof(int *));
  p->loc_maps = op_calloc((size_t)(nargs ? nargs : 1), sizeof(int *));
  for (int i = 0; i < nargs; i++)
    if (p->inds[i] >= 0) p->loc_maps[i] = op_alloc_big(sizeof(int) * (size_t)(p->set_size + 1));

  renumber_job j = {p, args, nargs, 0, most_targets(p)};
  op_parallel_for(nb, renumber_blocks, &j);
  /* Each dat's lists block after block: the offsets, then the lists. */
  for (int k = 0; k < ni; k++) {
    long long total = 0;
    for (int b = 0; b < nb; b++) {
      const size_t at = (size_t)k * (size_t)nb + (size_t)b;
      p->ind_offs[at] = (int)total;
      total += p->ind_sizes[at];
      if (total > INT_MAX)
        op_fatal("plan for loop \"%s\": the blocks' lists of indirect elements exceed %d "
                 "entries (a smaller partition size, or fewer arguments per loop)",
                 p->loop_name, INT_MAX);
    }
    p->ind_maps[k] = op_alloc_big(sizeof(int) * (size_t)(total + 1));
  }
  j.write = 1;
  op_parallel_for(nb, renumber_blocks, &j);

  /* Shared memory to stage one block's indirect data, each dat's segment
   * aligned to 8 bytes. */
  size_t maxshared = 0;
  for (int b = 0; b < nb; b++) {
    size_t bytes = 0;
    for (int k = 0; k < ni; k++) {
      size_t seg = (size_t)p->ind_sizes[(size_t)k * (size_t)nb + (size_t)b] *
                   (size_t)op_g.dats[p->ind_dat[k]]->size;
      bytes += (seg + 7) & ~(size_t)7;
    }
    if (bytes > maxshared) maxshared = bytes;
  }
  p->nshared = maxshared;
}

/* ---- element colours within each block ------------------------------------------- */

static inline int conflicting(const op_plan *p, int i) {
  return p->inds[i] >= 0 && p->ind_writes[p->inds[i]];
}

typedef struct {
  op_plan *p;
  int nargs;
  int any;        /* some argument takes part in conflicts */
  size_t maxmasks;
} colour_job;

/* Greedy colours, 32 at a time, in element order: each element takes the
 * lowest colour none of the written data it touches has yet. Masks are per
 * local element (the renumbering's numbers), so blocks are independent. */
static void colour_blocks_elements(long lo, long hi, void *ctx) {
  const colour_job *j = ctx;
  op_plan *p = j->p;
  const int nb = p->nblocks;
  scratch s;
  scratch_init(&s, 0, j->maxmasks);
  size_t moff[OP_PLAN_MAX_ARGS]; /* per indirect dat: its masks in s.masks */
  for (long b = lo; b < hi; b++) {
    const int start = p->offset[b], end = start + p->nelems[b];
    if (!j->any || p->conflict_free) {
      for (int n = start; n < end; n++) p->thrcol[n] = 0;
      p->nthrcol[b] = end > start;
      continue;
    }
    size_t total = 0;
    for (int k = 0; k < p->ninds; k++) {
      moff[k] = total;
      if (p->ind_writes[k]) total += (size_t)p->ind_sizes[(size_t)k * (size_t)nb + (size_t)b];
    }
    memset(s.masks, 0, sizeof(uint32_t) * total);
    for (int n = start; n < end; n++) p->thrcol[n] = -1;
    int remaining = end - start, base = 0, ncol = 0;
    while (remaining > 0) {
      for (int n = start; n < end; n++) {
        if (p->thrcol[n] >= 0) continue;
        uint32_t mask = 0;
        for (int i = 0; i < j->nargs; i++)
          if (conflicting(p, i)) mask |= s.masks[moff[p->inds[i]] + (size_t)p->loc_maps[i][n]];
        if (mask == 0xffffffffu) continue;
        const int c = __builtin_ctz(~mask);
        p->thrcol[n] = base + c;
        if (base + c + 1 > ncol) ncol = base + c + 1;
        remaining--;
        for (int i = 0; i < j->nargs; i++)
          if (conflicting(p, i)) s.masks[moff[p->inds[i]] + (size_t)p->loc_maps[i][n]] |= 1u << c;
      }
      memset(s.masks, 0, sizeof(uint32_t) * total);
      base += 32;
    }
    p->nthrcol[b] = ncol;
  }
  scratch_free(&s);
}

void op_plan_colour_elements(op_plan *p, const op_arg *args, int nargs) {
  (void)args;
  OP_CHECK(p->loc_maps, "plan for loop \"%s\": element colours need the local renumbering",
           p->loop_name);
  const int nb = p->nblocks;
  p->thrcol = op_alloc_big(sizeof(int) * (size_t)(p->set_size + 1));
  p->nthrcol = op_calloc((size_t)(nb ? nb : 1), sizeof(int));
  colour_job j = {p, nargs, 0, 0};
  for (int i = 0; i < nargs; i++) j.any |= conflicting(p, i);
  size_t block_max = 0;
  for (int b = 0; b < nb; b++)
    if ((size_t)p->nelems[b] > block_max) block_max = (size_t)p->nelems[b];
  j.maxmasks = block_max * (size_t)(nargs ? nargs : 1);
  op_parallel_for(nb, colour_blocks_elements, &j);
  p->max_thrcol = 0;
  for (int b = 0; b < nb; b++)
    if (p->nthrcol[b] > p->max_thrcol) p->max_thrcol = p->nthrcol[b];
}
