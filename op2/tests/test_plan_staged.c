/*
 * test_plan_staged - the linear, threaded build of staged and colour plans
 * against a reference written the plain way (each block's targets sorted
 * with qsort, colours from masks over the whole dats): the local lists, the
 * local numbers, the element colours and the block colours must be the same,
 * array for array, on a random edge mesh (the hash path), a structured grid
 * (the bitmap path) and a dense matrix (lists spanning whole columns), on any
 * number of threads (the OpenMP backend's, run with --op-threads=N). Also:
 * which loops op_args_conflict_free calls free of conflicts, that their
 * plans have one colour, and size-only plans (no blocks, the same bytes
 * counted, refused by the checker for a loop that writes through a map with
 * clashes; the cache hands any plan to a size-only request and a size-only
 * plan to no other).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_loop.h"
#include "op_plan.h"

#define TEST_LCG_SEED 123456789u
#include "test_expect.h"

static inline int target(const op_arg *a, int n) { return a->map->map[n * a->map->dim + a->idx]; }

static int cmp_int(const void *a, const void *b) {
  const int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int written(const op_plan *p, int i) { return p->inds[i] >= 0 && p->ind_writes[p->inds[i]]; }

/* The local renumbering as qsort gives it. */
static void check_renumbering(const char *what, const op_plan *p, const op_arg *args, int nargs) {
  const int nb = p->nblocks;
  int errors = 0;
  for (int b = 0; b < nb && !errors; b++) {
    const int start = p->offset[b], end = start + p->nelems[b];
    for (int k = 0; k < p->ninds && !errors; k++) {
      int *list = malloc(sizeof(int) * (size_t)(nargs * (end - start) + 1));
      int nl = 0;
      for (int i = 0; i < nargs; i++)
        if (p->inds[i] == k)
          for (int n = start; n < end; n++) list[nl++] = target(&args[i], n);
      qsort(list, (size_t)nl, sizeof(int), cmp_int);
      int nu = 0;
      for (int j = 0; j < nl; j++)
        if (nu == 0 || list[j] != list[nu - 1]) list[nu++] = list[j];
      const size_t at = (size_t)k * (size_t)nb + (size_t)b;
      if (p->ind_sizes[at] != nu ||
          memcmp(p->ind_maps[k] + p->ind_offs[at], list, sizeof(int) * (size_t)nu) != 0) {
        CHECK(0, "%s: block %d, dat %d: the local list differs from the sorted one", what, b, k);
        errors++;
      }
      for (int i = 0; i < nargs && !errors; i++)
        if (p->inds[i] == k)
          for (int n = start; n < end && !errors; n++) {
            const int t = target(&args[i], n);
            const int *f = bsearch(&t, list, (size_t)nu, sizeof(int), cmp_int);
            if (p->loc_maps[i][n] != (int)(f - list)) {
              CHECK(0, "%s: argument %d, element %d: local number %d, expected %d", what, i, n,
                    p->loc_maps[i][n], (int)(f - list));
              errors++;
            }
          }
      free(list);
    }
  }
}

/* Greedy colours, 32 a pass, each element (or block) taking the lowest colour
 * none of the written data it touches has, with masks over the whole dats. */
