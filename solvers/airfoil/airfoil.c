/*
 * airfoil - steady inviscid flow around a NACA0012 aerofoil at Mach 0.4: a
 * cell-centred finite-volume scheme with scalar artificial dissipation and
 * explicit pseudo-time marching (specs/airfoil.md), written once on the OP2
 * API and built for every backend.
 *
 *   airfoil_<backend> [DECK] [key=value ...] [--op-... options]
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "airfoil_mesh.h"
#include "deck.h"
#include "op2.h"
#include "op_checkpoint.h"
#include "op_hdf5.h"
#include "op_xdmf.h"
#include "result_json.h"
#include "solver_result.h"
#include "solver_interrupt.h"
#include "solver_verdict.h"

/* The constants the kernels read (op_decl_const). The reference code assigns
 * single-precision literals to these doubles, and the residual history
 * depends on it: keep the float literals. */
double gam, gm1, cfl, eps, mach, alpha, qinf[4];

static const deck_key keys[] = {
    {"mesh", DECK_STRING, "meshes/data/new_grid.dat", 0, 0, NULL,
     "ASCII mesh file (OP2 new_grid.dat format) or HDF5 mesh (.h5) in OP2's layout"},
    {"generate_mesh", DECK_BOOL, "yes", 0, 0, NULL,
     "generate the NACA0012 C-mesh (mesh_i x mesh_j) when the mesh file is missing"},
    {"mesh_i", DECK_INT, "400", 2, 100000, NULL, "C-mesh parameter I when generating (standard 400)"},
    {"mesh_j", DECK_INT, "600", 2, 100000, NULL, "C-mesh parameter J when generating (standard 600)"},
    {"iterations", DECK_INT, "1000", 1, 1e9, NULL, "pseudo-time iterations"},
    {"print_every", DECK_INT, "100", 1, 1e9, NULL, "print the rms residual every N iterations"},
    {"output_dir", DECK_STRING, "outputs/airfoil", 0, 0, NULL,
     "directory for history.csv, q.h5 and result.json"},
    {"write_solution", DECK_BOOL, "yes", 0, 0, NULL,
     "write the mesh and the final q to output_dir/q.h5, with q.xmf for ParaView/VisIt"},
    {"checkpoint_every", DECK_INT, "0", 0, 1e9, NULL,
     "write the state to output_dir/checkpoint.h5 every N iterations (0: never)"},
    {"restart", DECK_STRING, "", 0, 0, NULL,
     "resume from this checkpoint file (written by checkpoint_every)"},
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

/* OP2's reference airfoil code checks its standard run (720000 cells, 1000
 * iterations) against this rms, to a relative 1e-7. */
#define STANDARD_NCELL 720000
#define STANDARD_ITERATIONS 1000
#define STANDARD_RMS 0.0001060114637578
#define STANDARD_RMS_RTOL 1e-7

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Reads the ASCII mesh, generating it first when it is missing and allowed. */
static void load_ascii_mesh(const deck *d, airfoil_mesh *m) {
  const char *path = deck_string(d, "mesh");
  char err[1024];
  if (!file_exists(path)) {
    if (!deck_bool(d, "generate_mesh")) {
      fprintf(stderr, "airfoil: mesh file %s does not exist (set generate_mesh = yes to make it)\n",
              path);
      exit(2);
    }
    int ni = deck_int(d, "mesh_i"), nj = deck_int(d, "mesh_j");
    printf("generating the NACA0012 C-mesh I=%d J=%d into %s\n", ni, nj, path);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
      *slash = '\0';
      if (make_dirs(dir) != 0) {
        fprintf(stderr, "airfoil: cannot create directory %s: %s\n", dir, strerror(errno));
        exit(2);
      }
    }
    airfoil_mesh g;
    if (airfoil_mesh_generate(ni, nj, &g, err, sizeof err) != 0 ||
        airfoil_mesh_write_ascii(path, &g, err, sizeof err) != 0) {
      fprintf(stderr, "airfoil: %s\n", err);
      exit(2);
    }
    airfoil_mesh_free(&g);
  }
  /* Always read back from the file: the six-decimal rounding of the
   * coordinates is part of the standard mesh. */
  if (airfoil_mesh_read_ascii(path, m, err, sizeof err) != 0) {
    fprintf(stderr, "airfoil: %s\n", err);
    exit(2);
  }
}

