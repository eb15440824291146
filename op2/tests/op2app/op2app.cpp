//
// op2app - an application written as OP2's own are (C++, op_seq.h, OP2's
// op_init(argc, argv, diags), op_printf, op_timers, op_profile_*, op_arg_info,
// a float dat, user types, inline kernels with static helpers), built with
// op2_application for every backend. It checks itself: the values every loop
// produces against the kernels applied one element after another on the
// host, as OP2's reference build applies them. The data are chosen so that
// every sum is exact in float and double: the results must agree bit for bit
// whatever the order of the elements, and every MIN/MAX has one winner.
//
// Usage: op2app [library options such as --op-part-size=N]; exit status 0
// when every check passes. Writes op2app_u.txt and op2app_u.bin (OP2's dumps
// of the node field) in the current directory and reads them back.
//

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// global constants, read by the kernels by name

float alpha;

#include "op_seq.h"
#include <op_profile.h>

#include "user_types.h"

#include "cell_min.h"
#include "edge_flux.h"
#include "node_update.h"

#define NX 13 // nodes in x
#define NY 11 // nodes in y
#define NITER 3

struct mesh {
  int nnode, nedge, ncell;
  int *edge, *cell;     // edge -> 2 nodes, cell -> 4 nodes
  op2app_real *w, *u;   // edge weights; the node field (2 components)
  double *x;            // node coordinates
};

// A structured grid as an unstructured mesh, with the field's starting
// values: small integers, different per component.
static mesh make_mesh(void) {
  mesh m;
  m.nnode = NX * NY;
  m.nedge = (NX - 1) * NY + NX * (NY - 1);
  m.ncell = (NX - 1) * (NY - 1);
  m.edge = (int *)malloc(sizeof(int) * 2 * m.nedge);
  m.cell = (int *)malloc(sizeof(int) * 4 * m.ncell);
  m.w = (op2app_real *)malloc(sizeof(op2app_real) * m.nedge);
  m.u = (op2app_real *)malloc(sizeof(op2app_real) * 2 * m.nnode);
  m.x = (double *)malloc(sizeof(double) * 2 * m.nnode);
  if (!m.edge || !m.cell || !m.w || !m.u || !m.x) {
    op_printf("op2app: out of memory\n");
    exit(2);
  }
  int e = 0;
  for (int j = 0; j < NY; j++)
    for (int i = 0; i < NX; i++) {
      const int n = i + j * NX;
      m.x[2 * n] = 0.125 * i;
      m.x[2 * n + 1] = 0.125 * j;
      m.u[2 * n] = (op2app_real)((n * 7) % 31);
      m.u[2 * n + 1] = (op2app_real)((n * 5) % 17) - 8;
      if (i + 1 < NX) {
        m.edge[2 * e] = n;
        m.edge[2 * e + 1] = n + 1;
        m.w[e++] = 0.5f;
      }
      if (j + 1 < NY) {
        m.edge[2 * e] = n;
        m.edge[2 * e + 1] = n + NX;
        m.w[e++] = 0.25f;
      }
    }
  for (int j = 0; j + 1 < NY; j++)
    for (int i = 0; i + 1 < NX; i++) {
      const int c = i + j * (NX - 1), n = i + j * NX;
      m.cell[4 * c] = n;
      m.cell[4 * c + 1] = n + 1;
      m.cell[4 * c + 2] = n + 1 + NX;
      m.cell[4 * c + 3] = n + NX;
    }
  return m;
}

static void free_mesh(mesh *m) {
  free(m->edge);
  free(m->cell);
  free(m->w);
  free(m->u);
  free(m->x);
}

// What the loops compute, the kernels applied one element after another.
struct results {
  double sum;
  op2app_real largest[2];
  int where[2], count;
  double nearest[2];
  int cwhere[2];
};

static const double point[2] = {0.61, 0.33};

