/*
 * op_plan_check.c - verifies a plan: the blocks cover the set exactly, the
 * block map lists every block once grouped by colour, and elements of one
 * colour in a block, blocks of one colour, and (when built) elements of one
 * global colour touch disjoint indirectly written elements. Also checks the
 * local renumbering against the global maps, and the affine runs (each
 * element of an affine segment against the maps, and that no element touches
 * what another writes) and the chunk safety claimed for the rest.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op_state.h"
#include "op_plan.h"
#include "op_plan_parts.h"
#include "op_dist.h"

OP_PRINTF(3, 4) static int fail(char *msg, size_t len, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, len, fmt, ap);
  va_end(ap);
  return 1;
}

static inline int target(const op_arg *a, int n) { return a->map->map[n * a->map->dim + a->idx]; }

/* Marks every written-indirect element touched by elements [start, end) with
 * stamp; returns the first clash with an element stamped earlier in the same
 * group (same stamp from another member), or 0. Arrays `owner` hold, per
 * indirect dat element, the group member that touched it last. */
static int touch(const op_plan *p, const op_arg *args, int nargs, int start, int end, int member,
                 int group, int **owner, int **owner_group, int *clash_dat, int *clash_elem) {
  for (int i = 0; i < nargs; i++) {
    int k = p->inds[i];
    if (k < 0 || !p->ind_writes[k]) continue;
    for (int n = start; n < end; n++) {
      int g = target(&args[i], n);
      if (owner_group[k][g] == group && owner[k][g] != member) {
        *clash_dat = k;
        *clash_elem = g;
        return 1;
      }
      owner_group[k][g] = group;
      owner[k][g] = member;
    }
  }
  return 0;
}

static void alloc_owners(const op_plan *p, int ***owner, int ***group) {
  *owner = op_calloc((size_t)(p->ninds ? p->ninds : 1), sizeof(int *));
  *group = op_calloc((size_t)(p->ninds ? p->ninds : 1), sizeof(int *));
  for (int k = 0; k < p->ninds; k++) {
    size_t n = (size_t)op_set_held(op_g.dats[p->ind_dat[k]]->set) + 1;
    (*owner)[k] = op_malloc(sizeof(int) * n);
    (*group)[k] = op_malloc(sizeof(int) * n);
    for (size_t j = 0; j < n; j++) (*group)[k][j] = -1;
  }
}

static void free_owners(const op_plan *p, int **owner, int **group) {
  for (int k = 0; k < p->ninds; k++) {
    free(owner[k]);
    free(group[k]);
  }
  free(owner);
  free(group);
}

static int check_blocks(const op_plan *p, char *msg, size_t len) {
  /* Reductions take blocks [0, nblocks_owned): exactly the owned elements
   * (on many processes the execute halo's blocks come after them). */
  const int owned = p->set->size < p->set_size ? p->set->size : p->set_size;
  int next = 0;
  for (int b = 0; b < p->nblocks; b++) {
    if ((b < p->nblocks_owned) != (p->offset[b] < owned))
      return fail(msg, len, "block %d (from element %d) is %s the owned blocks (%d) of %d owned "
                  "elements", b, p->offset[b], b < p->nblocks_owned ? "among" : "not among",
                  p->nblocks_owned, owned);
    if (next < owned && next + p->nelems[b] > owned)
      return fail(msg, len, "block %d (elements %d to %d) straddles the owned boundary %d", b, next,
                  next + p->nelems[b] - 1, owned);
    if (p->offset[b] != next)
      return fail(msg, len, "block %d starts at %d, expected %d", b, p->offset[b], next);
    if (p->nelems[b] <= 0 || p->nelems[b] > p->part_size)
      return fail(msg, len, "block %d has %d elements (part size %d)", b, p->nelems[b],
                  p->part_size);
    if (next < p->core_size && next + p->nelems[b] > p->core_size)
      return fail(msg, len, "block %d (elements %d to %d) straddles the core boundary %d", b, next,
                  next + p->nelems[b] - 1, p->core_size);
    next += p->nelems[b];
  }
  if (next != p->set_size)
    return fail(msg, len, "blocks cover %d elements of a set of %d", next, p->set_size);
  return 0;
}

