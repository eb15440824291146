/*
 * airfoil - steady inviscid flow around a NACA0012 aerofoil at Mach 0.4: a
 * cell-centred finite-volume scheme with scalar artificial dissipation and
 * explicit pseudo-time marching (docs/airfoil.md), written once on the OP2
 * API and built for every backend.
 *
 *   airfoil_<backend> [DECK] [key=value ...] [--op-... options]
 */
#include <errno.h>
#include <limits.h>
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
#include "op_ppm.h"
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

/* The constants the kernels read (op_decl_const). The reference code assigns
 * single-precision literals to these doubles, and the residual history
 * depends on it: keep the float literals. */
double gam, gm1, cfl, eps, mach, alpha, qinf[4];

static const deck_key keys[] = {
    {"mesh", DECK_STRING, "meshes/data/new_grid.dat", 0, 0, DECK_INPUT_FILE,
     "ASCII mesh file (OP2 new_grid.dat format) or HDF5 mesh (.h5) in OP2's layout"},
    {"generate_mesh", DECK_BOOL, "yes", 0, 0, NULL,
     "generate the NACA0012 C-mesh (mesh_i x mesh_j) when the mesh file is missing"},
    {"mesh_i", DECK_INT, "400", AIRFOIL_MESH_MIN_I, 100000, NULL,
     "C-mesh parameter I when generating (standard 400; at least 3: the aerofoil needs a node "
     "inside its surface)"},
    {"mesh_j", DECK_INT, "600", AIRFOIL_MESH_MIN_J, 100000, NULL,
     "C-mesh parameter J when generating (standard 600)"},
    {"iterations", DECK_INT, "1000", 1, 1e9, NULL, "pseudo-time iterations"},
    {"print_every", DECK_INT, "100", 1, 1e9, NULL, "print the rms residual every N iterations"},
    {"output_dir", DECK_STRING, "outputs/airfoil", 0, 0, NULL,
     "directory for history.csv, q.h5 and result.json"},
    {"write_solution", DECK_BOOL, "yes", 0, 0, NULL,
     "write the mesh and the final q to output_dir/q.h5, with q.xmf for ParaView/VisIt"},
    {"renumber", DECK_CHOICE, "auto", 0, 0, "auto|yes|no",
     "renumber the mesh for locality before the first loop (op_renumber: cells in rows where "
     "they form one structured block, else by reverse Cuthill-McKee, the other sets after "
     "them): yes always, auto when it brings the maps' "
     "entries nearer (the mean step bits fall by at least 4; a well-ordered mesh is kept as "
     "it is), no never; files keep the mesh's own numbering; on the MPI executables nothing "
     "(each process keeps the partition's order)"},
    {"checkpoint_every", DECK_INT, "0", 0, 1e9, NULL,
     "write the state to output_dir/checkpoint.h5 every N iterations (0: never)"},
    {"restart", DECK_STRING, "", 0, 0, DECK_INPUT_FILE,
     "resume from this checkpoint file (written by checkpoint_every)"},
    {"image", DECK_CHOICE, "mach", 0, 0, "none|mach|pressure|density",
     "picture of this field around the aerofoil at the end (output_dir/<field>.ppm and .png)"},
    {"image_width", DECK_INT, "1000", 64, 8192, NULL, "width of the picture in pixels"},
    SOLVER_LIMIT_KEYS,
};
#define NKEYS ((int)(sizeof keys / sizeof keys[0]))

/* OP2's reference airfoil code checks its standard run (720000 cells, 1000
 * iterations) against this rms, to a relative 1e-7. */
/* renumber=auto renumbers when the maps' mean step bits fall by at least this much, jumps
 * through the data 16 times shorter: a random order gains 10 bits and more, while reverse
 * Cuthill-McKee gains 2.4 on the C-mesh's own order and is slower there (docs/performance.md,
 * "Renumbering from any order"). */
#define RENUMBER_MIN_GAIN_BITS 4.0
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

static void bad_input(const char *fmt, const char *detail) {
  char shown[OP_TEXT_SHOWN + 1024];
  fprintf(stderr, "airfoil: ");
  fprintf(stderr, fmt, op_text_shown(shown, sizeof shown, detail));
  fputc('\n', stderr);
  exit(2);
}

/* Generates the ASCII mesh when it is missing and allowed. */
static void ensure_ascii_mesh(const deck *d, const char *path) {
  char err[1024];
  solver_output_sweep_beside(path); /* a killed generation's temporary */
  if (!file_exists(path)) {
    if (!deck_bool(d, "generate_mesh"))
      bad_input("mesh file %s does not exist (set generate_mesh = yes to make it)", path);
    int ni = deck_int(d, "mesh_i"), nj = deck_int(d, "mesh_j");
    char shown[OP_TEXT_SHOWN];
    /* Written as it is generated, record by record: no array of the mesh is
     * held. On many processes the root writes it once, then every process
     * reads its slice. */
    printf("generating the NACA0012 C-mesh I=%d J=%d into %s%s\n", ni, nj,
           op_text_shown(shown, sizeof shown, path),
           op_num_procs() > 1 ? " (written once by the root as it is generated, holding no "
                                "mesh; then each process reads its slice)"
                              : "");
    fflush(stdout);
    char dir[4096];
    if (snprintf(dir, sizeof dir, "%s", path) >= (int)sizeof dir)
      bad_input("mesh file name too long: %s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
      *slash = '\0';
      if (make_dirs(dir) != 0) solver_fail_io("airfoil", "create the mesh's directory", dir);
    }
    /* Written beside and renamed: a run killed while writing never leaves a
     * half mesh under the name the next run reads. The temporary is this
     * process's own (two runs may make one mesh at once), removed if the run
     * is stopped before the rename. */
    char tmp[4400];
    if (!solver_output_temporary(path, tmp, sizeof tmp))
      bad_input("mesh file name too long: %s", path);
    const double t0 = op_wtime();
    if (airfoil_mesh_write_generated(tmp, ni, nj, err, sizeof err) != 0) bad_input("%s", err);
    if (rename(tmp, path) != 0) solver_fail_io("airfoil", "rename into place", tmp);
    char took[32];
    printf("airfoil: mesh generated and written in %s\n",
           solver_duration_text(op_wtime() - t0, took, sizeof took));
  }
}

