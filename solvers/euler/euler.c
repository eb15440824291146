/*
 * euler - the 2D Euler equations of an ideal gas on a structured grid:
 * MUSCL-Hancock with slope limiters and the exact Riemann solver, dimensional
 * splitting with the sweep order alternating every step, the CFL time step
 * from a max reduction (shared/specs/euler.md), written once on the OP2 API
 * and built for every backend.
 *
 *   euler_<backend> [DECK] [key=value ...] [--op-... options]
 *
 * The mesh (meshes/structured_grid.h): the nx x ny cells with two ghost
 * layers on every side form the set of extended cells, on which the state
 * lives; the interior cells, the x-faces and the y-faces are sets with maps
 * into it, and the ghost cells of each direction a set with a map to their
 * sources. A time step is: the max wave speed (OP_MAX) for dt; then, for each
 * direction in turn (x then y on even steps, y then x on odd ones), the
 * ghosts of that direction, the face fluxes and the cell updates, from the
 * state q into q2 in the first sweep and back into q in the second.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deck.h"
#include "euler_accuracy.h"
#include "euler_params.h"
#include "euler_problem.h"
#include "euler_scheme.h"
#include "op2.h"
#include "op_hdf5.h"
#include "op_ppm.h"
#include "op_xdmf.h"
#include "riemann_exact_core.h"
#include "result_json.h"
#include "solver_history.h"
#include "solver_limits.h"
#include "solver_main.h"
#include "solver_output.h"
#include "solver_pace.h"
#include "solver_result.h"
#include "solver_interrupt.h"
#include "solver_verdict.h"
#include "structured_grid.h"

/* The constants the kernels read (op_decl_const). */
double euler_gamma;
int euler_limiter;
/* gamma's constants for the exact Riemann solver (a riemann_gas), made once
 * for every face of the run rather than at every face. */
double euler_gas[16];
_Static_assert(sizeof(riemann_gas) == sizeof euler_gas, "euler_gas holds one riemann_gas");

#define GHOST_LAYERS 2


/* ---- output fields ------------------------------------------------------------------ */

enum { F_RHO, F_U, F_V, F_P, F_E_INT, F_E_TOT, F_SPEED, F_MACH, NFIELDS };
static const char *const field_names[NFIELDS] = {"rho", "u", "v", "p", "e", "energy", "speed",
                                                  "mach"};

typedef struct {
  int field[NFIELDS];   /* fields to draw, in the order given */
  int nfields;
  int fixed[NFIELDS];   /* 1 when the field has a fixed range */
  double lo[NFIELDS], hi[NFIELDS];
} image_spec;

static int field_index(const char *name, size_t len) {
  for (int f = 0; f < NFIELDS; f++)
    if (strlen(field_names[f]) == len && strncmp(field_names[f], name, len) == 0) return f;
  return -1;
}

/* Splits text at commas into trimmed items; calls item() for each. */
static void read_image_spec(const deck *d, image_spec *s) {
  memset(s, 0, sizeof *s);
  const char *text = deck_string(d, "image_fields");
  const char *p = text;
  while (*p) {
    while (*p == ' ' || *p == '\t') p++;
    const char *b = p;
    while (*p && *p != ',') p++;
    const char *e = p;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t')) e--;
    int f = field_index(b, (size_t)(e - b));
    if (f < 0)
      euler_bad_input(d, "image_fields",
                "unknown field in \"%s\" (known: rho, u, v, p, e, energy, speed, mach)", text);
    int dup = 0;
    for (int k = 0; k < s->nfields; k++) dup |= s->field[k] == f;
    if (!dup) s->field[s->nfields++] = f;
    if (*p == ',') p++;
  }
  if (s->nfields == 0 && deck_bool(d, "images"))
    euler_bad_input(d, "image_fields", "no field given (\"%s\")", text);
  text = deck_string(d, "image_range");
  p = text;
  while (*p) {
    char item[256];
    const char *b = p;
    while (*p && *p != ',') p++;
    size_t n = (size_t)(p - b) < sizeof item - 1 ? (size_t)(p - b) : sizeof item - 1;
    memcpy(item, b, n);
    item[n] = '\0';
    if (*p == ',') p++;
    char *c1 = strchr(item, ':');
    char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
    if (!c1 || !c2)
      euler_bad_input(d, "image_range", "expected FIELD:MIN:MAX items, got \"%s\"", text);
    char *name = item;
    while (*name == ' ' || *name == '\t') name++;
    char *ne = c1;
    while (ne > name && (ne[-1] == ' ' || ne[-1] == '\t')) ne--;
    int f = field_index(name, (size_t)(ne - name));
    if (f < 0) euler_bad_input(d, "image_range", "unknown field in \"%s\"", text);
    *c2 = ',';
    double lohi[2];
    if (euler_parse_numbers(c1 + 1, 2, lohi) != 0 || !(lohi[1] > lohi[0]))
      euler_bad_input(d, "image_range", "expected FIELD:MIN:MAX with MIN < MAX, got \"%s\"", text);
    s->fixed[f] = 1;
    s->lo[f] = lohi[0];
    s->hi[f] = lohi[1];
  }
}

/* ---- the mesh on OP2 -------------------------------------------------------------- */