static int check_blkmap(const op_plan *p, char *msg, size_t len) {
  char *seen = op_calloc((size_t)p->nblocks + 1, 1);
  int total = 0, rc = 0;
  for (int c = 0; c < p->ncolors && !rc; c++) {
    if (p->colblk_offset[c] != total)
      rc = fail(msg, len, "colour %d starts at %d in the block map, expected %d", c,
                p->colblk_offset[c], total);
    total += p->ncolblk[c];
  }
  if (!rc && total != p->nblocks)
    rc = fail(msg, len, "the block map lists %d blocks of %d", total, p->nblocks);
  if (!rc && (p->ncolors_core < 0 || p->ncolors_core > p->ncolors))
    rc = fail(msg, len, "%d core colours of %d", p->ncolors_core, p->ncolors);
  for (int j = 0; j < p->nblocks && !rc; j++) {
    int b = p->blkmap[j];
    if (b < 0 || b >= p->nblocks || seen[b]) {
      rc = fail(msg, len, "block map entry %d (block %d) is out of range or repeated", j, b);
    } else {
      seen[b] = 1;
      /* Core blocks in the core colours, the others after them. */
      const int core_colour = j < (p->ncolors_core ? p->colblk_offset[p->ncolors_core] : 0);
      if (core_colour != (p->offset[b] < p->core_size))
        rc = fail(msg, len, "block %d (%s) has a %s colour (core colours: %d)", b,
                  p->offset[b] < p->core_size ? "core" : "not core",
                  core_colour ? "core" : "later", p->ncolors_core);
    }
  }
  free(seen);
  return rc;
}

static int check_block_colours(const op_plan *p, const op_arg *args, int nargs, char *msg,
                               size_t len) {
  int **owner, **group, rc = 0, k, g;
  alloc_owners(p, &owner, &group);
  for (int c = 0; c < p->ncolors && !rc; c++) {
    for (int j = p->colblk_offset[c]; j < p->colblk_offset[c] + p->ncolblk[c] && !rc; j++) {
      int b = p->blkmap[j];
      if (touch(p, args, nargs, p->offset[b], p->offset[b] + p->nelems[b], b, c, owner, group, &k,
                &g))
        rc = fail(msg, len,
                  "blocks of colour %d both touch element %d of dat \"%s\" (block %d and another)",
                  c, g, op_g.dats[p->ind_dat[k]]->name, b);
    }
  }
  free_owners(p, owner, group);
  return rc;
}

static int check_element_colours(const op_plan *p, const op_arg *args, int nargs, char *msg,
                                 size_t len) {
  int **owner, **group, rc = 0, k, g;
  alloc_owners(p, &owner, &group);
  int stamp = 0;
  for (int b = 0; b < p->nblocks && !rc; b++) {
    int start = p->offset[b], end = start + p->nelems[b];
    for (int n = start; n < end && !rc; n++) {
      if (p->thrcol[n] < 0 || p->thrcol[n] >= p->nthrcol[b])
        rc = fail(msg, len, "element %d has colour %d, block %d has %d colours", n, p->thrcol[n],
                  b, p->nthrcol[b]);
      else if (touch(p, args, nargs, n, n + 1, n, stamp + p->thrcol[n], owner, group, &k, &g))
        rc = fail(msg, len, "elements of colour %d in block %d both touch element %d of dat \"%s\"",
                  p->thrcol[n], b, g, op_g.dats[p->ind_dat[k]]->name);
    }
    stamp += p->nthrcol[b];
  }
  free_owners(p, owner, group);
  return rc;
}

static int check_renumbering(const op_plan *p, const op_arg *args, int nargs, char *msg,
                             size_t len) {
  int nb = p->nblocks;
  for (int b = 0; b < nb; b++) {
    for (int k = 0; k < p->ninds; k++) {
      const int *list = p->ind_maps[k] + p->ind_offs[k * nb + b];
      for (int j = 1; j < p->ind_sizes[k * nb + b]; j++)
        if (list[j] <= list[j - 1])
          return fail(msg, len, "block %d: local list of dat %d is not sorted and distinct", b, k);
    }
    for (int i = 0; i < nargs; i++) {
      int k = p->inds[i];
      if (k < 0) continue;
      const int *list = p->ind_maps[k] + p->ind_offs[k * nb + b];
      for (int n = p->offset[b]; n < p->offset[b] + p->nelems[b]; n++) {
        int l = p->loc_maps[i][n];
        if (l < 0 || l >= p->ind_sizes[k * nb + b] || list[l] != target(&args[i], n))
          return fail(msg, len, "argument %d, element %d: local index %d does not map back", i, n,
                      l);
      }
    }
  }
  return 0;
}