static void check_colours(const char *what, const op_plan *p, const op_arg *args, int nargs) {
  uint32_t **mask = calloc((size_t)p->ninds + 1, sizeof(uint32_t *));
  for (int i = 0; i < nargs; i++)
    if (written(p, i) && !mask[p->inds[i]])
      mask[p->inds[i]] = calloc((size_t)args[i].dat->set->size + 1, sizeof(uint32_t));
  /* Element colours, block by block. */
  int bad = 0;
  for (int b = 0; b < p->nblocks && !bad; b++) {
    const int start = p->offset[b], end = start + p->nelems[b];
    int *col = malloc(sizeof(int) * (size_t)(end - start + 1));
    for (int n = start; n < end; n++) col[n - start] = -1;
    int remaining = end - start, base = 0, ncol = 0;
    while (remaining > 0) {
      for (int n = start; n < end; n++) {
        if (col[n - start] >= 0) continue;
        uint32_t m = 0;
        for (int i = 0; i < nargs; i++)
          if (written(p, i)) m |= mask[p->inds[i]][target(&args[i], n)];
        if (m == 0xffffffffu) continue;
        const int c = __builtin_ctz(~m);
        col[n - start] = base + c;
        ncol = base + c + 1 > ncol ? base + c + 1 : ncol;
        remaining--;
        for (int i = 0; i < nargs; i++)
          if (written(p, i)) mask[p->inds[i]][target(&args[i], n)] |= 1u << c;
      }
      for (int i = 0; i < nargs; i++)
        if (written(p, i))
          for (int n = start; n < end; n++) mask[p->inds[i]][target(&args[i], n)] = 0;
      base += 32;
    }
    if (ncol == 0 && end > start) ncol = 1;
    if (p->nthrcol[b] != ncol ||
        memcmp(p->thrcol + start, col, sizeof(int) * (size_t)(end - start)) != 0) {
      CHECK(0, "%s: block %d: element colours differ from the reference (%d colours, expected %d)",
            what, b, p->nthrcol[b], ncol);
      bad = 1;
    }
    free(col);
  }
  /* Block colours (one process: every block is core). */
  int *bcol = malloc(sizeof(int) * (size_t)(p->nblocks + 1));
  for (int b = 0; b < p->nblocks; b++) bcol[b] = -1;
  int remaining = p->nblocks, base = 0;
  while (remaining > 0) {
    for (int b = 0; b < p->nblocks; b++) {
      if (bcol[b] >= 0) continue;
      const int start = p->offset[b], end = start + p->nelems[b];
      uint32_t m = 0;
      for (int i = 0; i < nargs; i++)
        if (written(p, i))
          for (int n = start; n < end; n++) m |= mask[p->inds[i]][target(&args[i], n)];
      if (m == 0xffffffffu) continue;
      const int c = __builtin_ctz(~m);
      bcol[b] = base + c;
      remaining--;
      for (int i = 0; i < nargs; i++)
        if (written(p, i))
          for (int n = start; n < end; n++) mask[p->inds[i]][target(&args[i], n)] |= 1u << c;
    }
    for (int i = 0; i < nargs; i++)
      if (written(p, i)) memset(mask[p->inds[i]], 0, sizeof(uint32_t) * (size_t)args[i].dat->set->size);
    base += 32;
  }
  for (int c = 0; c < p->ncolors; c++)
    for (int j = p->colblk_offset[c]; j < p->colblk_offset[c] + p->ncolblk[c]; j++)
      if (bcol[p->blkmap[j]] != c) {
        CHECK(0, "%s: block %d has colour %d, the reference gives %d", what, p->blkmap[j], c,
              bcol[p->blkmap[j]]);
        j = p->nblocks;
        c = p->ncolors;
      }
  free(bcol);
  for (int k = 0; k <= p->ninds; k++) free(mask[k]);
  free(mask);
}

static op_plan *staged(const char *what, op_set set, int part, int nargs, const op_arg *args) {
  op_plan *p =
      op_plan_build(what, set, part, nargs, args, OP_PLAN_STAGED | OP_PLAN_GLOBAL_COLOURS);
  char msg[512];
  CHECK(op_plan_check(p, nargs, args, msg, sizeof msg) == 0, "%s: the checker rejects: %s", what,
        msg);
  check_renumbering(what, p, args, nargs);
  check_colours(what, p, args, nargs);
  printf("%-24s part %4d: %6d blocks, %3d block colours, %3d element colours, %3d global "
         "colours%s\n",
         what, part, p->nblocks, p->ncolors, p->max_thrcol, p->gcolors,
         p->conflict_free ? ", conflict-free" : "");
  return p;
}

/* A size-only plan counts the same bytes as a full one and has no blocks. */
static void size_only(const char *what, op_set set, int nargs, const op_arg *args, int clashes) {
  op_plan *full = op_plan_build(what, set, 64, nargs, args, 0);
  op_plan *bare = op_plan_build(what, set, 64, nargs, args, OP_PLAN_SIZE_ONLY);
  CHECK(bare->nblocks == 0, "%s: a size-only plan has %d blocks", what, bare->nblocks);
  CHECK(bare->bytes_moved == full->bytes_moved,
        "%s: size-only plan counts %.0f bytes, a full one %.0f", what, bare->bytes_moved,
        full->bytes_moved);
  char msg[512];
  const int rc = op_plan_check(bare, nargs, args, msg, sizeof msg);
  CHECK((rc != 0) == clashes, "%s: the checker %s a size-only plan%s%s", what,
        rc ? "rejects" : "accepts", rc ? ": " : "", rc ? msg : "");
  op_plan_free(full);
  op_plan_free(bare);
}

