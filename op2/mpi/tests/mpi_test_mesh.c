/* mpi_test_mesh.c - the mpi tests' meshes. */
#include "mpi_test_mesh.h"

#include <limits.h>
#include <string.h>

#include "op_mpi_halo.h"
#include "op_mpi_hdf5.h"

void test_airfoil_read(test_airfoil *a, MPI_Comm comm, const char *file) {
  memset(a, 0, sizeof *a);
  op_mpi_mesh m = a->m = op_mpi_mesh_create(comm);
  a->nodes = op_mpi_decl_set_hdf5(m, file, "nodes");
  a->edges = op_mpi_decl_set_hdf5(m, file, "edges");
  a->bedges = op_mpi_decl_set_hdf5(m, file, "bedges");
  a->cells = op_mpi_decl_set_hdf5(m, file, "cells");
  a->pedge = op_mpi_decl_map_hdf5(m, a->edges, a->nodes, 2, file, "pedge");
  a->pecell = op_mpi_decl_map_hdf5(m, a->edges, a->cells, 2, file, "pecell");
  a->pbedge = op_mpi_decl_map_hdf5(m, a->bedges, a->nodes, 2, file, "pbedge");
  a->pbecell = op_mpi_decl_map_hdf5(m, a->bedges, a->cells, 1, file, "pbecell");
  a->pcell = op_mpi_decl_map_hdf5(m, a->cells, a->nodes, 4, file, "pcell");
  a->p_bound = op_mpi_decl_dat_hdf5(m, a->bedges, 1, "int", file, "p_bound");
  a->p_x = op_mpi_decl_dat_hdf5(m, a->nodes, 2, "double", file, "p_x");
  /* Cell centres from every node's coordinates (a small test mesh: read whole here). */
  op_mpi_mesh whole = op_mpi_mesh_create(MPI_COMM_SELF);
  op_mpi_set wn = op_mpi_decl_set_hdf5(whole, file, "nodes");
  op_mpi_dat wx = op_mpi_decl_dat_hdf5(whole, wn, 2, "double", file, "p_x");
  const double *x = (const double *)wx->slice;
  double *xc = malloc(sizeof(double) * 2 * (size_t)(a->cells->slice_size ? a->cells->slice_size : 1));
  for (int c = 0; c < a->cells->slice_size; c++) {
    xc[2 * c] = xc[2 * c + 1] = 0.0;
    for (int k = 0; k < 4; k++) {
      int n = a->pcell->slice[4 * c + k];
      xc[2 * c] += 0.25 * x[2 * n];
      xc[2 * c + 1] += 0.25 * x[2 * n + 1];
    }
  }
  a->p_xc = op_mpi_decl_dat(m, a->cells, 2, OP_TYPE_DOUBLE, xc, "p_xc");
  free(xc);
  op_mpi_mesh_free(whole);
}

void test_grid_make(test_grid *g, MPI_Comm comm, int nx, int ny) {
  memset(g, 0, sizeof *g);
  g->nx = nx;
  g->ny = ny;
  op_mpi_mesh m = g->m = op_mpi_mesh_create(comm);
  if (nx < 1 || ny < 1 || (nx + 2) > INT_MAX / (ny + 2)) {
    fprintf(stderr, "test grid: %d x %d cells: need at least 1 x 1, and fewer than an int holds\n",
            nx, ny);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  /* Heat's numbering (meshes/structured_grid.h, one ghost layer): ex = nx + 2
   * cells a row, row-major, i fastest; interior cell (i, j) is cell
   * (j + 1) * ex + (i + 1). The library's tests keep their own grid so that
   * they use nothing above the library. */
  const int ex = nx + 2, ncells = ex * (ny + 2), ninterior = nx * ny;
  int c0, nc, i0, ni;
  op_mpi_slice(ncells, m->nprocs, m->rank, &c0, &nc);
  op_mpi_slice(ninterior, m->nprocs, m->rank, &i0, &ni);
  g->cells = op_mpi_decl_set(m, nc, "cells");
  g->interior = op_mpi_decl_set(m, ni, "interior");
  /* This process's rows of the 5-point stencil (self, east, west, north,
   * south), generated for its slice only. */
  int *rows = malloc(sizeof(int) * 5 * (size_t)(ni ? ni : 1));
  if (!rows) {
    fprintf(stderr, "test grid: out of memory for %d stencil rows\n", ni);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  for (int k = 0; k < ni; k++) {
    const int n = i0 + k, c = (n / nx + 1) * ex + (n % nx + 1);
    const int row[5] = {c, c + 1, c - 1, c + ex, c - ex};
    memcpy(rows + 5 * (size_t)k, row, sizeof row);
  }
  g->stencil = op_mpi_decl_map(m, g->interior, g->cells, 5, rows, "stencil");
  free(rows);
  double *xc = malloc(sizeof(double) * 2 * (size_t)(nc ? nc : 1));
  for (int k = 0; k < nc; k++) {
    int c = c0 + k;
    xc[2 * k] = (c % ex) - 0.5; /* cell (i, j) sits at (i + 0.5, j + 0.5), ghosts included */
    xc[2 * k + 1] = (c / ex) - 0.5;
  }
  g->xc = op_mpi_decl_dat(m, g->cells, 2, OP_TYPE_DOUBLE, xc, "xc");
  free(xc);
}

static void split(const char *name, char *lib, char *routine) {
  const char *colon = strchr(name, ':');
  size_t n = colon ? (size_t)(colon - name) : strlen(name);
  snprintf(lib, 32, "%.*s", (int)n, name);
  snprintf(routine, 32, "%s", colon ? colon + 1 : "");
}

void test_airfoil_distribute(test_airfoil *a, const char *partitioner, FILE *out) {
  char lib[32], routine[32];
  split(partitioner, lib, routine);
  op_mpi_distribute(a->m, lib, routine, a->cells, a->pecell, a->p_xc, out);
}

void test_grid_distribute(test_grid *g, const char *partitioner, FILE *out) {
  char lib[32], routine[32];
  split(partitioner, lib, routine);
  op_mpi_distribute(g->m, lib, routine, g->cells, g->stencil, g->xc, out);
}
