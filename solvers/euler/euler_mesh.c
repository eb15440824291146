/*
 * euler_mesh.c - the grid of euler_mesh.h declared on OP2, and the initial
 * state on it.
 */
#include "euler_mesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Global numbers [first, first + count) of a set: this process's slice. */
typedef struct {
  int first, count;
} slice;

static int *keep(euler_mesh *m, int *a, const char *err) {
  if (!a) {
    fprintf(stderr, "euler: %s\n", err);
    exit(2);
  }
  m->arrays[m->narrays++] = a;
  return a;
}

static int *alloc_ints(euler_mesh *m, size_t n) {
  int *a = malloc(sizeof(int) * (n ? n : 1));
  return keep(m, a, "out of memory");
}

/* The extended cells as a partitioner sees them (op_partition_geometry). */
static void cell_centres(int first, int count, double *xy, void *ctx) {
  sg_cell_centres(ctx, first, count, xy);
}
static int cell_adjacent(int c, int *out, void *ctx) { return sg_cell_adjacent(ctx, c, out); }

/* Builds the grid and declares its sets, maps and dats. */
void euler_build_mesh(const deck *d, const euler_problem *pb, euler_mesh *m) {
  char err[1024];
  memset(m, 0, sizeof *m);
  const int nx = deck_int(d, "nx"), ny = deck_int(d, "ny");
  if (sg_grid_init(&m->grid, nx, ny, EULER_GHOST_LAYERS, err, sizeof err) != 0) {
    fprintf(stderr, "euler: %s\n", err);
    exit(2);
  }
  const sg_grid *g = &m->grid;
  m->dx = (pb->x_max - pb->x_min) / nx;
  m->dy = (pb->y_max - pb->y_min) / ny;

  const char *side_keys[4] = {"bc_west", "bc_east", "bc_south", "bc_north"};
  sg_boundary bc[4];
  for (int s = 0; s < 4; s++)
    bc[s] = (sg_boundary)sg_boundary_from_name(deck_string(d, side_keys[s]));
  sg_ghosts gh;
  if (sg_ghost_sources(g, bc, &gh, err, sizeof err) != 0) {
    fprintf(stderr, "euler: boundary conditions (bc_west, bc_east, bc_south, bc_north): %s\n",
            err);
    exit(2);
  }

  /* Each process generates its slice of every set (all of them on one
   * process): its rows of the maps in global numbers, then op_partition
   * splits the mesh (below). The ghosts are as many as the grid's perimeter:
   * every process lists them all and keeps its slice. */
  slice ext, in, xf, yf;
  op_slice(g->ncells, &ext.first, &ext.count);
  op_slice(g->ninterior, &in.first, &in.count);
  op_slice(g->nxfaces, &xf.first, &xf.count);
  op_slice(g->nyfaces, &yf.first, &yf.count);
  m->cells = op_decl_set(ext.count, "ext_cells");
  m->interior = op_decl_set(in.count, "cells");
  m->xfaces = op_decl_set(xf.count, "xfaces");
  m->yfaces = op_decl_set(yf.count, "yfaces");

  const int muscl[4] = {-2, -1, 0, 1};
  static const sg_offset self[1] = {{0, 0}};
  m->int_cell = op_decl_map(
      m->interior, m->cells, 1,
      keep(m, sg_interior_map_rows(g, self, 1, in.first, in.count, err, sizeof err), err),
      "int_cell");
  m->xface_cells = op_decl_map(
      m->xfaces, m->cells, 4,
      keep(m, sg_xface_map_rows(g, muscl, 4, xf.first, xf.count, err, sizeof err), err),
      "xface_cells");
  m->yface_cells = op_decl_map(
      m->yfaces, m->cells, 4,
      keep(m, sg_yface_map_rows(g, muscl, 4, yf.first, yf.count, err, sizeof err), err),
      "yface_cells");

  /* interior -> its two faces in each direction, from the face numbering of
   * structured_grid.h: x-face (k, j) = j (nx + 1) + k lies west of column k,
   * y-face (i, k) = k nx + i south of row k. Entry 0 is the minus side. */
  int *ixf = alloc_ints(m, 2 * (size_t)in.count);
  int *iyf = alloc_ints(m, 2 * (size_t)in.count);
  for (int r = 0; r < in.count; r++) {
    const int c = in.first + r, i = c % nx, j = c / nx;
    ixf[2 * r] = j * (nx + 1) + i;
    ixf[2 * r + 1] = j * (nx + 1) + i + 1;
    iyf[2 * r] = j * nx + i;
    iyf[2 * r + 1] = (j + 1) * nx + i;
  }
  /* Faces on reflective walls: EULER_FACE_WALL_MINUS where the ghost lies
   * on the face's minus side (west, south), _PLUS on the plus side. */
  int *xw = alloc_ints(m, (size_t)xf.count), *yw = alloc_ints(m, (size_t)yf.count);
  for (int r = 0; r < xf.count; r++) {
    const int k = (xf.first + r) % (nx + 1);
    xw[r] = (k == 0 && bc[SG_WEST] == SG_REFLECTIVE)    ? 1
            : (k == nx && bc[SG_EAST] == SG_REFLECTIVE) ? 2
                                                        : 0;
  }
  for (int r = 0; r < yf.count; r++) {
    const int k = (yf.first + r) / nx;
    yw[r] = (k == 0 && bc[SG_SOUTH] == SG_REFLECTIVE)    ? 1
            : (k == ny && bc[SG_NORTH] == SG_REFLECTIVE) ? 2
                                                         : 0;
  }
  m->xwall = op_decl_dat(m->xfaces, 1, "int", xw, "xface_wall");
  m->ywall = op_decl_dat(m->yfaces, 1, "int", yw, "yface_wall");
  m->int_xfaces = op_decl_map(m->interior, m->xfaces, 2, ixf, "int_xfaces");
  m->int_yfaces = op_decl_map(m->interior, m->yfaces, 2, iyf, "int_yfaces");

  /* The ghosts of each direction: beyond west/east only (x) and beyond
   * south/north only (y). Corner ghosts are never read: the x-faces lie in
   * interior rows and the y-faces in interior columns. A reflective side
   * negates the normal momentum. */
  const int xbits = SG_SIDE_BIT(SG_WEST) | SG_SIDE_BIT(SG_EAST);
  const int ybits = SG_SIDE_BIT(SG_SOUTH) | SG_SIDE_BIT(SG_NORTH);
  int nxg = 0, nyg = 0;
  for (int k = 0; k < gh.n; k++) {
    nxg += (gh.sides[k] & xbits) && !(gh.sides[k] & ybits);
    nyg += (gh.sides[k] & ybits) && !(gh.sides[k] & xbits);
  }
  slice xg, yg;
  op_slice(nxg, &xg.first, &xg.count);
  op_slice(nyg, &yg.first, &yg.count);
  int *xs = alloc_ints(m, (size_t)xg.count), *xsrc = alloc_ints(m, (size_t)xg.count);
  int *xf_flip = alloc_ints(m, (size_t)xg.count);
  int *ys = alloc_ints(m, (size_t)yg.count), *ysrc = alloc_ints(m, (size_t)yg.count);
  int *yf_flip = alloc_ints(m, (size_t)yg.count);
  nxg = nyg = 0;
  for (int k = 0; k < gh.n; k++) {
    const int s = gh.sides[k];
    if ((s & xbits) && !(s & ybits)) {
      const int side = (s & SG_SIDE_BIT(SG_WEST)) ? SG_WEST : SG_EAST, r = nxg++ - xg.first;
      if (r < 0 || r >= xg.count) continue;
      xs[r] = gh.ghost[k];
      xsrc[r] = gh.source[k];
      xf_flip[r] = bc[side] == SG_REFLECTIVE ? 1 : 0;
    } else if ((s & ybits) && !(s & xbits)) {
      const int side = (s & SG_SIDE_BIT(SG_SOUTH)) ? SG_SOUTH : SG_NORTH, r = nyg++ - yg.first;
      if (r < 0 || r >= yg.count) continue;
      ys[r] = gh.ghost[k];
      ysrc[r] = gh.source[k];
      yf_flip[r] = bc[side] == SG_REFLECTIVE ? 2 : 0;
    }
  }
  sg_ghosts_free(&gh);
  m->xghosts = op_decl_set(xg.count, "xghosts");
  m->yghosts = op_decl_set(yg.count, "yghosts");
  m->xg_self = op_decl_map(m->xghosts, m->cells, 1, xs, "xghost_cell");
  m->xg_src = op_decl_map(m->xghosts, m->cells, 1, xsrc, "xghost_source");
  m->yg_self = op_decl_map(m->yghosts, m->cells, 1, ys, "yghost_cell");
  m->yg_src = op_decl_map(m->yghosts, m->cells, 1, ysrc, "yghost_source");
  m->xg_flip = op_decl_dat(m->xghosts, 1, "int", xf_flip, "xghost_flip");
  m->yg_flip = op_decl_dat(m->yghosts, 1, "int", yf_flip, "yghost_flip");

  m->q = op_decl_dat_temp(m->cells, 4, "double", "q_ext");
  m->q2 = op_decl_dat_temp(m->cells, 4, "double", "q_ext_half");
  m->flag = op_decl_dat_temp(m->cells, 1, "int", "positivity_flag");
  m->fx = op_decl_dat_temp(m->xfaces, 4, "double", "flux_x");
  m->fy = op_decl_dat_temp(m->yfaces, 4, "double", "flux_y");
  m->out_rho = op_decl_dat_temp(m->interior, 1, "double", "rho");
  m->out_vel = op_decl_dat_temp(m->interior, 2, "double", "velocity");
  m->out_p = op_decl_dat_temp(m->interior, 1, "double", "p");
  m->out_q = op_decl_dat_temp(m->interior, 4, "double", "q");
  m->out_mach = op_decl_dat_temp(m->interior, 1, "double", "mach");
  m->out_energy = op_decl_dat_temp(m->interior, 1, "double", "energy");
  /* The declarations copied the arrays (OP2's semantics). */
  for (int k = 0; k < m->narrays; k++) free(m->arrays[k]);
  m->narrays = 0;
  /* Many processes (nothing on one): the extended cells split by PT-Scotch
   * on the graph of the cells sharing a face, or by RCB on their centres
   * (both computed from a cell's number: no map or dat holds them), or the
   * interior in blocks; everything else follows. */
  const op_mesh_geometry geo = {m->cells, 2, cell_centres, 4, cell_adjacent, &m->grid};
  op_partition_geometry("PTSCOTCH", "KWAY", m->interior, NULL, &geo);
}

