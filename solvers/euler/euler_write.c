/*
 * euler_write.c - the outputs of euler_write.h.
 */
#include "euler_write.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "euler_params.h"
#include "euler_step.h"
#include "op2.h"
#include "op_hdf5.h"
#include "result_json.h"

/* ---- output fields ------------------------------------------------------------------ */

enum { F_RHO, F_U, F_V, F_P, F_E_INT, F_E_TOT, F_SPEED, F_MACH, NFIELDS };
static const char *const field_names[NFIELDS] = {"rho", "u", "v", "p", "e", "energy", "speed",
                                                  "mach"};

_Static_assert(NFIELDS == EULER_NFIELDS, "euler_write.h counts the fields");

static int field_index(const char *name, size_t len) {
  for (int f = 0; f < NFIELDS; f++)
    if (strlen(field_names[f]) == len && strncmp(field_names[f], name, len) == 0) return f;
  return -1;
}

void euler_read_image_spec(const deck *d, euler_image_spec *s) {
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
    char why[160];
    if (euler_parse_numbers(c1 + 1, 2, lohi, why, sizeof why) != 0 || !(lohi[1] > lohi[0]))
      euler_bad_input(d, "image_range", "expected FIELD:MIN:MAX with MIN < MAX, got \"%s\"", text);
    s->fixed[f] = 1;
    s->lo[f] = lohi[0];
    s->hi[f] = lohi[1];
  }
}

#define EULER_FRAME_BUDGET ((size_t)256 << 20)

/* What the pictures call each field. */
static const char *const field_titles[NFIELDS] = {
    "density rho", "velocity u", "velocity v", "pressure p", "specific internal energy e",
    "total energy per volume", "speed |u|", "Mach number"};

/* Bytes of the frames kept for one colour range across the series: a float
 * a cell per frame of each field without a range of its own (image_range),
 * with frames at the start, every output_interval and the end. */
static double series_frame_bytes(const deck *d, const euler_image_spec *img, double cells) {
  if (!deck_bool(d, "images")) return 0.0;
  int free_fields = 0;
  for (int k = 0; k < img->nfields; k++) free_fields += !img->fixed[img->field[k]];
  const double interval = deck_real(d, "output_interval"), t_end = deck_real(d, "t_end");
  const double frames = interval > 0.0 ? fmin(floor(t_end / interval), 1e12) + 2.0 : 2.0;
  return frames * free_fields * sizeof(float) * cells;
}

/* One picture of field f: annotated, PPM and PNG, in [lo, hi] when fixed. */
static void draw_image(euler_writer *o, int f, int frame, double time, int fixed, double lo,
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
  /* Axes in the domain's coordinates (the interior cells span it). */
  opt.axes = 1;
  opt.extent[0] = o->pb->x_min;
  opt.extent[1] = o->pb->x_max;
  opt.extent[2] = o->pb->y_min;
  opt.extent[3] = o->pb->y_max;
  char path[4200], err[OP_IO_ERRLEN];
  snprintf(path, sizeof path, "%s/%s_%04d.ppm", o->outdir, field_names[f], frame);
  const double nx = o->m->grid.nx, ny = o->m->grid.ny;
  const double scale = solver_picture_scale(nx, ny, opt.scale, opt.min_size);
  if (solver_output_reserve(o->out, solver_picture_bytes(nx * scale, ny * scale), "an image",
                            err, sizeof err) != 0)
    euler_fail("image", err);
  if (op_ppm_write_field(path, o->field, o->m->grid.nx, o->m->grid.ny, &opt, NULL, err,
                         sizeof err) != OP_IO_OK)
    euler_fail("image", err);
}

/* Keeps the frame just computed (o->field) of field f for the final redraw. */
static void keep_frame(euler_writer *o, int f, int frame) {
  const size_t n = (size_t)o->m->grid.ninterior;
  if (frame >= o->frames_cap) {
    const int cap = o->frames_cap ? 2 * o->frames_cap : 16;
    for (int g = 0; g < NFIELDS; g++) {
      if (!o->frames[g] && g != f) continue;
      float *p = realloc(o->frames[g], sizeof(float) * n * (size_t)cap);
      if (!p) euler_fail("images", "out of memory for the frames of the series");
      o->frames[g] = p;
    }
    double *t = realloc(o->frame_times, sizeof(double) * (size_t)cap);
    if (!t) euler_fail("images", "out of memory for the frames of the series");
    o->frame_times = t;
    o->frames_cap = cap;
  }
  if (!o->frames[f]) {
    o->frames[f] = malloc(sizeof(float) * n * (size_t)o->frames_cap);
    if (!o->frames[f]) euler_fail("images", "out of memory for the frames of the series");
  }
  float *dst = o->frames[f] + (size_t)frame * n;
  for (size_t c = 0; c < n; c++) dst[c] = (float)o->field[c];
}

