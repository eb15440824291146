/*
 * op2-partition-model - what a run on many processes would communicate,
 * predicted from the partitions themselves, on one process.
 *
 * It builds a solver's mesh whole (the airfoil C-mesh, or heat's grid),
 * partitions it into 2 ... 4096 parts as the solver's executables do (the
 * same objects given to the same call, op_mpi_partition_mesh: airfoil's
 * edges, pecell and node coordinates; heat's interior, stencil and grid
 * geometry; here on one process, with many parts),
 * counts every part's halos with the census (op_mpi_census.h: the
 * definitions the distributed halos follow) and prints, per partitioner and
 * part count: the imbalance, the edge cut, the halo elements and messages
 * per part, and the parallel efficiency those predict for a network of the
 * given bandwidth and latency.
 *
 * The model of one iteration on part p (no overlap of communication with
 * computation, so a lower bound on what overlap would give):
 *   compute(p) = sum over loops of calls x (seconds per element, measured on
 *                one core of the suite's machine: docs/performance.md) x
 *                (elements p runs: owned, plus execute halo for loops that
 *                write through a map)
 *   comm(p)    = sum over halo exchanges of latency x max(messages in, out)
 *                + bytes x max(rows in, rows out) / bandwidth
 *   reduce     = ceil(log2 P) x latency + P x 8 bytes / bandwidth per reduction
 *                (one gather of every process's value to every process:
 *                op_mpi_reduce.h)
 *   efficiency = serial time / (P x (max over parts of compute + comm, + reduce))
 * The counts are exact; the times are a model, and the report says so.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "airfoil_mesh.h"
#include "op_io_util.h"
#include "op_mpi_census.h"
#include "op_mpi_check.h"
#include "op_mpi_partition.h"
#include "structured_grid.h"
#include "op_version.h"

/* ---- the applications' loops and exchanges ------------------------------------- */

typedef struct {
  const char *loop, *set;
  int calls;           /* per iteration */
  double ns_per_elem;  /* one core, seq backend */
  int exec;            /* writes through a map: runs its execute halo */
} model_loop;

typedef struct {
  const char *dat, *set;
  int bytes;           /* per element */
  int per_iter;        /* exchanges per iteration */
} model_exchange;

typedef struct {
  const char *name;
  const model_loop *loops;
  int nloops;
  const model_exchange *ex;
  int nex;
  int reductions;      /* per iteration */
} app_model;

/* Airfoil: per-call times of the 720000-cell run (docs/performance.md, seq,
 * 1000 iterations) over the set sizes (720000 cells, 1438600 edges, 2800
 * bedges). Per iteration: save_soln once, then two stages of adt_calc,
 * res_calc, bres_calc, update. res_calc reads q and adt through pecell,
 * both stale (update and adt_calc wrote them): two exchanges a stage;
 * bres_calc finds them fresh. update's rms: one reduction a stage. */
static const model_loop airfoil_loops[] = {
    {"save_soln", "cells", 1, 1.78e9 / 1000 / 720000, 0},
    {"adt_calc", "cells", 2, 9.76e9 / 2000 / 720000, 0},
    {"res_calc", "edges", 2, 33.08e9 / 2000 / 1438600, 1},
    {"bres_calc", "bedges", 2, 0.24e9 / 2000 / 2800, 1},
    {"update", "cells", 2, 5.85e9 / 2000 / 720000, 0},
};
static const model_exchange airfoil_ex[] = {{"p_q", "cells", 32, 2}, {"p_adt", "cells", 8, 2}};

/* Heat: 0.306 s a step at n = 8000 (docs/performance.md, seq), counted per
 * interior point for heat_step (which writes u_new through the stencil's
 * own entry, so runs its execute halo; heat_copy's share is included).
 * heat_step reads u through the stencil after heat_copy wrote it: one
 * exchange a step. */
static const model_loop heat_loops[] = {{"heat_step+heat_copy", "interior", 1, 0.306e9 / 64e6, 1}};
static const model_exchange heat_ex[] = {{"u", "cells", 8, 1}};

static const app_model airfoil_model = {"airfoil", airfoil_loops, 5, airfoil_ex, 2, 2};
static const app_model heat_model = {"heat", heat_loops, 1, heat_ex, 1, 0};