/* The initial state in every extended cell (ghosts included, so that even
 * the corner ghosts, which no loop reads, hold valid data): each process its
 * own cells, found by their global numbers; the copies others hold are
 * brought up to date before a loop reads them (op_host_data_changed). */
void euler_set_initial(const euler_problem *pb, euler_mesh *m) {
  const sg_grid *g = &m->grid;
  double *q = op_fetch_data_ptr(m->q);
  const double lx = pb->x_max - pb->x_min, ly = pb->y_max - pb->y_min;
  for (int c = 0; c < m->cells->size; c++) {
    const int e = op_global_index(m->cells, c);
    const int i = e % g->ex - g->g, j = e / g->ex - g->g;
    /* Faces at x_min + lx i / nx: the same arithmetic along x and y. */
    const double xa = pb->x_min + lx * i / g->nx, xb = pb->x_min + lx * (i + 1) / g->nx;
    const double ya = pb->y_min + ly * j / g->ny, yb = pb->y_min + ly * (j + 1) / g->ny;
    euler_initial_average(pb, xa, xb, ya, yb, q + 4 * (size_t)c);
  }
  op_host_data_changed(m->q);
}

void euler_mesh_free(euler_mesh *m) {
  for (int k = 0; k < m->narrays; k++) free(m->arrays[k]);
  m->narrays = 0;
}