/* Reads the ASCII mesh, generating it first when it is missing and allowed. */
static void load_ascii_mesh(const deck *d, const char *path, airfoil_mesh *m) {
  char err[1024];
  ensure_ascii_mesh(d, path);
  /* Always read back from the file: the six-decimal rounding of the
   * coordinates is part of the standard mesh. A large one takes seconds:
   * say so (the standard mesh, 73 MB, takes 0.2 s). */
  struct stat st;
  const int big = stat(path, &st) == 0 && st.st_size > (256 << 20);
  double t0 = op_wtime();
  if (big) {
    char shown[OP_TEXT_SHOWN];
    printf("airfoil: reading and checking the mesh %s (%.1f GB)...\n",
           op_text_shown(shown, sizeof shown, path), (double)st.st_size / 1e9);
    fflush(stdout);
  }
  if (airfoil_mesh_read_ascii(path, m, err, sizeof err) != 0) bad_input("%s", err);
  if (big) printf("airfoil: mesh read in %.1f s\n", op_wtime() - t0);
}

typedef struct {
  op_set nodes, edges, bedges, cells;
  op_map pedge, pecell, pbedge, pbecell, pcell;
  op_dat p_bound, p_x, p_q, p_qold, p_adt, p_res;
  op_dat density, momentum, energy, pressure, mach; /* flow_fields, for output */
} airfoil_mesh_op2;

/* Many processes: the root makes the file if it must, then each process
 * streams it keeping only its slice of every set (OP2's declarations on many
 * processes are per slice, in global numbers). */
static void read_ascii_slice(const deck *d, const char *path, airfoil_mesh *m) {
  if (op_is_root()) ensure_ascii_mesh(d, path);
  op_root_status(0); /* the file exists for every process */
  airfoil_mesh_slice sl;
  char err[1024];
  if (airfoil_mesh_read_ascii_slice(path, op_num_procs(), op_rank(), &sl, err, sizeof err) != 0)
    bad_input("%s", err);
  *m = sl.part;
}

