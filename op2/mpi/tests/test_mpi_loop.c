/*
 * test_mpi_loop.c - loops written by hand on the distributed airfoil mesh,
 * as generated code will run them (op_mpi_exchange.h), against the same
 * loops on the whole mesh:
 *   nodes:  u = u / 2 + 1                       (direct; u's halo goes stale)
 *   edges:  res[c0] += (u0 w + u1, u0 - u1),    (reads u through a map: exchanged;
 *           res[c1] += (-u1 w, u0)               increments through a map: runs its exec halo)
 *   bedges: res[c][0] += bound (u0 + u1) / 2
 *   cells:  sums of res[.][0] and res[.][1], largest res[.][0], smallest res[.][1]
 * three times over. The values are binary fractions with few digits, so every
 * sum is exact in any order: res on every owned cell and the reductions must
 * equal the whole mesh's bit for bit. Also checked: a loop that reads a halo
 * refreshed since its last write sends nothing, and a direct loop never does.
 *
 * usage: test_mpi_loop LIB:ROUTINE FILE.h5
 */
#include <string.h>

#include "mpi_test_mesh.h"
#include "op_mpi_exchange.h"
#include "op_mpi_reduce.h"

typedef struct {
  op_mpi_map pedge, pecell, pbedge, pbecell;
  double *u, *w, *res, sums[2], top, bottom;
  int *bound;
} loops;

/* Runs kernel over the loop's elements: the core before the halos arrive. */
static void run(op_mpi_set set, int nargs, op_mpi_arg *args, void (*kernel)(loops *, int), loops *L) {
  int n = op_mpi_loop_begin(set, nargs, args);
  for (int e = 0; e < set->core_size; e++) kernel(L, e);
  op_mpi_loop_wait(nargs, args);
  for (int e = set->core_size; e < n; e++) kernel(L, e);
  op_mpi_loop_end(nargs, args);
}

static void k_nodes(loops *L, int n) { L->u[n] = L->u[n] * 0.5 + 1.0; }

static void k_edges(loops *L, int e) {
  int n0 = L->pedge->map[2 * e], n1 = L->pedge->map[2 * e + 1];
  int c0 = L->pecell->map[2 * e], c1 = L->pecell->map[2 * e + 1];
  double u0 = L->u[n0], u1 = L->u[n1];
  L->res[2 * c0] += u0 * L->w[e] + u1;
  L->res[2 * c0 + 1] += u0 - u1;
  L->res[2 * c1] += -u1 * L->w[e];
  L->res[2 * c1 + 1] += u0;
}

static void k_bedges(loops *L, int e) {
  int n0 = L->pbedge->map[2 * e], n1 = L->pbedge->map[2 * e + 1], c = L->pbecell->map[e];
  L->res[2 * c] += L->bound[e] * (L->u[n0] + L->u[n1]) * 0.5;
}

static void k_cells(loops *L, int c) {
  L->sums[0] += L->res[2 * c];
  L->sums[1] += L->res[2 * c + 1];
  if (L->res[2 * c] > L->top) L->top = L->res[2 * c];
  if (L->res[2 * c + 1] < L->bottom) L->bottom = L->res[2 * c + 1];
}

static long long messages(void) {
  long long msg, bytes;
  op_mpi_exchange_counts(&msg, &bytes);
  return msg;
}