typedef struct {
  op_set nodes, edges, bedges, cells;
  op_map pedge, pecell, pbedge, pbecell, pcell;
  op_dat p_bound, p_x, p_q, p_qold, p_adt, p_res;
} airfoil_mesh_op2;

static void declare_from_ascii(const deck *d, airfoil_mesh *m, airfoil_mesh_op2 *o) {
  load_ascii_mesh(d, m);
  o->nodes = op_decl_set(m->nnode, "nodes");
  o->edges = op_decl_set(m->nedge, "edges");
  o->bedges = op_decl_set(m->nbedge, "bedges");
  o->cells = op_decl_set(m->ncell, "cells");
  o->pedge = op_decl_map(o->edges, o->nodes, 2, m->edge, "pedge");
  o->pecell = op_decl_map(o->edges, o->cells, 2, m->ecell, "pecell");
  o->pbedge = op_decl_map(o->bedges, o->nodes, 2, m->bedge, "pbedge");
  o->pbecell = op_decl_map(o->bedges, o->cells, 1, m->becell, "pbecell");
  o->pcell = op_decl_map(o->cells, o->nodes, 4, m->cell, "pcell");
  o->p_bound = op_decl_dat(o->bedges, 1, "int", m->bound, "p_bound");
  o->p_x = op_decl_dat(o->nodes, 2, "double", m->x, "p_x");
}

static void declare_from_hdf5(const char *file, airfoil_mesh_op2 *o) {
  o->nodes = op_decl_set_hdf5(file, "nodes");
  o->edges = op_decl_set_hdf5(file, "edges");
  o->bedges = op_decl_set_hdf5(file, "bedges");
  o->cells = op_decl_set_hdf5(file, "cells");
  o->pedge = op_decl_map_hdf5(o->edges, o->nodes, 2, file, "pedge");
  o->pecell = op_decl_map_hdf5(o->edges, o->cells, 2, file, "pecell");
  o->pbedge = op_decl_map_hdf5(o->bedges, o->nodes, 2, file, "pbedge");
  o->pbecell = op_decl_map_hdf5(o->bedges, o->cells, 1, file, "pbecell");
  o->pcell = op_decl_map_hdf5(o->cells, o->nodes, 4, file, "pcell");
  o->p_bound = op_decl_dat_hdf5(o->bedges, 1, "int", file, "p_bound");
  o->p_x = op_decl_dat_hdf5(o->nodes, 2, "double", file, "p_x");
}

static void set_constants(void) {
  gam = 1.4f;
  gm1 = gam - 1.0;
  cfl = 0.9f;
  eps = 0.05f;
  mach = 0.4f;
  alpha = 3.0f * atan(1.0f) / 45.0f;
  double p = 1.0f, r = 1.0f, u = sqrt(gam * p / r) * mach, e = p / (r * gm1) + 0.5f * u * u;
  qinf[0] = r;
  qinf[1] = r * u;
  qinf[2] = 0.0f;
  qinf[3] = r * e;
  op_decl_const(1, "double", &gam);
  op_decl_const(1, "double", &gm1);
  op_decl_const(1, "double", &cfl);
  op_decl_const(1, "double", &eps);
  op_decl_const(4, "double", qinf);
}

