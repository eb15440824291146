/*
 * op_plan_check.c - verifies a plan: the blocks cover the set exactly, the
 * block map lists every block once grouped by colour, and elements of one
 * colour in a block, blocks of one colour, and (when built) elements of one
 * global colour touch disjoint indirectly written elements. Also checks the
 * local renumbering against the global maps.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_state.h"
#include "op_plan.h"
#include "op2_dist.h"

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
  int next = 0;
  for (int b = 0; b < p->nblocks; b++) {
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

int op_plan_check(const op_plan *p, int nargs, const op_arg *args, char *msg, size_t len) {
  if (nargs != p->nargs) return fail(msg, len, "plan has %d arguments, given %d", p->nargs, nargs);
  if (check_blocks(p, msg, len) || check_blkmap(p, msg, len) ||
      check_block_colours(p, args, nargs, msg, len))
    return 1;
  if ((p->what & OP_PLAN_STAGED) &&
      (check_element_colours(p, args, nargs, msg, len) || check_renumbering(p, args, nargs, msg, len)))
    return 1;
  if ((p->what & OP_PLAN_GLOBAL_COLOURS) && check_global_colours(p, args, nargs, msg, len)) return 1;
  if (len) msg[0] = '\0';
  return 0;
}
