/*
 * jacobi - edge-based Jacobi iteration on the OP2 library (docs/jacobi.md,
 * Giles, "OPlus2 for many-core platforms", 2010, section 5): A'·u + r' = 0
 * solved by u <- u + (A'·u + r'), two parallel loops per iteration:
 *   res     over edges: du[p1] += A'[e] * u[p2]   (u read through p2, du
 *           incremented through p1);
 *   update  over nodes: u += du + r'; du = 0; reductions of the squared change,
 *           of u^2 and of max |u|.
 * Problems: the OP2 jac Laplacian, the dense diagonally dominant system of
 * Mattson et al., "Programming your GPU with OpenMP", a Matrix Market file
 * (docs/jacobi.md).
 *
 *   jacobi_<backend> [DECK] [key=value ...] [--op-... options]
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "deck.h"
#include "jacobi_system.h"
#include "op2.h"
#include "op_hdf5.h"
#include "op_xdmf.h"
#include "result_json.h"
#include "op_text.h"
#include "solver_interrupt.h"
#include "solver_limits.h"
#include "solver_main.h"
#include "solver_output.h"
#include "solver_renumber.h"
#include "solver_pace.h"
#include "solver_result.h"
#include "solver_verdict.h"

/* The iterations the run will take, for its progress lines: at the rate the
 * update norm fell since iteration ref (norm ref_norm) it reaches the
 * tolerance after log(tol / norm) / log(rate) more (Jacobi's error falls
 * geometrically, by the iteration matrix's spectral radius, once the other
 * modes have died out). Written "~N" as an estimate; "N" (max_iters) for a
 * fixed count (tol = 0), "N at most" while the norm has not fallen. */
static int expected_iterations(int iter, double norm, int ref, double ref_norm, double tol,
                               int max_iters, char *text, size_t len) {
  double total = max_iters;
  int estimate = 0;
  if (tol > 0.0 && ref > 0 && iter > ref && norm > 0.0 && ref_norm > norm) {
    const double log_rate = log(norm / ref_norm) / (iter - ref);
    const double more = log(tol / norm) / log_rate;
    if (isfinite(more) && iter + more < max_iters) {
      total = more > 0.0 ? ceil(iter + more) : iter;
      estimate = 1;
    }
  }
  snprintf(text, len, "%s%.0f%s", estimate ? "~" : "", total,
           estimate || tol == 0.0 ? "" : " at most");
  return (int)total;
}

