/*
 * plan_bench.c - op2-plan-bench: what set-up costs, loop by loop and plan by
 * plan, for the meshes of the solvers, on the host's threads (the OpenMP
 * backend's: --op-threads=N). The CUDA backend builds its plans on the host
 * with the same code, so this is also what a GPU run pays before its first
 * kernel (docs/performance.md, "Set-up and plans").
 *
 *   op2-plan-bench heat:N            heat's grid, N x N points, its three loops
 *   op2-plan-bench jacobi:N          the dense N x N system as edges, its res loop
 *   op2-plan-bench airfoil:I:J       the airfoil C-mesh, res_calc, bres_calc, adt_calc
 *   [--kinds=cpu,size,staged,colour] which plans (default all): the CPU
 *                                    backends' (affine runs, 16384 a block), a
 *                                    size-only one (CUDA plain/coalesced/atomic),
 *                                    staged (256 a block), a global colouring
 *
 * Each plan is built afresh (not cached) and freed; the table gives its
 * build time, its blocks and colours, after the loop's conflict check (the
 * first look at a map column, remembered after). The maps' declarations are
 * timed too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "airfoil_mesh.h"
#include "op2.h"
#include "op2_loop.h"
#include "op_plan.h"
#include "structured_grid.h"
#include "op_version.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: op2-plan-bench heat:N | jacobi:N | airfoil:I:J [--kinds=cpu,size,staged,colour]\n"
          "                      [--op-threads=N]\n"
          "Builds the plans of the solver's loops on its mesh and prints what each took.\n");
}

static unsigned kinds = 0xf; /* bits: cpu, size, staged, colour */

static const struct {
  const char *name;
  unsigned what;
  int part;
} kind_of[] = {
    {"cpu", OP_PLAN_AFFINE_RUNS, 16384},
    {"size", OP_PLAN_SIZE_ONLY, 256},
    {"staged", OP_PLAN_STAGED, 256},
    {"colour", OP_PLAN_GLOBAL_COLOURS, 256},
};
#define NKINDS ((int)(sizeof kind_of / sizeof *kind_of))

static void bench_loop(const char *loop, op_set set, int nargs, const op_arg *args) {
  /* Whether the loop's elements may run in any order without atomics (one
   * pass over each map column it writes through, remembered after). */
  double t = op_wtime();
  const int free_of_conflicts = op_args_conflict_free(nargs, args, set->size, 0);
  printf("| %-10s | %-6s | %10d | %8.3f |         |         |         |         | %s |\n", loop,
         "check", set->size, op_wtime() - t, free_of_conflicts ? "yes" : "no");
  for (int k = 0; k < NKINDS; k++) {
    if (!(kinds & (1u << k))) continue;
    op_plan *p = op_plan_build(loop, set, kind_of[k].part, nargs, args, kind_of[k].what);
    printf("| %-10s | %-6s | %10d | %8.3f | %7d | %7d | %7d | %7d | %s |\n", loop,
           kind_of[k].name, p->set_size, p->build_seconds, p->nblocks, p->ncolors,
           p->what & OP_PLAN_STAGED ? p->max_thrcol : 0,
           p->what & OP_PLAN_GLOBAL_COLOURS ? p->gcolors : 0, p->conflict_free ? "yes" : "");
    fflush(stdout);
    op_plan_free(p);
  }
}

static void table_head(void) {
  printf("\n| loop | plan | elements | seconds | blocks | block colours | element colours | "
         "global colours | conflict-free |\n");
  printf("|---|---|---:|---:|---:|---:|---:|---:|---|\n");
}

typedef struct {
  const sg_grid *grid;
} stencil_ctx;

static void fill_stencil(int first, int count, int *rows, void *ctx) {
  const stencil_ctx *s = ctx;
  sg_interior_map_fill(s->grid, SG_STENCIL5, 5, first, count, rows);
}