/* ---- meshes ----------------------------------------------------------------------- */

/* A solver's mesh, and what its executables give op_partition: the same
 * objects, so that the partition is the one op_mpi_partition_mesh makes for
 * the executables (with --op-partition naming the partitioner). */
typedef struct {
  op_mpi_mesh m;
  op_mpi_part_mesh pm;
  op_mpi_map cut_map; /* the census also counts its graph's edge cut (or NULL) */
  sg_grid grid;       /* heat: what the geometry's functions compute from */
  char what[160];
} model_mesh;

/* airfoil_mpi: op_partition("PTSCOTCH", "KWAY", edges, pecell, p_x), on the
 * mesh as read from its file (coordinates rounded as %f writes them). */
static void airfoil_build(model_mesh *mm, int ni, int nj) {
  airfoil_mesh g;
  char err[512];
  if (airfoil_mesh_generate(ni, nj, &g, err, sizeof err) != 0) op_mpi_fatal("%s", err);
  airfoil_mesh_round_coordinates(&g);
  op_mpi_mesh m = mm->m = op_mpi_mesh_create(MPI_COMM_SELF);
  op_mpi_set nodes = op_mpi_decl_set(m, g.nnode, "nodes"), edges = op_mpi_decl_set(m, g.nedge, "edges");
  op_mpi_set bedges = op_mpi_decl_set(m, g.nbedge, "bedges"), cells = op_mpi_decl_set(m, g.ncell, "cells");
  op_mpi_decl_map(m, edges, nodes, 2, g.edge, "pedge");
  op_mpi_map pecell = op_mpi_decl_map(m, edges, cells, 2, g.ecell, "pecell");
  op_mpi_decl_map(m, bedges, nodes, 2, g.bedge, "pbedge");
  op_mpi_decl_map(m, bedges, cells, 1, g.becell, "pbecell");
  op_mpi_decl_map(m, cells, nodes, 4, g.cell, "pcell");
  op_mpi_dat p_x = op_mpi_decl_dat(m, nodes, 2, OP_TYPE_DOUBLE, g.x, "p_x");
  memset(&mm->pm, 0, sizeof mm->pm);
  mm->pm.set = edges;
  mm->pm.map = pecell;
  mm->pm.coords = p_x;
  mm->cut_map = pecell;
  snprintf(mm->what, sizeof mm->what, "airfoil C-mesh I = %d, J = %d: %d cells, %d edges, %d nodes", ni, nj,
           g.ncell, g.nedge, g.nnode);
  airfoil_mesh_free(&g);
}

/* heat_mpi: op_partition_geometry("PTSCOTCH", "KWAY", interior, stencil,
 * {cells, their centres, the cells sharing a face}) (solvers/heat/heat.c). */
static void cell_centres(int first, int count, double *xy, void *ctx) { sg_cell_centres(ctx, first, count, xy); }
static int cell_adjacent(int c, int *out, void *ctx) { return sg_cell_adjacent(ctx, c, out); }

static void heat_build(model_mesh *mm, int n) {
  char err[512];
  if (sg_grid_init(&mm->grid, n, n, 1, err, sizeof err) != 0) op_mpi_fatal("%s", err);
  const sg_grid *g = &mm->grid;
  op_mpi_mesh m = mm->m = op_mpi_mesh_create(MPI_COMM_SELF);
  op_mpi_set cells = op_mpi_decl_set(m, g->ncells, "cells");
  op_mpi_set interior = op_mpi_decl_set(m, g->ninterior, "interior");
  int *st = sg_interior_map(g, SG_STENCIL5, 5, err, sizeof err);
  if (!st) op_mpi_fatal("%s", err);
  op_mpi_map stencil = op_mpi_decl_map_take(m, interior, cells, 5, st, "stencil");
  memset(&mm->pm, 0, sizeof mm->pm);
  mm->pm.set = interior;
  mm->pm.map = stencil;
  mm->pm.geo_set = cells;
  mm->pm.cdim = 2;
  mm->pm.fill_coords = cell_centres;
  mm->pm.max_adjacent = 4;
  mm->pm.adjacent = cell_adjacent;
  mm->pm.ctx = &mm->grid;
  mm->cut_map = NULL; /* the edge cut is the faces' graph's, as the run prints it */
  snprintf(mm->what, sizeof mm->what,
           "heat grid %d x %d: %d cells with the ghost ring, %d interior; PT-Scotch on the faces' graph",
           n, n, g->ncells, g->ninterior);
}