static void reference(mesh *m, results *out) {
  op2app_real *r = (op2app_real *)calloc(2 * m->nnode, sizeof(op2app_real));
  const float scale = 1.0f;
  for (int iter = 0; iter < NITER; iter++) {
    for (int e = 0; e < m->nedge; e++) {
      const int a = m->edge[2 * e], b = m->edge[2 * e + 1];
      edge_flux(&m->w[e], &m->u[2 * a], &m->u[2 * b], &r[2 * a], &r[2 * b], &scale);
    }
    out->sum = 0.0;
    out->largest[0] = out->largest[1] = 0;
    out->where[0] = out->where[1] = -1;
    out->count = 0;
    for (int n = 0; n < m->nnode; n++) {
      int idx = n;
      node_update(&r[2 * n], &m->u[2 * n], &out->sum, out->largest, &idx, out->where,
                  &out->count);
    }
  }
  out->nearest[0] = out->nearest[1] = 1e30;
  out->cwhere[0] = out->cwhere[1] = -7;
  for (int c = 0; c < m->ncell; c++) {
    const int *q = &m->cell[4 * c];
    int idx = c;
    cell_min(&m->x[2 * q[0]], &m->x[2 * q[1]], &m->x[2 * q[2]], &m->x[2 * q[3]], point,
             out->nearest, &idx, out->cwhere);
  }
  free(r);
}

static int failures = 0;

static void check(bool ok, const char *what) {
  if (!ok) {
    op_printf("op2app: FAILED: %s\n", what);
    failures++;
  }
}

// Reads back op_print_dat_to_txtfile's dump: "size dim", then one line per
// element, a float printed as OP2 does (" %+f": six decimals).
static bool text_dump_matches(const char *file, const op2app_real *u, int nnode) {
  FILE *f = fopen(file, "r");
  if (!f) return false;
  int size = -1, dim = -1;
  bool ok = fscanf(f, "%d %d", &size, &dim) == 2 && size == nnode && dim == 2;
  for (int k = 0; ok && k < 2 * nnode; k++) {
    char want[64], got[64];
    snprintf(want, sizeof want, "%+f", (double)u[k]);
    ok = fscanf(f, "%63s", got) == 1 && strcmp(got, want) == 0;
  }
  fclose(f);
  return ok;
}

// Reads back op_print_dat_to_binfile's dump: int size, int dim, the values.
static bool binary_dump_matches(const char *file, const op2app_real *u, int nnode) {
  FILE *f = fopen(file, "rb");
  if (!f) return false;
  int head[2] = {0, 0};
  op2app_real *back = (op2app_real *)op_malloc(sizeof(op2app_real) * 2 * nnode);
  bool ok = fread(head, sizeof(int), 2, f) == 2 && head[0] == nnode && head[1] == 2 &&
            fread(back, sizeof(op2app_real), 2 * nnode, f) == (size_t)(2 * nnode) &&
            memcmp(back, u, sizeof(op2app_real) * 2 * nnode) == 0;
  fclose(f);
  op_free(back);
  return ok;
}