/* The final redraw: every kept frame of each field with the series' range.
 * The frames are the root's (on many processes); every process takes part in
 * the drawing, which is collective. */
static void redraw_series(euler_writer *o) {
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
static void write_images(euler_writer *o, double time) {
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
static void write_hdf5(euler_writer *o, const char *path, double t, long step) {
  euler_mesh *m = o->m;
  char tmp[4300], err[OP_IO_ERRLEN];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  if (op_is_root()) remove(tmp);
  if (solver_output_reserve(o->out, 80.0 * m->grid.ninterior + 16384.0, "an HDF5 file", err,
                            sizeof err) != 0)
    euler_fail("HDF5 output", err);
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
  if (rc != OP_IO_OK) euler_fail("HDF5 output", err);
  if (op_is_root() && rename(tmp, path) != 0) euler_fail(path, strerror(errno));
}

static op_xdmf_grid xdmf_grid(euler_writer *o, const op_dat *dats) {
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
static void write_grid_file(euler_writer *o, const op_xdmf_grid *gr) {
  if (o->grid_written) return;
  char err[OP_IO_ERRLEN];
  if (solver_output_reserve(o->out, 32.0 * (gr->nx + 1.0) * (gr->ny + 1.0) + 16384.0,
                            "grid.h5", err, sizeof err) != 0 ||
      op_xdmf_write_grid_mesh(o->grid_file, gr, err, sizeof err) != OP_IO_OK)
    euler_fail("XDMF", err);
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
static void write_profile(euler_writer *o, double t) {
  char path[4200], err[1024];
  profile_ctx c = {o->pb, o->m, t, op_fetch_data_global(o->m->out_rho),
                   op_fetch_data_global(o->m->out_vel), op_fetch_data_global(o->m->out_p)};
  snprintf(path, sizeof path, "%s/profile.csv", o->outdir);
  int rc = op_is_root() ? write_file_atomically(path, fill_profile, &c, err, sizeof err) : 0;
  if (op_root_status(rc) != 0) euler_fail("profile", err);
}

/* "t/t_end, 41%, 8.1 s, about 12 s left": the share of the simulated time
 * reached (or of max_steps, when that ends the run sooner). */
const char *euler_progress(euler_writer *o, double t, long step, char *buf, size_t len) {
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
void euler_write_output(euler_writer *o, double t, long step, double dt, int final, double tot[8]) {
  euler_mesh *m = o->m;
  euler_conserved_totals(m, tot);
  char pr[160];
  printf("%12.6f %8ld %12.5e %22.15e %22.15e %22.15e %22.15e  %s\n", t, step, dt, tot[0],
         tot[1], tot[2], tot[3], euler_progress(o, t, step, pr, sizeof pr));
  fflush(stdout);
  const int images = deck_bool(o->d, "images");
  const int profile = final && o->pb->kind == EULER_PROBLEM_RIEMANN1D;
  if (images || profile || o->hdf5_mode == 2 || (final && o->hdf5_mode == 1))
    euler_compute_output_fields(m);
  if (profile) write_profile(o, t);
  char hpath[4200], herr[1024];
  snprintf(hpath, sizeof hpath, "%s/history.csv", o->outdir);
  if (solver_history_write(&o->history, hpath, herr, sizeof herr) != 0) euler_fail("history", herr);
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
      if (!o->series) euler_fail("XDMF", err);
    }
    if (op_xdmf_series_append(o->series, t, path, err, sizeof err) != OP_IO_OK) euler_fail("XDMF", err);
  }
  if (final && o->hdf5_mode >= 1) {
    snprintf(path, sizeof path, "%s/final.h5", o->outdir);
    write_hdf5(o, path, t, step);
    if (op_xdmf_write_grid(path, &gr, err, sizeof err) != OP_IO_OK) euler_fail("XDMF", err);
  }
  o->frame++;
}

void euler_declare_outputs(const deck *d, const euler_image_spec *img, solver_io *io) {
  solver_io_output(io, "history.csv");
  if (deck_choice(d, "problem") == EULER_PROBLEM_RIEMANN1D) solver_io_output(io, "profile.csv");
  if (deck_bool(d, "images"))
    for (int k = 0; k < img->nfields; k++) {
      char name[SOLVER_IO_NAME];
      snprintf(name, sizeof name, "%s_*.ppm", field_names[img->field[k]]);
      solver_io_output(io, name);
      snprintf(name, sizeof name, "%s_*.png", field_names[img->field[k]]);
      solver_io_output(io, name);
    }
  const int hdf5 = deck_choice(d, "hdf5");
  if (hdf5 >= 1) {
    solver_io_output(io, "grid.h5");
    solver_io_output(io, "final.h5");
    solver_io_output(io, "final.xmf");
  }
  if (hdf5 == 2) {
    solver_io_output(io, "dump_*.h5");
    solver_io_output(io, "dumps.xmf");
  }
}

void euler_writer_open(euler_writer *o, const deck *d, const euler_problem *pb, euler_mesh *m,
                       const solver_output *out, const euler_image_spec *img) {
  memset(o, 0, sizeof *o);
  o->d = d;
  o->pb = pb;
  o->m = m;
  o->outdir = out->staging;
  o->img = *img;
  snprintf(o->grid_file, sizeof o->grid_file, "%s/grid.h5", o->outdir);
  o->out = out;
  o->hdf5_mode = deck_choice(d, "hdf5");
  o->ppm = op_ppm_default_options();
  o->ppm.colormap = deck_string(d, "image_colormap");
  o->ppm.scale = deck_int(d, "image_scale");
  /* A scale the deck asks for is kept; by default small grids are drawn larger. */
  if (strcmp(deck_origin(d, "image_scale"), "default") != 0) o->ppm.min_size = -1;
  o->t_end = deck_real(d, "t_end");
  o->max_steps = deck_int(d, "max_steps");
  /* time at the end of the step; the wave speed and the smallest density and
   * pressure of the state the step started from */
  solver_history_init(&o->history, "step,time,dt,max_wave_speed,min_density,min_pressure");
  /* The pictures' scratch: the root draws (on many processes). */
  if (op_is_root()) {
    o->field = malloc(sizeof(double) * (size_t)m->grid.ninterior);
    if (!o->field) euler_fail("memory", "out of memory");
  }
  if (deck_bool(d, "images")) {
    /* The frames the series will have at most, and what keeping them costs. */
    const double bytes = series_frame_bytes(d, &o->img, (double)m->grid.ninterior);
    o->series_range = bytes > 0.0 && bytes <= (double)EULER_FRAME_BUDGET;
    if (bytes > 0.0 && !o->series_range)
      printf("euler: note: the images keep each frame's own colour range (one range for the "
             "series would hold %.0f MiB of frames); image_range=FIELD:MIN:MAX fixes one\n",
             bytes / 1048576.0);
  }
}

void euler_writer_close(euler_writer *o) {
  if (o->series) op_xdmf_series_free(o->series);
  o->series = NULL;
  free(o->field);
  for (int f = 0; f < NFIELDS; f++) free(o->frames[f]);
  free(o->frame_times);
  solver_history_free(&o->history);
  o->field = NULL;
  o->frame_times = NULL;
  memset(o->frames, 0, sizeof o->frames);
}

/* A row of history.csv, "step,time,dt,max_wave_speed,min_density,
 * min_pressure" with five numbers to 17 digits: at most about 130 bytes. */
#define HISTORY_ROW_BYTES 130.0

/* What a run needs: memory about 295 bytes per cell measured (peak RSS of
 * 1000 x 1000 cells with the default outputs, a picture of rho at the start
 * and the end and final.h5: 298 MB; docs/euler.md), taken as 350, and the
 * frames kept for the series' colour range (up to EULER_FRAME_BUDGET); outputs: at
 * the start, at every output_interval and at the end, pictures (PPM and PNG,
 * per field), HDF5 (80 bytes a cell) and history.csv (a row a step, held in
 * memory too, in a buffer up to twice its size). */
void euler_estimate(const deck *d, const euler_image_spec *img, double steps, solver_estimate *e) {
  const double nx = deck_int(d, "nx"), ny = deck_int(d, "ny");
  const double cells = nx * ny;
  const double ext = (nx + 2.0 * EULER_GHOST_LAYERS) * (ny + 2.0 * EULER_GHOST_LAYERS);
  const double frames = series_frame_bytes(d, img, cells);
  const double kept = frames <= (double)EULER_FRAME_BUDGET ? frames : 0.0;
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
