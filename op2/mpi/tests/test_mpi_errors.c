/*
 * test_mpi_errors.c - bad input and failed calls end the whole job with a
 * message from the process that saw them and a non-zero status (ctest runs
 * each case through expect_abort.sh, with a time limit: no process may be
 * left waiting).
 *
 * usage: test_mpi_errors CASE [FILE.h5 | DIR]
 *   too-many     a set of 3 cells on more processes than cells
 *   missing-file the last rank is given a file that does not exist
 *   bad-graph    PT-Scotch given an inconsistent graph (its check fails)
 *   nan-coords   RCB given a coordinate that is not a number
 *   unknown      a partitioner that does not exist
 *   map-range    a map in a file with an entry beyond its target set (DIR: where to write it)
 *   decl-map-range  the same map declared from memory (op_mpi_decl_map)
 *   mpi-call     an MPI call that fails (a send to a rank that does not exist)
 */
#include <math.h>
#include <string.h>

#include <hdf5.h>

#include "mpi_test_mesh.h"
#include "op_mpi_check.h"
#include "op_mpi_halo.h"
#include "op_mpi_hdf5.h"
#include "op_mpi_partition.h"

/* A file with cells (4), nodes (5) and pcell (cells -> nodes, dim 1) whose
 * entry 2 is 7, written by rank 0 alone. */
static void write_bad_map_file(const char *path) {
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) MPI_Abort(MPI_COMM_WORLD, 1);
  int cells = 4, nodes = 5, pcell[4] = {0, 1, 7, 3};
  hsize_t one = 1, four[2] = {4, 1};
  hid_t s1 = H5Screate_simple(1, &one, NULL), s4 = H5Screate_simple(2, four, NULL);
  hid_t d;
  d = H5Dcreate2(f, "cells", H5T_STD_I32LE, s1, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &cells);
  H5Dclose(d);
  d = H5Dcreate2(f, "nodes", H5T_STD_I32LE, s1, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &nodes);
  H5Dclose(d);
  d = H5Dcreate2(f, "pcell", H5T_STD_I32LE, s4, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, pcell);
  H5Dclose(d);
  H5Sclose(s1);
  H5Sclose(s4);
  if (H5Fclose(f) < 0) MPI_Abort(MPI_COMM_WORLD, 1);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);
  const char *what = argc > 1 ? argv[1] : "";
  const char *arg = argc > 2 ? argv[2] : "";

  if (!strcmp(what, "too-many")) {
    op_mpi_mesh m = op_mpi_mesh_create(MPI_COMM_WORLD);
    int s0, n;
    op_mpi_slice(3, P, rank, &s0, &n);
    op_mpi_set cells = op_mpi_decl_set(m, n, "cells");
    op_mpi_distribute(m, "BLOCK", "BLOCK", cells, NULL, NULL, stdout);
  } else if (!strcmp(what, "missing-file")) {
    test_airfoil a;
    test_airfoil_read(&a, MPI_COMM_WORLD, rank == P - 1 ? "no-such-dir/airfoil.h5" : arg);
  } else if (!strcmp(what, "bad-graph")) {
    /* Vertex 0 names 1 as a neighbour; 1 does not name 0 back. */
    int n = rank == 0 ? 2 : 0;
    int *vtxdist = malloc(sizeof(int) * (size_t)(P + 1));
    for (int r = 0; r <= P; r++) vtxdist[r] = r == 0 ? 0 : 2;
    int xadj[3] = {0, 1, 1}, adjncy[1] = {1}, part[2];
    op_mpi_part_input in = {"bad", n, vtxdist, xadj, adjncy, 0, NULL};
    op_mpi_part_ptscotch(MPI_COMM_WORLD, &in, 2, part);
  } else if (!strcmp(what, "nan-coords")) {
    test_grid g;
    test_grid_make(&g, MPI_COMM_WORLD, 5, 4);
    if (rank == 0 && g.xc->set->slice_size > 0) ((double *)g.xc->slice)[1] = NAN;
    test_grid_distribute(&g, "GEOM:RCB", stdout);
  } else if (!strcmp(what, "unknown")) {
    test_grid g;
    test_grid_make(&g, MPI_COMM_WORLD, 5, 4);
    test_grid_distribute(&g, "PARMETIS:KWAY", stdout);
  } else if (!strcmp(what, "map-range")) {
    char path[1024];
    snprintf(path, sizeof path, "%s/bad_map.h5", arg);
    if (rank == 0) write_bad_map_file(path);
    MPI_Barrier(MPI_COMM_WORLD);
    op_mpi_mesh m = op_mpi_mesh_create(MPI_COMM_WORLD);
    op_mpi_set cells = op_mpi_decl_set_hdf5(m, path, "cells");
    op_mpi_set nodes = op_mpi_decl_set_hdf5(m, path, "nodes");
    op_mpi_decl_map_hdf5(m, cells, nodes, 1, path, "pcell");
  } else if (!strcmp(what, "decl-map-range")) {
    op_mpi_mesh m = op_mpi_mesh_create(MPI_COMM_WORLD);
    const int pcell[4] = {0, 1, 7, 3}; /* the rows of 4 cells, global */
    int c0, nc, n0, nn;
    op_mpi_slice(4, P, rank, &c0, &nc);
    op_mpi_slice(5, P, rank, &n0, &nn);
    op_mpi_set cells = op_mpi_decl_set(m, nc, "cells");
    op_mpi_set nodes = op_mpi_decl_set(m, nn, "nodes");
    op_mpi_decl_map(m, cells, nodes, 1, pcell + c0, "pcell");
  } else if (!strcmp(what, "mpi-call")) {
    op_mpi_mesh m = op_mpi_mesh_create(MPI_COMM_WORLD); /* its communicator returns errors */
    int v = 1;
    if (rank == 0) OP_MPI_CHECK(MPI_Send(&v, 1, MPI_INT, P + 5, 0, m->comm));
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    fprintf(stderr, "test_mpi_errors: unknown case '%s'\n", what);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* Reaching this point means the bad input went through. */
  if (rank == 0) fprintf(stderr, "test_mpi_errors: case '%s' did not fail\n", what);
  MPI_Finalize();
  return 0;
}