static int bench_heat(int n) {
  char err[512];
  sg_grid g;
  if (sg_grid_init(&g, n, n, 1, err, sizeof err) != 0) {
    fprintf(stderr, "op2-plan-bench: %s\n", err);
    return 2;
  }
  double t = op_wtime();
  op_set cells = op_decl_set(g.ncells, "cells");
  op_set interior = op_decl_set(g.ninterior, "interior");
  stencil_ctx ctx = {&g};
  op_map stencil = op_decl_map_fill(interior, cells, 5, fill_stencil, &ctx, "stencil");
  printf("heat %d x %d: the stencil map (%d x 5) declared in %.3f s\n", n, n, g.ninterior,
         op_wtime() - t);
  t = op_wtime();
  op_dat u = op_decl_dat_temp(cells, 1, "double", "u");
  op_dat v = op_decl_dat_temp(cells, 1, "double", "u_new");
  printf("heat: u and u_new (%d cells each) declared in %.3f s\n", g.ncells, op_wtime() - t);
  double *sine = calloc((size_t)n, sizeof(double));
  double sum = 0.0, most = 0.0;
  op_arg step[6];
  for (int k = 0; k < 5; k++) step[k] = op_arg_dat(u, k, stencil, 1, "double", OP_READ);
  step[5] = op_arg_dat(v, 0, stencil, 1, "double", OP_WRITE);
  op_arg init[3] = {op_arg_idx(-1, OP_ID), op_arg_gbl(sine, n, "double", OP_READ),
                    op_arg_dat(u, 0, stencil, 1, "double", OP_WRITE)};
  op_arg error[5] = {op_arg_idx(-1, OP_ID), op_arg_gbl(sine, n, "double", OP_READ),
                     op_arg_dat(u, 0, stencil, 1, "double", OP_READ),
                     op_arg_gbl(&sum, 1, "double", OP_INC), op_arg_gbl(&most, 1, "double", OP_MAX)};
  table_head();
  bench_loop("heat_step", interior, 6, step);
  bench_loop("heat_init", interior, 3, init);
  bench_loop("heat_error", interior, 5, error);
  free(sine);
  return 0;
}

static void fill_dense(int first, int count, int *rows, void *ctx) {
  const int n = *(const int *)ctx;
  for (int e = 0; e < count; e++) {
    const long k = (long)first + e;
    rows[2 * e] = (int)(k / n);
    rows[2 * e + 1] = (int)(k % n);
  }
}

static int bench_jacobi(int n) {
  if ((long)n * n > (1L << 30)) {
    fprintf(stderr, "op2-plan-bench: jacobi:%d: more than 2^30 matrix entries\n", n);
    return 2;
  }
  double t = op_wtime();
  op_set nodes = op_decl_set(n, "nodes");
  op_set edges = op_decl_set(n * n, "edges");
  op_map ppedge = op_decl_map_fill(edges, nodes, 2, fill_dense, &n, "ppedge");
  printf("jacobi %d: the edge map (%d x 2) declared in %.3f s\n", n, n * n, op_wtime() - t);
  op_dat a = op_decl_dat_temp(edges, 1, "double", "A");
  op_dat u = op_decl_dat_temp(nodes, 1, "double", "u");
  op_dat du = op_decl_dat_temp(nodes, 1, "double", "du");
  op_arg res[3] = {op_arg_dat(a, -1, OP_ID, 1, "double", OP_READ),
                   op_arg_dat(u, 1, ppedge, 1, "double", OP_READ),
                   op_arg_dat(du, 0, ppedge, 1, "double", OP_INC)};
  table_head();
  bench_loop("res", edges, 3, res);
  return 0;
}