static int check_global_colours(const op_plan *p, const op_arg *args, int nargs, char *msg,
                                size_t len) {
  int **owner, **group, rc = 0, k, g;
  if (p->gcol_offset[p->gcolors] != p->set_size)
    return fail(msg, len, "global colours hold %d elements of %d", p->gcol_offset[p->gcolors],
                p->set_size);
  alloc_owners(p, &owner, &group);
  for (int c = 0; c < p->gcolors && !rc; c++)
    for (int j = p->gcol_offset[c]; j < p->gcol_offset[c + 1] && !rc; j++) {
      int n = p->gcol_elems[j];
      if (touch(p, args, nargs, n, n + 1, n, c, owner, group, &k, &g))
        rc = fail(msg, len, "elements of global colour %d both touch element %d of dat \"%s\"", c,
                  g, op_g.dats[p->ind_dat[k]]->name);
    }
  free_owners(p, owner, group);
  return rc;
}

/* Interleaved segment g (kind 3): its length a multiple of its period P,
 * element start + p + P * m mapping to element start + p's entries plus m
 * through every map, and a loop whose arguments allow such runs
 * (op_plan_interleave_safe, op_plan.h). */
static int check_interleaved(const op_plan *p, const op_arg *args, int nargs, int g, char *msg,
                             size_t len) {
  const int s = p->seg_start[g], e = p->seg_end[g], P = p->seg_period[g];
  if (P < 2 || P > OP_PLAN_MAX_PERIOD || (e - s) % P)
    return fail(msg, len, "interleaved segment %d: [%d, %d) with period %d", g, s, e, P);
  if (!op_plan_interleave_safe(args, nargs))
    return fail(msg, len, "interleaved segment %d in a loop that writes through a map, reduces, "
                "or reaches what it increments otherwise", g);
  for (int i = 0; i < nargs; i++) {
    const op_arg *a = &args[i];
    if ((a->kind != OP_ARG_DAT && a->kind != OP_ARG_IDX) || !a->map) continue;
    for (int n = s + P; n < e; n++)
      if (target(a, n) != target(a, n - P) + 1)
        return fail(msg, len, "interleaved segment %d: element %d of argument %d maps to %d, "
                    "not %d", g, n, i, target(a, n), target(a, n - P) + 1);
  }
  return 0;
}

/* Segments tile each block in order; in an affine segment every mapped
 * argument's entry is the element plus the segment's offset, and a written
 * dat is reached at one offset; chunk_safe holds for the general segments. */
static int check_segments(const op_plan *p, const op_arg *args, int nargs, char *msg, size_t len) {
  for (int b = 0; b < p->nblocks; b++) {
    int next = p->offset[b];
    for (int g = p->blk_seg[b]; g < p->blk_seg[b + 1]; g++) {
      if (p->seg_start[g] != next || p->seg_end[g] <= p->seg_start[g])
        return fail(msg, len, "segment %d of block %d is [%d, %d), expected to start at %d", g, b,
                    p->seg_start[g], p->seg_end[g], next);
      next = p->seg_end[g];
      if (p->seg_affine[g] == 3) {
        if (check_interleaved(p, args, nargs, g, msg, len)) return 1;
        continue;
      }
      if (p->seg_period[g] != 1)
        return fail(msg, len, "segment %d of kind %d has period %d", g, p->seg_affine[g],
                    p->seg_period[g]);
      if (!p->seg_affine[g]) continue;
      const int *off = p->seg_off + (size_t)g * (size_t)nargs;
      const int *step = p->seg_step + (size_t)g * (size_t)nargs;
      int all_one = 1;
      for (int i = 0; i < nargs; i++) {
        const op_arg *a = &args[i];
        if ((a->kind != OP_ARG_DAT && a->kind != OP_ARG_IDX) || !a->map) continue;
        all_one &= step[i] == 1;
        if ((step[i] != 0 && step[i] != 1) || (a->acc != OP_READ && step[i] != 1))
          return fail(msg, len, "affine segment %d: argument %d has step %d", g, i, step[i]);
        for (int n = p->seg_start[g]; n < p->seg_end[g]; n++)
          if (target(a, n) != step[i] * n + off[i])
            return fail(msg, len, "affine segment %d: element %d of argument %d maps to %d, not %d",
                        g, n, i, target(a, n), step[i] * n + off[i]);
        for (int j = 0; j < nargs; j++) {
          const op_arg *c = &args[j];
          if (j == i || c->kind != OP_ARG_DAT || a->kind != OP_ARG_DAT || c->dat != a->dat ||
              (a->acc == OP_READ && c->acc == OP_READ))
            continue;
          if ((c->map ? off[j] : 0) != off[i] || (c->map ? step[j] : 1) != step[i])
            return fail(msg, len, "affine segment %d: arguments %d and %d reach dat \"%s\" "
                        "differently and one writes it", g, i, j, a->dat->name);
        }
      }
      if (p->seg_affine[g] != (all_one ? 1 : 2))
        return fail(msg, len, "affine segment %d: kind %d, but its steps make it %d", g,
                    p->seg_affine[g], all_one ? 1 : 2);
    }
    if (next != p->offset[b] + p->nelems[b])
      return fail(msg, len, "the segments of block %d end at %d, the block at %d", b, next,
                  p->offset[b] + p->nelems[b]);
  }
  if (!p->chunk_safe) return 0;
  /* Claimed safe: no element of a dat written with WRITE or RW is touched
   * twice within a general segment. */
  for (int i = 0; i < nargs; i++) {
    if (args[i].kind != OP_ARG_DAT || !args[i].map ||
        (args[i].acc != OP_WRITE && args[i].acc != OP_RW))
      continue;
    const op_dat d = args[i].dat;
    int *stamp = op_malloc(sizeof(int) * ((size_t)d->set->size + 1));
    for (int e = 0; e < d->set->size; e++) stamp[e] = -1;
    for (int g = 0; g < p->nsegs; g++) {
      if (p->seg_affine[g]) continue;
      for (int j = 0; j < nargs; j++) {
        if (args[j].kind != OP_ARG_DAT || !args[j].map || args[j].dat != d) continue;
        for (int n = p->seg_start[g]; n < p->seg_end[g]; n++) {
          const int t = target(&args[j], n);
          if (stamp[t] == g) {
            free(stamp);
            return fail(msg, len, "plan claims chunk safety but element %d of dat \"%s\" is "
                        "touched twice in segment %d", t, d->name, g);
          }
          stamp[t] = g;
        }
      }
    }
    free(stamp);
  }
  return 0;
}