/* One pseudo-time iteration; returns the rms of the second stage's update. */
static double iterate(const airfoil_mesh_op2 *o) {
  double rms = 0.0;
  op_par_loop(save_soln, "save_soln", o->cells,
              op_arg_dat(o->p_q, -1, OP_ID, 4, "double", OP_READ),
              op_arg_dat(o->p_qold, -1, OP_ID, 4, "double", OP_WRITE));
  for (int k = 0; k < 2; k++) {
    op_par_loop(adt_calc, "adt_calc", o->cells,
                op_arg_dat(o->p_x, 0, o->pcell, 2, "double", OP_READ),
                op_arg_dat(o->p_x, 1, o->pcell, 2, "double", OP_READ),
                op_arg_dat(o->p_x, 2, o->pcell, 2, "double", OP_READ),
                op_arg_dat(o->p_x, 3, o->pcell, 2, "double", OP_READ),
                op_arg_dat(o->p_q, -1, OP_ID, 4, "double", OP_READ),
                op_arg_dat(o->p_adt, -1, OP_ID, 1, "double", OP_WRITE));
    op_par_loop(res_calc, "res_calc", o->edges,
                op_arg_dat(o->p_x, 0, o->pedge, 2, "double", OP_READ),
                op_arg_dat(o->p_x, 1, o->pedge, 2, "double", OP_READ),
                op_arg_dat(o->p_q, 0, o->pecell, 4, "double", OP_READ),
                op_arg_dat(o->p_q, 1, o->pecell, 4, "double", OP_READ),
                op_arg_dat(o->p_adt, 0, o->pecell, 1, "double", OP_READ),
                op_arg_dat(o->p_adt, 1, o->pecell, 1, "double", OP_READ),
                op_arg_dat(o->p_res, 0, o->pecell, 4, "double", OP_INC),
                op_arg_dat(o->p_res, 1, o->pecell, 4, "double", OP_INC));
    op_par_loop(bres_calc, "bres_calc", o->bedges,
                op_arg_dat(o->p_x, 0, o->pbedge, 2, "double", OP_READ),
                op_arg_dat(o->p_x, 1, o->pbedge, 2, "double", OP_READ),
                op_arg_dat(o->p_q, 0, o->pbecell, 4, "double", OP_READ),
                op_arg_dat(o->p_adt, 0, o->pbecell, 1, "double", OP_READ),
                op_arg_dat(o->p_res, 0, o->pbecell, 4, "double", OP_INC),
                op_arg_dat(o->p_bound, -1, OP_ID, 1, "int", OP_READ));
    rms = 0.0;
    op_par_loop(update, "update", o->cells,
                op_arg_dat(o->p_qold, -1, OP_ID, 4, "double", OP_READ),
                op_arg_dat(o->p_q, -1, OP_ID, 4, "double", OP_WRITE),
                op_arg_dat(o->p_res, -1, OP_ID, 4, "double", OP_RW),
                op_arg_dat(o->p_adt, -1, OP_ID, 1, "double", OP_READ),
                op_arg_gbl(&rms, 1, "double", OP_INC));
  }
  return rms;
}

/* Writes the mesh and q (OP2 layout) with an XDMF description beside it. */
static void write_solution(const char *outdir, const airfoil_mesh_op2 *o) {
  char path[4096], tmp[4200], err[1024];
  snprintf(path, sizeof path, "%s/q.h5", outdir);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  remove(tmp);
  if (op_hdf5_write_set(tmp, o->nodes, err, sizeof err) != 0 ||
      op_hdf5_write_set(tmp, o->cells, err, sizeof err) != 0 ||
      op_hdf5_write_map(tmp, o->pcell, err, sizeof err) != 0 ||
      op_hdf5_write_dat(tmp, o->p_x, err, sizeof err) != 0 ||
      op_hdf5_write_dat(tmp, o->p_q, err, sizeof err) != 0) {
    fprintf(stderr, "airfoil: %s\n", err);
    exit(2);
  }
  if (rename(tmp, path) != 0) {
    fprintf(stderr, "airfoil: cannot rename %s to %s: %s\n", tmp, path, strerror(errno));
    exit(2);
  }
  op_dat cell_dats[1] = {o->p_q};
  op_xdmf_mesh xm = {o->pcell, o->p_x, cell_dats, 1, NULL, 0, NULL};
  if (op_xdmf_write(path, &xm, err, sizeof err) != 0) {
    fprintf(stderr, "airfoil: %s\n", err);
    exit(2);
  }
}

/* The state between iterations is q alone (qold, adt and res are rebuilt by
 * the next iteration), plus the iteration count. */
static void write_checkpoint(const char *outdir, const airfoil_mesh_op2 *o, int iteration) {
  char path[4096], err[1024];
  snprintf(path, sizeof path, "%s/checkpoint.h5", outdir);
  const char *names[1] = {"iteration"};
  double values[1] = {(double)iteration};
  op_dat dats[1] = {o->p_q};
  if (op_checkpoint_write(path, dats, 1, names, values, 1, err, sizeof err) != 0) {
    fprintf(stderr, "airfoil: %s\n", err);
    exit(2);
  }
}