static void declare_from_ascii(const deck *d, const char *path, airfoil_mesh *m,
                               airfoil_mesh_op2 *o) {
  if (op_num_procs() > 1)
    read_ascii_slice(d, path, m);
  else
    load_ascii_mesh(d, path, m);
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

/* OP2's readers return NULL for a dataset the file lacks (OP2's applications
 * probe for optional ones); every dataset of airfoil's mesh is required. */
static void *required(void *declared, const char *file, const char *name) {
  if (!declared) {
    char what[4400];
    snprintf(what, sizeof what, "HDF5 file '%s', dataset '%s'", file, name);
    bad_input("%s: dataset does not exist", what);
  }
  return declared;
}

/* The C-mesh parameters I, J whose generated mesh has exactly these counts
 * (nodes, cells, edges, boundary edges), or 0 when no I, J does: the
 * boundary edges, 4 I + 2 J, leave one J for each I. */
static int cmesh_parameters(const int counts[4], int *ni, int *nj) {
  for (int i = 3; 4LL * i < counts[3]; i++) {
    const int j = (counts[3] - 4 * i) / 2;
    int gen[4];
    char err[256];
    if (airfoil_mesh_counts(i, j, gen, err, sizeof err) == 0 && gen[0] == counts[0] &&
        gen[1] == counts[1] && gen[2] == counts[2] && gen[3] == counts[3]) {
      *ni = i;
      *nj = j;
      return 1;
    }
  }
  return 0;
}

/* Says which mesh runs when it was read rather than generated: mesh_i,
 * mesh_j and generate_mesh make a mesh only when the file is missing, so
 * their values (the defaults' 400 x 600 included) say nothing about this
 * run; the counts read, and the C-mesh they are, do. */
static void report_mesh_read(const char *path, const airfoil_mesh_op2 *o) {
  const int counts[4] = {op_get_size(o->nodes), op_get_size(o->cells), op_get_size(o->edges),
                         op_get_size(o->bedges)};
  char shown[OP_TEXT_SHOWN], what[96];
  int ni, nj;
  if (cmesh_parameters(counts, &ni, &nj))
    snprintf(what, sizeof what, "the C-mesh of I = %d, J = %d: ", ni, nj);
  else
    snprintf(what, sizeof what, "not a C-mesh of the generator: ");
  op_printf(
      "airfoil: mesh_i, mesh_j, generate_mesh: not used: the mesh %s exists (read: %s%d "
      "cells, %d nodes)\n",
      op_text_shown(shown, sizeof shown, path), what, counts[1], counts[0]);
}

static void declare_from_hdf5(const char *file, airfoil_mesh_op2 *o) {
  o->nodes = required(op_decl_set_hdf5(file, "nodes"), file, "nodes");
  o->edges = required(op_decl_set_hdf5(file, "edges"), file, "edges");
  o->bedges = required(op_decl_set_hdf5(file, "bedges"), file, "bedges");
  o->cells = required(op_decl_set_hdf5(file, "cells"), file, "cells");
  o->pedge = required(op_decl_map_hdf5(o->edges, o->nodes, 2, file, "pedge"), file, "pedge");
  o->pecell = required(op_decl_map_hdf5(o->edges, o->cells, 2, file, "pecell"), file, "pecell");
  o->pbedge = required(op_decl_map_hdf5(o->bedges, o->nodes, 2, file, "pbedge"), file, "pbedge");
  o->pbecell =
      required(op_decl_map_hdf5(o->bedges, o->cells, 1, file, "pbecell"), file, "pbecell");
  o->pcell = required(op_decl_map_hdf5(o->cells, o->nodes, 4, file, "pcell"), file, "pcell");
  o->p_bound =
      required(op_decl_dat_hdf5(o->bedges, 1, "int", file, "p_bound"), file, "p_bound");
  o->p_x = required(op_decl_dat_hdf5(o->nodes, 2, "double", file, "p_x"), file, "p_x");
  char err[1024];
  /* Many processes: each holds a slice, whose map entries the MPI layer
   * checks as it reads them; the counts (global: the same on every process)
   * now, the rest once the mesh is distributed (check_distributed_mesh). */
  if (op_num_procs() > 1) {
    if (airfoil_mesh_check_counts(op_get_size(o->nodes), op_get_size(o->cells),
                                  op_get_size(o->edges), op_get_size(o->bedges), file, err,
                                  sizeof err) != 0)
      bad_input("%s", err);
    return;
  }
  /* The same checks as the ASCII reader's, on the data as declared. */
  airfoil_mesh view = {o->nodes->size,
                       o->cells->size,
                       o->edges->size,
                       o->bedges->size,
                       op_fetch_data_ptr(o->p_x),
                       o->pcell->map,
                       o->pedge->map,
                       o->pecell->map,
                       o->pbedge->map,
                       o->pbecell->map,
                       op_fetch_data_ptr(o->p_bound)};
  if (airfoil_mesh_check(&view, file, err, sizeof err) != 0) bad_input("%s", err);
}

/* Many processes, after op_partition: every process checks its part (its
 * cells, the edges that touch them, with the halo's coordinates); of the
 * faults found, the first in the checker's order, the one a run on one
 * process reports, is printed by the one process that found it, and the job
 * ends with status 2 (docs/errors.md). Collective. */
static void check_distributed_mesh(const airfoil_mesh_op2 *o, const char *file) {
  if (op_num_procs() == 1) return; /* checked as it was read */
  const op_set nodes = o->nodes, cells = o->cells, edges = o->edges, bedges = o->bedges;
  airfoil_mesh view = {nodes->size + nodes->exec_size + nodes->nonexec_size,
                       cells->size + cells->exec_size + cells->nonexec_size,
                       edges->size + edges->exec_size,
                       bedges->size + bedges->exec_size,
                       op_fetch_data_ptr(o->p_x),
                       o->pcell->map,
                       o->pedge->map,
                       o->pecell->map,
                       o->pbedge->map,
                       o->pbecell->map,
                       op_fetch_data_ptr(o->p_bound)};
  const airfoil_mesh_part part = {cells->size, nodes->gid, cells->gid, edges->gid, bedges->gid};
  char err[1024];
  long long key = -1;
  airfoil_mesh_check_part(&view, &part, file, err, sizeof err, &key);
  /* The lowest key over the processes (keys are below 2^53: exact as doubles). */
  const double first = -op_max_double(key >= 0 ? -(double)key : -INFINITY);
  if (first == INFINITY) return;
  const int mine = key >= 0 && (double)key == first;
  const int printer = -op_max_int(mine ? -op_rank() : -op_num_procs());
  if (op_rank() == printer) {
    fprintf(stderr, "airfoil: %s\n", err);
    fflush(stderr);
  }
  (void)op_max_int(0); /* the message is out before any process ends the job */
  exit(2);
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

/* The fields q.h5 and q.xmf show, from q. */
static void compute_flow_fields(const airfoil_mesh_op2 *o) {
  op_par_loop(flow_fields, "flow_fields", o->cells,
              op_arg_dat(o->p_q, -1, OP_ID, 4, "double", OP_READ),
              op_arg_dat(o->density, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(o->momentum, -1, OP_ID, 2, "double", OP_WRITE),
              op_arg_dat(o->energy, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(o->pressure, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(o->mach, -1, OP_ID, 1, "double", OP_WRITE));
}

/* Bytes of q.h5: the node coordinates, the cells' nodes, q and the five flow
 * fields (density, momentum, energy, pressure, Mach: 48 bytes a cell), and
 * HDF5's own structures (a few KB). */
static double solution_bytes(long long nodes, long long cells) {
  return 16.0 * nodes + 96.0 * cells + 16384.0;
}

/* Writes the mesh, q (OP2 layout) and the flow fields with an XDMF
 * description beside it; ParaView shows the named fields. */
static void write_solution(const solver_output *out, const airfoil_mesh_op2 *o) {
  char path[4300], tmp[4400], err[1024];
  snprintf(path, sizeof path, "%s/q.h5", out->staging);
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  if (solver_output_reserve(out, solution_bytes(op_get_size(o->nodes), op_get_size(o->cells)),
                            "q.h5", err, sizeof err) != 0)
    bad_input("%s", err);
  if (op_hdf5_write_set(tmp, o->nodes, err, sizeof err) != 0 ||
      op_hdf5_write_set(tmp, o->cells, err, sizeof err) != 0 ||
      op_hdf5_write_map(tmp, o->pcell, err, sizeof err) != 0 ||
      op_hdf5_write_dat(tmp, o->p_x, err, sizeof err) != 0 ||
      op_hdf5_write_dat(tmp, o->p_q, err, sizeof err) != 0)
    bad_input("%s", err);
  op_dat cell_dats[5] = {o->density, o->momentum, o->energy, o->pressure, o->mach};
  for (int k = 0; k < 5; k++)
    if (op_hdf5_write_dat(tmp, cell_dats[k], err, sizeof err) != 0) bad_input("%s", err);
  if (op_is_root() && rename(tmp, path) != 0) solver_fail_io("airfoil", "rename into place", path);
  op_xdmf_mesh xm = {o->pcell, o->p_x, cell_dats, 5, NULL, 0, NULL};
  if (op_xdmf_write(path, &xm, err, sizeof err) != 0) bad_input("%s", err);
}

/* The history beside a checkpoint: its rows up to the checkpoint's
 * iteration, so that a run resumed from it (even one whose own outputs went
 * to failed/) continues the history of the run that wrote it. */
static void checkpoint_history_name(const char *checkpoint, char *buf, size_t len) {
  size_t n = strlen(checkpoint);
  if (n > 3 && strcmp(checkpoint + n - 3, ".h5") == 0) n -= 3;
  snprintf(buf, len, "%.*s_history.csv", (int)n, checkpoint);
}

/* Copies the file named by ctx into f (write_file_atomically's filler). */
static void copy_file(FILE *f, void *ctx) {
  FILE *in = fopen((const char *)ctx, "r");
  if (!in) {
    fprintf(stderr, "airfoil: cannot read %s: %s\n", (const char *)ctx, strerror(errno));
    return;
  }
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0 && fwrite(buf, 1, n, f) == n) continue;
  fclose(in); /* opened for reading */
}

/* The picture's window around the aerofoil (chord from about 0 to 1). */
static const double image_window[4] = {-0.4, 1.4, -0.5, 0.5};

/* Bytes of the picture (PPM and PNG), drawn image_width pixels wide over the
 * window, as high as the window's aspect ratio makes it. */
static double image_bytes(const deck *d) {
  if (deck_choice(d, "image") == 0) return 0.0;
  const double w = deck_int(d, "image_width");
  return solver_picture_bytes(
      w, w * (image_window[3] - image_window[2]) / (image_window[1] - image_window[0]));
}

/* A picture of one flow field around the aerofoil, its outline in black. */
static void write_image(const deck *d, const solver_output *out, const airfoil_mesh_op2 *o,
                        int iteration) {
  const int field = deck_choice(d, "image");
  if (field == 0) return;
  static const char *const titles[] = {"", "Mach number", "pressure", "density"};
  const op_dat dats[] = {NULL, o->mach, o->pressure, o->density};
  char title[128], path[4400], err[OP_IO_ERRLEN];
  if (solver_output_reserve(out, image_bytes(d), "the picture", err, sizeof err) != 0)
    bad_input("%s", err);
  /* The aerofoil: the boundary edges flagged 1 (docs/airfoil.md, "Numerics"). On many
   * processes the root draws, from the whole mesh gathered for it (NULL
   * elsewhere, where nothing is drawn). */
  const int *bound = op_fetch_data_global(o->p_bound);
  const double *x = op_fetch_data_global(o->p_x);
  const int *pbedge = op_fetch_map_global(o->pbedge);
  const double *values = op_fetch_data_global(dats[field]);
  const int nbedge = bound ? op_get_size(o->bedges) : 0;
  int nwall = 0;
  for (int e = 0; e < nbedge; e++) nwall += bound[e] == 1;
  double *lines = malloc(sizeof(double) * 4 * (size_t)(nwall > 0 ? nwall : 1));
  if (!lines) {
    fprintf(stderr, "airfoil: out of memory for the aerofoil outline\n");
    exit(2);
  }
  for (int e = 0, k = 0; e < nbedge; e++) {
    if (bound[e] != 1) continue;
    const int *n = pbedge + 2 * (size_t)e;
    lines[4 * k] = x[2 * n[0]];
    lines[4 * k + 1] = x[2 * n[0] + 1];
    lines[4 * k + 2] = x[2 * n[1]];
    lines[4 * k + 3] = x[2 * n[1] + 1];
    k++;
  }
  snprintf(title, sizeof title, "%s after %d iterations", titles[field], iteration);
  snprintf(path, sizeof path, "%s/%s.ppm", out->staging, deck_string(d, "image"));
  op_ppm_options opt = op_ppm_default_options();
  opt.title = title;
  opt.colorbar = 1;
  opt.png = 1;
  opt.lines = lines;
  opt.nlines = nwall;
  opt.axes = 1; /* the window's x and y along its edges */
  if (op_ppm_write_cells(path, o->pcell, o->p_x, values, image_window, deck_int(d, "image_width"),
                         &opt, NULL, err, sizeof err) != OP_IO_OK)
    bad_input("%s", err);
  free(lines);
}

/* The fingerprint of the mesh (op_mesh_fingerprint: its counts and a hash of
 * its maps, coordinates and flags in the file's numbering, whatever the
 * number of processes): a checkpoint carries it, and a restart onto another
 * mesh is refused. Collective. */
static void mesh_fingerprint(const airfoil_mesh_op2 *o, char *fp, size_t len) {
  const op_map maps[] = {o->pcell, o->pedge, o->pecell, o->pbedge, o->pbecell};
  const op_dat dats[] = {o->p_x, o->p_bound};
  char err[1024];
  if (op_mesh_fingerprint(maps, 5, dats, 2, fp, len, err, sizeof err) != 0) bad_input("%s", err);
}

/* The state between iterations is q alone (qold, adt and res are rebuilt by
 * the next iteration), plus the iteration count, and the mesh it is on. The
 * checkpoint and its history go straight into output_dir: they outlive a run
 * that fails. */
static void write_checkpoint(solver_output *out, const airfoil_mesh_op2 *o, const char *mesh,
                             int iteration, FILE *history, const char *history_path) {
  char path[4300], hpath[4400], err[2048];
  if (!solver_output_direct(out, "checkpoint.h5", path, sizeof path, err, sizeof err))
    bad_input("%s", err);
  checkpoint_history_name(path, hpath, sizeof hpath);
  if (!solver_output_direct(out, hpath + strlen(out->dir) + 1, hpath, sizeof hpath, err,
                            sizeof err))
    bad_input("%s", err);
  if (solver_output_reserve(out, 32.0 * op_get_size(o->cells) + 16384.0 + 40.0 * iteration,
                            "the checkpoint", err, sizeof err) != 0)
    bad_input("%s", err);
  /* History first: killed between the two, the history reaches further than
   * the checkpoint, and a restart keeps the rows up to the checkpoint. */
  if (fflush(history) != 0) solver_fail_io("airfoil", "write", history_path);
  int rc = op_is_root() ? write_file_atomically(hpath, copy_file, (void *)history_path, err,
                                                sizeof err)
                        : 0;
  if (op_root_status(rc) != 0) bad_input("%s", err);
  const char *names[1] = {"iteration"};
  double values[1] = {(double)iteration};
  op_dat dats[1] = {o->p_q};
  if (op_checkpoint_write_for_mesh(path, mesh, dats, 1, names, values, 1, err, sizeof err) != 0)
    bad_input("%s", err);
}

/* The iteration a checkpoint was written after: an integer from 0 to one
 * below the iterations asked for (else there is nothing left to run). The
 * checkpoint must have been written on this mesh, and its q be finite. */
static int read_checkpoint(const char *path, const airfoil_mesh_op2 *o, const char *mesh,
                           int iterations) {
  char err[2048];
  const char *names[1] = {"iteration"};
  double values[1] = {0.0};
  op_dat dats[1] = {o->p_q};
  long long it = 0;
  if (op_checkpoint_read_for_mesh(path, mesh, dats, 1, names, values, 1, err, sizeof err) != 0 ||
      op_checkpoint_int(path, "iteration", values[0], 0, (long long)iterations - 1, &it, err,
                        sizeof err) != 0) {
    fprintf(stderr, "airfoil: restart: %s\n", err);
    if (values[0] >= iterations && values[0] < 2147483648.0 && values[0] == floor(values[0]))
      fprintf(stderr, "airfoil: restart: the checkpoint is at iteration %.0f, not below "
                      "iterations = %d: nothing is left to run (raise iterations)\n",
              values[0], iterations);
    exit(2);
  }
  /* A checkpoint is never written from a state that is not finite: a NaN
   * in it is a damaged file, refused before the first iteration rather than
   * found diverged at the next checkpoint. */
  int first = INT_MAX;
  op_par_loop(first_not_finite, "first_not_finite", o->cells,
              op_arg_dat(o->p_q, -1, OP_ID, 4, "double", OP_READ), op_arg_idx(-1, OP_ID),
              op_arg_gbl(&first, 1, "int", OP_MIN));
  if (first != INT_MAX) {
    char shown[OP_TEXT_SHOWN];
    if (op_is_root())
      fprintf(stderr, "airfoil: restart: %s: q of cell %d is not finite (nan or inf): a "
                      "checkpoint is written from a finite state only (a damaged file?)\n",
              op_text_shown(shown, sizeof shown, path), first);
    (void)op_max_int(0); /* the root's message is out before any process ends the job */
    exit(2);
  }
  return (int)it;
}

/* The history file: the root writes it; on many processes the others write
 * their (identical) rows to /dev/null. */
static FILE *open_history(const char *path) {
  return fopen(op_is_root() ? path : "/dev/null", "w");
}

/* Starts the (staged) history with the rows of the run that wrote the
 * checkpoint, 1 to its iteration in order; returns the stream to append to. */
static FILE *resume_history(const char *path, const char *checkpoint, int iteration) {
  char from[4400];
  checkpoint_history_name(checkpoint, from, sizeof from);
  FILE *out = open_history(path);
  if (!out || !op_is_root()) return out;
  fprintf(out, "iteration,rms\n");
  op_text_reader r;
  char err[1024];
  int last = 0;
  if (op_text_open(&r, from, "history", 256, 0, err, sizeof err) == 0) {
    char *line;
    size_t len;
    while (last < iteration && op_text_next(&r, &line, &len, err, sizeof err) == 1) {
      int it;
      if (sscanf(line, "%d,", &it) == 1 && it == last + 1) {
        fprintf(out, "%s\n", line);
        last = it;
      }
    }
    op_text_close(&r);
  }
  if (last != iteration) {
    char shown[OP_TEXT_SHOWN];
    printf("airfoil: note: %s holds the history to iteration %d, not %d: history.csv has "
           "what there is\n",
           op_text_shown(shown, sizeof shown, from), last, iteration);
  }
  return out;
}

typedef struct {
  const deck *d;
  int iterations_done;
  double final_rms, wall_iterations, wall_total;
  const solver_verdicts *verdicts;
  long ncell;
  int renumbered;
} result_ctx;

static void fill_result(FILE *f, void *vctx) {
  const result_ctx *c = vctx;
  json_writer w;
  solver_result_begin(&w, f, "airfoil", c->d);
  json_kv_int(&w, "cells", c->ncell);
  json_kv_bool(&w, "renumbered", c->renumbered);
  json_kv_int(&w, "iterations", c->iterations_done);
  json_kv_number(&w, "final_rms", c->final_rms);
  json_kv_number(&w, "wall_seconds_iterations", c->wall_iterations);
  const solver_wall wall = {c->wall_total, c->wall_iterations};
  solver_result_end(&w, c->verdicts, &wall);
}

/* The mesh's counts before it is read, for the estimates: from the HDF5 set
 * sizes, the ASCII header, or the generator's formulas. 0 when unknown (the
 * reader then reports what is wrong with the file). */
static long long mesh_cells(const deck *d, const char *path, long long *nodes, double *file_bytes) {
  struct stat st;
  *nodes = 0;
  *file_bytes = stat(path, &st) == 0 ? (double)st.st_size : 0.0;
  if (ends_with(path, ".h5")) {
    int c = 0, n = 0;
    if (op_hdf5_read_set_size(path, "cells", &c, NULL, 0) != 0 ||
        op_hdf5_read_set_size(path, "nodes", &n, NULL, 0) != 0)
      return 0;
    *nodes = n;
    return c;
  }
  if (!file_exists(path)) {
    long long ni = deck_int(d, "mesh_i"), nj = deck_int(d, "mesh_j");
    *nodes = (3 * ni + 1) * (nj + 1);
    *file_bytes = 100.0 * 3 * ni * nj; /* written, then read back */
    return 3 * ni * nj;
  }
  op_text_reader r;
  char *line, err[256];
  size_t len;
  long long counts[4] = {0, 0, 0, 0};
  long long c = 0;
  if (op_text_open(&r, path, "mesh", 4096, 0, err, sizeof err) == 0) {
    /* A header promising more than the file holds is not believed: its
     * estimate would refuse the run for memory or disk before the reader
     * could say what is wrong with the file. */
    if (op_text_next(&r, &line, &len, err, sizeof err) == 1 &&
        sscanf(line, "%lld %lld %lld %lld", &counts[0], &counts[1], &counts[2], &counts[3]) == 4 &&
        counts[0] > 0 && counts[1] > 0 && counts[2] >= 0 && counts[3] >= 0 &&
        airfoil_mesh_ascii_min_bytes(counts) <= *file_bytes) {
      *nodes = counts[0];
      c = counts[1];
    }
    op_text_close(&r);
  }
  return c;
}

/* Memory: about 235 bytes per cell measured (peak RSS of the standard run
 * with q.h5 and the picture, 169 MB for 720000 cells, docs/airfoil.md), taken
 * as 250, plus the ASCII file held while it is parsed. Outputs: q.h5, the
 * history, the checkpoints, the picture and result.json. */
static void estimate(const deck *d, const char *path, solver_estimate *e) {
  long long nodes = 0;
  double file_bytes = 0.0;
  long long cells = mesh_cells(d, path, &nodes, &file_bytes);
  const int iterations = deck_int(d, "iterations");
  e->memory_bytes = 250.0 * (double)cells + (ends_with(path, ".h5") ? 0.0 : file_bytes);
  snprintf(e->memory_detail, sizeof e->memory_detail, "%lld cells at about 250 bytes each%s",
           cells, ends_with(path, ".h5") ? "" : ", and the mesh file while it is read");
  double q = deck_bool(d, "write_solution") ? solution_bytes(nodes, cells) : 0.0;
  double history = 40.0 * iterations;
  double ckpt = deck_int(d, "checkpoint_every") > 0 ? 32.0 * cells + 16384.0 + history : 0.0;
  double image = image_bytes(d);
  e->output_bytes = q + history + ckpt + image + 65536.0;
  snprintf(e->output_detail, sizeof e->output_detail,
           "q.h5 %.0f MB, history.csv %.0f MB, checkpoint %.0f MB, picture %.0f MB", q / 1e6,
           history / 1e6, ckpt / 1e6, image / 1e6);
}

/* What the run reads, and the names of what it writes into output_dir. A
 * restart from output_dir's own checkpoint goes on writing it: that one
 * input its checkpoints may replace. */
static void declare_files(const deck *d, solver_io *io, char *restart_history, size_t len) {
  solver_io_init(io);
  solver_io_input(io, "mesh", deck_string(d, "mesh"), NULL);
  const char *restart = deck_string(d, "restart");
  if (restart[0]) {
    checkpoint_history_name(restart, restart_history, len);
    solver_io_input(io, "restart checkpoint", restart, "checkpoint.h5");
    solver_io_input(io, "restart checkpoint's history", restart_history, "checkpoint_history.csv");
  }
  solver_io_output(io, "history.csv");
  if (deck_bool(d, "write_solution")) {
    solver_io_output(io, "q.h5");
    solver_io_output(io, "q.xmf");
  }
  if (deck_choice(d, "image") != 0) {
    char name[SOLVER_IO_NAME];
    snprintf(name, sizeof name, "%s.ppm", deck_string(d, "image"));
    solver_io_output(io, name);
    snprintf(name, sizeof name, "%s.png", deck_string(d, "image"));
    solver_io_output(io, name);
  }
  if (deck_int(d, "checkpoint_every") > 0) {
    solver_io_output(io, "checkpoint.h5");
    solver_io_output(io, "checkpoint_history.csv");
  }
}

int main(int argc, char **argv) {
  const double t_start = op_wtime();
  int status;
  deck *d = solver_main_start("airfoil", keys, NKEYS, &argc, argv, &status);
  if (!d) return status;
  char err[2048];
  const char *mesh_path = deck_string(d, "mesh");

  solver_output out;
  solver_estimate need;
  estimate(d, mesh_path, &need);
  solver_io io;
  char restart_history[4400];
  declare_files(d, &io, restart_history, sizeof restart_history);
  if (solver_main_outputs(&out, "airfoil", d, &io, &need, err, sizeof err) != 0)
    bad_input("%s", err);

  airfoil_mesh mesh;
  memset(&mesh, 0, sizeof mesh);
  airfoil_mesh_op2 o;
  const int mesh_existed = file_exists(mesh_path);
  if (ends_with(mesh_path, ".h5"))
    declare_from_hdf5(mesh_path, &o);
  else
    declare_from_ascii(d, mesh_path, &mesh, &o);
  /* On the MPI executables a no-op that says so (docs/op2-library.md). */
  int renumbered = 0;
  if (strcmp(deck_string(d, "renumber"), "no") != 0) {
    const double t0 = op_wtime();
    const int always = !strcmp(deck_string(d, "renumber"), "yes");
    op_renumber_result r;
    renumbered = op_renumber_if(o.pecell, always ? -HUGE_VAL : RENUMBER_MIN_GAIN_BITS, &r);
    solver_renumber_report("airfoil", deck_string(d, "renumber"), "the mesh's order", renumbered,
                           &r, RENUMBER_MIN_GAIN_BITS, op_wtime() - t0);
  }
  /* The cells over all processes; the host loop below runs over those
   * declared here (all of them on one process, a slice on many). */
  const int ncell = op_get_size(o.cells);
  o.p_q = op_decl_dat_temp(o.cells, 4, "double", "p_q");
  o.p_qold = op_decl_dat_temp(o.cells, 4, "double", "p_qold");
  o.p_adt = op_decl_dat_temp(o.cells, 1, "double", "p_adt");
  o.p_res = op_decl_dat_temp(o.cells, 4, "double", "p_res");
  o.density = op_decl_dat_temp(o.cells, 1, "double", "density");
  o.momentum = op_decl_dat_temp(o.cells, 2, "double", "momentum");
  o.energy = op_decl_dat_temp(o.cells, 1, "double", "energy");
  o.pressure = op_decl_dat_temp(o.cells, 1, "double", "pressure");
  o.mach = op_decl_dat_temp(o.cells, 1, "double", "mach");

  set_constants();
  double *q = op_fetch_data_ptr(o.p_q);
  for (int n = 0; n < o.cells->size; n++)
    for (int m = 0; m < 4; m++) q[4 * n + m] = qinf[m];
  op_host_data_changed(o.p_q);

  if (mesh_existed) report_mesh_read(mesh_path, &o);
  printf("airfoil: %d nodes, %d cells, %d edges, %d boundary edges; backend %s, %d thread(s), "
         "part size %d\n",
         op_get_size(o.nodes), ncell, op_get_size(o.edges), op_get_size(o.bedges),
         op_backend_name(), op_num_threads(), op_part_size());
  /* Many processes (OP2's call; nothing on one): the cells split by
   * PT-Scotch on the graph of cells sharing an edge, then everything moved
   * to its owner with its halos. */
  op_partition("PTSCOTCH", "KWAY", o.edges, o.pecell, o.p_x);
  check_distributed_mesh(&o, mesh_path);
  if (op_diags_level() > 0) op_diagnostic_output();

  const int niter = deck_int(d, "iterations"), every = deck_int(d, "print_every");
  const int ckpt_every = deck_int(d, "checkpoint_every");
  int first_iter = 1;
  const char *restart = deck_string(d, "restart");
  char mesh_fp[OP_MESH_FINGERPRINT_LEN] = "";
  if (ckpt_every > 0 || restart[0]) mesh_fingerprint(&o, mesh_fp, sizeof mesh_fp);
  if (restart[0]) {
    first_iter = read_checkpoint(restart, &o, mesh_fp, niter) + 1;
    char shown[OP_TEXT_SHOWN];
    printf("restarting from %s after iteration %d\n", op_text_shown(shown, sizeof shown, restart),
           first_iter - 1);
  }

  char history_path[4400];
  snprintf(history_path, sizeof history_path, "%s/history.csv", out.staging);
  FILE *history;
  if (first_iter > 1) {
    history = resume_history(history_path, restart, first_iter - 1);
  } else {
    history = open_history(history_path);
    if (history) fprintf(history, "iteration,rms\n");
  }
  if (!history) solver_fail_io("airfoil", "open", history_path);

  printf("%10s  %-11s  %s\n", "iteration", "rms", "progress");
  double t0 = op_wtime(), rms = 0.0;
  int done = first_iter - 1;
  solver_pace pace;
  solver_pace_begin(&pace, solver_pace_now());
  char pace_text[96];
  solver_interrupt_install("airfoil");
  for (int iter = first_iter; iter <= niter; iter++) {
    rms = sqrt(iterate(&o) / ncell);
    done = iter;
    fprintf(history, "%d,%.16e\n", iter, rms);
    /* The fraction of this run's iterations (a restart counts from its own first). */
    const double now = solver_pace_now(),
                 fraction = (double)(iter - first_iter + 1) / (niter - first_iter + 1);
    if (iter % every == 0 || iter == niter) {
      printf("%10d  %10.5e  %d/%d, %s\n", iter, rms, iter, niter,
             solver_pace_text(&pace, fraction, now, pace_text, sizeof pace_text));
      fflush(stdout);
      fflush(history);
    } else if (solver_pace_due(&pace, SOLVER_PACE_QUIET, now)) {
      printf("airfoil: iteration %d/%d, %s\n", iter, niter,
             solver_pace_text(&pace, fraction, now, pace_text, sizeof pace_text));
      fflush(stdout);
    }
    if (!isfinite(rms)) {
      /* Before any checkpoint: a diverged state is never one to resume from. */
      fprintf(stderr, "airfoil: the rms residual is not finite at iteration %d; stopping\n", iter);
      break;
    }
    if (ckpt_every > 0 && iter % ckpt_every == 0)
      write_checkpoint(&out, &o, mesh_fp, iter, history, history_path);
    if (solver_interrupted() && iter < niter) {
      /* Stopped from outside: keep what is done, resumable where checkpoints are on. */
      if (ckpt_every > 0 && iter % ckpt_every != 0)
        write_checkpoint(&out, &o, mesh_fp, iter, history, history_path);
      printf("%10d  %10.5e  (stopped here)\n", iter, rms);
      break;
    }
  }
  double wall_iterations = op_wtime() - t0;
  if (fclose(history) != 0) solver_fail_io("airfoil", "write", history_path);

  if (deck_bool(d, "write_solution") || deck_choice(d, "image") != 0) compute_flow_fields(&o);
  if (deck_bool(d, "write_solution")) write_solution(&out, &o);
  write_image(d, &out, &o, done);

  solver_verdicts verdicts;
  solver_verdicts_init(&verdicts);
  solver_verdict_add(&verdicts, "completed", done, SOLVER_AT_LEAST, niter, "%d of %d iterations",
                     done, niter);
  solver_interrupt_verdict(&verdicts, "iteration %d of %d", done, niter);
  int iterations_run = done - first_iter + 1;
  solver_verdict_add(&verdicts, "finite_residual", isfinite(rms) ? 0 : 1, SOLVER_AT_MOST, 0,
                     "final rms %.16e (value: 1 when it is not finite)", rms);
  if (ncell == STANDARD_NCELL && niter == STANDARD_ITERATIONS) {
    double rel = fabs(rms / STANDARD_RMS - 1.0);
    solver_verdict_add(&verdicts, "standard_run_rms", rel, SOLVER_AT_MOST, STANDARD_RMS_RTOL,
                       "rms %.13e vs the reference %.13e: relative difference %.2e (limit %.0e)",
                       rms, STANDARD_RMS, rel, STANDARD_RMS_RTOL);
  } else {
    solver_verdict_not_judged(&verdicts, "standard_run_rms",
                              "the reference rms is the standard run's (%d cells, %d "
                              "iterations); this run has %d cells, %d iterations",
                              STANDARD_NCELL, STANDARD_ITERATIONS, ncell, niter);
  }

  printf("\nairfoil: %d iterations in %.3f s (%.3f ms per iteration)\n", iterations_run,
         wall_iterations, iterations_run > 0 ? 1e3 * wall_iterations / iterations_run : 0.0);
  op_timing_output();
  solver_verdicts_print(&verdicts, stdout);

  result_ctx ctx = {d,         done,  rms,       wall_iterations, op_wtime() - t_start,
                    &verdicts, ncell, renumbered};
  char picture[96] = "", what[256];
  if (deck_choice(d, "image") != 0)
    snprintf(picture, sizeof picture, ", %s.ppm, %s.png", deck_string(d, "image"),
             deck_string(d, "image"));
  snprintf(what, sizeof what, "history.csv, result.json%s%s",
           deck_bool(d, "write_solution") ? ", q.h5, q.xmf" : "", picture);
  status = solver_main_finish(&out, &verdicts, fill_result, &ctx, what, err, sizeof err);
  if (status < 0) bad_input("%s", err);
  op_exit();
  airfoil_mesh_free(&mesh);
  deck_free(d);
  return status;
}