static void declare_dats(test_airfoil *a, op_mpi_dat *u, op_mpi_dat *w, op_mpi_dat *res) {
  op_mpi_set nodes = a->nodes, edges = a->edges;
  double *u0 = malloc(sizeof(double) * (size_t)(nodes->slice_size + 1));
  double *w0 = malloc(sizeof(double) * (size_t)(edges->slice_size + 1));
  for (int i = 0; i < nodes->slice_size; i++) u0[i] = (nodes->slice_start + i) % 7 + 1;
  for (int i = 0; i < edges->slice_size; i++) w0[i] = ((edges->slice_start + i) % 3) * 0.25;
  *u = op_mpi_decl_dat(a->m, nodes, 1, OP_TYPE_DOUBLE, u0, "u");
  *w = op_mpi_decl_dat(a->m, edges, 1, OP_TYPE_DOUBLE, w0, "w");
  *res = op_mpi_decl_dat(a->m, a->cells, 2, OP_TYPE_DOUBLE, NULL, "res");
  free(u0);
  free(w0);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc != 3) {
    fprintf(stderr, "usage: test_mpi_loop LIB:ROUTINE FILE.h5\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  test_airfoil a, w;
  op_mpi_dat u, wt, res, wu, wwt, wres;
  test_airfoil_read(&a, MPI_COMM_WORLD, argv[2]);
  test_airfoil_read(&w, MPI_COMM_SELF, argv[2]);
  declare_dats(&a, &u, &wt, &res);
  declare_dats(&w, &wu, &wwt, &wres);
  test_airfoil_distribute(&a, argv[1], NULL);
  test_airfoil_distribute(&w, "BLOCK:BLOCK", NULL); /* one process: everything owned, in order */
  for (int c = 0; c < w.cells->size; c++) CHECK(w.cells->gid[c] == c, "whole mesh renumbered");

  loops L = {a.pedge, a.pecell, a.pbedge, a.pbecell, (double *)u->data, (double *)wt->data,
             (double *)res->data, {0, 0}, -1e300, 1e300, (int *)a.p_bound->data};
  loops R = {w.pedge, w.pecell, w.pbedge, w.pbecell, (double *)wu->data, (double *)wwt->data,
             (double *)wres->data, {0, 0}, -1e300, 1e300, (int *)w.p_bound->data};
  op_mpi_arg an[1] = {{u, NULL, OP_RW}};
  op_mpi_arg ae[6] = {{u, a.pedge, OP_READ}, {u, a.pedge, OP_READ}, {wt, NULL, OP_READ},
                      {res, a.pecell, OP_INC}, {res, a.pecell, OP_INC}, {NULL, NULL, OP_READ}};
  op_mpi_arg ab[4] = {{u, a.pbedge, OP_READ}, {a.p_bound, NULL, OP_READ}, {res, a.pbecell, OP_INC},
                      {u, a.pbedge, OP_READ}};
  op_mpi_arg ac[1] = {{res, NULL, OP_READ}};
  op_mpi_arg rn[1] = {{wu, NULL, OP_RW}};
  op_mpi_arg re[5] = {{wu, w.pedge, OP_READ}, {wu, w.pedge, OP_READ}, {wwt, NULL, OP_READ},
                      {wres, w.pecell, OP_INC}, {wres, w.pecell, OP_INC}};
  op_mpi_arg rb[3] = {{wu, w.pbedge, OP_READ}, {w.p_bound, NULL, OP_READ}, {wres, w.pbecell, OP_INC}};
  op_mpi_arg rc[1] = {{wres, NULL, OP_READ}};

  for (int it = 0; it < 3; it++) {
    run(a.nodes, 1, an, k_nodes, &L);
    run(w.nodes, 1, rn, k_nodes, &R);
    long long m0 = messages();
    run(a.edges, 6, ae, k_edges, &L);
    long long m1 = messages();
    int expect = 0; /* u is stale: one message to each process reading it */
    for (int r = 0; r < a.m->nprocs; r++) {
      int to = 0;
      for (int i = 0; i < a.nodes->exp_exec.nranks; i++) to |= a.nodes->exp_exec.ranks[i] == r;
      for (int i = 0; i < a.nodes->exp_nonexec.nranks; i++) to |= a.nodes->exp_nonexec.ranks[i] == r;
      expect += to;
    }
    CHECK(m1 - m0 == expect, "edge loop sent %lld messages, expected %d (u's neighbours)", m1 - m0,
          expect);
    if (a.m->nprocs > 1)
      CHECK(expect > 0, "no process reads u's halo on %d processes", a.m->nprocs);
    run(a.bedges, 4, ab, k_bedges, &L);
    CHECK(messages() == m1, "bedge loop sent %lld messages: u's halo was fresh", messages() - m1);
    run(w.edges, 5, re, k_edges, &R);
    run(w.bedges, 3, rb, k_bedges, &R);

    double gsum[2] = {0.5, -0.25}, top = -1e300, bottom = 1e300;
    L.sums[0] = L.sums[1] = 0.0;
    L.top = -1e300, L.bottom = 1e300;
    long long m2 = messages();
    run(a.cells, 1, ac, k_cells, &L);
    CHECK(messages() == m2, "a direct loop sent %lld messages", messages() - m2);
    /* As op_loop_end: the root's sum from the value before the loop, the
     * others' from zero, combined in rank order. */
    if (a.m->rank == 0) gsum[0] += L.sums[0], gsum[1] += L.sums[1];
    else gsum[0] = L.sums[0], gsum[1] = L.sums[1];
    top = L.top, bottom = L.bottom;
    op_mpi_reduction red[3] = {{OP_TYPE_DOUBLE, OP_INC, 2, gsum, 0, {0}, {0}},
                               {OP_TYPE_DOUBLE, OP_MAX, 1, &top, 0, {0}, {0}},
                               {OP_TYPE_DOUBLE, OP_MIN, 1, &bottom, 0, {0}, {0}}};
    op_mpi_reduce(a.m->comm, 3, red);
    R.sums[0] = 0.5, R.sums[1] = -0.25, R.top = -1e300, R.bottom = 1e300;
    run(w.cells, 1, rc, k_cells, &R);
    CHECK(gsum[0] == R.sums[0] && gsum[1] == R.sums[1],
          "iteration %d: sums %.17g %.17g, whole mesh %.17g %.17g", it, gsum[0], gsum[1], R.sums[0],
          R.sums[1]);
    CHECK(top == R.top && bottom == R.bottom,
          "iteration %d: max %.17g min %.17g, whole mesh %.17g %.17g", it, top, bottom, R.top,
          R.bottom);
  }
  /* res of every owned cell, against the whole mesh. */
  for (int c = 0; c < a.cells->size; c++) {
    int g = a.cells->gid[c];
    for (int d = 0; d < 2; d++)
      CHECK(L.res[2 * c + d] == R.res[2 * g + d], "cell %d res[%d] = %.17g, whole mesh %.17g", g, d,
            L.res[2 * c + d], R.res[2 * g + d]);
  }
  op_mpi_mesh_free(a.m);
  op_mpi_mesh_free(w.m);
  int rc_ = check_mpi_exit("test_mpi_loop");
  MPI_Finalize();
  return rc_;
}