static int read_checkpoint(const char *path, const airfoil_mesh_op2 *o) {
  char err[1024];
  const char *names[1] = {"iteration"};
  double values[1];
  op_dat dats[1] = {o->p_q};
  if (op_checkpoint_read(path, dats, 1, names, values, 1, err, sizeof err) != 0) {
    fprintf(stderr, "airfoil: restart: %s\n", err);
    exit(2);
  }
  return (int)values[0];
}

/* Keeps the rows of an earlier history up to `iteration` (a killed run may
 * have written rows past its last checkpoint) and reopens it for appending. */
static FILE *resume_history(const char *path, int iteration) {
  FILE *in = fopen(path, "r");
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *out = fopen(tmp, "w");
  if (!out) return NULL;
  fprintf(out, "iteration,rms\n");
  if (in) {
    char line[256];
    while (fgets(line, sizeof line, in)) {
      int it;
      if (sscanf(line, "%d,", &it) == 1 && it <= iteration) fputs(line, out);
    }
    fclose(in);
  }
  if (fclose(out) != 0 || rename(tmp, path) != 0) return NULL;
  return fopen(path, "a");
}

static void fail_io(const char *what, const char *path) {
  fprintf(stderr, "airfoil: cannot %s %s: %s\n", what, path, strerror(errno));
  exit(2);
}

typedef struct {
  const deck *d;
  int iterations_done;
  double final_rms, wall_iterations, wall_total;
  const solver_verdicts *verdicts;
  long ncell;
} result_ctx;

static void fill_result(FILE *f, void *vctx) {
  const result_ctx *c = vctx;
  json_writer w;
  solver_result_begin(&w, f, "airfoil", c->d);
  json_kv_int(&w, "cells", c->ncell);
  json_kv_int(&w, "iterations", c->iterations_done);
  json_kv_number(&w, "final_rms", c->final_rms);
  json_kv_number(&w, "wall_seconds_iterations", c->wall_iterations);
  json_kv_number(&w, "wall_seconds_total", c->wall_total);
  solver_result_end(&w, c->verdicts);
}