/* ---- the model ---------------------------------------------------------------------- */

typedef struct {
  double imbalance, halo_max, halo_mean, msgs_max, msgs_mean;
  double t_comp, t_comm, t_red, t_serial, efficiency;
} prediction;

static int set_index(op_mpi_mesh m, const char *name) {
  op_mpi_set s = op_mpi_find_set(m, name);
  if (!s) op_mpi_fatal("model: no set '%s' in the mesh", name);
  return s->index;
}

static prediction predict(const app_model *app, op_mpi_mesh m, const op_mpi_census *c, double bw, double lat) {
  prediction r;
  memset(&r, 0, sizeof r);
  int P = c->nparts;
  double worst = 0.0;
  for (int loop = 0; loop < app->nloops; loop++) {
    op_mpi_set s = m->sets[set_index(m, app->loops[loop].set)];
    r.t_serial += app->loops[loop].calls * app->loops[loop].ns_per_elem * 1e-9 * s->global_size;
  }
  for (int p = 0; p < P; p++) {
    double comp = 0.0, comm = 0.0;
    for (int loop = 0; loop < app->nloops; loop++) {
      const model_loop *L = &app->loops[loop];
      size_t at = (size_t)set_index(m, L->set) * P + p;
      comp += L->calls * L->ns_per_elem * 1e-9 * (c->owned[at] + (L->exec ? c->exec[at] : 0));
    }
    for (int x = 0; x < app->nex; x++) {
      const model_exchange *X = &app->ex[x];
      size_t at = (size_t)set_index(m, X->set) * P + p;
      double rows_in = c->exec[at] + c->nonexec[at], rows_out = c->sent[at];
      double msgs = c->recv_from[at] > c->send_to[at] ? c->recv_from[at] : c->send_to[at];
      comm += X->per_iter * (lat * msgs + X->bytes * (rows_in > rows_out ? rows_in : rows_out) / bw);
    }
    if (comp + comm > worst) worst = comp + comm, r.t_comp = comp, r.t_comm = comm;
  }
  r.t_red = app->reductions * (ceil(log2((double)P)) * lat + P * 8.0 / bw);
  r.efficiency = r.t_serial / (P * (worst + r.t_red));
  /* Halo and messages of the primary set (where the exchanged dats live). */
  size_t base = (size_t)set_index(m, app->ex[0].set) * P;
  long long owned_max = 0, total = 0;
  for (int p = 0; p < P; p++) {
    double h = c->exec[base + p] + c->nonexec[base + p];
    if (h > r.halo_max) r.halo_max = h;
    r.halo_mean += h / P;
    if (c->recv_from[base + p] > r.msgs_max) r.msgs_max = c->recv_from[base + p];
    r.msgs_mean += (double)c->recv_from[base + p] / P;
    if (c->owned[base + p] > owned_max) owned_max = c->owned[base + p];
    total += c->owned[base + p];
  }
  r.imbalance = (double)owned_max / ((double)total / P);
  return r;
}

/* ---- command line --------------------------------------------------------------------- */

static void usage(FILE *f) {
  fprintf(f,
          "Usage: op2-partition-model airfoil [I J] | heat [N]  [options]\n"
          "  airfoil I J       the NACA0012 C-mesh (default 800 1200: 2.88M cells)\n"
          "  heat N            heat's N x N grid (default 8000)\n"
          "  --parts LIST      part counts, comma-separated (default 2,4,8,...,4096)\n"
          "  --partitioners L  LIB:ROUTINE,... (default PTSCOTCH:KWAY,GEOM:RCB,BLOCK:BLOCK)\n"
          "  --bandwidth B     network bandwidth per process, bytes/s (default 12.5e9)\n"
          "  --latency L       message latency, seconds (default 2e-6)\n"
          "  --census FILE     also write every part's counts per set as CSV (owned,\n"
          "                    execute and non-execute halo, processes it receives from and\n"
          "                    sends to, rows sent): what validation/mpi_model_check.py\n"
          "                    compares with runs\n"
          "  --csv FILE        also write the table as CSV (written atomically)\n");
}

