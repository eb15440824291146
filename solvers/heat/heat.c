/*
 * heat - the 2D heat equation du/dt = alpha (u_xx + u_yy) on [0, L]^2 with
 * u = 0 on the boundary, explicit in time and 5-point central in space, with
 * the manufactured solution exp(-2 alpha pi^2 t / L^2) sin(pi x / L)
 * sin(pi y / L) as initial value and reference (docs/heat.md). Written once
 * on the OP2 API and built for every backend.
 *
 *   heat_<backend> [n [nsteps]] [DECK] [key=value ...] [--op-... options]
 *
 * With no deck it is the tutorial's problem (n = 1000, 10 steps, alpha 0.1,
 * L = 1000, total time 0.5) and prints the tutorial's report; the deck keys
 * (--help) add other problems, outputs and checks.
 *
 * The mesh: an (n+2) x (n+2) set of cells, the n x n interior plus one ghost
 * ring that holds 0 (the boundary value), and the interior -> cells map to
 * the 5-point stencil (meshes/structured_grid.h). u and u_new live on the
 * cells; each step is one loop over the interior writing u_new through the
 * map's first entry (the cell itself: no two elements write the same cell),
 * then the two dats swap roles.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deck.h"
#include "op2.h"
#include "op_hdf5.h"
#include "op_ppm.h"
#include "op_xdmf.h"
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
int heat_n;
double heat_length, heat_pi, heat_r, heat_r2, heat_decay;

#define LINE "--------------------\n"
/* The explicit 5-point scheme is stable for r <= 1/4 in 2D: the highest grid
 * mode is multiplied by 1 - 8r every step. */
#define R_LIMIT 0.25
/* Generated loop code indexes the 5-entry map with ints: 5 n^2 must fit. */
#define MAX_N 20000

