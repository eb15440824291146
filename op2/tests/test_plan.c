/*
 * test_plan - execution plans on random and structured meshes: the checker
 * accepts what the builder makes (including more than 32 colours at both
 * levels), rejects a plan that was tampered with, and the cache returns the
 * same plan for the same loop. Affine runs: found on a structured stencil,
 * refused where two elements would write one datum, checked element by
 * element. Interleaved runs: found on edges numbered north, east, north,
 * east along rows of cells, refused where the loop writes through a map,
 * checked element by element; their increments' order on a worked example.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_loop.h"
#include "op_plan.h"

#define TEST_LCG_SEED 987654321u
#include "test_expect.h"


/* The share of the elements in segments of the given kinds (op_plan.h). */
static double kind_share(const op_plan *p, int lo, int hi) {
  long n = 0;
  for (int g = 0; g < p->nsegs; g++)
    if (p->seg_affine[g] >= lo && p->seg_affine[g] <= hi) n += p->seg_end[g] - p->seg_start[g];
  return p->set_size ? (double)n / p->set_size : 0.0;
}

static double affine_share(const op_plan *p) { return kind_share(p, 1, 2); }
static double interleaved_share(const op_plan *p) { return kind_share(p, 3, 3); }

static op_plan *build_and_check(const char *what, op_set set, int part, int nargs,
                                const op_arg *args) {
  op_plan *p =
      op_plan_build(what, set, part, nargs, args,
                    OP_PLAN_STAGED | OP_PLAN_GLOBAL_COLOURS | OP_PLAN_AFFINE_RUNS);
  char msg[512];
  int rc = op_plan_check(p, nargs, args, msg, sizeof msg);
  CHECK(rc == 0, "%s (part %d): the checker rejects a built plan: %s", what, part, msg);
  printf("%-28s part %4d: %5d blocks, %3d block colours, %3d element colours, %3d global "
         "colours, %zu bytes staged, %.0f%% affine, %.0f%% interleaved\n",
         what, part, p->nblocks, p->ncolors, p->max_thrcol, p->gcolors, p->nshared,
         100.0 * affine_share(p), 100.0 * interleaved_share(p));
  return p;
}