static double number(const char *opt, const char *text) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (errno || end == text || *end || !(v > 0) || !isfinite(v)) {
    fprintf(stderr, "op2-partition-model: %s: '%s' is not a positive number\n", opt, text);
    exit(2);
  }
  return v;
}

static int count(const char *opt, const char *text) {
  double v = number(opt, text);
  if (v != floor(v) || v > 1e9) {
    fprintf(stderr, "op2-partition-model: %s: '%s' is not a whole number\n", opt, text);
    exit(2);
  }
  return (int)v;
}

int main(int argc, char **argv) {
  if (op_asks_version(argc, argv)) {
    op_print_version("op2-partition-model");
    return 0;
  }
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const char *mesh = argv[1];
  int a = 2, ni = 800, nj = 1200, n = 8000;
  if (!strcmp(mesh, "airfoil")) {
    if (argc > 3 && argv[2][0] != '-') ni = count("I", argv[2]), nj = count("J", argv[3]), a = 4;
  } else if (!strcmp(mesh, "heat")) {
    if (argc > 2 && argv[2][0] != '-') n = count("N", argv[2]), a = 3;
  } else {
    fprintf(stderr, "op2-partition-model: unknown mesh '%s' (airfoil or heat)\n", mesh);
    usage(stderr);
    return 2;
  }
  int parts[64], nparts = 0;
  for (int p = 2; p <= 4096; p *= 2) parts[nparts++] = p;
  char partitioners[256] = "PTSCOTCH:KWAY,GEOM:RCB,BLOCK:BLOCK";
  double bw = 12.5e9, lat = 2e-6;
  const char *csv = NULL, *census_csv = NULL;
  for (; a < argc; a++) {
    const char *opt = argv[a], *val = a + 1 < argc ? argv[a + 1] : NULL;
    if (!val) {
      fprintf(stderr, "op2-partition-model: %s needs a value (see --help)\n", opt);
      return 2;
    }
    if (!strcmp(opt, "--parts")) {
      nparts = 0;
      char buf[512];
      snprintf(buf, sizeof buf, "%s", val);
      for (char *t = strtok(buf, ","); t && nparts < 64; t = strtok(NULL, ",")) parts[nparts++] = count(opt, t);
    } else if (!strcmp(opt, "--partitioners")) {
      snprintf(partitioners, sizeof partitioners, "%s", val);
    } else if (!strcmp(opt, "--bandwidth")) {
      bw = number(opt, val);
    } else if (!strcmp(opt, "--latency")) {
      lat = number(opt, val);
    } else if (!strcmp(opt, "--census")) {
      census_csv = val;
    } else if (!strcmp(opt, "--csv")) {
      csv = val;
    } else {
      fprintf(stderr, "op2-partition-model: unknown option '%s' (see --help)\n", opt);
      return 2;
    }
    a++;
  }

  MPI_Init(&argc, &argv);
  int nprocs;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs != 1) op_mpi_fatal("op2-partition-model runs on one process (it models many)");
  model_mesh mm;
  const app_model *app = !strcmp(mesh, "airfoil") ? &airfoil_model : &heat_model;
  double t0 = MPI_Wtime();
  if (app == &airfoil_model) airfoil_build(&mm, ni, nj);
  else heat_build(&mm, n);
  printf("op2-partition-model: %s (built in %.1f s)\n", mm.what, MPI_Wtime() - t0);
  printf("model: bandwidth %.3g B/s, latency %.3g s; compute per element from one core of the suite's "
         "machine; no overlap\n",
         bw, lat);
  double serial = 0.0;
  for (int loop = 0; loop < app->nloops; loop++)
    serial += app->loops[loop].calls * app->loops[loop].ns_per_elem * 1e-9 *
              mm.m->sets[set_index(mm.m, app->loops[loop].set)]->global_size;
  printf("one process: %.4g s an iteration (%s)\n", serial, app->name);
  printf("halo exchanges an iteration:");
  for (int x = 0; x < app->nex; x++) printf(" %s %s %d", app->ex[x].set, app->ex[x].dat, app->ex[x].per_iter);
  printf("\n");
  printf("%-14s %6s %8s %10s %10s %10s %8s %8s %10s %10s %10s %7s\n", "partitioner", "parts", "part(s)",
         "imbalance", "edge cut", "halo max", "halo avg", "msgs max", "compute(s)", "comm(s)", "reduce(s)",
         "effic.");
  op_io_buf out = {0}, parts_out = {0};
  op_io_buf_printf(&parts_out, "mesh,partitioner,parts,set,part,owned,exec,nonexec,recv_from,send_to,sent\n");
  op_io_buf_printf(&out, "mesh,partitioner,parts,partition_seconds,imbalance,edge_cut,halo_max,halo_mean,"
                         "messages_max,messages_mean,compute_s,comm_s,reduce_s,serial_s,efficiency\n");
  char list[256];
  snprintf(list, sizeof list, "%s", partitioners);
  char *save = NULL;
  for (char *pt = strtok_r(list, ",", &save); pt; pt = strtok_r(NULL, ",", &save)) {
    char lib[64], routine[64];
    snprintf(lib, sizeof lib, "%.*s", (int)strcspn(pt, ":"), pt);
    snprintf(routine, sizeof routine, "%s", strchr(pt, ':') ? strchr(pt, ':') + 1 : "");
    for (int i = 0; i < nparts; i++) {
      double t1 = MPI_Wtime();
      /* The executables' partition: the same call with the same objects. */
      if (!op_mpi_partitioner_find(lib, routine)) op_mpi_fatal("--partitioners: no partitioner '%s'", pt);
      op_mpi_partition_mesh(mm.m, lib, routine, &mm.pm, parts[i]);
      double tp = MPI_Wtime() - t1;
      op_mpi_census c;
      op_mpi_census_take(mm.m, mm.cut_map, &c);
      if (mm.cut_map && c.edge_cut != mm.m->edge_cut)
        op_mpi_fatal("internal error: edge cut %lld by the census, %lld by the partitioner", c.edge_cut,
                     mm.m->edge_cut);
      c.edge_cut = mm.m->edge_cut; /* the figure a run prints */
      for (int si = 0; si < c.nsets; si++)
        for (int q = 0; q < c.nparts; q++) {
          const size_t at = (size_t)si * c.nparts + q;
          op_io_buf_printf(&parts_out, "%s,%s,%d,%s,%d,%d,%d,%d,%d,%d,%d\n", mesh, mm.m->partitioner, parts[i],
                           mm.m->sets[si]->name, q, c.owned[at], c.exec[at], c.nonexec[at], c.recv_from[at],
                           c.send_to[at], c.sent[at]);
        }
      prediction r = predict(app, mm.m, &c, bw, lat);
      printf("%-14s %6d %8.1f %10.3f %10lld %10.0f %8.1f %8.0f %10.3g %10.3g %10.3g %6.1f%%\n", mm.m->partitioner,
             parts[i], tp, r.imbalance, c.edge_cut, r.halo_max, r.halo_mean, r.msgs_max, r.t_comp, r.t_comm,
             r.t_red, 100.0 * r.efficiency);
      fflush(stdout);
      op_io_buf_printf(&out, "%s,%s,%d,%.2f,%.4f,%lld,%.0f,%.1f,%.0f,%.2f,%.4g,%.4g,%.4g,%.4g,%.4f\n", mesh,
                       mm.m->partitioner, parts[i], tp, r.imbalance, c.edge_cut, r.halo_max, r.halo_mean,
                       r.msgs_max, r.msgs_mean, r.t_comp, r.t_comm, r.t_red, r.t_serial, r.efficiency);
      op_mpi_census_free(&c);
    }
  }
  const char *files[2] = {csv, census_csv};
  op_io_buf *bufs[2] = {&out, &parts_out};
  for (int k = 0; k < 2; k++) {
    if (!files[k]) continue;
    char err[OP_IO_ERRLEN];
    op_io_ctx ctx = {err, sizeof err, "CSV file", files[k], NULL, NULL};
    if (bufs[k]->oom) op_mpi_fatal("out of memory building the CSV table");
    if (op_io_write_file_atomic(&ctx, files[k], bufs[k]->s, bufs[k]->len) != OP_IO_OK) op_mpi_fatal("%s", err);
    printf("wrote %s\n", files[k]);
  }
  op_io_buf_free(&out);
  op_io_buf_free(&parts_out);
  op_mpi_mesh_free(mm.m);
  MPI_Finalize();
  return 0;
}