static const deck_key keys[] = {
    {"problem", DECK_CHOICE, "jac", 0, 0, "jac|dense|mtx",
     "jac: the OP2 jac Laplacian; dense: the dense diagonally dominant system of Mattson et al.; "
     "mtx: a Matrix Market file. On many processes dense and mtx have no coordinates, so "
     "--op-partition=RCB refuses them (PTSCOTCH and BLOCK split every problem)"},
    {"nn", DECK_INT, "6", 2, 20000, NULL, "jac: grid intervals per side, (nn-1)^2 unknowns"},
    {"ndim", DECK_INT, "4096", 1, 46340, NULL, "dense: unknowns (Ndim); Ndim^2 edges"},
    {"seed", DECK_INT, "1", 0, 2147483647, NULL,
     "dense matrix and random right-hand sides: seed of the generator (docs/jacobi.md)"},
    {"matrix", DECK_STRING, "", 0, 0, DECK_INPUT_FILE,
     "mtx: Matrix Market file (coordinate, real, general or symmetric)"},
    {"rhs", DECK_STRING, "random", 0, 0, DECK_INPUT_FILE,
     "dense, mtx: right-hand side b: random (uniform [0,1) from seed), ones, from_solution "
     "(b = A*1: solution 1) or a file (one value per line, or Matrix Market array)"},
    {"tolerance", DECK_REAL, "1e-12", 0, INFINITY, NULL,
     "stop when the 2-norm of the update falls to this; 0: run exactly max_iters iterations"},
    {"max_iters", DECK_INT, "100000", 1, 1e9, NULL,
     "iteration limit (not converged by then: exit 1)"},
    {"print_every", DECK_INT, "100", 1, 1e9, NULL,
     "print the update norm every N iterations (jac prints every iteration)"},
    {"output_dir", DECK_STRING, "outputs/jacobi", 0, 0, NULL,
     "directory for history.csv, u.h5 (with u.xmf and grid.h5, for ParaView) and result.json"},
    {"write_solution", DECK_BOOL, "yes", 0, 0, NULL, "write the final u to output_dir/u.h5"},
    {"renumber", DECK_CHOICE, "auto", 0, 0, "auto|yes|no",
     "mtx: renumber the unknowns for locality before the first loop (op_renumber: reverse "
     "Cuthill-McKee on the matrix graph, the nonzeros after them): yes always, auto when it "
     "brings the nonzeros' unknowns nearer (the mean step bits fall by at least 1.5; a "
     "well-ordered matrix is kept as it is), no never; u.h5 keeps the file's numbering. jac "
     "and dense are generated in their best order and never renumbered; on the MPI "
     "executables nothing (each process keeps the partition's order)"},
    SOLVER_LIMIT_KEYS,
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

enum { PROBLEM_JAC, PROBLEM_DENSE, PROBLEM_MTX };

/* renumber=auto renumbers when the map's mean step bits fall by at least this much. Lower
 * than airfoil's 4: a matrix file's nonzeros form no runs for renumbering to lose, and
 * reverse Cuthill-McKee was as fast or faster in every order measured (a 600 x 600 grid's
 * Laplacian in its row order gains 1.9 bits and runs res 1.1x faster; in a random order it
 * gains 3.8 bits, 2x faster: docs/performance.md, "Renumbering from any order"). */
#define RENUMBER_MIN_GAIN_BITS 1.5

static void fail(const char *err) {
  fprintf(stderr, "jacobi: %s\n", err);
  exit(2);
}

/* u.xmf (with grid.h5, its cells), so that ParaView opens u.h5 as a picture:
 * for jac, the m x m unknowns of the grid (m = NN - 1 a side, spacing
 * 1 / NN) each as the square cell around its point, u a cell value; for the
 * matrices, which have no geometry, a strip of cells along x, one per
 * unknown in order, a sixteenth of its length high so that it shows as a
 * band. */
static void write_xdmf(const solver_output *out, int is_jac, int nn, int n, op_dat u,
                       const char *upath) {
  char gpath[4400], err[OP_IO_ERRLEN];
  snprintf(gpath, sizeof gpath, "%s/grid.h5", out->staging);
  const op_dat dats[1] = {u};
  op_xdmf_grid g = {n, 1, 0.0, 0.0, 1.0, ceil(n / 16.0), dats, 1, gpath};
  if (is_jac) {
    const double h = 1.0 / nn;
    g = (op_xdmf_grid){nn - 1, nn - 1, 0.5 * h, 0.5 * h, h, h, dats, 1, gpath};
  }
  const double nodes = (g.nx + 1.0) * (g.ny + 1.0);
  if (solver_output_reserve(out, 32.0 * nodes + 16384.0, "grid.h5", err, sizeof err) != 0 ||
      op_xdmf_write_grid_mesh(gpath, &g, err, sizeof err) != OP_IO_OK ||
      op_xdmf_write_grid(upath, &g, err, sizeof err) != OP_IO_OK)
    fail(err);
}

/* Bytes of a history row "%d,%.17g,%.17g,%.17g": at most about 90. */
#define HISTORY_ROW 90.0

/* What a run needs, from the sizes in the deck (measured: the peak RSS of
 * jac NN = 2001, 4e6 unknowns and 2e7 edges, is 480 MB, 24 bytes per edge;
 * dense Ndim = 2000, 18 bytes per edge; docs/jacobi.md): 25 bytes per edge and
 * 50 per unknown. A Matrix Market file: its entries take at least 6 bytes
 * each in the file and about 60 in memory while read and sorted, so 10 times
 * the file's size. Outputs: the history (max_iters rows at most), u.h5. */
static void estimate(const deck *d, int problem, solver_estimate *e) {
  double n = 0.0, nedge = 0.0, file = 0.0;
  if (problem == PROBLEM_JAC) {
    double m = deck_int(d, "nn") - 1.0;
    n = m * m;
    nedge = n + 4.0 * m * (m - 1.0);
  } else if (problem == PROBLEM_DENSE) {
    n = deck_int(d, "ndim");
    nedge = n * n;
  } else {
    struct stat st;
    if (stat(deck_string(d, "matrix"), &st) == 0) file = (double)st.st_size;
    n = file / 6.0;
  }
  e->memory_bytes = problem == PROBLEM_MTX ? 10.0 * file : 25.0 * nedge + 50.0 * n;
  if (problem == PROBLEM_MTX)
    snprintf(e->memory_detail, sizeof e->memory_detail, "a Matrix Market file of %.0f bytes, "
             "about 10 bytes in memory per byte", file);
  else
    snprintf(e->memory_detail, sizeof e->memory_detail,
             "%.0f unknowns and %.0f edges, about 25 bytes per edge", n, nedge);
  double history = HISTORY_ROW * deck_int(d, "max_iters");
  /* u.h5, and grid.h5 for u.xmf: 32 bytes a node of its cells at most (n + 1 nodes a
   * side for jac's n cells, 2 (n + 1) for a strip). */
  double u = deck_bool(d, "write_solution") ? 8.0 * n + 32.0 * 2.0 * (n + 1.0) + 32768.0 : 0.0;
  e->output_bytes = history + u + 65536.0;
  snprintf(e->output_detail, sizeof e->output_detail,
           "history.csv up to %.0f MB for max_iters rows, u.h5 %.0f MB", history / 1e6, u / 1e6);
}

typedef struct {
  double norm;   /* 2-norm of the last update */
  double u_max;  /* max |u| */
  double u_rms;  /* sqrt(sum u^2 / n) */
} iterate_stats;

/* What the run found, for the verdicts and result.json. */
typedef struct {
  const deck *d;
  const jacobi_system *s;
  const char *problem;
  int iterations, converged, fixed_count;
  double tolerance;
  iterate_stats last;
  double residual, residual_b;  /* ||b - A u||_2 and ||b||_2 */
  double max_error;             /* max |u - 1| when the solution is known, else NAN */
  double error_bound;           /* what the theory allows for it, or NAN */
  double wall_setup, wall_iterations, wall_total;
  const solver_verdicts *verdicts;
  int renumbered;
} run_result;

static void fill_result(FILE *f, void *vctx) {
  const run_result *c = vctx;
  json_writer w;
  solver_result_begin(&w, f, "jacobi", c->d);
  json_kv_string(&w, "problem", c->problem);
  json_key(&w, "system");
  json_begin_object(&w);
  json_kv_string(&w, "summary", c->s->summary);
  json_kv_int(&w, "unknowns", c->s->n_total);
  json_kv_int(&w, "edges", c->s->nedge_total);
  json_kv_bool(&w, "renumbered", c->renumbered);
  json_kv_number(&w, "offdiag_ratio", c->s->offdiag_ratio);
  json_kv_bool(&w, "exact_solution_ones", c->s->exact_ones);
  json_end_object(&w);
  json_kv_int(&w, "iterations", c->iterations);
  json_kv_bool(&w, "fixed_iteration_count", c->fixed_count);
  json_kv_number(&w, "tolerance", c->tolerance);
  json_kv_bool(&w, "converged", c->converged);
  json_kv_number(&w, "final_update_norm", c->last.norm);
  json_kv_number(&w, "u_max", c->last.u_max);
  json_kv_number(&w, "u_rms", c->last.u_rms);
  json_kv_number(&w, "residual_norm", c->residual);
  json_kv_number(&w, "relative_residual",
                 c->residual_b > 0.0 ? c->residual / c->residual_b : c->residual);
  json_kv_number(&w, "max_error_vs_ones", c->max_error);
  json_kv_number(&w, "error_bound", c->error_bound);
  json_kv_number(&w, "wall_seconds_setup", c->wall_setup);
  json_kv_number(&w, "wall_seconds_iterations", c->wall_iterations);
  json_kv_number(&w, "seconds_per_iteration",
                 c->iterations ? c->wall_iterations / c->iterations : 0.0);
  const solver_wall wall = {c->wall_total, c->wall_iterations};
  solver_result_end(&w, c->verdicts, &wall);
}

/* The system's statistics over all processes (each built its rows'): the
 * largest row ratio, the first row reaching it, the longest row. */
static void combine_statistics(jacobi_system *s) {
  const double ratio = op_max_double(s->offdiag_ratio);
  s->offdiag_row = s->offdiag_ratio == ratio ? s->offdiag_row : INT_MAX;
  s->offdiag_row = -op_max_int(-s->offdiag_row);
  s->offdiag_ratio = ratio;
  s->max_row_len = op_max_int(s->max_row_len);
}

/* An a-posteriori bound on max |u - u*| for a known solution u* (docs/jacobi.md),
 * with rmax = max |r'|:
 * with G the iteration matrix and ||G|| < 1 in some norm,
 *   ||u_k - u*|| <= (||G|| ||u_k - u_(k-1)|| + ||delta||) / (1 - ||G||),
 * where delta bounds the rounding of one step. jac: G is symmetric with
 * ||G||_2 = cos(pi/NN); otherwise ||G||_inf = max row sum of |A'_ij|, j != i,
 * when it is below 1. Returns NAN when no bound is known. */
static double error_bound(const jacobi_system *s, int is_jac, int nn, double update_norm,
                          double u_max, double rmax) {
  double g;
  double sum_terms;
  if (is_jac) {
    g = cos(acos(-1.0) / nn);
    sum_terms = (1.0 + 1.0) * fmax(u_max, 1.0) + rmax;
  } else if (s->offdiag_ratio < 1.0) {
    g = s->offdiag_ratio;
    sum_terms = (1.0 + g) * fmax(u_max, 1.0) + rmax;
  } else {
    return NAN;
  }
  /* Rounding of one step: a sum of max_row_len + 2 terms, and of b = A·1. */
  double delta = 2.0 * (s->max_row_len + 2) * DBL_EPSILON * sum_terms;
  if (is_jac) delta *= sqrt((double)s->n_total); /* the 2-norm of a vector of such errors */
  return (g * update_norm + delta) / (1.0 - g);
}

/* The jac grid's unknowns as points, for RCB (jacobi_system.h's numbering:
 * node (i-1)(nn-1) + (j-1) is grid point (i, j)). */
static void jac_points(int first, int count, double *xy, void *ctx) {
  const int m = *(const int *)ctx - 1;
  for (int k = 0; k < count; k++) {
    xy[2 * k] = (first + k) / m + 1;
    xy[2 * k + 1] = (first + k) % m + 1;
  }
}

/* What the run reads, and the names of what it writes into output_dir. */
static void declare_files(const deck *d, int problem, solver_io *io) {
  solver_io_init(io);
  if (problem == PROBLEM_MTX) solver_io_input(io, "matrix", deck_string(d, "matrix"), NULL);
  if (problem != PROBLEM_JAC && jacobi_rhs_is_file(deck_string(d, "rhs")))
    solver_io_input(io, "right-hand side", deck_string(d, "rhs"), NULL);
  solver_io_output(io, "history.csv");
  if (deck_bool(d, "write_solution")) {
    solver_io_output(io, "u.h5");
    solver_io_output(io, "u.xmf");
    solver_io_output(io, "grid.h5");
  }
}

/* Each problem takes its size from one place: nn (jac), ndim (dense), the
 * matrix file (mtx). The effective parameters list every key, so a size
 * that does not apply is said to be unused: always for the matrix file,
 * whose size no key sets (nn = 6 and ndim = 4096 are printed as defaults),
 * and for the other problems when the key was given. */
static void report_unused_sizes(const deck *d, int problem, int unknowns) {
  if (problem == PROBLEM_MTX) {
    char shown[OP_TEXT_SHOWN];
    op_printf(
        "jacobi: nn, ndim: not used: the size is the matrix file's, %s (%d unknowns "
        "read)\n",
        op_text_shown(shown, sizeof shown, deck_string(d, "matrix")), unknowns);
    return;
  }
  const char *other = problem == PROBLEM_JAC ? "ndim" : "nn";
  if (strcmp(deck_origin(d, other), "default") != 0)
    op_printf("jacobi: %s (%s): not used: problem %s has %d unknowns from %s\n", other,
              deck_origin(d, other), deck_string(d, "problem"), unknowns,
              problem == PROBLEM_JAC ? "nn" : "ndim");
}

int main(int argc, char **argv) {
  const double t_start = op_wtime();
  int status;
  deck *d = solver_main_start("jacobi", keys, NKEYS, &argc, argv, &status);
  if (!d) return status;
  char err[4096];
  int rc;
  const int problem = deck_choice(d, "problem");
  const char *problem_name = deck_string(d, "problem");
  const char *rhs = deck_string(d, "rhs");
  const uint64_t seed = (uint64_t)deck_int(d, "seed");
  const double tol = deck_real(d, "tolerance");
  const int max_iters = deck_int(d, "max_iters"), every = deck_int(d, "print_every");
  const int nn = deck_int(d, "nn");
  const int is_jac = problem == PROBLEM_JAC;

  /* Before any work: a partitioner that splits by coordinates has none to
   * split a dense or Matrix Market system by (the jac grid has its own). */
  if (!is_jac && op_partition_needs_coords("PTSCOTCH", "KWAY")) {
    snprintf(err, sizeof err,
             "problem %s has no coordinates: RCB (--op-partition=RCB) splits a mesh by its "
             "coordinates; use --op-partition=PTSCOTCH or BLOCK",
             problem_name);
    fail(err);
  }

  solver_output out;
  solver_estimate need;
  estimate(d, problem, &need);
  solver_io io;
  declare_files(d, problem, &io);
  if (solver_main_outputs(&out, "jacobi", d, &io, &need, err, sizeof err) != 0) fail(err);

  solver_progress setup;
  solver_progress_begin(&setup, "jacobi", "building the system");
  jacobi_set_progress(solver_progress_callback, &setup);
  /* Each process builds its rows of the system (all of them on one). */
  jacobi_system s;
  const int P = op_num_procs(), rank = op_rank();
  if (is_jac) {
    if (strcmp(deck_origin(d, "rhs"), "default") != 0)
      printf("jacobi: note: key 'rhs' (%s) does not apply to problem jac, whose r' comes from "
             "the boundary; ignored\n",
             deck_origin(d, "rhs"));
    rc = jacobi_build_jac(nn, P, rank, &s, err, sizeof err);
  } else if (problem == PROBLEM_DENSE) {
    rc = jacobi_build_dense(deck_int(d, "ndim"), seed, rhs, P, rank, &s, err, sizeof err);
  } else {
    rc = jacobi_build_mtx(deck_string(d, "matrix"), rhs, seed, P, rank, &s, err, sizeof err);
  }
  jacobi_set_progress(NULL, NULL);
  if (rc != 0) fail(err);
  solver_progress_end(&setup);
  report_unused_sizes(d, problem, s.n_total);

  op_set nodes = op_decl_set(s.n, "nodes");
  op_set edges = op_decl_set(s.nedge, "edges");
  op_map pedge = op_decl_map(edges, nodes, 2, s.pedge, "pedge");
  op_dat p_A = op_decl_dat(edges, 1, "double", s.a, "A");
  op_dat p_r = op_decl_dat(nodes, 1, "double", s.r, "r");
  op_dat p_diag = op_decl_dat(nodes, 1, "double", s.diag, "diag");
  jacobi_system_free_arrays(&s); /* copied by the declarations */
  op_dat p_u = op_decl_dat_temp(nodes, 1, "double", "u");
  op_dat p_du = op_decl_dat_temp(nodes, 1, "double", "du");
  combine_statistics(&s);
  jacobi_system_describe(&s, op_get_size(edges), op_max_int(s.duplicates > 0));
  /* A Matrix Market file comes in whatever order its author's tool wrote (jac and dense are
   * generated in their best order). On the MPI executables a no-op (docs/op2-library.md). */
  int renumbered = 0;
  if (problem == PROBLEM_MTX && strcmp(deck_string(d, "renumber"), "no") != 0) {
    const double t0 = op_wtime();
    op_renumber_result r;
    const int always = !strcmp(deck_string(d, "renumber"), "yes");
    renumbered = op_renumber_if(pedge, always ? -HUGE_VAL : RENUMBER_MIN_GAIN_BITS, &r);
    solver_renumber_report("jacobi", deck_string(d, "renumber"), "the matrix's order", renumbered,
                           &r, RENUMBER_MIN_GAIN_BITS, op_wtime() - t0);
  }
  /* Many processes: the unknowns split by PT-Scotch on the matrix graph (or
   * RCB on the jac grid's points, or blocks of edges). */
  if (is_jac) {
    int grid_n = nn;
    const op_mesh_geometry geo = {nodes, 2, jac_points, 0, NULL, &grid_n};
    op_partition_geometry("PTSCOTCH", "KWAY", edges, pedge, &geo);
  } else {
    op_partition("PTSCOTCH", "KWAY", edges, pedge, NULL);
  }

  printf("jacobi: %s\n", s.summary);
  printf("jacobi: backend %s, %d thread(s), part size %d; tolerance %g, at most %d iterations\n",
         op_backend_name(), op_num_threads(), op_part_size(), tol, max_iters);
  if (!is_jac && s.offdiag_ratio >= 1.0)
    printf("jacobi: note: the matrix is not strictly diagonally dominant by rows (row %d: "
           "sum |A_ij| / |A_ii| over j != i = %.6g >= 1); Jacobi may not converge\n",
           s.offdiag_row + 1, s.offdiag_ratio);
  if (op_diags_level() > 0) op_diagnostic_output();

  char history_path[4400];
  snprintf(history_path, sizeof history_path, "%s/history.csv", out.staging);
  /* The root writes it; on many processes the others' rows go to /dev/null. */
  FILE *history = fopen(op_is_root() ? history_path : "/dev/null", "w");
  if (!history) solver_fail_io("jacobi", "open", history_path);
  fprintf(history, "iteration,update_norm,u_max,u_rms\n");

  if (is_jac)
    printf("%6s  %-11s  %-11s  %s\n", "iter", "max|u|", "rms(u)", "update norm");
  else
    printf("%8s  %s\n", "iter", "update norm");
  const double wall_setup = op_wtime() - t_start;
  double t0 = op_wtime();
  iterate_stats st = {NAN, 0.0, 0.0};
  int iter = 0, converged = 0, finite = 1;
  solver_pace pace;
  solver_pace_begin(&pace, solver_pace_now());
  char pace_text[96], total_text[32];
  int ref_iter = 0; /* the decay of the update norm is measured from here */
  double ref_norm = NAN;
  solver_interrupt_install("jacobi");
  while (iter < max_iters) {
    iter++;
    op_par_loop(res, "res", edges,
                op_arg_dat(p_A, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(p_u, 1, pedge, 1, "double", OP_READ),
                op_arg_dat(p_du, 0, pedge, 1, "double", OP_INC));
    double change_sq = 0.0, u_sq = 0.0, u_max = 0.0;
    op_par_loop(update, "update", nodes,
                op_arg_dat(p_r, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(p_du, -1, OP_ID, 1, "double", OP_RW),
                op_arg_dat(p_u, -1, OP_ID, 1, "double", OP_RW),
                op_arg_gbl(&change_sq, 1, "double", OP_INC),
                op_arg_gbl(&u_sq, 1, "double", OP_INC),
                op_arg_gbl(&u_max, 1, "double", OP_MAX));
    st.norm = sqrt(change_sq);
    st.u_max = u_max;
    st.u_rms = sqrt(u_sq / s.n_total);
    fprintf(history, "%d,%.17g,%.17g,%.17g\n", iter, st.norm, st.u_max, st.u_rms);
    finite = isfinite(st.norm) && isfinite(u_sq);
    converged = tol > 0.0 && st.norm <= tol;
    const int last = converged || !finite || iter == max_iters || solver_interrupted();
    const double now = solver_pace_now();
    const int line = is_jac || iter % every == 0 || last;
    if (line || solver_pace_due(&pace, SOLVER_PACE_QUIET, now)) {
      int total = iter;
      if (converged)
        snprintf(total_text, sizeof total_text, "%d", iter);
      else
        total = expected_iterations(iter, st.norm, ref_iter, ref_norm, tol, max_iters, total_text,
                                    sizeof total_text);
      solver_pace_text(&pace, (double)iter / total, now, pace_text, sizeof pace_text);
      if (is_jac)
        printf(" %5d  %10.5e  %10.5e  %10.5e  %d/%s, %s\n", iter, st.u_max, st.u_rms, st.norm,
               iter, total_text, pace_text);
      else if (line)
        printf("%8d  %10.5e  %d/%s, %s\n", iter, st.norm, iter, total_text, pace_text);
      else
        printf("jacobi: iteration %d/%s, update norm %.5e, %s\n", iter, total_text, st.norm,
               pace_text);
      fflush(stdout);
    }
    /* The decay is measured from the last line (from the first iteration
     * before any). */
    if ((line || iter == 1) && isfinite(st.norm) && st.norm > 0.0) {
      ref_iter = iter;
      ref_norm = st.norm;
    }
    /* A disk that fills up stops the run when it happens, not at the end. */
    if ((iter % every == 0 || last) && (fflush(history) != 0 || ferror(history)))
      solver_fail_io("jacobi", "write", history_path);
    if (last) break;
  }
  fflush(stdout);
  const double wall_iterations = op_wtime() - t0;
  if (fclose(history) != 0) solver_fail_io("jacobi", "write", history_path);
  if (!finite)
    fprintf(stderr, "jacobi: the update norm is not finite at iteration %d: the iteration "
                    "diverged; stopping\n", iter);

  /* ||b - A·u||_2 and ||b||_2 for the original system A·x = b, from the edge
   * form: b - A·u = D·(A'·u + r'), with A'·u gathered by res into du (zero
   * after the last update); and max |u - 1|. */
  op_par_loop(res, "residual_res", edges,
              op_arg_dat(p_A, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_u, 1, pedge, 1, "double", OP_READ),
              op_arg_dat(p_du, 0, pedge, 1, "double", OP_INC));
  double rr = 0.0, bb = 0.0, err_max = 0.0, r_max = 0.0;
  op_par_loop(residual, "residual", nodes,
              op_arg_dat(p_r, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_diag, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_du, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_u, -1, OP_ID, 1, "double", OP_READ),
              op_arg_gbl(&rr, 1, "double", OP_INC),
              op_arg_gbl(&bb, 1, "double", OP_INC),
              op_arg_gbl(&err_max, 1, "double", OP_MAX),
              op_arg_gbl(&r_max, 1, "double", OP_MAX));
  const double resid = sqrt(rr), bnorm = sqrt(bb);
  double max_error = NAN, bound = NAN;
  if (s.exact_ones) {
    max_error = err_max;
    bound = error_bound(&s, is_jac, nn, st.norm, st.u_max, r_max);
  }

  if (deck_bool(d, "write_solution")) {
    char upath[4400], tmp[4500];
    snprintf(upath, sizeof upath, "%s/u.h5", out.staging);
    snprintf(tmp, sizeof tmp, "%s.tmp", upath);
    if (solver_output_reserve(&out, 8.0 * s.n_total + 16384.0, "u.h5", err, sizeof err) != 0 ||
        op_hdf5_write_set(tmp, nodes, err, sizeof err) != 0 ||
        op_hdf5_write_dat(tmp, p_u, err, sizeof err) != 0)
      fail(err);
    if (op_is_root() && rename(tmp, upath) != 0) solver_fail_io("jacobi", "rename into place", upath);
    write_xdmf(&out, is_jac, nn, s.n_total, p_u, upath);
  }

  solver_verdicts verdicts;
  solver_verdicts_init(&verdicts);
  const int fixed = tol == 0.0;
  if (fixed)
    solver_verdict_add(&verdicts, "completed", iter, SOLVER_AT_LEAST, max_iters,
                       "%d of %d iterations (fixed count: tolerance = 0)", iter, max_iters);
  else
    solver_verdict_add(&verdicts, "converged", st.norm, SOLVER_AT_MOST, tol,
                       converged ? "update norm %.6e <= tolerance %g after %d iterations"
                                 : "update norm %.6e > tolerance %g after %d iterations",
                       st.norm, tol, iter);
  solver_verdict_add(&verdicts, "finite", finite ? 0 : 1, SOLVER_AT_MOST, 0,
                     "update norm %.6e, max |u| %.6e (value: 1 when not finite)", st.norm,
                     st.u_max);
  solver_interrupt_verdict(&verdicts, "iteration %d of at most %d", iter, max_iters);
  if (s.exact_ones && !isnan(bound))
    solver_verdict_add(&verdicts, "known_solution", max_error, SOLVER_AT_MOST, bound,
                       "max |u - 1| = %.3e <= a-posteriori bound %.3e (%s)", max_error, bound,
                       is_jac ? "||G||_2 = cos(pi/NN)" : "||G||_inf = max row ratio");

  printf("\njacobi: %d iterations in %.3f s (%.3f ms per iteration)\n", iter, wall_iterations,
         iter ? 1e3 * wall_iterations / iter : 0.0);
  if (tol > 0.0 && !converged && finite)
    fprintf(stderr, "jacobi: did not converge: update norm %.6e > tolerance %g after %d "
                    "iterations (max_iters)\n", st.norm, tol, iter);
  printf("jacobi: final update norm %.6e, max |u| %.6e, rms(u) %.6e\n", st.norm, st.u_max,
         st.u_rms);
  printf("jacobi: residual ||b - A u||_2 = %.6e (relative to ||b||_2: %.6e)\n", resid,
         bnorm > 0.0 ? resid / bnorm : resid);
  if (s.exact_ones) {
    printf("jacobi: max |u - 1| = %.6e", max_error);
    if (isnan(bound))
      printf(" (no a-posteriori bound: the matrix is not strictly diagonally dominant)\n");
    else
      printf(", a-posteriori bound %.6e\n", bound);
  }
  op_timing_output();
  solver_verdicts_print(&verdicts, stdout);

  run_result res = {d,          &s,        problem_name, iter,    converged,
                    fixed,      tol,       st,           resid,   bnorm,
                    max_error,  bound,     wall_setup,   wall_iterations,
                    op_wtime() - t_start,  &verdicts,    renumbered};
  status = solver_main_finish(&out, &verdicts, fill_result, &res,
                              deck_bool(d, "write_solution")
                                  ? "history.csv, u.h5, u.xmf, grid.h5, result.json"
                                  : "history.csv, result.json",
                              err, sizeof err);
  if (status < 0) fail(err);
  op_exit();
  jacobi_system_free(&s);
  deck_free(d);
  return status;
}