/* A size-only plan runs one thread per element in any order: no two
 * elements may touch one element of a dat written through a map, but for a
 * dat only incremented (atomically). */
static int check_one_thread_per_element(const op_plan *p, const op_arg *args, int nargs,
                                        char *msg, size_t len) {
  if (p->nblocks != 0) return fail(msg, len, "a size-only plan with %d blocks", p->nblocks);
  int **owner, **group, rc = 0;
  alloc_owners(p, &owner, &group);
  for (int k = 0; k < p->ninds && !rc; k++) {
    if (!p->ind_writes[k]) continue;
    int increments_only = 1;
    for (int i = 0; i < nargs; i++)
      if (args[i].kind == OP_ARG_DAT && args[i].dat == op_g.dats[p->ind_dat[k]] &&
          (!args[i].map || args[i].acc != OP_INC))
        increments_only = 0;
    if (increments_only) continue;
    for (int n = 0; n < p->set_size && !rc; n++)
      for (int i = 0; i < nargs && !rc; i++) {
        if (p->inds[i] != k) continue;
        const int g = target(&args[i], n);
        if (group[k][g] == 0 && owner[k][g] != n)
          rc = fail(msg, len,
                    "one thread per element, but elements %d and %d both touch element %d of "
                    "dat \"%s\", which the loop writes",
                    owner[k][g], n, g, op_g.dats[p->ind_dat[k]]->name);
        group[k][g] = 0;
        owner[k][g] = n;
      }
  }
  free_owners(p, owner, group);
  return rc;
}

int op_plan_check(const op_plan *p, int nargs, const op_arg *args, char *msg, size_t len) {
  if (nargs != p->nargs) return fail(msg, len, "plan has %d arguments, given %d", p->nargs, nargs);
  if (p->what & OP_PLAN_SIZE_ONLY) {
    if (check_one_thread_per_element(p, args, nargs, msg, len)) return 1;
    if (len) msg[0] = '\0';
    return 0;
  }
  if (check_blocks(p, msg, len) || check_blkmap(p, msg, len) ||
      check_block_colours(p, args, nargs, msg, len))
    return 1;
  if ((p->what & OP_PLAN_STAGED) &&
      (check_element_colours(p, args, nargs, msg, len) || check_renumbering(p, args, nargs, msg, len)))
    return 1;
  if ((p->what & OP_PLAN_GLOBAL_COLOURS) && check_global_colours(p, args, nargs, msg, len)) return 1;
  if ((p->what & OP_PLAN_AFFINE_RUNS) && check_segments(p, args, nargs, msg, len)) return 1;
  if (len) msg[0] = '\0';
  return 0;
}