int main(int argc, char **argv) {
  double t_start = op_wtime();
  op_init_strip_options(&argc, argv, 0);
  deck *d = deck_new("airfoil", keys, NKEYS);
  if (!d) return 2;
  char err[2048];
  int rc = deck_parse_args(d, argc, argv, err, sizeof err);
  if (rc == DECK_HELP) {
    printf("\nOP2 options:\n%s", op_usage_text());
    return 0;
  }
  if (rc == DECK_ERROR) {
    fprintf(stderr, "airfoil: %s\n", err);
    return 2;
  }

  const char *outdir = deck_string(d, "output_dir");
  if (make_dirs(outdir) != 0) fail_io("create directory", outdir);

  airfoil_mesh mesh;
  memset(&mesh, 0, sizeof mesh);
  airfoil_mesh_op2 o;
  const char *mesh_path = deck_string(d, "mesh");
  if (ends_with(mesh_path, ".h5"))
    declare_from_hdf5(mesh_path, &o);
  else
    declare_from_ascii(d, &mesh, &o);
  int ncell = o.cells->size;
  o.p_q = op_decl_dat_temp(o.cells, 4, "double", "p_q");
  o.p_qold = op_decl_dat_temp(o.cells, 4, "double", "p_qold");
  o.p_adt = op_decl_dat_temp(o.cells, 1, "double", "p_adt");
  o.p_res = op_decl_dat_temp(o.cells, 4, "double", "p_res");

  set_constants();
  double *q = op_fetch_data_ptr(o.p_q);
  for (int n = 0; n < ncell; n++)
    for (int m = 0; m < 4; m++) q[4 * n + m] = qinf[m];
  op_host_data_changed(o.p_q);

  printf("airfoil: %d nodes, %d cells, %d edges, %d boundary edges; backend %s, %d thread(s), "
         "part size %d\n",
         o.nodes->size, ncell, o.edges->size, o.bedges->size, op_backend_name(), op_num_threads(),
         op_part_size());
  if (op_diags_level() > 0) op_diagnostic_output();

  int first_iter = 1;
  const char *restart = deck_string(d, "restart");
  if (restart[0]) {
    first_iter = read_checkpoint(restart, &o) + 1;
    printf("restarting from %s after iteration %d\n", restart, first_iter - 1);
  }

  char history_path[4096];
  snprintf(history_path, sizeof history_path, "%s/history.csv", outdir);
  FILE *history;
  if (first_iter > 1) {
    history = resume_history(history_path, first_iter - 1);
  } else {
    history = fopen(history_path, "w");
    if (history) fprintf(history, "iteration,rms\n");
  }
  if (!history) fail_io("open", history_path);

  const int niter = deck_int(d, "iterations"), every = deck_int(d, "print_every");
  const int ckpt_every = deck_int(d, "checkpoint_every");
  printf("%10s  %s\n", "iteration", "rms");
  double t0 = op_wtime(), rms = 0.0;
  int done = first_iter - 1;
  solver_interrupt_install("airfoil");
  for (int iter = first_iter; iter <= niter; iter++) {
    rms = sqrt(iterate(&o) / ncell);
    done = iter;
    fprintf(history, "%d,%.16e\n", iter, rms);
    if (iter % every == 0 || iter == niter) {
      printf("%10d  %10.5e\n", iter, rms);
      fflush(stdout);
      fflush(history);
    }
    if (ckpt_every > 0 && iter % ckpt_every == 0) {
      fflush(history);
      write_checkpoint(outdir, &o, iter);
    }
    if (!isfinite(rms)) {
      fprintf(stderr, "airfoil: the rms residual is not finite at iteration %d; stopping\n", iter);
      break;
    }
    if (solver_interrupted() && iter < niter) {
      /* Stopped from outside: keep what is done, resumable where checkpoints are on. */
      fflush(history);
      if (ckpt_every > 0 && iter % ckpt_every != 0) write_checkpoint(outdir, &o, iter);
      printf("%10d  %10.5e  (stopped here)\n", iter, rms);
      break;
    }
  }
  double wall_iterations = op_wtime() - t0;
  if (fclose(history) != 0) fail_io("write", history_path);

  if (deck_bool(d, "write_solution")) write_solution(outdir, &o);

  solver_verdicts verdicts;
  solver_verdicts_init(&verdicts);
  solver_verdict_add(&verdicts, "completed", done == niter, "%d of %d iterations", done, niter);
  solver_interrupt_verdict(&verdicts, "iteration %d of %d", done, niter);
  int iterations_run = done - first_iter + 1;
  solver_verdict_add(&verdicts, "finite_residual", isfinite(rms), "final rms %.16e", rms);
  if (ncell == STANDARD_NCELL && niter == STANDARD_ITERATIONS) {
    double rel = fabs(rms / STANDARD_RMS - 1.0);
    solver_verdict_add(&verdicts, "standard_run_rms", rel <= STANDARD_RMS_RTOL,
                       "rms %.13e vs the reference %.13e: relative difference %.2e (limit %.0e)",
                       rms, STANDARD_RMS, rel, STANDARD_RMS_RTOL);
  }

  printf("\nairfoil: %d iterations in %.3f s (%.3f ms per iteration)\n", iterations_run,
         wall_iterations, iterations_run > 0 ? 1e3 * wall_iterations / iterations_run : 0.0);
  op_timing_output();
  solver_verdicts_print(&verdicts, stdout);

  result_ctx ctx = {d, done, rms, wall_iterations, op_wtime() - t_start, &verdicts, ncell};
  if (solver_result_write(outdir, fill_result, &ctx, err, sizeof err) != 0) {
    fprintf(stderr, "airfoil: %s\n", err);
    return 2;
  }
  printf("results in %s (history.csv, %sresult.json)\n", outdir,
         deck_bool(d, "write_solution") ? "q.h5, q.xmf, " : "");
  const int status = solver_exit_status(&verdicts);
  op_exit();
  airfoil_mesh_free(&mesh);
  deck_free(d);
  return status;
}