typedef struct {
  sg_grid grid;
  double dx, dy;
  op_set cells, interior, xfaces, yfaces, xghosts, yghosts;
  op_map int_cell, xface_cells, yface_cells, int_xfaces, int_yfaces;
  op_map xg_self, xg_src, yg_self, yg_src;
  op_dat q, q2, fx, fy, xg_flip, yg_flip; /* q: the state; q2: between the sweeps */
  op_dat xwall, ywall;                   /* EULER_FACE_* of every face */
  op_dat flag;                           /* positivity flags on the extended cells */
  op_dat out_rho, out_vel, out_p, out_q; /* output fields on the interior */
  op_dat out_mach, out_energy;
  int *arrays[24];                       /* map and dat arrays, until declared (copied) */
  int narrays;
} euler_mesh;

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
static void build_mesh(const deck *d, const euler_problem *pb, euler_mesh *m) {
  char err[1024];
  memset(m, 0, sizeof *m);
  const int nx = deck_int(d, "nx"), ny = deck_int(d, "ny");
  if (sg_grid_init(&m->grid, nx, ny, GHOST_LAYERS, err, sizeof err) != 0) {
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
static void set_initial(const euler_problem *pb, euler_mesh *m) {
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

/* ---- the time step ------------------------------------------------------------------ */

typedef struct {
  long fallbacks; /* faces that took the first-order flux: evolved states not physical */
  long flagged;   /* cells whose update would not have been physical */
  long fixed;     /* faces that took the first-order flux beside such cells */
} step_stats;

/* The most rounds of fixing per sweep: each round can only flag neighbours
 * of cells flagged before, and one is almost always enough. */
#define MAX_FIX_ROUNDS 8

/* What differs between the x- and the y-sweep: the sets, maps and dats of
 * one direction, the cell size along it, and the loop names. The flux and
 * fix kernels are the direction's own (x or y); everything else is shared. */
typedef struct {
  int is_x;
  double h;
  op_set ghosts, faces;
  op_map g_src, g_self, face_cells, int_faces;
  op_dat g_flip, wall, f;
  const char *ghosts_name, *flux_name, *update_name, *flag_name, *fix_name, *reupdate_name;
} sweep_dir;

static sweep_dir sweep_along_x(const euler_mesh *m) {
  sweep_dir d = {1,        m->dx,          m->xghosts,  m->xfaces,       m->xg_src,
                 m->xg_self, m->xface_cells, m->int_xfaces, m->xg_flip,     m->xwall,
                 m->fx,    "ghosts_x",     "flux_x",    "update_x",      "flag_ghosts_x",
                 "fix_x",  "reupdate_x"};
  return d;
}

static sweep_dir sweep_along_y(const euler_mesh *m) {
  sweep_dir d = {0,        m->dy,          m->yghosts,  m->yfaces,       m->yg_src,
                 m->yg_self, m->yface_cells, m->int_yfaces, m->yg_flip,     m->ywall,
                 m->fy,    "ghosts_y",     "flux_y",    "update_y",      "flag_ghosts_y",
                 "fix_y",  "reupdate_y"};
  return d;
}

/* One sweep along a direction from the state q into qn (interior cells; the
 * caller alternates the two dats): ghosts of q, fluxes, the update with its
 * positivity check, and for the rare flagged cells first-order fluxes on
 * their faces and the update again. */
static void sweep(euler_mesh *m, const sweep_dir *s, op_dat q, op_dat qn, double dt,
                  step_stats *st) {
  double dth = dt / s->h;
  int nfall = 0, nbad = 0;
  op_par_loop(euler_ghost, s->ghosts_name, s->ghosts,
              op_arg_dat(q, 0, s->g_src, 4, "double", OP_READ),
              op_arg_dat(q, 0, s->g_self, 4, "double", OP_WRITE),
              op_arg_dat(s->g_flip, -1, OP_ID, 1, "int", OP_READ));
  if (s->is_x)
    op_par_loop(euler_flux_x, s->flux_name, s->faces,
                op_arg_dat(q, 0, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 1, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 2, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 3, s->face_cells, 4, "double", OP_READ),
                op_arg_gbl(&dth, 1, "double", OP_READ),
                op_arg_dat(s->wall, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(s->f, -1, OP_ID, 4, "double", OP_WRITE),
                op_arg_gbl(&nfall, 1, "int", OP_INC));
  else
    op_par_loop(euler_flux_y, s->flux_name, s->faces,
                op_arg_dat(q, 0, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 1, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 2, s->face_cells, 4, "double", OP_READ),
                op_arg_dat(q, 3, s->face_cells, 4, "double", OP_READ),
                op_arg_gbl(&dth, 1, "double", OP_READ),
                op_arg_dat(s->wall, -1, OP_ID, 1, "int", OP_READ),
                op_arg_dat(s->f, -1, OP_ID, 4, "double", OP_WRITE),
                op_arg_gbl(&nfall, 1, "int", OP_INC));
  op_par_loop(euler_update, s->update_name, m->interior,
              op_arg_dat(s->f, 0, s->int_faces, 4, "double", OP_READ),
              op_arg_dat(s->f, 1, s->int_faces, 4, "double", OP_READ),
              op_arg_gbl(&dth, 1, "double", OP_READ),
              op_arg_dat(q, 0, m->int_cell, 4, "double", OP_READ),
              op_arg_dat(qn, 0, m->int_cell, 4, "double", OP_WRITE),
              op_arg_dat(m->flag, 0, m->int_cell, 1, "int", OP_WRITE),
              op_arg_gbl(&nbad, 1, "int", OP_INC));
  for (int round = 0; nbad > 0 && round < MAX_FIX_ROUNDS; round++) {
    int nfix = 0, nnew = 0;
    st->flagged += nbad;
    op_par_loop(euler_flag_ghost, s->flag_name, s->ghosts,
                op_arg_dat(m->flag, 0, s->g_src, 1, "int", OP_READ),
                op_arg_dat(m->flag, 0, s->g_self, 1, "int", OP_WRITE));
    if (s->is_x)
      op_par_loop(euler_fix_x, s->fix_name, s->faces,
                  op_arg_dat(q, 1, s->face_cells, 4, "double", OP_READ),
                  op_arg_dat(q, 2, s->face_cells, 4, "double", OP_READ),
                  op_arg_dat(m->flag, 1, s->face_cells, 1, "int", OP_READ),
                  op_arg_dat(m->flag, 2, s->face_cells, 1, "int", OP_READ),
                  op_arg_dat(s->wall, -1, OP_ID, 1, "int", OP_READ),
                  op_arg_dat(s->f, -1, OP_ID, 4, "double", OP_RW),
                  op_arg_gbl(&nfix, 1, "int", OP_INC));
    else
      op_par_loop(euler_fix_y, s->fix_name, s->faces,
                  op_arg_dat(q, 1, s->face_cells, 4, "double", OP_READ),
                  op_arg_dat(q, 2, s->face_cells, 4, "double", OP_READ),
                  op_arg_dat(m->flag, 1, s->face_cells, 1, "int", OP_READ),
                  op_arg_dat(m->flag, 2, s->face_cells, 1, "int", OP_READ),
                  op_arg_dat(s->wall, -1, OP_ID, 1, "int", OP_READ),
                  op_arg_dat(s->f, -1, OP_ID, 4, "double", OP_RW),
                  op_arg_gbl(&nfix, 1, "int", OP_INC));
    op_par_loop(euler_reupdate, s->reupdate_name, m->interior,
                op_arg_dat(s->f, 0, s->int_faces, 4, "double", OP_READ),
                op_arg_dat(s->f, 1, s->int_faces, 4, "double", OP_READ),
                op_arg_gbl(&dth, 1, "double", OP_READ),
                op_arg_dat(q, 0, m->int_cell, 4, "double", OP_READ),
                op_arg_dat(qn, 0, m->int_cell, 4, "double", OP_WRITE),
                op_arg_dat(m->flag, 0, m->int_cell, 1, "int", OP_RW),
                op_arg_gbl(&nnew, 1, "int", OP_INC));
    st->fixed += nfix;
    nbad = nnew;
  }
  st->fallbacks += nfall;
}

/* Max signal speed over the interior, and the smallest density and pressure
 * (for the check that the state stays physical). */
static double wave_speed(euler_mesh *m, double qmin[2]) {
  double smax = 0.0;
  qmin[0] = qmin[1] = HUGE_VAL;
  op_par_loop(euler_wave_speed, "wave_speed", m->interior,
              op_arg_dat(m->q, 0, m->int_cell, 4, "double", OP_READ),
              op_arg_gbl(&smax, 1, "double", OP_MAX),
              op_arg_gbl(qmin, 2, "double", OP_MIN));
  return smax;
}

/* Conserved totals (integrals over the domain) and the integrals of their
 * absolute values. */
static void totals(euler_mesh *m, double tot[8]) {
  for (int k = 0; k < 8; k++) tot[k] = 0.0;
  op_par_loop(euler_totals, "totals", m->interior,
              op_arg_dat(m->q, 0, m->int_cell, 4, "double", OP_READ),
              op_arg_gbl(tot, 8, "double", OP_INC));
  for (int k = 0; k < 8; k++) tot[k] *= m->dx * m->dy;
}

/* ---- output -------------------------------------------------------------------------- */

typedef struct {
  const deck *d;
  const euler_problem *pb;
  euler_mesh *m;
  const char *outdir;
  image_spec img;
  op_ppm_options ppm;
  op_xdmf_series *series;
  int frame;
  int hdf5_mode; /* 0 none, 1 final, 2 all */
  double *field; /* nx * ny scratch for images */
  /* One colour range per field across the series: every frame is drawn as it
   * comes with its own range (a run in progress can be looked at), kept as
   * floats, and the final output redraws them all with the range of the
   * whole series. Not for fields with a range in image_range, nor when the
   * frames would take more than FRAME_BUDGET bytes (series_range 0). */
  solver_history history; /* history.csv: a row per step */
  solver_pace pace;       /* the progress each line ends with */
  char grid_file[4240];   /* grid.h5: the grid's nodes and quadrilaterals, for the .xmf files */
  int grid_written;
  double t_end;
  long max_steps;
  int series_range;
  float *frames[NFIELDS];
  double *frame_times;
  int frames_kept, frames_cap;
  const solver_output *out; /* for the free space */
} output_ctx;

#define FRAME_BUDGET ((size_t)256 << 20)

/* What the pictures call each field. */
static const char *const field_titles[NFIELDS] = {
    "density rho", "velocity u", "velocity v", "pressure p", "specific internal energy e",
    "total energy per volume", "speed |u|", "Mach number"};

static void fail(const char *what, const char *detail) {
  fprintf(stderr, "euler: %s: %s\n", what, detail);
  exit(2);
}

/* Bytes of the frames kept for one colour range across the series: a float
 * a cell per frame of each field without a range of its own (image_range),
 * with frames at the start, every output_interval and the end. */
static double series_frame_bytes(const deck *d, const image_spec *img, double cells) {
  if (!deck_bool(d, "images")) return 0.0;
  int free_fields = 0;
  for (int k = 0; k < img->nfields; k++) free_fields += !img->fixed[img->field[k]];
  const double interval = deck_real(d, "output_interval"), t_end = deck_real(d, "t_end");
  const double frames = interval > 0.0 ? fmin(floor(t_end / interval), 1e12) + 2.0 : 2.0;
  return frames * free_fields * sizeof(float) * cells;
}

static void compute_output_fields(euler_mesh *m) {
  op_par_loop(euler_output, "output", m->interior,
              op_arg_dat(m->q, 0, m->int_cell, 4, "double", OP_READ),
              op_arg_dat(m->out_rho, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(m->out_vel, -1, OP_ID, 2, "double", OP_WRITE),
              op_arg_dat(m->out_p, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(m->out_mach, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(m->out_energy, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(m->out_q, -1, OP_ID, 4, "double", OP_WRITE));
}

/* One picture of field f: annotated, PPM and PNG, in [lo, hi] when fixed. */
static void draw_image(output_ctx *o, int f, int frame, double time, int fixed, double lo,
                       double hi) {
  op_ppm_options opt = o->ppm;
  if (fixed) {
    opt.autorange = 0;
    opt.vmin = lo;
    opt.vmax = hi;
  }
  opt.title = field_titles[f];
  opt.show_time = 1;
  opt.time = time;
  opt.colorbar = 1;
  opt.png = 1;
  char path[4200], err[OP_IO_ERRLEN];
  snprintf(path, sizeof path, "%s/%s_%04d.ppm", o->outdir, field_names[f], frame);
  const double nx = o->m->grid.nx, ny = o->m->grid.ny;
  const double scale = solver_picture_scale(nx, ny, opt.scale, opt.min_size);
  if (solver_output_reserve(o->out, solver_picture_bytes(nx * scale, ny * scale), "an image",
                            err, sizeof err) != 0)
    fail("image", err);
  if (op_ppm_write_field(path, o->field, o->m->grid.nx, o->m->grid.ny, &opt, NULL, err,
                         sizeof err) != OP_IO_OK)
    fail("image", err);
}

/* Keeps the frame just computed (o->field) of field f for the final redraw. */
static void keep_frame(output_ctx *o, int f, int frame) {
  const size_t n = (size_t)o->m->grid.ninterior;
  if (frame >= o->frames_cap) {
    const int cap = o->frames_cap ? 2 * o->frames_cap : 16;
    for (int g = 0; g < NFIELDS; g++) {
      if (!o->frames[g] && g != f) continue;
      float *p = realloc(o->frames[g], sizeof(float) * n * (size_t)cap);
      if (!p) fail("images", "out of memory for the frames of the series");
      o->frames[g] = p;
    }
    double *t = realloc(o->frame_times, sizeof(double) * (size_t)cap);
    if (!t) fail("images", "out of memory for the frames of the series");
    o->frame_times = t;
    o->frames_cap = cap;
  }
  if (!o->frames[f]) {
    o->frames[f] = malloc(sizeof(float) * n * (size_t)o->frames_cap);
    if (!o->frames[f]) fail("images", "out of memory for the frames of the series");
  }
  float *dst = o->frames[f] + (size_t)frame * n;
  for (size_t c = 0; c < n; c++) dst[c] = (float)o->field[c];
}

/* The final redraw: every kept frame of each field with the series' range.
 * The frames are the root's (on many processes); every process takes part in
 * the drawing, which is collective. */
static void redraw_series(output_ctx *o) {
  const size_t n = (size_t)o->m->grid.ninterior;
  for (int k = 0; k < o->img.nfields; k++) {
    const int f = o->img.field[k];
    if (o->img.fixed[f]) continue;
    double range[2] = {INFINITY, -INFINITY};
    for (size_t c = 0; o->frames[f] && c < n * (size_t)o->frames_kept; c++)
      if (isfinite(o->frames[f][c])) {
        range[0] = fmin(range[0], o->frames[f][c]);
        range[1] = fmax(range[1], o->frames[f][c]);
      }
    op_broadcast(range, sizeof range);
    const double lo = range[0], hi = range[1];
    if (!(lo <= hi)) continue; /* nothing finite: the frames keep their own */
    for (int fr = 0; fr < o->frames_kept; fr++) {
      for (size_t c = 0; o->field && c < n; c++) o->field[c] = o->frames[f][(size_t)fr * n + c];
      draw_image(o, f, fr, o->frame_times ? o->frame_times[fr] : 0.0, 1, lo, hi);
    }
    printf("euler: %d images of %s redrawn with the range of the series [%.6g, %.6g]\n",
           o->frames_kept, field_names[f], lo, hi);
  }
}

/* The fields gathered on the root (on many processes), which draws; the
 * others take part in the collective calls with nothing to draw. */
static void write_images(output_ctx *o, double time) {
  euler_mesh *m = o->m;
  const double g = o->pb->gamma;
  const double *rho = op_fetch_data_global(m->out_rho);
  const double *vel = op_fetch_data_global(m->out_vel);
  const double *p = op_fetch_data_global(m->out_p);
  const double *q = op_fetch_data_global(m->out_q);
  const int n = rho ? m->grid.ninterior : 0;
  for (int k = 0; k < o->img.nfields; k++) {
    const int f = o->img.field[k];
    for (int c = 0; c < n; c++) {
      const double u = vel[2 * c], v = vel[2 * c + 1];
      double val = 0.0;
      switch (f) {
        case F_RHO: val = rho[c]; break;
        case F_U: val = u; break;
        case F_V: val = v; break;
        case F_P: val = p[c]; break;
        case F_E_INT: val = p[c] / ((g - 1.0) * rho[c]); break;
        case F_E_TOT: val = q[4 * c + 3]; break;
        case F_SPEED: val = sqrt(u * u + v * v); break;
        case F_MACH: val = sqrt((u * u + v * v) * rho[c] / (g * p[c])); break;
      }
      o->field[c] = val;
    }
    draw_image(o, f, o->frame, time, o->img.fixed[f], o->img.lo[f], o->img.hi[f]);
    if (o->series_range && !o->img.fixed[f] && o->field) keep_frame(o, f, o->frame);
  }
  if (o->series_range) {
    if (o->frame_times) o->frame_times[o->frame] = time;
    o->frames_kept = o->frame + 1;
  }
}

/* Writes the output dats and the run's scalars to path (through path.tmp),
 * then its .xmf. */
static void write_hdf5(output_ctx *o, const char *path, double t, long step) {
  euler_mesh *m = o->m;
  char tmp[4300], err[OP_IO_ERRLEN];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  if (op_is_root()) remove(tmp);
  if (solver_output_reserve(o->out, 80.0 * m->grid.ninterior + 16384.0, "an HDF5 file", err,
                            sizeof err) != 0)
    fail("HDF5 output", err);
  op_dat dats[6] = {m->out_rho, m->out_vel, m->out_p, m->out_mach, m->out_energy, m->out_q};
  double tt = t, st = (double)step, g = o->pb->gamma;
  int n[2] = {m->grid.nx, m->grid.ny};
  double geo[4] = {o->pb->x_min, o->pb->y_min, m->dx, m->dy};
  int rc = op_hdf5_write_set(tmp, m->interior, err, sizeof err);
  for (int k = 0; k < 6 && rc == OP_IO_OK; k++)
    rc = op_hdf5_write_dat(tmp, dats[k], err, sizeof err);
  if (rc == OP_IO_OK) rc = op_hdf5_write_const(tmp, "time", 1, "double", &tt, err, sizeof err);
  if (rc == OP_IO_OK) rc = op_hdf5_write_const(tmp, "step", 1, "double", &st, err, sizeof err);
  if (rc == OP_IO_OK) rc = op_hdf5_write_const(tmp, "gamma", 1, "double", &g, err, sizeof err);
  if (rc == OP_IO_OK) rc = op_hdf5_write_const(tmp, "grid_size", 2, "int", n, err, sizeof err);
  if (rc == OP_IO_OK)
    rc = op_hdf5_write_const(tmp, "grid_origin_spacing", 4, "double", geo, err, sizeof err);
  if (rc != OP_IO_OK) fail("HDF5 output", err);
  if (op_is_root() && rename(tmp, path) != 0) fail(path, strerror(errno));
}

static op_xdmf_grid xdmf_grid(output_ctx *o, const op_dat *dats) {
  op_xdmf_grid gr;
  gr.nx = o->m->grid.nx;
  gr.ny = o->m->grid.ny;
  gr.x0 = o->pb->x_min;
  gr.y0 = o->pb->y_min;
  gr.dx = o->m->dx;
  gr.dy = o->m->dy;
  gr.cell_dats = dats;
  gr.ncell_dats = 5;
  gr.mesh_file = o->grid_file;
  return gr;
}

/* grid.h5, once, before the first .xmf that names it: what ParaView draws the
 * cells with (quadrilaterals in the X-Y plane), shared by final.xmf and
 * dumps.xmf. */
static void write_grid_file(output_ctx *o, const op_xdmf_grid *gr) {
  if (o->grid_written) return;
  char err[OP_IO_ERRLEN];
  if (solver_output_reserve(o->out, 32.0 * (gr->nx + 1.0) * (gr->ny + 1.0) + 16384.0,
                            "grid.h5", err, sizeof err) != 0 ||
      op_xdmf_write_grid_mesh(o->grid_file, gr, err, sizeof err) != OP_IO_OK)
    fail("XDMF", err);
  o->grid_written = 1;
}

/* The exact solution of a 1D Riemann problem against the computed one along
 * the middle row (direction x) or column (y): profile.csv, columns s (the
 * cell centre along the direction), rho, u (along the direction), p, and
 * rho_exact, u_exact, p_exact at the same points (scripts/plots.sh draws it). */
typedef struct {
  const euler_problem *pb;
  euler_mesh *m;
  double t;
  const double *rho, *vel, *p; /* every cell's, on the root */
} profile_ctx;

static void fill_profile(FILE *f, void *vctx) {
  const profile_ctx *c = vctx;
  const euler_problem *pb = c->pb;
  const sg_grid *g = &c->m->grid;
  const double *rho = c->rho, *vel = c->vel, *p = c->p;
  const int along_x = pb->direction == 0;
  const int n = along_x ? g->nx : g->ny;
  const double lo = along_x ? pb->x_min : pb->y_min, h = along_x ? c->m->dx : c->m->dy;
  fprintf(f, "s,rho,u,p,rho_exact,u_exact,p_exact\n");
  for (int k = 0; k < n; k++) {
    const size_t cell = along_x ? (size_t)(g->ny / 2) * g->nx + k : (size_t)k * g->nx + g->nx / 2;
    const double s = lo + (k + 0.5) * h;
    double w[3];
    if (euler_exact_riemann1d(pb, c->t, s, w) != 0) w[0] = w[1] = w[2] = NAN;
    fprintf(f, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n", s, rho[cell],
            vel[2 * cell + (along_x ? 0 : 1)], p[cell], w[0], w[1], w[2]);
  }
}

/* Gathered on the root, which writes. */
static void write_profile(output_ctx *o, double t) {
  char path[4200], err[1024];
  profile_ctx c = {o->pb, o->m, t, op_fetch_data_global(o->m->out_rho),
                   op_fetch_data_global(o->m->out_vel), op_fetch_data_global(o->m->out_p)};
  snprintf(path, sizeof path, "%s/profile.csv", o->outdir);
  int rc = op_is_root() ? write_file_atomically(path, fill_profile, &c, err, sizeof err) : 0;
  if (op_root_status(rc) != 0) fail("profile", err);
}

/* "t/t_end, 41%, 8.1 s, about 12 s left": the share of the simulated time
 * reached (or of max_steps, when that ends the run sooner). */
static const char *progress(output_ctx *o, double t, long step, char *buf, size_t len) {
  char pace[96];
  double fraction = t / o->t_end;
  if (o->max_steps > 0 && (double)step / o->max_steps > fraction)
    fraction = (double)step / o->max_steps;
  snprintf(buf, len, "%.6g/%.6g, %s", t, o->t_end,
           solver_pace_text(&o->pace, fraction, solver_pace_now(), pace, sizeof pace));
  return buf;
}

/* One output: the line with the totals, images, the HDF5 dump, the history
 * so far, and at the end of a 1D Riemann problem the profile. */
static void output(output_ctx *o, double t, long step, double dt, int final, double tot[8]) {
  euler_mesh *m = o->m;
  totals(m, tot);
  char pr[160];
  printf("%12.6f %8ld %12.5e %22.15e %22.15e %22.15e %22.15e  %s\n", t, step, dt, tot[0],
         tot[1], tot[2], tot[3], progress(o, t, step, pr, sizeof pr));
  fflush(stdout);
  const int images = deck_bool(o->d, "images");
  const int profile = final && o->pb->kind == EULER_PROBLEM_RIEMANN1D;
  if (images || profile || o->hdf5_mode == 2 || (final && o->hdf5_mode == 1))
    compute_output_fields(m);
  if (profile) write_profile(o, t);
  char hpath[4200], herr[1024];
  snprintf(hpath, sizeof hpath, "%s/history.csv", o->outdir);
  if (solver_history_write(&o->history, hpath, herr, sizeof herr) != 0) fail("history", herr);
  if (images) write_images(o, t);
  if (images && final && o->series_range && o->frames_kept > 1) redraw_series(o);
  /* What ParaView shows; q (the conserved state) stays in the HDF5 file only. */
  const op_dat dats[5] = {m->out_rho, m->out_vel, m->out_p, m->out_mach, m->out_energy};
  op_xdmf_grid gr = xdmf_grid(o, dats);
  char path[4200], err[OP_IO_ERRLEN];
  if (o->hdf5_mode == 2 || (final && o->hdf5_mode >= 1)) write_grid_file(o, &gr);
  if (o->hdf5_mode == 2) {
    snprintf(path, sizeof path, "%s/dump_%04d.h5", o->outdir, o->frame);
    write_hdf5(o, path, t, step);
    if (!o->series) {
      char xmf[4200];
      snprintf(xmf, sizeof xmf, "%s/dumps.xmf", o->outdir);
      o->series = op_xdmf_series_create_grid(xmf, &gr, err, sizeof err);
      if (!o->series) fail("XDMF", err);
    }
    if (op_xdmf_series_append(o->series, t, path, err, sizeof err) != OP_IO_OK) fail("XDMF", err);
  }
  if (final && o->hdf5_mode >= 1) {
    snprintf(path, sizeof path, "%s/final.h5", o->outdir);
    write_hdf5(o, path, t, step);
    if (op_xdmf_write_grid(path, &gr, err, sizeof err) != OP_IO_OK) fail("XDMF", err);
  }
  o->frame++;
}

/* ---- result.json ----------------------------------------------------------------------- */

typedef struct {
  const deck *d;
  const euler_mesh *m;
  long steps;
  step_stats st;
  double t_final, wall_steps, wall_output, wall_total;
  double tot0[8], tot1[8];
  euler_accuracy ex;
  const solver_verdicts *verdicts;
} result_ctx;

static void json_totals(json_writer *w, const char *key, const double t[8]) {
  json_key(w, key);
  json_begin_object(w);
  json_kv_number(w, "mass", t[0]);
  json_kv_number(w, "momentum_x", t[1]);
  json_kv_number(w, "momentum_y", t[2]);
  json_kv_number(w, "energy", t[3]);
  json_end_object(w);
}

static void fill_result(FILE *f, void *vctx) {
  const result_ctx *c = vctx;
  json_writer w;
  solver_result_begin(&w, f, "euler", c->d);
  json_key(&w, "grid");
  json_begin_object(&w);
  json_kv_int(&w, "nx", c->m->grid.nx);
  json_kv_int(&w, "ny", c->m->grid.ny);
  json_kv_int(&w, "ghost_layers", c->m->grid.g);
  json_kv_number(&w, "dx", c->m->dx);
  json_kv_number(&w, "dy", c->m->dy);
  json_kv_int(&w, "cells", c->m->grid.ninterior);
  json_kv_int(&w, "extended_cells", c->m->grid.ncells);
  json_kv_int(&w, "x_faces", c->m->grid.nxfaces);
  json_kv_int(&w, "y_faces", c->m->grid.nyfaces);
  json_end_object(&w);
  json_kv_int(&w, "steps", c->steps);
  json_kv_number(&w, "final_time", c->t_final);
  json_key(&w, "first_order_fluxes");
  json_begin_object(&w);
  json_kv_int(&w, "faces_evolved_states_unphysical", c->st.fallbacks);
  json_kv_int(&w, "cells_update_unphysical", c->st.flagged);
  json_kv_int(&w, "faces_beside_those_cells", c->st.fixed);
  json_end_object(&w);
  json_totals(&w, "totals_initial", c->tot0);
  json_totals(&w, "totals_final", c->tot1);
  if (c->ex.available) {
    json_key(&w, "exact_error");
    json_begin_object(&w);
    json_kv_bool(&w, "valid", c->ex.valid);
    json_kv_number(&w, "l1_rho", c->ex.l1[0]);
    json_kv_number(&w, "l2_rho", c->ex.l2_rho);
    json_kv_number(&w, "linf_rho", c->ex.linf_rho);
    json_end_object(&w);
  }
  json_kv_number(&w, "wall_seconds_steps", c->wall_steps);
  json_kv_number(&w, "wall_seconds_output", c->wall_output);
  const solver_wall wall = {c->wall_total, c->wall_steps};
  solver_result_end(&w, c->verdicts, &wall);
}

/* A row of history.csv, "step,time,dt,max_wave_speed,min_density,
 * min_pressure" with five numbers to 17 digits: at most about 130 bytes. */
#define HISTORY_ROW_BYTES 130.0

/* What a run needs: memory about 295 bytes per cell measured (peak RSS of
 * 1000 x 1000 cells with the default outputs, a picture of rho at the start
 * and the end and final.h5: 298 MB; docs/euler.md), taken as 350, and the
 * frames kept for the series' colour range (up to FRAME_BUDGET); outputs: at
 * the start, at every output_interval and at the end, pictures (PPM and PNG,
 * per field), HDF5 (80 bytes a cell) and history.csv (a row a step, held in
 * memory too, in a buffer up to twice its size). */
static void estimate(const deck *d, const image_spec *img, double steps, solver_estimate *e) {
  const double nx = deck_int(d, "nx"), ny = deck_int(d, "ny");
  const double cells = nx * ny, ext = (nx + 2.0 * GHOST_LAYERS) * (ny + 2.0 * GHOST_LAYERS);
  const double frames = series_frame_bytes(d, img, cells);
  const double kept = frames <= (double)FRAME_BUDGET ? frames : 0.0;
  const double history = HISTORY_ROW_BYTES * (steps + 1.0);
  e->memory_bytes = 350.0 * ext + kept + 2.0 * history;
  char b0[32], bh[32];
  snprintf(e->memory_detail, sizeof e->memory_detail,
           "%.0f cells at about 350 bytes each, the history of %.3g steps (%s)%s%s%s", ext, steps,
           solver_output_bytes(2.0 * history, bh, sizeof bh), kept > 0.0 ? ", and " : "",
           kept > 0.0 ? solver_output_bytes(kept, b0, sizeof b0) : "",
           kept > 0.0 ? " of image frames" : "");
  const double interval = deck_real(d, "output_interval"), t_end = deck_real(d, "t_end");
  double outputs = 2.0;
  if (interval > 0.0) outputs += fmin(floor(t_end / interval), 1e12);
  /* A scale the deck gives is kept (min_size -1 in main); a default one is raised. */
  const double scale = solver_picture_scale(
      nx, ny, deck_int(d, "image_scale"),
      strcmp(deck_origin(d, "image_scale"), "default") == 0 ? 0 : -1);
  const double image = solver_picture_bytes(nx * scale, ny * scale);
  const double images = deck_bool(d, "images") ? outputs * img->nfields : 0.0;
  const int mode = deck_choice(d, "hdf5");
  const double dumps = mode == 2 ? outputs : mode == 1 ? 1.0 : 0.0;
  const double h5 = 80.0 * cells + 16384.0;
  /* grid.h5: 16 bytes a node and a cell (coordinates, corners) */
  const double grid = dumps > 0.0 ? 32.0 * (nx + 1.0) * (ny + 1.0) + 16384.0 : 0.0;
  e->output_bytes = images * image + dumps * h5 + grid + history + 65536.0;
  char b1[32], b2[32];
  snprintf(e->output_detail, sizeof e->output_detail,
           "%.0f image(s) of %.0f x %.0f pixels (PPM and PNG), %s each; %.0f HDF5 file(s) of %s; "
           "history.csv of %.3g steps, %s",
           images, nx * scale, ny * scale, solver_output_bytes(image, b1, sizeof b1), dumps,
           solver_output_bytes(h5, b2, sizeof b2), steps,
           solver_output_bytes(history, bh, sizeof bh));
}

int main(int argc, char **argv) {
  const double t_start = op_wtime();
  /* A face's cost varies across the grid by an order of magnitude (a uniform
   * stretch against a shock), and the waves do not fill the two halves of it
   * evenly: four pieces a thread balance the OpenMP threads (the benchmark's
   * fluxes to T = 0.2 on two threads: 5% faster than one piece; docs/
   * performance.md, "Euler's face fluxes"). --op-thread-spread=N overrides it
   * (set before op_init or after, the option wins). */
  op_set_thread_spread(4);
  int status;
  deck *d = solver_main_start("euler", euler_keys, euler_nkeys, &argc, argv, &status);
  if (!d) return status;
  char err[2048];
  euler_problem pb;
  double speed0, dt0;
  euler_read_problem(d, &pb, &speed0);
  const double steps_estimate = euler_estimate_steps(d, speed0, &dt0);
  euler_check_steps(d, speed0, steps_estimate, dt0);
  euler_l1_bound l1_bound;
  const int l1_given = euler_read_l1_bound(d, &l1_bound);
  output_ctx o;
  memset(&o, 0, sizeof o);
  read_image_spec(d, &o.img);

  solver_output sout;
  solver_estimate need;
  estimate(d, &o.img, steps_estimate, &need);
  if (solver_main_outputs(&sout, "euler", d, &need, err, sizeof err) != 0) {
    fprintf(stderr, "euler: %s\n", err);
    exit(2);
  }
  const char *outdir = sout.staging;

  euler_mesh m;
  build_mesh(d, &pb, &m);
  euler_gamma = pb.gamma;
  euler_limiter = deck_choice(d, "limiter");
  {
    riemann_gas gas;
    riemann_core_gas_init(&gas, euler_gamma);
    memcpy(euler_gas, &gas, sizeof gas);
  }
  op_decl_const(1, "double", &euler_gamma);
  op_decl_const(1, "int", &euler_limiter);
  op_decl_const(16, "double", euler_gas);
  set_initial(&pb, &m);

  const double t_end = deck_real(d, "t_end"), cfl = deck_real(d, "cfl");
  const double interval = deck_real(d, "output_interval");
  const long max_steps = deck_int(d, "max_steps");
  const double h = m.dx < m.dy ? m.dx : m.dy;

  o.d = d;
  o.pb = &pb;
  o.m = &m;
  o.outdir = outdir;
  snprintf(o.grid_file, sizeof o.grid_file, "%s/grid.h5", outdir);
  o.out = &sout;
  o.hdf5_mode = deck_choice(d, "hdf5");
  o.ppm = op_ppm_default_options();
  o.ppm.colormap = deck_string(d, "image_colormap");
  o.ppm.scale = deck_int(d, "image_scale");
  /* A scale the deck asks for is kept; by default small grids are drawn larger. */
  if (strcmp(deck_origin(d, "image_scale"), "default") != 0) o.ppm.min_size = -1;
  /* time at the end of the step; the wave speed and the smallest density and
   * pressure of the state the step started from */
  solver_history_init(&o.history, "step,time,dt,max_wave_speed,min_density,min_pressure");
  /* The pictures' scratch: the root draws (on many processes). */
  if (op_is_root()) {
    o.field = malloc(sizeof(double) * (size_t)m.grid.ninterior);
    if (!o.field) fail("memory", "out of memory");
  }
  if (deck_bool(d, "images")) {
    /* The frames the series will have at most, and what keeping them costs. */
    const double bytes = series_frame_bytes(d, &o.img, (double)m.grid.ninterior);
    o.series_range = bytes > 0.0 && bytes <= (double)FRAME_BUDGET;
    if (bytes > 0.0 && !o.series_range)
      printf("euler: note: the images keep each frame's own colour range (one range for the "
             "series would hold %.0f MiB of frames); image_range=FIELD:MIN:MAX fixes one\n",
             bytes / 1048576.0);
  }

  static const char *const problem_names[] = {"2D Riemann problem", "1D Riemann problem",
                                              "isentropic vortex", "cylindrical explosion"};
  printf("euler: %s on %d x %d cells (dx %.6g, dy %.6g, %d ghost layers), limiter %s, "
         "cfl %g, gamma %g, t_end %g\n",
         problem_names[pb.kind], m.grid.nx, m.grid.ny, m.dx, m.dy, m.grid.g,
         deck_string(d, "limiter"), cfl, pb.gamma, t_end);
  printf("euler: boundaries west %s, east %s, south %s, north %s; backend %s, %d thread(s), "
         "part size %d\n",
         deck_string(d, "bc_west"), deck_string(d, "bc_east"), deck_string(d, "bc_south"),
         deck_string(d, "bc_north"), op_backend_name(), op_num_threads(), op_part_size());
  if (pb.kind == EULER_PROBLEM_RIEMANN1D) {
    char line[512];
    euler_riemann1d_describe(&pb, line, sizeof line);
    printf("euler: %s\n", line);
  }
  if (op_diags_level() > 0) op_diagnostic_output();

  printf("%12s %8s %12s %22s %22s %22s %22s  %s\n", "time", "step", "dt", "mass", "momentum_x",
         "momentum_y", "energy", "progress");
  double tot0[8], tot1[8], wall_output = 0.0, wall_steps = 0.0;
  double t = 0.0, dt = 0.0, qmin[2] = {0.0, 0.0};
  long step = 0;
  step_stats st = {0, 0, 0};
  int physical = 1;
  o.t_end = t_end;
  o.max_steps = max_steps;
  solver_pace_begin(&o.pace, solver_pace_now());
  double w0 = op_wtime();
  output(&o, t, step, dt, 0, tot0);
  wall_output += op_wtime() - w0;
  int next_frame = 1;
  solver_interrupt_install("euler");
  while (t < t_end && (max_steps == 0 || step < max_steps) && !solver_interrupted()) {
    double w1 = op_wtime();
    const double smax = wave_speed(&m, qmin);
    if (!(qmin[0] > 0.0) || !(qmin[1] > 0.0) || !(smax > 0.0) || !isfinite(smax)) {
      physical = 0;
      fprintf(stderr,
              "euler: the state is not physical at step %ld (t = %.10g): smallest density %g, "
              "smallest pressure %g, largest wave speed %g; stopping\n",
              step, t, qmin[0], qmin[1], smax);
      break;
    }
    dt = cfl * h / smax;
    /* dt bounded from below: waves that sped up since the start (a state
     * going wrong) would make the run go on for ever. */
    if (max_steps == 0 && (double)step + (t_end - t) / dt > EULER_MAX_STEPS) {
      fprintf(stderr,
              "euler: at step %ld (t = %.10g) dt fell to %g (the largest signal speed is %g, "
              "%.3g times the initial data's): reaching t_end would take more than %.0e steps; "
              "stopping\n",
              step, t, dt, smax, smax / speed0, EULER_MAX_STEPS);
      break;
    }
    /* Land exactly on the next output time or the end time (stretching dt
     * by at most 1e-6 rather than leaving a sliver of a step). */
    double target = t_end;
    int at_output = 0;
    if (interval > 0.0 && next_frame * interval < t_end) {
      target = next_frame * interval;
      at_output = 1;
    }
    int landed = 0;
    if (t + dt * (1.0 + 1e-6) >= target) {
      dt = target - t;
      landed = 1;
    }
    /* x then y on even steps, y then x on odd ones; q -> q2 -> q. */
    const sweep_dir along_x = sweep_along_x(&m), along_y = sweep_along_y(&m);
    const sweep_dir *first = step % 2 == 0 ? &along_x : &along_y;
    const sweep_dir *second = step % 2 == 0 ? &along_y : &along_x;
    sweep(&m, first, m.q, m.q2, dt, &st);
    sweep(&m, second, m.q2, m.q, dt, &st);
    t = landed ? target : t + dt;
    step++;
    solver_history_add(&o.history, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g", step, t, dt, smax, qmin[0],
                       qmin[1]);
    wall_steps += op_wtime() - w1;
    if (landed && at_output) {
      w0 = op_wtime();
      output(&o, t, step, dt, 0, tot1);
      wall_output += op_wtime() - w0;
      next_frame++;
    } else if (solver_pace_due(&o.pace, SOLVER_PACE_QUIET, solver_pace_now())) {
      /* Outputs far apart (or none before the end): a line of progress alone. */
      char pr[160];
      printf("euler: step %ld, t = %s\n", step, progress(&o, t, step, pr, sizeof pr));
      fflush(stdout);
    }
  }
  /* The final state: checked once more, then the last output. */
  wave_speed(&m, qmin);
  if (!(qmin[0] > 0.0) || !(qmin[1] > 0.0)) physical = 0;
  w0 = op_wtime();
  output(&o, t, step, dt, 1, tot1);
  wall_output += op_wtime() - w0;

  euler_accuracy ex;
  memset(&ex, 0, sizeof ex);
  if (euler_has_exact(&pb)) {
    compute_output_fields(&m);
    /* On the whole state, gathered on the root, whose measures every process
     * then holds (the verdicts, hence the exit status, are the same everywhere). */
    const double *q = op_fetch_data_global(m.out_q);
    if (q) euler_accuracy_measure(&pb, t, m.grid.nx, m.grid.ny, q, &ex);
    op_broadcast(&ex, sizeof ex);
    if (!euler_ends_keep_exact(d, &pb)) ex.valid = 0;
  }

  solver_verdicts verdicts;
  solver_verdicts_init(&verdicts);
  const int reached = t >= t_end;
  if (!reached && max_steps > 0 && step == max_steps)
    solver_verdict_add(&verdicts, "completed", (double)step, SOLVER_AT_LEAST, (double)max_steps,
                       "stopped at t = %.10g after max_steps = %ld steps", t, step);
  else
    solver_verdict_add(&verdicts, "completed", t, SOLVER_AT_LEAST, t_end,
                       reached ? "reached t_end = %.10g in %ld steps"
                               : "stopped at t = %.10g after %ld steps",
                       reached ? t_end : t, step);
  solver_interrupt_verdict(&verdicts, "step %ld (t = %.10g of %.10g)", step, t, t_end);
  /* value: the smaller of the smallest density and pressure; NaN when the
   * state was not physical for another reason (a wave speed not finite). */
  double smallest = qmin[0] < qmin[1] ? qmin[0] : qmin[1];
  if (!physical && smallest > 0.0) smallest = NAN;
  solver_verdict_add(&verdicts, "physical_state", smallest, SOLVER_ABOVE, 0.0,
                     "smallest density %.6g and pressure %.6g at the end (must be positive)",
                     qmin[0], qmin[1]);
  euler_accuracy_verdicts(&pb, &ex, l1_given ? &l1_bound : NULL, deck_real(d, "range_tolerance"),
                          reached, &verdicts);
  int conserved[4];
  euler_conserved_mask(d, conserved);
  if (conserved[0] || conserved[1] || conserved[2] || conserved[3]) {
    /* Each step rounds every cell's value about twice per sweep (relative
     * 1.1e-16 each), and the totals are sums of nx*ny terms: a bound of
     * 4.4e-16 per step plus the summation error, well under the tolerance
     * 1e-12 + 1e-15 per step, relative to the integral of |U| (the scale of
     * those rounding errors). A conservation bug (a flux counted once, a
     * boundary face not cancelling) shows at the size of the flux itself. */
    static const char *const qname[4] = {"mass", "momentum_x", "momentum_y", "energy"};
    const double tol = 1e-12 + 1e-15 * (double)step;
    double worst = 0.0;
    char detail[256] = "";
    size_t used = 0;
    for (int k = 0; k < 4; k++) {
      if (!conserved[k]) continue;
      double scale = tot0[4 + k] > tot1[4 + k] ? tot0[4 + k] : tot1[4 + k];
      double change = fabs(tot1[k] - tot0[k]);
      double rel = scale > 0.0 ? change / scale : change;
      if (isnan(rel) || isnan(worst))
        worst = NAN; /* a NaN total fails, and stays the value reported */
      else if (rel > worst)
        worst = rel;
      used += (size_t)snprintf(detail + used, sizeof detail - used, "%s%s %.1e",
                               used ? ", " : "", qname[k], rel);
      if (used >= sizeof detail) used = sizeof detail - 1;
    }
    solver_verdict_add(&verdicts, "conservation", worst, SOLVER_AT_MOST, tol,
                       "relative change of the totals (to the integral of |U|): %s; limit %.1e",
                       detail, tol);
  }

  printf("\neuler: %ld steps to t = %.10g in %.3f s (%.3f ms per step; output %.3f s)\n", step, t,
         wall_steps, step ? 1e3 * wall_steps / step : 0.0, wall_output);
  if (st.fallbacks > 0 || st.flagged > 0)
    printf("euler: first-order fluxes: %ld faces whose evolved states were not physical; %ld "
           "faces beside %ld cells whose update would not have been\n",
           st.fallbacks, st.fixed, st.flagged);
  if (ex.available)
    printf("euler: error against the exact solution at t = %.10g%s: L1(rho) = %.6e, "
           "L2(rho) = %.6e, Linf(rho) = %.6e; L1(rho u) = %.6e, L1(rho v) = %.6e, "
           "L1(E) = %.6e\n",
           t, ex.valid ? "" : " (NOT VALID: a wave has reached an end, or an end makes waves)",
           ex.l1[0], ex.l2_rho, ex.linf_rho, ex.l1[1], ex.l1[2], ex.l1[3]);
  op_timing_output();
  solver_verdicts_print(&verdicts, stdout);

  result_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.d = d;
  ctx.m = &m;
  ctx.steps = step;
  ctx.st = st;
  ctx.t_final = t;
  ctx.wall_steps = wall_steps;
  ctx.wall_output = wall_output;
  ctx.wall_total = op_wtime() - t_start;
  memcpy(ctx.tot0, tot0, sizeof tot0);
  memcpy(ctx.tot1, tot1, sizeof tot1);
  ctx.ex = ex;
  ctx.verdicts = &verdicts;
  status = solver_main_finish(&sout, &verdicts, fill_result, &ctx,
                              "result.json, history.csv, pictures and HDF5 as asked", err,
                              sizeof err);
  if (status < 0) fail("outputs", err);
  if (o.series) op_xdmf_series_free(o.series);
  op_exit();
  for (int k = 0; k < m.narrays; k++) free(m.arrays[k]);
  free(o.field);
  for (int f = 0; f < NFIELDS; f++) free(o.frames[f]);
  free(o.frame_times);
  solver_history_free(&o.history);
  deck_free(d);
  return status;
}