int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 0);

  /* A random edge mesh: INC on both ends, READ on an edge dat. */
  const int nnode = 2000, nedge = 9000;
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
  op_arg rand_args[5] = {
      op_arg_dat(w, -1, OP_ID, 1, "double", OP_READ),
      op_arg_dat(u, 0, pedge, 3, "double", OP_READ),
      op_arg_dat(u, 1, pedge, 3, "double", OP_READ),
      op_arg_dat(r, 0, pedge, 1, "double", OP_INC),
      op_arg_dat(r, 1, pedge, 1, "double", OP_INC),
  };
  /* Any partition size is valid, up to INT_MAX: one block then, and no
   * arithmetic on the partition size may overflow (a tune file can ask for
   * 2147483647; five arguments times that once became a 16 EB allocation). */
  int parts[] = {1, 7, 64, 256, 1024, 100000, 1 << 30, 2147483647};
  for (size_t i = 0; i < sizeof parts / sizeof *parts; i++) {
    op_plan *p = build_and_check("random edges", edges, parts[i], 5, rand_args);
    CHECK(p->ninds == 2, "random edges: %d indirect dats, expected 2", p->ninds);
    op_plan_free(p);
  }

  /* A structured grid of quads incrementing their four corner nodes. */
  const int nx = 60, ny = 40;
  int *c2n = malloc(sizeof(int) * 4 * nx * ny);
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      int c = i + j * nx, n0 = i + j * (nx + 1);
      c2n[4 * c] = n0;
      c2n[4 * c + 1] = n0 + 1;
      c2n[4 * c + 2] = n0 + nx + 2;
      c2n[4 * c + 3] = n0 + nx + 1;
    }
  op_set gnodes = op_decl_set((nx + 1) * (ny + 1), "grid_nodes");
  op_set cells = op_decl_set(nx * ny, "cells");
  op_map pcell = op_decl_map(cells, gnodes, 4, c2n, "pcell");
  op_dat gn = op_decl_dat_temp(gnodes, 2, "double", "gn");
  op_arg quad_args[4];
  for (int k = 0; k < 4; k++) quad_args[k] = op_arg_dat(gn, k, pcell, 2, "double", OP_INC);
  int qparts[] = {16, 60, 128, 512};
  for (size_t i = 0; i < sizeof qparts / sizeof *qparts; i++) {
    op_plan *p = build_and_check("structured quads", cells, qparts[i], 4, quad_args);
    /* A quad touches its 4 corners; neighbours share corners, so the greedy
     * element colouring needs 4 colours on a structured grid. */
    CHECK(p->gcolors == 4, "structured quads: %d global colours, expected 4", p->gcolors);
    op_plan_free(p);
  }

  /* A star: every element increments node 0, so no two elements (and no two
   * blocks) may share a colour: more than 32 colours at every level. */
  const int nstar = 150;
  int *s2n = malloc(sizeof(int) * 2 * nstar);
  for (int e = 0; e < nstar; e++) {
    s2n[2 * e] = 0;
    s2n[2 * e + 1] = 1 + e;
  }
  op_set snodes = op_decl_set(nstar + 1, "star_nodes");
  op_set sedges = op_decl_set(nstar, "star_edges");
  op_map pstar = op_decl_map(sedges, snodes, 2, s2n, "pstar");
  op_dat sv = op_decl_dat_temp(snodes, 1, "double", "sv");
  op_arg star_args[2] = {op_arg_dat(sv, 0, pstar, 1, "double", OP_INC),
                         op_arg_dat(sv, 1, pstar, 1, "double", OP_INC)};
  op_plan *star = build_and_check("star (element colours)", sedges, 100, 2, star_args);
  CHECK(star->max_thrcol == 100, "star: %d element colours in a block of 100, expected 100",
        star->max_thrcol);
  CHECK(star->gcolors == nstar, "star: %d global colours, expected %d", star->gcolors, nstar);
  op_plan_free(star);
  star = build_and_check("star (one block)", sedges, 2147483647, 2, star_args);
  CHECK(star->nblocks == 1 && star->max_thrcol == nstar, "star, part 2^31-1: %d blocks",
        star->nblocks);
  op_plan_free(star);
  star = build_and_check("star (block colours)", sedges, 2, 2, star_args);
  CHECK(star->ncolors == nstar / 2, "star: %d block colours, expected %d", star->ncolors,
        nstar / 2);
  CHECK(star->ncolors > 32, "star: no more than 32 block colours");

  /* Tampering: put two conflicting blocks in one colour, and two conflicting
   * elements in one element colour; the checker must notice each. */
  {
    char msg[512];
    int saved = star->ncolblk[0];
    star->ncolblk[0] = 2;
    star->ncolblk[1] -= 1;
    star->colblk_offset[1] = 2;
    CHECK(op_plan_check(star, 2, star_args, msg, sizeof msg) != 0,
          "the checker accepted two conflicting blocks of one colour");
    printf("tampered block colours rejected: %s\n", msg);
    star->ncolblk[0] = saved;
    star->ncolblk[1] += 1;
    star->colblk_offset[1] = 1;
    CHECK(op_plan_check(star, 2, star_args, msg, sizeof msg) == 0, "restored plan rejected: %s",
          msg);
    star->thrcol[1] = star->thrcol[0];
    CHECK(op_plan_check(star, 2, star_args, msg, sizeof msg) != 0,
          "the checker accepted two conflicting elements of one colour");
    printf("tampered element colours rejected: %s\n", msg);
  }
  op_plan_free(star);

  /* On many processes a loop that writes through a map also runs the
   * execute halo, held after the owned elements: its blocks come last, apart
   * from the owned ones, and reductions leave them out (nblocks_owned). The
   * star's last 5 edges made an execute halo here, half the rest core. */
  {
    const int nown = nstar - 5;
    sedges->size = nown;
    sedges->exec_size = 5;
    sedges->core_size = nown / 2;
    op_plan *h = build_and_check("star with an execute halo", sedges, 4, 2, star_args);
    const int owned_blocks = (nown / 2 + 3) / 4 + (nown - nown / 2 + 3) / 4;
    CHECK(
        h->set_size == nstar && h->nblocks_owned == owned_blocks && h->nblocks == owned_blocks + 2,
        "execute halo: %d elements in %d blocks, %d owned; expected %d in %d, %d owned",
        h->set_size, h->nblocks, h->nblocks_owned, nstar, owned_blocks + 2, owned_blocks);
    char msg[512];
    h->nblocks_owned++;
    CHECK(op_plan_check(h, 2, star_args, msg, sizeof msg) != 0,
          "the checker accepted an execute-halo block among the owned ones");
    printf("execute-halo block counted as owned rejected: %s\n", msg);
    op_plan_free(h);
    sedges->size = nstar;
    sedges->exec_size = 0;
    sedges->core_size = nstar;
  }

  /* Reads do not conflict: one colour whatever the sharing. */
  op_arg read_args[2] = {op_arg_dat(sv, 0, pstar, 1, "double", OP_READ),
                         op_arg_dat(sv, 1, pstar, 1, "double", OP_READ)};
  op_plan *rp = build_and_check("star read-only", sedges, 10, 2, read_args);
  CHECK(rp->ncolors == 1 && rp->max_thrcol == 1 && rp->gcolors == 1,
        "read-only star: %d/%d/%d colours, expected 1/1/1", rp->ncolors, rp->max_thrcol,
        rp->gcolors);
  /* Local renumbering: node 0 is staged once per block, then the block's leaves. */
  CHECK(rp->ind_sizes[0] == 11, "read-only star: block 0 stages %d nodes, expected 11",
        rp->ind_sizes[0]);
  CHECK(rp->ind_maps[0][0] == 0, "read-only star: block 0's first staged node is %d",
        rp->ind_maps[0][0]);
  op_plan_free(rp);

  /* Affine runs: a 5-point stencil on a 100 x 30 grid with a ghost ring,
   * reading u at five offsets and writing v at the centre. Every row is an
   * affine run (100 elements): with blocks of whole rows all elements run
   * directly; with blocks of 256, pieces of rows shorter than
   * OP_AFFINE_MIN_RUN stay general. One block colour either way. */
  const int sx = 100, sy = 30, ex = sx + 2;
  int *st = malloc(sizeof(int) * 5 * sx * sy);
  for (int j = 0; j < sy; j++)
    for (int i = 0; i < sx; i++) {
      const int n = i + j * sx, c = (j + 1) * ex + i + 1;
      const int nb[5] = {c, c + 1, c - 1, c + ex, c - ex};
      memcpy(st + 5 * n, nb, sizeof nb);
    }
  op_set ext = op_decl_set(ex * (sy + 2), "ext_cells");
  op_set inner = op_decl_set(sx * sy, "inner");
  op_map stencil = op_decl_map(inner, ext, 5, st, "stencil");
  op_dat su = op_decl_dat_temp(ext, 1, "double", "su");
  op_dat sv2 = op_decl_dat_temp(ext, 1, "double", "sv2");
  op_arg step_args[6];
  for (int k = 0; k < 5; k++) step_args[k] = op_arg_dat(su, k, stencil, 1, "double", OP_READ);
  step_args[5] = op_arg_dat(sv2, 0, stencil, 1, "double", OP_WRITE);
  op_plan *sp = build_and_check("stencil (blocks of 256)", inner, 256, 6, step_args);
  CHECK(affine_share(sp) > 0.8 && affine_share(sp) < 1.0,
        "stencil, blocks of 256: %.3f of the elements affine, expected 0.8 to 1", affine_share(sp));
  op_plan_free(sp);
  sp = build_and_check("stencil (blocks of rows)", inner, 1000, 6, step_args);
  CHECK(affine_share(sp) == 1.0, "stencil: %.3f of the elements affine, expected all",
        affine_share(sp));
  CHECK(sp->ncolors == 1, "stencil: %d block colours, expected 1", sp->ncolors);
  {
    char msg[512];
    int g = 0;
    while (g < sp->nsegs && !sp->seg_affine[g]) g++;
    CHECK(g < sp->nsegs, "stencil: no affine segment");
    if (g < sp->nsegs) {
      sp->seg_off[(size_t)g * 6 + 1] += 1; /* the east neighbour one too far */
      CHECK(op_plan_check(sp, 6, step_args, msg, sizeof msg) != 0,
            "the checker accepted a wrong offset in an affine segment");
      printf("tampered affine offset rejected: %s\n", msg);
    }
  }
  op_plan_free(sp);
  /* Writing v at the centre and reading it at a neighbour: elements would
   * read what others write, so nothing may run as an affine run. */
  step_args[4] = op_arg_dat(sv2, 1, stencil, 1, "double", OP_READ);
  sp = build_and_check("stencil (reads what it writes)", inner, 256, 6, step_args);
  CHECK(affine_share(sp) == 0.0, "stencil reading what it writes: %.3f affine, expected none",
        affine_share(sp));
  {
    char msg[512];
    sp->chunk_safe = 1; /* two elements do touch one element of sv2 */
    CHECK(op_plan_check(sp, 6, step_args, msg, sizeof msg) != 0,
          "the checker accepted a false chunk safety");
    printf("false chunk safety rejected: %s\n", msg);
  }
  op_plan_free(sp);
  /* A map's runs are found in one read, each piece of rows keeping its
   * breaks up to its share; here the first quarter of the rows holds more
   * breaks than its share (runs of 40 and 70 rows, alternately offset by
   * 100000) and the rest is one run of the identity, so that quarter is
   * read again. One block: the elements in affine segments are those of
   * the runs of OP_AFFINE_MIN_RUN rows or more. */
  {
    const int nrows = 4 * 65536, quarter = 65536;
    int *jm = malloc(sizeof(int) * (size_t)nrows);
    long want = nrows - quarter;
    int row = 0;
    for (int k = 0; row < quarter; k++) {
      int len = k % 2 ? 70 : 40;
      if (len > quarter - row) len = quarter - row;
      for (int q = row; q < row + len; q++) jm[q] = q + (k % 2) * 100000;
      if (len >= OP_AFFINE_MIN_RUN) want += len;
      row += len;
    }
    for (; row < nrows; row++) jm[row] = row;
    op_set jrows = op_decl_set(nrows, "jump_rows");
    op_set jto = op_decl_set(nrows + 100000, "jump_targets");
    op_map jmap = op_decl_map(jrows, jto, 1, jm, "jumps");
    op_dat jx = op_decl_dat_temp(jto, 1, "double", "jx");
    op_dat jy = op_decl_dat_temp(jrows, 1, "double", "jy");
    op_arg jargs[2] = {op_arg_dat(jx, 0, jmap, 1, "double", OP_READ),
                       op_arg_dat(jy, -1, OP_ID, 1, "double", OP_WRITE)};
    op_plan *jp = build_and_check("runs unevenly spread", jrows, nrows, 2, jargs);
    CHECK(affine_share(jp) == (double)want / nrows,
          "runs unevenly spread: %.6f of the elements affine, expected %.6f", affine_share(jp),
          (double)want / nrows);
    op_plan_free(jp);
    free(jm);
  }
  /* Interleaved runs: the edges of a 200 x 100 grid of cells numbered row by
   * row, each cell's north edge then its east edge (the airfoil C-mesh's
   * order), reading q at both cells and incrementing r at both. No affine
   * runs (consecutive edges point different ways), but every row's edges
   * are two runs taken in turn, period 2, but for its last edge (the top
   * row, east edges only, is one affine run: its 199 breaks of period 2 are
   * few enough beside the 39700 edges). */
  {
    const int cx = 200, cy = 100;
    int *ec = malloc(sizeof(int) * 2 * (size_t)(2 * cx * cy)), ne = 0;
    for (int j = 0; j < cy; j++)
      for (int i = 0; i < cx; i++) {
        const int c = i + j * cx;
        if (j < cy - 1) {
          ec[2 * ne] = c;
          ec[2 * ne + 1] = c + cx;
          ne++;
        }
        if (i < cx - 1) {
          ec[2 * ne] = c + 1;
          ec[2 * ne + 1] = c;
          ne++;
        }
      }
    op_set icells = op_decl_set(cx * cy, "grid_cells");
    op_set iedges = op_decl_set(ne, "grid_edges");
    op_map imap = op_decl_map(iedges, icells, 2, ec, "grid_edge_cells");
    op_dat iq = op_decl_dat_temp(icells, 4, "double", "grid_q");
    op_dat ir = op_decl_dat_temp(icells, 4, "double", "grid_r");
    op_arg iargs[4] = {op_arg_dat(iq, 0, imap, 4, "double", OP_READ),
                       op_arg_dat(iq, 1, imap, 4, "double", OP_READ),
                       op_arg_dat(ir, 0, imap, 4, "double", OP_INC),
                       op_arg_dat(ir, 1, imap, 4, "double", OP_INC)};
    op_plan *ip = build_and_check("interleaved edges", iedges, 4096, 4, iargs);
    CHECK(affine_share(ip) == 0.0 && interleaved_share(ip) > 0.95,
          "interleaved edges: %.3f affine, %.3f interleaved, expected 0 and over 0.95",
          affine_share(ip), interleaved_share(ip));
    int g = 0;
    while (g < ip->nsegs && ip->seg_affine[g] != 3) g++;
    CHECK(g < ip->nsegs && ip->seg_period[g] == 2, "interleaved edges: period %d, expected 2",
          g < ip->nsegs ? ip->seg_period[g] : -1);
    op_plan_free(ip);
    /* An edge inside a run that points elsewhere: the checker finds it (a
     * plan of segments only, so that no staged map notices first). */
    ip = op_plan_build("interleaved edges", iedges, 4096, 4, iargs, OP_PLAN_AFFINE_RUNS);
    g = 0;
    while (g < ip->nsegs && ip->seg_affine[g] != 3) g++;
    if (g < ip->nsegs) {
      char msg[512] = "";
      int *row = imap->map + 2 * (ip->seg_start[g] + 5);
      row[1] += 1;
      CHECK(op_plan_check(ip, 4, iargs, msg, sizeof msg) != 0 && strstr(msg, "interleaved"),
            "the checker accepted an interleaved segment whose map breaks the run: %s", msg);
      printf("broken interleaved run rejected: %s\n", msg);
      row[1] -= 1;
      /* The same segments checked against a loop that writes through the
       * map: rejected too. */
      op_arg wargs[4] = {iargs[0], iargs[1], iargs[2],
                         op_arg_dat(ir, 1, imap, 4, "double", OP_WRITE)};
      CHECK(op_plan_check(ip, 4, wargs, msg, sizeof msg) != 0 && strstr(msg, "interleaved"),
            "the checker accepted interleaved segments for a loop that writes through a map: %s",
            msg);
      printf("interleaved runs of a writing loop rejected: %s\n", msg);
    }
    op_plan_free(ip);
    /* Writing r through the map (not incrementing): no interleaved runs. */
    iargs[3] = op_arg_dat(ir, 1, imap, 4, "double", OP_WRITE);
    ip = build_and_check("interleaved edges, a write", iedges, 4096, 4, iargs);
    CHECK(interleaved_share(ip) == 0.0, "interleaved edges with a write: %.3f interleaved",
          interleaved_share(ip));
    op_plan_free(ip);
    /* Reading what it increments: none either. */
    iargs[1] = op_arg_dat(ir, 1, imap, 4, "double", OP_READ);
    iargs[3] = op_arg_dat(ir, 1, imap, 4, "double", OP_INC);
    ip = build_and_check("interleaved edges, r read", iedges, 4096, 4, iargs);
    CHECK(interleaved_share(ip) == 0.0, "interleaved edges reading r: %.3f interleaved",
          interleaved_share(ip));
    op_plan_free(ip);
    free(ec);
    /* The order of a chunk's increments, worked by hand for the grid's
     * cell c = 100 (rows of 10 cells): phase 0 is the north edge (cells c,
     * c + 10), phase 1 the east edge (c + 1, c). Cell c + 1 gets east edge
     * 0's first increment before north edge 1's; cell c gets east edge 0's
     * second increment after north edge 0's first: groups (0, second),
     * (1, first), (0, first), (1, second). */
    const int base[4] = {100, 110, 101, 100};
    int order[4];
    op_interleaved_order(2, 2, base, order);
    CHECK(order[0] == 1 && order[1] == 2 && order[2] == 0 && order[3] == 3,
          "op_interleaved_order: %d %d %d %d, expected 1 2 0 3", order[0], order[1], order[2],
          order[3]);
  }
  /* Many processes (docs/mpi.md): a set whose elements [0, 1500) are core,
   * with an execute halo of 700 run by loops that write through a map. The
   * plan covers owned + execute halo, no block straddles the core boundary,
   * and the core blocks take the first colours, so that a loop can wait for
   * its halos between them; the checker notices a block that straddles. */
  {
    edges->core_size = 1500;
    edges->exec_size = 700;
    edges->size = nedge - 700; /* the last 700 elements play the execute halo */
    for (int part = 64; part <= 1024; part *= 4) {
      op_plan *p = build_and_check("core and halo", edges, part, 5, rand_args);
      CHECK(p->set_size == nedge, "core and halo: the plan covers %d elements, expected %d",
            p->set_size, nedge);
      CHECK(p->core_size == 1500, "core and halo: core %d, expected 1500", p->core_size);
      CHECK(p->ncolors_core > 0 && p->ncolors_core < p->ncolors,
            "core and halo: %d core colours of %d", p->ncolors_core, p->ncolors);
      for (int b = 0; b < p->nblocks; b++)
        CHECK(p->offset[b] >= 1500 || p->offset[b] + p->nelems[b] <= 1500,
              "core and halo: block %d [%d, %d) straddles 1500", b, p->offset[b],
              p->offset[b] + p->nelems[b]);
      if (part == 64) {
        /* Move the boundary between the last core block and the next by one
         * element: rejected, naming the boundary. */
        char msg[512];
        int b = 0;
        while (p->offset[b] + p->nelems[b] < 1500) b++;
        p->nelems[b] += 1; /* the last core block is short: 1500 is no multiple of 64 */
        p->nelems[b + 1] -= 1;
        p->offset[b + 1] += 1;
        CHECK(op_plan_check(p, 5, rand_args, msg, sizeof msg) != 0 && strstr(msg, "core"),
              "the checker accepted a block across the core boundary: %s", msg);
        printf("block across the core boundary rejected: %s\n", msg);
      }
      op_plan_free(p);
    }
    /* A loop that only reads through maps runs the owned elements alone. */
    op_arg reads[3] = {rand_args[0], rand_args[1], rand_args[2]};
    op_plan *p = build_and_check("core, reads only", edges, 256, 3, reads);
    CHECK(p->set_size == nedge - 700, "reads only: the plan covers %d elements, expected %d",
          p->set_size, nedge - 700);
    op_plan_free(p);
    edges->size = nedge;
    edges->core_size = nedge;
    edges->exec_size = 0;
  }

  /* The cache: the same loop gives the same plan; another part size does not. */
  const op_plan *a = op_plan_get("cached", edges, 64, 5, rand_args, 0);
  const op_plan *b = op_plan_get("cached", edges, 64, 5, rand_args, 0);
  const op_plan *c = op_plan_get("cached", edges, 32, 5, rand_args, 0);
  op_arg other[5];
  memcpy(other, rand_args, sizeof other);
  other[3].acc = OP_READ;
  const op_plan *d = op_plan_get("cached", edges, 64, 5, other, 0);
  CHECK(a == b, "the cache built a second plan for the same loop");
  CHECK(a != c, "the cache reused a plan across part sizes");
  CHECK(a != d, "the cache reused a plan across access modes");
  CHECK(op_plan_cache_size() == 3, "the cache holds %d plans, expected 3", op_plan_cache_size());

  op_exit();
  free(e2n);
  free(c2n);
  free(s2n);
  free(st);
  return check_exit("plans");
}