int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 0);

  /* Random edges: scattered targets (the hash path), increments and a write. */
  const int nnode = 3000, nedge = 20000;
  int *e2n = malloc(sizeof(int) * 2 * nedge);
  for (int e = 0; e < nedge; e++) {
    e2n[2 * e] = (int)(lcg() % nnode);
    e2n[2 * e + 1] = (int)(lcg() % nnode);
  }
  op_set nodes = op_decl_set(nnode, "nodes");
  op_set edges = op_decl_set(nedge, "edges");
  op_map pedge = op_decl_map(edges, nodes, 2, e2n, "pedge");
  op_dat u = op_decl_dat_temp(nodes, 3, "double", "u");
  op_dat r = op_decl_dat_temp(nodes, 1, "double", "r");
  op_dat w = op_decl_dat_temp(edges, 1, "double", "w");
  op_arg inc_args[5] = {
      op_arg_dat(w, -1, OP_ID, 1, "double", OP_READ),
      op_arg_dat(u, 0, pedge, 3, "double", OP_READ),
      op_arg_dat(u, 1, pedge, 3, "double", OP_READ),
      op_arg_dat(r, 0, pedge, 1, "double", OP_INC),
      op_arg_dat(r, 1, pedge, 1, "double", OP_INC),
  };
  op_arg rw_args[3] = {
      op_arg_dat(u, 0, pedge, 3, "double", OP_READ),
      op_arg_dat(r, 0, pedge, 1, "double", OP_RW),
      op_arg_dat(r, 1, pedge, 1, "double", OP_READ),
  };
  const int parts[] = {1, 64, 256, 1000};
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
    op_plan_free(staged("random edges, INC", edges, parts[i], 5, inc_args));
    op_plan_free(staged("random edges, RW", edges, parts[i], 3, rw_args));
  }
  CHECK(!op_args_conflict_free(5, inc_args, nedge, 0),
        "random edges: increments through two columns called conflict-free");
  CHECK(op_args_conflict_free(5, inc_args, nedge, 1),
        "random edges: increments only, atomic: not called conflict-free");
  CHECK(!op_args_conflict_free(3, rw_args, nedge, 1),
        "random edges: RW through a map called conflict-free");
  size_only("random edges, INC", edges, 5, inc_args, 0);
  size_only("random edges, RW", edges, 3, rw_args, 1);

  /* A structured grid: nx x ny interior points, a ring of ghost cells, the
   * 5-point stencil; the step writes its own cell (one-to-one), a second
   * loop increments its neighbours (clashes). */
  const int nx = 200, ny = 150, ex = nx + 2, ey = ny + 2;
  int *st = malloc(sizeof(int) * 5 * (size_t)nx * ny);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      int *row = st + 5 * ((size_t)j * nx + i);
      const int c = (j + 1) * ex + i + 1;
      row[0] = c, row[1] = c + 1, row[2] = c - 1, row[3] = c + ex, row[4] = c - ex;
    }
  op_set cells = op_decl_set(ex * ey, "cells");
  op_set interior = op_decl_set(nx * ny, "interior");
  op_map stencil = op_decl_map(interior, cells, 5, st, "stencil");
  op_dat a = op_decl_dat_temp(cells, 1, "double", "a");
  op_dat b = op_decl_dat_temp(cells, 1, "double", "b");
  op_arg step_args[6];
  for (int k = 0; k < 5; k++) step_args[k] = op_arg_dat(a, k, stencil, 1, "double", OP_READ);
  step_args[5] = op_arg_dat(b, 0, stencil, 1, "double", OP_WRITE);
  op_arg spread_args[3] = {
      op_arg_dat(a, 0, stencil, 1, "double", OP_READ),
      op_arg_dat(b, 1, stencil, 1, "double", OP_INC),
      op_arg_dat(b, 3, stencil, 1, "double", OP_INC),
  };
  op_arg self_read_args[2] = {
      op_arg_dat(b, 1, stencil, 1, "double", OP_READ),
      op_arg_dat(b, 0, stencil, 1, "double", OP_WRITE),
  };
  CHECK(op_args_conflict_free(6, step_args, nx * ny, 0),
        "grid step: a write through a one-to-one column not called conflict-free");
  CHECK(!op_args_conflict_free(3, spread_args, nx * ny, 0),
        "grid spread: increments of neighbours called conflict-free");
  CHECK(!op_args_conflict_free(2, self_read_args, nx * ny, 1),
        "grid: a dat written through one column and read through another called conflict-free");
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
    op_plan *p = staged("grid step", interior, parts[i], 6, step_args);
    CHECK(p->conflict_free && p->ncolors == 1 && p->max_thrcol == 1 && p->gcolors == 1,
          "grid step: %d block, %d element and %d global colours (conflict-free %d), expected 1",
          p->ncolors, p->max_thrcol, p->gcolors, p->conflict_free);
    op_plan_free(p);
    op_plan_free(staged("grid spread", interior, parts[i], 3, spread_args));
  }
  size_only("grid step", interior, 6, step_args, 0);
  size_only("grid self read", interior, 2, self_read_args, 1);

  /* A dense matrix as edges: each row reads every column (lists spanning
   * the whole vector), increments its row. */
  const int nrow = 120;
  int *d2v = malloc(sizeof(int) * 2 * nrow * nrow);
  for (int i = 0; i < nrow; i++)
    for (int j = 0; j < nrow; j++) {
      d2v[2 * (i * nrow + j)] = i;
      d2v[2 * (i * nrow + j) + 1] = j;
    }
  op_set rows = op_decl_set(nrow, "rows");
  op_set entries = op_decl_set(nrow * nrow, "entries");
  op_map pent = op_decl_map(entries, rows, 2, d2v, "pent");
  op_dat x = op_decl_dat_temp(rows, 1, "double", "x");
  op_dat y = op_decl_dat_temp(rows, 1, "double", "y");
  op_arg mv_args[2] = {
      op_arg_dat(y, 0, pent, 1, "double", OP_INC),
      op_arg_dat(x, 1, pent, 1, "double", OP_READ),
  };
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++)
    op_plan_free(staged("dense rows", entries, parts[i], 2, mv_args));
  /* Affine runs of step 0 (a row's entries all write the row) are not
   * one-to-one; nor are two runs over the same range (a map that wraps). */
  op_arg dense_write[2] = {op_arg_dat(y, 0, pent, 1, "double", OP_WRITE),
                           op_arg_dat(x, 1, pent, 1, "double", OP_READ)};
  CHECK(!op_args_conflict_free(2, dense_write, nrow * nrow, 1),
        "dense rows: a write through a column that repeats each row for %d entries called "
        "conflict-free",
        nrow);
  const int nwrap = 1000;
  int *wrap = malloc(sizeof(int) * 2 * nwrap);
  for (int k = 0; k < nwrap; k++) wrap[2 * k] = k % (nwrap / 2), wrap[2 * k + 1] = k;
  op_set twice = op_decl_set(nwrap, "twice");
  op_set half = op_decl_set(nwrap, "half");
  op_map pwrap = op_decl_map(twice, half, 2, wrap, "pwrap");
  op_dat h = op_decl_dat_temp(half, 1, "double", "h");
  op_arg wrap_col0[1] = {op_arg_dat(h, 0, pwrap, 1, "double", OP_WRITE)};
  op_arg wrap_col1[1] = {op_arg_dat(h, 1, pwrap, 1, "double", OP_WRITE)};
  CHECK(!op_args_conflict_free(1, wrap_col0, nwrap, 0),
        "a column whose second run repeats the first's range called conflict-free");
  CHECK(op_args_conflict_free(1, wrap_col1, nwrap, 0),
        "the identity column of the wrapping map not called conflict-free");
  CHECK(op_args_conflict_free(1, wrap_col0, nwrap / 2, 0),
        "the wrapping column over its first run only not called conflict-free");
  free(wrap);
  /* One run whose written column stays on one element (step 0). */
  const int nsame = 200;
  int *same = malloc(sizeof(int) * 2 * nsame);
  for (int k = 0; k < nsame; k++) same[2 * k] = 0, same[2 * k + 1] = k;
  op_set many = op_decl_set(nsame, "many");
  op_set targets = op_decl_set(nsame, "targets");
  op_map psame = op_decl_map(many, targets, 2, same, "psame");
  op_dat z = op_decl_dat_temp(targets, 1, "double", "z");
  op_arg same_col0[1] = {op_arg_dat(z, 0, psame, 1, "double", OP_WRITE)};
  CHECK(!op_args_conflict_free(1, same_col0, nsame, 0),
        "a column that stays on one element for a whole run called conflict-free");
  free(same);

  /* The cache: a size-only request takes any plan of the loop; no other
   * request takes a size-only plan. */
  const op_plan *full = op_plan_get("cache", edges, 64, 5, inc_args, OP_PLAN_STAGED);
  CHECK(op_plan_get("cache", edges, 64, 5, inc_args, OP_PLAN_SIZE_ONLY) == full,
        "cache: a size-only request built a plan of its own beside a staged one");
  const op_plan *bare = op_plan_get("cache2", edges, 64, 5, inc_args, OP_PLAN_SIZE_ONLY);
  const op_plan *again = op_plan_get("cache2", edges, 64, 5, inc_args, 0);
  CHECK(again != bare && again->nblocks > 0,
        "cache: a request for blocks was given the size-only plan");

  free(e2n);
  free(st);
  free(d2v);
  op_exit();
  return check_exit("staged plans against the reference");
}