int main(int argc, char **argv) {
  // OP initialisation, OP2's signature: the library reads its options from
  // argv and leaves argv as it is.
  op_init(argc, argv, 1);

  double cpu0, wall0, cpu1, wall1;
  op_timers(&cpu0, &wall0);

  // declare sets, maps, datasets and constants; the library keeps copies, so
  // the application's arrays may go at once (OP2's airfoil frees them)

  mesh m = make_mesh();
  op_set nodes = op_decl_set(m.nnode, "nodes");
  op_set edges = op_decl_set(m.nedge, "edges");
  op_set cells = op_decl_set(m.ncell, "cells");
  op_map pedge = op_decl_map(edges, nodes, 2, m.edge, "pedge");
  op_map pcell = op_decl_map(cells, nodes, 4, m.cell, "pcell");
  op_dat p_w = op_decl_dat(edges, 1, "float", m.w, "p_w");
  op_dat p_u = op_decl_dat(nodes, 2, "float", m.u, "p_u");
  op_dat p_x = op_decl_dat(nodes, 2, "double", m.x, "p_x");
  op2app_real *no_data = NULL; // OP2's temporary dats: a typed pointer gives the element size
  op_dat p_r = op_decl_dat_temp(nodes, 2, "float", no_data, "p_r");
  free_mesh(&m);

  alpha = 0.5f;
  op_decl_const(1, "float", &alpha);

  op_diagnostic_output();
  op_profile_start("op2app");

  float scale = 1.0f;
  results got;
  for (int iter = 0; iter < NITER; iter++) {
    op_par_loop(edge_flux, "edge_flux", edges,
                op_arg_dat(p_w, -1, OP_ID, 1, "float", OP_READ),
                op_arg_dat(p_u, 0, pedge, 2, "float", OP_READ),
                op_arg_dat(p_u, 1, pedge, 2, "float", OP_READ),
                op_arg_dat(p_r, 0, pedge, 2, "float", OP_INC),
                op_arg_dat(p_r, 1, pedge, 2, "float", OP_INC),
                op_arg_gbl(&scale, 1, "float", OP_READ));

    got.sum = 0.0;
    got.largest[0] = got.largest[1] = 0;
    got.where[0] = got.where[1] = -1;
    got.count = 0;
    op_par_loop(node_update, "node_update", nodes,
                op_arg_dat(p_r, -1, OP_ID, 2, "float", OP_RW),
                op_arg_dat(p_u, -1, OP_ID, 2, "float", OP_RW),
                op_arg_gbl(&got.sum, 1, "double", OP_INC),
                op_arg_gbl(got.largest, 2, "float", OP_MAX),
                op_arg_idx(-1, OP_ID),
                op_arg_info(got.where, 2, "int", 3),
                op_arg_gbl(&got.count, 1, "int", OP_INC));
    op_printf(" %d  sum %.17g  largest %.9g at %d, %.9g at %d\n", iter + 1, got.sum,
              (double)got.largest[0], got.where[0], (double)got.largest[1], got.where[1]);
  }

  got.nearest[0] = got.nearest[1] = 1e30;
  got.cwhere[0] = got.cwhere[1] = -7;
  op_par_loop(cell_min, "cell_min", cells,
              op_arg_dat(p_x, 0, pcell, 2, "double", OP_READ),
              op_arg_dat(p_x, 1, pcell, 2, "double", OP_READ),
              op_arg_dat(p_x, 2, pcell, 2, "double", OP_READ),
              op_arg_dat(p_x, 3, pcell, 2, "double", OP_READ),
              op_arg_gbl(point, 2, "double", OP_READ),
              op_arg_gbl(got.nearest, 2, "double", OP_MIN),
              op_arg_idx(-1, OP_ID),
              op_arg_info(got.cwhere, 2, "int", 5));
  op_printf(" nearest cells %d (%.17g), %d (%.17g)\n", got.cwhere[0], got.nearest[0],
            got.cwhere[1], got.nearest[1]);

  op_profile_end();
  op_timers(&cpu1, &wall1);

  // the checks: every value against the reference, exactly

  mesh ref_mesh = make_mesh();
  results want;
  reference(&ref_mesh, &want);
  const int nnode = op_get_size(nodes);
  check(nnode == ref_mesh.nnode && op_get_size(edges) == ref_mesh.nedge &&
            op_get_size(cells) == ref_mesh.ncell,
        "op_get_size");
  op2app_real *u = (op2app_real *)op_malloc(sizeof(op2app_real) * 2 * nnode);
  op_fetch_data(p_u, u);
  check(memcmp(u, ref_mesh.u, sizeof(op2app_real) * 2 * nnode) == 0, "node field u");
  check(got.sum == want.sum, "sum of squares (double OP_INC)");
  check(got.count == nnode, "element count (int OP_INC)");
  check(got.largest[0] == want.largest[0] && got.largest[1] == want.largest[1],
        "largest change (float OP_MAX, dim 2)");
  check(got.where[0] == want.where[0] && got.where[1] == want.where[1],
        "where the largest change is (op_arg_info with OP_MAX)");
  check(got.where[0] != got.where[1], "the test's two components have different winners");
  check(got.nearest[0] == want.nearest[0] && got.nearest[1] == want.nearest[1],
        "nearest (double OP_MIN, dim 2)");
  check(got.cwhere[0] == want.cwhere[0] && got.cwhere[1] == want.cwhere[1],
        "nearest cells (op_arg_info with OP_MIN)");
  op2app_real part[10];
  op_fetch_data_idx(p_u, part, 7, 11);
  check(memcmp(part, &ref_mesh.u[14], sizeof part) == 0, "op_fetch_data_idx of elements 7..11");
  op_print_dat_to_txtfile(p_u, "op2app_u.txt");
  op_print_dat_to_binfile(p_u, "op2app_u.bin");
  check(text_dump_matches("op2app_u.txt", ref_mesh.u, nnode), "op_print_dat_to_txtfile");
  check(binary_dump_matches("op2app_u.bin", ref_mesh.u, nnode), "op_print_dat_to_binfile");
  check(wall1 >= wall0 && cpu1 >= cpu0, "op_timers");
  op_free(u);
  free_mesh(&ref_mesh);

  op_profile_output();
  op_exit();

  if (failures) {
    op_printf("op2app: %d check(s) FAILED\n", failures);
    return 1;
  }
  op_printf("op2app: every check PASSED (%s backend)\n", op_backend_name());
  return 0;
}