static int bench_airfoil(int ni, int nj) {
  char err[512];
  airfoil_mesh m;
  double t = op_wtime();
  if (airfoil_mesh_generate(ni, nj, &m, err, sizeof err) != 0) {
    fprintf(stderr, "op2-plan-bench: %s\n", err);
    return 2;
  }
  printf("airfoil %d x %d: %d cells, %d edges generated in %.3f s\n", ni, nj, m.ncell, m.nedge,
         op_wtime() - t);
  op_set nodes = op_decl_set(m.nnode, "nodes");
  op_set edges = op_decl_set(m.nedge, "edges");
  op_set bedges = op_decl_set(m.nbedge, "bedges");
  op_set cells = op_decl_set(m.ncell, "cells");
  op_map pedge = op_decl_map(edges, nodes, 2, m.edge, "pedge");
  op_map pecell = op_decl_map(edges, cells, 2, m.ecell, "pecell");
  op_map pbedge = op_decl_map(bedges, nodes, 2, m.bedge, "pbedge");
  op_map pbecell = op_decl_map(bedges, cells, 1, m.becell, "pbecell");
  op_map pcell = op_decl_map(cells, nodes, 4, m.cell, "pcell");
  op_dat x = op_decl_dat(nodes, 2, "double", m.x, "p_x");
  op_dat q = op_decl_dat_temp(cells, 4, "double", "p_q");
  op_dat adt = op_decl_dat_temp(cells, 1, "double", "p_adt");
  op_dat res = op_decl_dat_temp(cells, 4, "double", "p_res");
  op_dat bound = op_decl_dat(bedges, 1, "int", m.bound, "p_bound");
  op_arg adt_args[6] = {op_arg_dat(x, 0, pcell, 2, "double", OP_READ),
                        op_arg_dat(x, 1, pcell, 2, "double", OP_READ),
                        op_arg_dat(x, 2, pcell, 2, "double", OP_READ),
                        op_arg_dat(x, 3, pcell, 2, "double", OP_READ),
                        op_arg_dat(q, -1, OP_ID, 4, "double", OP_READ),
                        op_arg_dat(adt, -1, OP_ID, 1, "double", OP_WRITE)};
  op_arg res_args[8] = {op_arg_dat(x, 0, pedge, 2, "double", OP_READ),
                        op_arg_dat(x, 1, pedge, 2, "double", OP_READ),
                        op_arg_dat(q, 0, pecell, 4, "double", OP_READ),
                        op_arg_dat(q, 1, pecell, 4, "double", OP_READ),
                        op_arg_dat(adt, 0, pecell, 1, "double", OP_READ),
                        op_arg_dat(adt, 1, pecell, 1, "double", OP_READ),
                        op_arg_dat(res, 0, pecell, 4, "double", OP_INC),
                        op_arg_dat(res, 1, pecell, 4, "double", OP_INC)};
  op_arg bres_args[6] = {op_arg_dat(x, 0, pbedge, 2, "double", OP_READ),
                         op_arg_dat(x, 1, pbedge, 2, "double", OP_READ),
                         op_arg_dat(q, 0, pbecell, 4, "double", OP_READ),
                         op_arg_dat(adt, 0, pbecell, 1, "double", OP_READ),
                         op_arg_dat(res, 0, pbecell, 4, "double", OP_INC),
                         op_arg_dat(bound, -1, OP_ID, 1, "int", OP_READ)};
  table_head();
  bench_loop("adt_calc", cells, 6, adt_args);
  bench_loop("res_calc", edges, 8, res_args);
  bench_loop("bres_calc", bedges, 6, bres_args);
  airfoil_mesh_free(&m);
  return 0;
}

static int parse_kinds(const char *list) {
  kinds = 0;
  char buf[256];
  snprintf(buf, sizeof buf, "%s", list);
  for (char *t = strtok(buf, ","); t; t = strtok(NULL, ",")) {
    int k = 0;
    while (k < NKINDS && strcmp(kind_of[k].name, t) != 0) k++;
    if (k == NKINDS) {
      fprintf(stderr, "op2-plan-bench: --kinds: unknown plan \"%s\" (cpu, size, staged, colour)\n",
              t);
      return -1;
    }
    kinds |= 1u << k;
  }
  return kinds ? 0 : -1;
}

int main(int argc, char **argv) {
  if (op_asks_version(argc, argv)) {
    op_print_version("op2-plan-bench");
    return 0;
  }
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    }
  op_init_strip_options(&argc, argv, 0);
  const char *mesh = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strncmp(argv[i], "--kinds=", 8)) {
      if (parse_kinds(argv[i] + 8) != 0) return 2;
    } else if (!mesh && argv[i][0] != '-') {
      mesh = argv[i];
    } else {
      fprintf(stderr, "op2-plan-bench: unexpected argument \"%s\"\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  if (!mesh) {
    usage(stderr);
    return 2;
  }
  int a = 0, b = 0, rc;
  char extra;
  printf("op2-plan-bench %s on %d thread(s)\n", mesh, op_num_threads());
  if (sscanf(mesh, "heat:%d%c", &a, &extra) == 1 && a >= 1 && a <= 40000)
    rc = bench_heat(a);
  else if (sscanf(mesh, "jacobi:%d%c", &a, &extra) == 1 && a >= 1 && a <= 32768)
    rc = bench_jacobi(a);
  else if (sscanf(mesh, "airfoil:%d:%d%c", &a, &b, &extra) == 2 && a >= 4 && b >= 4 &&
           a <= 4000 && b <= 4000)
    rc = bench_airfoil(a, b);
  else {
    fprintf(stderr, "op2-plan-bench: mesh \"%s\": expected heat:N (1-40000), jacobi:N (1-32768) "
                    "or airfoil:I:J (4-4000)\n", mesh);
    usage(stderr);
    return 2;
  }
  op_exit();
  return rc;
}