static const deck_key keys[] = {
    {"n", DECK_INT, "1000", 1, MAX_N, NULL,
     "interior grid points per side (an n x n grid; dx = length / (n + 1))"},
    {"nsteps", DECK_INT, "10", 1, 1e9, NULL, "time steps (dt = total_time / nsteps)"},
    {"length", DECK_REAL, "1000", 1e-300, INFINITY, NULL, "side L of the square domain [0, L]^2"},
    {"alpha", DECK_REAL, "0.1", 1e-300, INFINITY, NULL, "diffusion coefficient"},
    {"total_time", DECK_REAL, "0.5", 1e-300, INFINITY, NULL, "simulated time"},
    {"dt", DECK_REAL, "0", 0, INFINITY, NULL,
     "time step; 0: total_time / nsteps. Given, the run is nsteps steps of dt (do not also give "
     "total_time)"},
    {"r", DECK_REAL, "0", 0, INFINITY, NULL,
     "target r = alpha dt / dx^2; 0: unused. Given, nsteps is the fewest steps that reach "
     "total_time with r at most this (do not also give nsteps or dt)"},
    {"allow_unstable", DECK_BOOL, "no", 0, 0, NULL,
     "run even when r > 1/4, the 2D stability limit (otherwise refused, exit 2)"},
    {"print_every", DECK_INT, "0", 0, 1e9, NULL, "print a progress line every N steps (0: none)"},
    {"output_every", DECK_INT, "0", 0, 1e9, NULL,
     "write u (HDF5 and PPM, as enabled) at step 0 and every N steps (0: the final state only)"},
    {"write_hdf5", DECK_BOOL, "yes", 0, 0, NULL,
     "write u as HDF5 in OP2's layout (u.h5, u_<step>.h5) with XDMF beside it"},
    {"write_ppm", DECK_BOOL, "yes", 0, 0, NULL,
     "write pictures of u on the n x n grid with a colour bar (u.ppm and u.png, ...)"},
    {"ppm_range", DECK_CHOICE, "fixed", 0, 0, "fixed|auto",
     "colour range of the images: fixed [ppm_min, ppm_max] or auto (each image's min to max)"},
    {"ppm_min", DECK_REAL, "0", -INFINITY, INFINITY, NULL, "value at the bottom of the fixed range"},
    {"ppm_max", DECK_REAL, "1", -INFINITY, INFINITY, NULL, "value at the top of the fixed range"},
    {"ppm_colormap", DECK_CHOICE, "viridis", 0, 0, "viridis|gray|coolwarm|jet",
     "colour map of the images"},
    {"expect_l2", DECK_REAL, "0", 0, INFINITY, NULL,
     "expected L2 error (a regression value); 0: no such check"},
    {"expect_rtol", DECK_REAL, "1e-6", 0, INFINITY, NULL,
     "relative tolerance of the expect_l2 check"},
    {"output_dir", DECK_STRING, "outputs/heat", 0, 0, NULL,
     "directory for result.json, u.h5, u.xmf (with grid.h5), u.ppm and the dumps"},
    SOLVER_LIMIT_KEYS,
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

/* The tutorial's problem (the defaults, run from the command line) and the L2
 * error it makes. The error is the scheme's (the discrete decay factor against
 * the exact one, about 4e-10 as L2 here) plus rounding (about 1e-13 as L2 over
 * 1e6 points), so its last digits depend on rounding. The value below is what
 * the tutorial's program gives compiled without contraction, and what this
 * code gives in a strict build (OP2_STRICT_FP: no contraction, generic
 * x86-64) to all 11 digits: the same coordinates (grid_coordinates), the same
 * expressions in the same order; only the sum of the squares is taken per
 * block of the plan and then over the blocks (4e-12 relative). Test
 * heat.tutorial_digits holds the strict build to the tutorial's printed
 * 3.808796E-10. Builds with contraction (FMA) give 3.8087951362e-10, 2.4e-7
 * relative below, as does the tutorial's program built that way; on a GPU the
 * device's sin may differ from glibc's by an ulp or two in u, which (reasoned,
 * not measured) moves an error of this size by about 1e-6 relative. The
 * tolerance covers those; a change to the scheme, the grid or the constants
 * moves the error by far more. Rounding-sized changes (the coordinates as
 * (i + 1) dx: 1.4e-6) pass it; the strict build's test of the printed digits
 * is the one that catches those. */
#define TUTORIAL_N 1000
#define TUTORIAL_NSTEPS 10
#define TUTORIAL_L2 3.8087960619e-10
#define TUTORIAL_L2_RTOL 1e-5

typedef struct {
  int n, nsteps;
  double length, alpha, total_time, dt, dx, r;
} heat_params;

static int given(const deck *d, const char *key) { return strcmp(deck_origin(d, key), "default"); }

/* dt, nsteps and the total time from the keys (see their help). */
static int resolve_params(const deck *d, heat_params *p, char *err, size_t errlen) {
  p->n = deck_int(d, "n");
  p->length = deck_real(d, "length");
  p->alpha = deck_real(d, "alpha");
  p->dx = p->length / (p->n + 1);
  const double dt = deck_real(d, "dt"), r = deck_real(d, "r");
  if (dt > 0 && r > 0) {
    snprintf(err, errlen, "dt (%s) and r (%s) both set the time step: give one of them",
             deck_origin(d, "dt"), deck_origin(d, "r"));
    return -1;
  }
  if (dt > 0) {
    if (given(d, "total_time")) {
      snprintf(err, errlen,
               "dt (%s) and total_time (%s) are both given: with dt the total time is nsteps x dt; "
               "give one of them",
               deck_origin(d, "dt"), deck_origin(d, "total_time"));
      return -1;
    }
    p->nsteps = deck_int(d, "nsteps");
    p->dt = dt;
    p->total_time = dt * (double)p->nsteps;
  } else if (r > 0) {
    if (given(d, "nsteps")) {
      snprintf(err, errlen,
               "r (%s) and nsteps (%s) are both given: r sets the number of steps; give one of "
               "them",
               deck_origin(d, "r"), deck_origin(d, "nsteps"));
      return -1;
    }
    p->total_time = deck_real(d, "total_time");
    double steps = ceil(p->total_time * p->alpha / (r * p->dx * p->dx) * (1.0 - 1e-12));
    if (!(steps >= 1.0 && steps <= 1e9)) {
      snprintf(err, errlen, "r = %g (%s) needs %.3g steps to reach total_time = %g: not in [1, 1e9]",
               r, deck_origin(d, "r"), steps, p->total_time);
      return -1;
    }
    p->nsteps = (int)steps;
    p->dt = p->total_time / p->nsteps;
  } else {
    p->nsteps = deck_int(d, "nsteps");
    p->total_time = deck_real(d, "total_time");
    p->dt = p->total_time / p->nsteps;
  }
  p->r = p->alpha * p->dt / (p->dx * p->dx);
  if (!isfinite(p->r)) {
    snprintf(err, errlen, "r = alpha dt / dx^2 is not finite (dx = %g, dt = %g)", p->dx, p->dt);
    return -1;
  }
  return 0;
}

/* The tutorial's command line, heat [n nsteps]: leading integers become n=
 * and nsteps=. Everything else goes to the deck parser unchanged. */
static int is_integer(const char *s) {
  if (*s == '-' || *s == '+') s++;
  if (!*s) return 0;
  for (; *s; s++)
    if (*s < '0' || *s > '9') return 0;
  return 1;
}

static char **translate_args(int argc, char **argv, char *err, size_t errlen) {
  static char buf[2][64];
  char **out = calloc((size_t)argc + 1, sizeof *out);
  if (!out) {
    snprintf(err, errlen, "out of memory");
    return NULL;
  }
  static const char *const names[2] = {"n", "nsteps"};
  int k = 0;
  for (int i = 0; i < argc; i++) {
    out[i] = argv[i];
    if (i == 0 || i != k + 1 || !is_integer(argv[i])) continue;
    if (k == 2) {
      snprintf(err, errlen, "argument %d '%s': the command line takes at most two numbers, n and "
                            "nsteps",
               i, argv[i]);
      free(out);
      return NULL;
    }
    snprintf(buf[k], sizeof buf[k], "%s=%.40s", names[k], argv[i]);
    out[i] = buf[k];
    k++;
  }
  return out;
}

/* ---- the mesh and the loops ---------------------------------------------------- */

typedef struct {
  sg_grid grid;
  op_set cells, interior;
  op_map stencil;
  op_dat u, u_new; /* declared names "u" and "u_new" */
  op_dat cur, nxt; /* the current solution and the one being computed */
} heat_mesh;

static void fail(const char *msg) {
  fprintf(stderr, "heat: %s\n", msg);
  exit(2);
}

/* Rows of this process's slice of the stencil map, written by the library's
 * threads straight into its storage (op_decl_map_fill). */
typedef struct {
  const sg_grid *grid;
  int first; /* global number of the slice's first interior point */
} stencil_rows;

static void fill_stencil(int first, int count, int *rows, void *ctx) {
  const stencil_rows *s = ctx;
  sg_interior_map_fill(s->grid, SG_STENCIL5, 5, s->first + first, count, rows);
}

/* The grid's cells as a partitioner sees them (op_partition_geometry):
 * centres for RCB, the cells sharing a face for PT-Scotch; computed from a
 * cell's number, so that no dat or map holds them. */
static void cell_centres(int first, int count, double *xy, void *ctx) {
  sg_cell_centres(ctx, first, count, xy);
}
static int cell_adjacent(int c, int *out, void *ctx) { return sg_cell_adjacent(ctx, c, out); }

/* Each process generates its slice of the grid (all of it on one process):
 * its rows of the stencil map, in global numbers; then the mesh is split over
 * the processes (op_partition_geometry: nothing on one process). */
static void build_mesh(int n, heat_mesh *m) {
  char err[512];
  if (sg_grid_init(&m->grid, n, n, 1, err, sizeof err) != 0) fail(err);
  int cells_first, cells_count, first, count;
  op_slice(m->grid.ncells, &cells_first, &cells_count);
  op_slice(m->grid.ninterior, &first, &count);
  if (sg_interior_map_check(&m->grid, SG_STENCIL5, 5, first, count, err, sizeof err) != 0)
    fail(err);
  m->cells = op_decl_set(cells_count, "cells");
  m->interior = op_decl_set(count, "interior");
  stencil_rows rows = {&m->grid, first};
  m->stencil = op_decl_map_fill(m->interior, m->cells, 5, fill_stencil, &rows, "stencil");
  m->u = op_decl_dat_temp(m->cells, 1, "double", "u");
  m->u_new = op_decl_dat_temp(m->cells, 1, "double", "u_new");
  m->cur = m->u;
  m->nxt = m->u_new;
  /* Many processes: PT-Scotch splits the cells by the graph of their faces
   * (4 neighbours a cell; OP2's rule on the stencil map would give 12), RCB
   * by their centres, BLOCK the interior by number; the other set follows. */
  const op_mesh_geometry geo = {m->cells, 2, cell_centres, 4, cell_adjacent, &m->grid};
  op_partition_geometry("PTSCOTCH", "KWAY", m->interior, m->stencil, &geo);
}

/* One time step from m->cur into m->nxt, then the two swap roles. */
static void step(heat_mesh *m) {
  op_par_loop(heat_step, "heat_step", m->interior,
              op_arg_dat(m->cur, 0, m->stencil, 1, "double", OP_READ),
              op_arg_dat(m->cur, 1, m->stencil, 1, "double", OP_READ),
              op_arg_dat(m->cur, 2, m->stencil, 1, "double", OP_READ),
              op_arg_dat(m->cur, 3, m->stencil, 1, "double", OP_READ),
              op_arg_dat(m->cur, 4, m->stencil, 1, "double", OP_READ),
              op_arg_dat(m->nxt, 0, m->stencil, 1, "double", OP_WRITE));
  op_dat t = m->cur;
  m->cur = m->nxt;
  m->nxt = t;
}

/* Makes the dat named "u" hold the current solution (a copy when it is in
 * u_new), so that files always call the solution u. */
static void settle(heat_mesh *m) {
  if (m->cur == m->u) return;
  op_par_loop(heat_copy, "heat_copy", m->cells,
              op_arg_dat(m->cur, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(m->u, -1, OP_ID, 1, "double", OP_WRITE));
  m->cur = m->u;
  m->nxt = m->u_new;
}

static void set_constants(const heat_params *p, double time) {
  heat_n = p->n;
  heat_length = p->length;
  heat_pi = acos(-1.0);
  heat_r = p->r;
  heat_r2 = 1.0 - 4.0 * p->r;
  heat_decay = exp(-2.0 * p->alpha * heat_pi * heat_pi * time / (p->length * p->length));
  op_decl_const(1, "int", &heat_n);
  op_decl_const(1, "double", &heat_length);
  op_decl_const(1, "double", &heat_pi);
  op_decl_const(1, "double", &heat_r);
  op_decl_const(1, "double", &heat_r2);
  op_decl_const(1, "double", &heat_decay);
}

/* ---- the error against the manufactured solution -------------------------------- */

typedef struct {
  double l2, rms, max;
} heat_errors;

static heat_errors error_norms(const heat_mesh *m, int n, double *sine) {
  double sum_sq = 0.0, max_abs = 0.0;
  op_par_loop(heat_error, "heat_error", m->interior, op_arg_idx(-1, OP_ID),
              op_arg_gbl(sine, n, "double", OP_READ),
              op_arg_dat(m->cur, 0, m->stencil, 1, "double", OP_READ),
              op_arg_gbl(&sum_sq, 1, "double", OP_INC), op_arg_gbl(&max_abs, 1, "double", OP_MAX));
  heat_errors e = {sqrt(sum_sq), sqrt(sum_sq / ((double)n * n)), max_abs};
  return e;
}

/* The error the scheme must make. sin(pi x / L) sin(pi y / L) on the grid is an
 * eigenvector of the discrete operator with zero boundary values, so the
 * computed solution is G^N times the initial one, G = 1 - 8 r sin^2(pi dx / 2L),
 * and the error is (G^N - D) times it, D the exact decay. The sum of its squares
 * over the grid is ((n + 1) / 2)^2, so the L2 error is |G^N - D| (n + 1) / 2. */
static double discrete_factor_error(const heat_params *p) {
  const double pi = acos(-1.0);
  const double s = sin(pi / (2.0 * (p->n + 1)));
  const double a = 8.0 * p->r * s * s;
  const double t = p->dt * (double)p->nsteps;
  const double rate = 2.0 * p->alpha * pi * pi / (p->length * p->length);
  if (a < 1.0) /* G^N - D = D (exp(N log G + rate t) - 1), without cancellation */
    return exp(-rate * t) * expm1((double)p->nsteps * log1p(-a) + rate * t);
  return pow(1.0 - a, (double)p->nsteps) - exp(-rate * t);
}

/* A row of history.csv: the errors against the manufactured solution at the
 * time of a step (the constants are set for that time). */
static void history_row(solver_history *h, const heat_mesh *m, const heat_params *p,
                        double *sine, int step, double time) {
  set_constants(p, time);
  const heat_errors e = error_norms(m, p->n, sine);
  solver_history_add(h, "%d,%.17g,%.17g,%.17g,%.17g", step, time, e.l2, e.rms, e.max);
}

/* ---- output --------------------------------------------------------------------- */

typedef struct {
  const deck *d;
  const char *dir;
  heat_mesh *m;
  int n;
  double dx;
  double *image; /* n x n interior values for the images */
  op_xdmf_series *series;
  double seconds;
  int files;
  const solver_output *out; /* for the free space */
  char grid_file[4096];     /* grid.h5: the grid's nodes and quadrilaterals, for the .xmf files */
} heat_output;

static void output_path(char *buf, size_t len, const heat_output *o, const char *stem, int step,
                        const char *ext) {
  if (step < 0)
    snprintf(buf, len, "%s/%s.%s", o->dir, stem, ext);
  else
    snprintf(buf, len, "%s/%s_%06d.%s", o->dir, stem, step, ext);
}

static void write_hdf5(heat_output *o, int step, int final, double time) {
  char path[4096], tmp[4200], err[OP_IO_ERRLEN];
  if (solver_output_reserve(o->out, 8.0 * (o->n + 2.0) * (o->n + 2.0) + 16384.0, "u.h5", err,
                            sizeof err) != 0)
    fail(err);
  output_path(path, sizeof path, o, "u", final ? -1 : step, "h5");
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  if (op_is_root()) remove(tmp);
  if (op_hdf5_write_set(tmp, o->m->cells, err, sizeof err) != OP_IO_OK ||
      op_hdf5_write_dat(tmp, o->m->u, err, sizeof err) != OP_IO_OK ||
      op_hdf5_write_const(tmp, "time", 1, "double", &time, err, sizeof err) != OP_IO_OK ||
      op_hdf5_write_const(tmp, "step", 1, "int", &step, err, sizeof err) != OP_IO_OK)
    fail(err);
  if (op_is_root() && rename(tmp, path) != 0) {
    fprintf(stderr, "heat: cannot rename %s into place: %s\n", path, strerror(errno));
    exit(2);
  }
  /* The cells with the ghost ring: cell (i, j) of the (n+2)^2 grid is centred
   * on (i dx, j dx), so the ring shows the boundary values at x, y = 0 and L. */
  op_dat dats[1] = {o->m->u};
  op_xdmf_grid grid = {o->n + 2, o->n + 2, -0.5 * o->dx, -0.5 * o->dx, o->dx, o->dx, dats, 1,
                       o->grid_file};
  if (!o->grid_file[0]) {
    /* Once, before the first .xmf that names it (u.xmf and u_series.xmf share it). */
    output_path(o->grid_file, sizeof o->grid_file, o, "grid", -1, "h5");
    if (solver_output_reserve(o->out, 32.0 * (o->n + 3.0) * (o->n + 3.0) + 16384.0, "grid.h5",
                              err, sizeof err) != 0 ||
        op_xdmf_write_grid_mesh(o->grid_file, &grid, err, sizeof err) != OP_IO_OK)
      fail(err);
    o->files++;
  }
  int rc;
  if (final) {
    rc = op_xdmf_write_grid(path, &grid, err, sizeof err);
  } else {
    if (!o->series) {
      char xmf[4096];
      output_path(xmf, sizeof xmf, o, "u_series", -1, "xmf");
      o->series = op_xdmf_series_create_grid(xmf, &grid, err, sizeof err);
      if (!o->series) fail(err);
    }
    rc = op_xdmf_series_append(o->series, time, path, err, sizeof err);
  }
  if (rc != OP_IO_OK) fail(err);
  o->files += 2;
}

/* Bytes of the picture of the n x n interior points (PPM and PNG, annotated,
 * a small grid drawn larger). */
static double picture_bytes(int n) {
  const double scale = solver_picture_scale(n, n, 1, 0);
  return solver_picture_bytes(n * scale, n * scale);
}

static void write_ppm(heat_output *o, int step, int final, double time) {
  char path[4096], err[OP_IO_ERRLEN];
  if (solver_output_reserve(o->out, picture_bytes(o->n), "u.ppm and u.png", err, sizeof err) != 0)
    fail(err);
  const int n = o->n, ex = n + 2;
  /* u in the user's numbering: on many processes gathered on the root, which
   * draws (NULL on the others). */
  const double *u = op_fetch_data_global(o->m->u);
  if (u && !o->image) {
    o->image = malloc(sizeof(double) * (size_t)n * (size_t)n);
    if (!o->image) fail("out of memory for the image buffer");
  }
  for (int j = 0; u && j < n; j++)
    memcpy(o->image + (size_t)j * n, u + (size_t)(j + 1) * ex + 1, sizeof(double) * (size_t)n);
  op_ppm_options opt = op_ppm_default_options();
  opt.colormap = deck_string(o->d, "ppm_colormap");
  opt.autorange = strcmp(deck_string(o->d, "ppm_range"), "auto") == 0;
  opt.vmin = deck_real(o->d, "ppm_min");
  opt.vmax = deck_real(o->d, "ppm_max");
  /* Annotated, with a PNG beside: the interior n x n points at time t. */
  opt.title = "u";
  opt.show_time = 1;
  opt.time = time;
  opt.colorbar = 1;
  opt.png = 1;
  /* Axes in the domain's coordinates: the picture's cells are those of the
   * interior points (i + 1) dx, each dx wide, so they span dx/2 to
   * L - dx/2 (u.xmf's cells, less the boundary ring). */
  opt.axes = 1;
  opt.extent[0] = opt.extent[2] = 0.5 * o->dx;
  opt.extent[1] = opt.extent[3] = (n + 0.5) * o->dx;
  output_path(path, sizeof path, o, "u", final ? -1 : step, "ppm");
  if (op_ppm_write_field(path, o->image, n, n, &opt, NULL, err, sizeof err) != OP_IO_OK) fail(err);
  o->files++;
}

static void write_state(heat_output *o, int step, int final, double time) {
  if (!deck_bool(o->d, "write_hdf5") && !deck_bool(o->d, "write_ppm")) return;
  double t0 = op_wtime();
  settle(o->m);
  if (deck_bool(o->d, "write_hdf5")) write_hdf5(o, step, final, time);
  if (deck_bool(o->d, "write_ppm")) write_ppm(o, step, final, time);
  o->seconds += op_wtime() - t0;
}

/* ---- result.json ------------------------------------------------------------------ */

typedef struct {
  const deck *d;
  const heat_params *p;
  heat_errors err;
  double l2_theory, wall_setup, wall_solve, wall_output, wall_total, wall_run, floor_gbs;
  const solver_verdicts *verdicts;
} result_ctx;

static void fill_result(FILE *f, void *vctx) {
  const result_ctx *c = vctx;
  const heat_params *p = c->p;
  json_writer w;
  solver_result_begin(&w, f, "heat", c->d);
  json_kv_int(&w, "n", p->n);
  json_kv_int(&w, "steps", p->nsteps);
  json_kv_number(&w, "dx", p->dx);
  json_kv_number(&w, "dt", p->dt);
  json_kv_number(&w, "total_time", p->dt * (double)p->nsteps);
  json_kv_number(&w, "r", p->r);
  json_kv_bool(&w, "stable", p->r <= R_LIMIT);
  json_key(&w, "errors");
  json_begin_object(&w);
  json_kv_number(&w, "l2", c->err.l2);
  json_kv_number(&w, "rms", c->err.rms);
  json_kv_number(&w, "max", c->err.max);
  json_kv_number(&w, "l2_discrete_theory", c->l2_theory);
  json_end_object(&w);
  json_kv_number(&w, "wall_seconds_setup", c->wall_setup);
  json_kv_number(&w, "wall_seconds_solve", c->wall_solve);
  json_kv_number(&w, "wall_seconds_output", c->wall_output);
  /* the tutorial's "Total time" (to the end of the error); wall_seconds_total
   * below is, as in every solver, the whole run to result.json */
  json_kv_number(&w, "wall_seconds_tutorial_total", c->wall_total);
  json_kv_number(&w, "seconds_per_step", c->wall_solve / p->nsteps);
  json_kv_number(&w, "floor_bytes_per_step", 16.0 * (double)p->n * (double)p->n);
  json_kv_number(&w, "floor_gb_per_s", c->floor_gbs);
  const solver_wall wall = {c->wall_run, c->wall_solve};
  solver_result_end(&w, c->verdicts, &wall);
}

/* ---- the run ------------------------------------------------------------------------ */

static void print_problem(const heat_params *p) {
  printf("\n");
  printf(" MMS heat equation\n\n");
  printf(LINE);
  printf("Problem input\n\n");
  printf(" Grid size: %d x %d\n", p->n, p->n);
  printf(" Cell width: %E\n", p->dx);
  printf(" Grid length: %lf x %lf\n", p->length, p->length);
  printf("\n");
  printf(" Alpha: %E\n", p->alpha);
  printf("\n");
  printf(" Steps: %d\n", p->nsteps);
  printf(" Total time: %E\n", p->dt * (double)p->nsteps);
  printf(" Time step: %E\n", p->dt);
  printf(LINE);
  printf("Stability\n\n");
  printf(" r value: %lf\n", p->r);
  if (p->r <= R_LIMIT)
    printf(" Stable: r <= 0.25, the 2D limit\n");
  else
    printf(" Warning: unstable: r > 0.25, the 2D limit\n");
  printf(LINE);
  fflush(stdout);
}

/* The tutorial program's constants: L = 1000, alpha = 0.1, dt = 0.5 / nsteps
 * (its only inputs are n and nsteps). */
static int tutorial_constants(const heat_params *p) {
  return p->length == 1000.0 && p->alpha == 0.1 && p->dt == 0.5 / p->nsteps;
}

/* Its default problem, whose error it prints and we recorded (TUTORIAL_L2). */
static int is_tutorial_problem(const heat_params *p) {
  return tutorial_constants(p) && p->n == TUTORIAL_N && p->nsteps == TUTORIAL_NSTEPS;
}

/* The coordinates of the n grid lines, the same along x and y. The grid's
 * x_i = (i + 1) dx (docs/heat.md), except with the tutorial program's constants, where they
 * are built as that program builds them, x_0 = dx then x_{i+1} = x_i + dx:
 * the sums round differently (at n = 1000, 984 of the 1000 differ from
 * (i + 1) dx, by up to 235 ulps), and the tutorial's error is small enough
 * (about 4e-10 as L2) that its printed last digit depends on it (3.808801E-10
 * with (i + 1) dx against the tutorial's 3.808796E-10). Kept in a table,
 * because an accumulated sum has no closed form per point. Returns NULL when
 * out of memory. */
static double *grid_coordinates(const heat_params *p, int *accumulated) {
  double *x = malloc(sizeof(double) * (size_t)p->n);
  if (!x) return NULL;
  *accumulated = tutorial_constants(p);
  double sum = p->dx;
  for (int i = 0; i < p->n; i++) {
    x[i] = *accumulated ? sum : (double)(i + 1) * p->dx;
    sum += p->dx;
  }
  return x;
}

/* sin(pi x / L) at each coordinate, in place: the table heat_init and
 * heat_error read (the constants must be set). The same expression the
 * kernels would evaluate per point, once per grid line. */
static void grid_sines(int n, double *x) {
  for (int i = 0; i < n; i++) x[i] = sin(heat_pi * x[i] / heat_length);
}

/* Reads the command line into d and p; returns -1 to go on, else the exit
 * status (0 after --help, 2 on bad input, with the message printed). */
static int read_input(int argc, char **argv, char **args, deck *d, heat_params *p) {
  char err[2048];
  int rc = deck_parse_args(d, argc, args, err, sizeof err);
  if (rc == DECK_VERSION) return 0;
  if (rc == DECK_HELP) {
    int markdown = 0;
    for (int i = 1; i < argc; i++) markdown |= strcmp(argv[i], "--help-markdown") == 0;
    if (!markdown) {
      printf("\nThe tutorial's form: heat_<backend> [n [nsteps]] sets n and nsteps.\n");
      printf("\nOP2 options:\n%s", op_usage_text());
    }
    return 0;
  }
  if (rc == DECK_ERROR || resolve_params(d, p, err, sizeof err) != 0) {
    fprintf(stderr, "heat: %s\n", err);
    return 2;
  }
  if (deck_real(d, "ppm_min") >= deck_real(d, "ppm_max") &&
      strcmp(deck_string(d, "ppm_range"), "fixed") == 0) {
    fprintf(stderr, "heat: ppm_min (%g, %s) must be below ppm_max (%g, %s)\n",
            deck_real(d, "ppm_min"), deck_origin(d, "ppm_min"), deck_real(d, "ppm_max"),
            deck_origin(d, "ppm_max"));
    return 2;
  }
  /* The effective parameters, a deck of their own: at start-up, except in
   * the tutorial's form (no deck), whose printout comes first unchanged and
   * the parameters after it (run()). */
  if (deck_path(d)) deck_print(d, stdout);
  print_problem(p);
  if (p->r > R_LIMIT && !deck_bool(d, "allow_unstable")) {
    fprintf(stderr,
            "heat: refusing to run: r = alpha dt / dx^2 = %g exceeds 1/4, the stability limit of "
            "the explicit 5-point scheme in 2D (the highest grid mode grows by |1 - 8r| = %g per "
            "step). Take more steps (nsteps, or r = 0.25), or set allow_unstable=yes to run "
            "anyway.\n",
            p->r, fabs(1.0 - 8.0 * p->r));
    return 2;
  }
  return -1;
}

/* What a run needs: memory about 50 bytes per cell measured (peak RSS of
 * n = 2000, 4e6 cells: 199 MB; docs/heat.md), taken as 60; outputs: u.h5 and
 * the picture (u.ppm and u.png) at the end and at every output_every steps,
 * and history.csv (a row of about 120 bytes at most every step). */
static void estimate(const deck *d, const heat_params *p, solver_estimate *e) {
  const double cells = ((double)p->n + 2.0) * ((double)p->n + 2.0);
  e->memory_bytes = 60.0 * cells;
  snprintf(e->memory_detail, sizeof e->memory_detail, "%.0f cells at about 60 bytes each", cells);
  const int every = deck_int(d, "output_every"), print_every = deck_int(d, "print_every");
  const double outputs = 1.0 + (every > 0 ? (double)(p->nsteps / every) + 1.0 : 0.0);
  const double h5 = deck_bool(d, "write_hdf5") ? 8.0 * cells + 16384.0 : 0.0;
  const double ppm = deck_bool(d, "write_ppm") ? picture_bytes(p->n) : 0.0;
  const int history_every = print_every > 0 ? print_every : every;
  const double rows = 2.0 + (history_every > 0 ? (double)(p->nsteps / history_every) : 0.0);
  const double history = 120.0 * rows;
  /* grid.h5 with the HDF5 files: 16 bytes a node and a cell (coordinates, corners). */
  const double nodes = ((double)p->n + 3.0) * ((double)p->n + 3.0);
  const double grid = deck_bool(d, "write_hdf5") ? 32.0 * nodes + 16384.0 : 0.0;
  e->output_bytes = outputs * (h5 + ppm) + grid + history + 65536.0;
  snprintf(e->output_detail, sizeof e->output_detail,
           "%.0f output(s) of %.1f MB (HDF5) and %.1f MB (PPM and PNG), history.csv %.1f MB",
           outputs, h5 / 1e6, ppm / 1e6, history / 1e6);
}

/* The names of what the run writes into output_dir (output_path's): the
 * final u, the series u_STEP, their grid, and the history. */
static void declare_files(const deck *d, solver_io *io) {
  solver_io_init(io);
  solver_io_output(io, "history.csv");
  if (deck_bool(d, "write_hdf5")) {
    static const char *const names[] = {"u.h5", "u.xmf", "u_*.h5", "u_series.xmf", "grid.h5"};
    for (int k = 0; k < 5; k++) solver_io_output(io, names[k]);
  }
  if (deck_bool(d, "write_ppm")) {
    static const char *const names[] = {"u.ppm", "u.png", "u_*.ppm", "u_*.png"};
    for (int k = 0; k < 4; k++) solver_io_output(io, names[k]);
  }
}

/* The run proper; returns the exit status. */
static int run(const deck *d, const heat_params *pp, double t_start) {
  const heat_params p = *pp;
  char err[2048];
  solver_output sout;
  solver_estimate need;
  estimate(d, &p, &need);
  solver_io io;
  declare_files(d, &io);
  if (solver_main_outputs(&sout, "heat", d, &io, &need, err, sizeof err) != 0) {
    fprintf(stderr, "heat: %s\n", err);
    exit(2); /* not through op_exit, which would write the tune file the refusal keeps */
  }
  const char *outdir = sout.staging;

  /* Set-up: the mesh, the constants, and the plans of both step directions
   * (built by two steps on the zero fields, so the timed loop holds only the
   * steps), then the initial value. */
  const double t_setup = op_wtime();
  heat_mesh m;
  build_mesh(p.n, &m);
  int accumulated = 0;
  double *sine = grid_coordinates(&p, &accumulated);
  if (!sine) fail("out of memory for the grid coordinates");
  const double t_final = p.dt * (double)p.nsteps;
  set_constants(&p, t_final);
  grid_sines(p.n, sine);
  step(&m);
  step(&m);
  op_par_loop(heat_init, "heat_init", m.interior, op_arg_idx(-1, OP_ID),
              op_arg_gbl(sine, p.n, "double", OP_READ),
              op_arg_dat(m.cur, 0, m.stencil, 1, "double", OP_WRITE));
  const double wall_setup = op_wtime() - t_setup;
  if (op_diags_level() > 0) op_diagnostic_output();

  heat_output out = {d, outdir, &m, p.n, p.dx, NULL, NULL, 0.0, 0, &sout, ""};
  const int every = deck_int(d, "output_every"), print_every = deck_int(d, "print_every");
  if (every > 0) write_state(&out, 0, 0, 0.0);
  /* history.csv: the errors at step 0, every print_every (else output_every)
   * steps and at the end. */
  solver_history history;
  solver_history_init(&history, "step,time,l2_error,rms_error,max_error");
  const int history_every = print_every > 0 ? print_every : every;
  history_row(&history, &m, &p, sine, 0, 0.0);

  /* The time loop; the solve time excludes the dumps and history rows within it. */
  const double output_before = out.seconds, tic = op_wtime();
  int done = 0;
  solver_pace pace;
  solver_pace_begin(&pace, solver_pace_now());
  char pace_text[96];
  solver_interrupt_install("heat");
  for (int t = 1; t <= p.nsteps; t++) {
    step(&m);
    done = t;
    /* The lines print_every asks for, and one whenever the run has been quiet
     * for SOLVER_PACE_QUIET seconds (the tutorial's form prints none). */
    const double now = solver_pace_now();
    if ((print_every > 0 && (t % print_every == 0 || t == p.nsteps)) ||
        solver_pace_due(&pace, SOLVER_PACE_QUIET, now)) {
      printf(" step %d of %d, t = %E, %s\n", t, p.nsteps, p.dt * (double)t,
             solver_pace_text(&pace, (double)t / p.nsteps, now, pace_text, sizeof pace_text));
      fflush(stdout);
    }
    if (every > 0 && t % every == 0 && t != p.nsteps) write_state(&out, t, 0, p.dt * (double)t);
    if (history_every > 0 && t % history_every == 0 && t != p.nsteps) {
      const double w = op_wtime();
      history_row(&history, &m, &p, sine, t, p.dt * (double)t);
      out.seconds += op_wtime() - w;
    }
    if (solver_interrupted() && t < p.nsteps) {
      printf(" step %d of %d, t = %E (stopped here)\n", t, p.nsteps, p.dt * (double)t);
      break;
    }
  }
  /* op_timers: the end of the steps once a device has run them (their
   * launches may be queued ahead: docs/cuda.md, "Host waits"). */
  double toc;
  op_timers(NULL, &toc);
  const double wall_solve = toc - tic - (out.seconds - output_before);
  /* Stopped early: everything below is about the steps done, the error
   * against the manufactured solution at the time reached. */
  heat_params q = p;
  q.nsteps = done;
  const double t_done = p.dt * (double)done;
  set_constants(&q, t_done);

  const heat_errors e = error_norms(&m, p.n, sine);
  solver_history_add(&history, "%d,%.17g,%.17g,%.17g,%.17g", done, t_done, e.l2, e.rms, e.max);
  const double wall_total = op_wtime() - t_start;

  printf("Results\n\n");
  printf("Error (L2norm): %E\n", e.l2);
  printf("Solve time (s): %lf\n", wall_solve);
  printf("Total time (s): %lf\n", wall_total);
  printf(LINE);
  if (!deck_path(d)) deck_print(d, stdout);
  fflush(stdout);

  if (every > 0) write_state(&out, done, 0, t_done);
  write_state(&out, done, 1, t_done);

  /* What the tutorial does not print. */
  const double factor_err = discrete_factor_error(&q);
  const double l2_theory = fabs(factor_err) * (p.n + 1) / 2.0;
  /* Rounding: each step adds at most a few ulps per point and, with r <= 1/4,
   * the scheme does not amplify them; the initial value and the reference add
   * a few more. Summed in square over the n^2 points: */
  const double rounding = (double)p.n * (3.0 * done + 8.0) * DBL_EPSILON;
  const double floor_bytes = 16.0 * (double)p.n * (double)p.n;
  const double floor_gbs = wall_solve > 0 ? floor_bytes * done / wall_solve * 1e-9 : 0.0;
  printf("Error (RMS): %E\n", e.rms);
  printf("Error (max): %E\n", e.max);
  printf("Error (L2norm) the scheme must make: %E (|G^N - D| (n+1)/2)\n", l2_theory);
  printf("Grid coordinates: %s\n",
         accumulated ? "x = dx, then x += dx (as the tutorial's program)" : "x = (i + 1) dx");
  printf("Backend: %s, %d thread(s), part size %d\n", op_backend_name(), op_num_threads(),
         op_part_size());
  printf("Setup time (s): %lf (mesh, plans, initial value)\n", wall_setup);
  printf("Time per step (s): %lf\n", done > 0 ? wall_solve / done : 0.0);
  printf("Bandwidth (GB/s): %.2f (2 x 8 bytes x n^2 per step)\n", floor_gbs);
  op_timing_output();

  solver_verdicts verdicts;
  solver_verdicts_init(&verdicts);
  solver_verdict_add(&verdicts, "finite", (isfinite(e.l2) ? 0 : 1) + (isfinite(e.max) ? 0 : 1),
                     SOLVER_AT_MOST, 0, "L2 error %.6e, max error %.6e (value: how many are not finite)",
                     e.l2, e.max);
  const double gap = fabs(e.l2 - l2_theory);
  solver_verdict_add(&verdicts, "mms_discrete", gap, SOLVER_AT_MOST, rounding,
                     "L2 error %.10e vs the scheme's %.10e: difference %.2e (rounding bound %.2e)",
                     e.l2, l2_theory, gap, rounding);
  if (deck_real(d, "expect_l2") > 0) {
    const double want = deck_real(d, "expect_l2"), tol = deck_real(d, "expect_rtol");
    const double rel = fabs(e.l2 / want - 1.0);
    solver_verdict_add(&verdicts, "expected_l2", rel, SOLVER_AT_MOST, tol,
                       "L2 error %.10e vs expected %.10e: relative difference %.2e (limit %.1e)",
                       e.l2, want, rel, tol);
  }
  solver_interrupt_verdict(&verdicts, "step %d of %d", done, p.nsteps);
  if (is_tutorial_problem(&q)) {
    const double rel = fabs(e.l2 / TUTORIAL_L2 - 1.0);
    solver_verdict_add(&verdicts, "tutorial_l2", rel, SOLVER_AT_MOST, TUTORIAL_L2_RTOL,
                       "L2 error %.10e vs the recorded %.10e: relative difference %.2e (limit "
                       "%.0e)",
                       e.l2, TUTORIAL_L2, rel, TUTORIAL_L2_RTOL);
  } else if (tutorial_constants(&q)) {
    /* The tutorial's problem at another resolution: mms_discrete judges it
     * (the scheme's own error for this n and these steps); the recorded
     * error is n = 1000's alone. */
    solver_verdict_not_judged(&verdicts, "tutorial_l2",
                              "the recorded L2 error is the tutorial's n = %d, %d steps; this "
                              "run has n = %d, %d steps (mms_discrete judges it)",
                              TUTORIAL_N, TUTORIAL_NSTEPS, q.n, q.nsteps);
  }
  solver_verdicts_print(&verdicts, stdout);

  if (out.series) op_xdmf_series_free(out.series);
  free(out.image);
  free(sine);
  result_ctx ctx = {.d = d,
                    .p = &q, /* the steps done (the deck keeps those asked for) */
                    .err = e,
                    .l2_theory = l2_theory,
                    .wall_setup = wall_setup,
                    .wall_solve = wall_solve,
                    .wall_output = out.seconds,
                    .wall_total = wall_total,
                    .wall_run = op_wtime() - t_start,
                    .floor_gbs = floor_gbs,
                    .verdicts = &verdicts};
  char hpath[4400];
  snprintf(hpath, sizeof hpath, "%s/history.csv", outdir);
  const int hrc = solver_history_write(&history, hpath, err, sizeof err);
  solver_history_free(&history);
  char what[128];
  snprintf(what, sizeof what, "result.json, history.csv%s%s",
           deck_bool(d, "write_hdf5") ? ", u.h5, u.xmf, grid.h5" : "",
           deck_bool(d, "write_ppm") ? ", u.ppm, u.png" : "");
  const int status =
      hrc != 0 ? -1 : solver_main_finish(&sout, &verdicts, fill_result, &ctx, what, err, sizeof err);
  if (status < 0) {
    fprintf(stderr, "heat: %s\n", err);
    return 2;
  }
  return status;
}

int main(int argc, char **argv) {
  const double t_start = op_wtime();
  solver_main_op_init(&argc, argv);
  char err[256];
  int status = 2;
  deck *d = NULL;
  char **args = translate_args(argc, argv, err, sizeof err);
  if (!args)
    fprintf(stderr, "heat: %s\n", err);
  else if ((d = deck_new("heat", keys, NKEYS)) != NULL) {
    heat_params p;
    status = read_input(argc, argv, args, d, &p);
    if (status < 0) status = run(d, &p, t_start);
  }
  op_exit();
  deck_free(d);
  free(args);
  return status;
}
