/*
 * mpi_test_mesh.h - what the mpi tests share: the checks of test_check_mpi.h
 * (a failure names its rank; check_mpi_exit), and the two test meshes,
 * declared in slices on a communicator:
 *  - the airfoil C-mesh from an HDF5 file in OP2's layout (nodes, edges,
 *    bedges, cells; pedge, pecell, pbedge, pbecell, pcell; p_x, p_bound),
 *    plus cell centres (p_xc) for geometric partitioning;
 *  - a structured grid, heat's layout: cells with one ghost layer, the
 *    interior, the 5-point stencil interior -> cells (generated per slice),
 *    and cell centres.
 * A mesh on MPI_COMM_SELF holds everything: the tests' serial reference.
 */
#ifndef MPI_TEST_MESH_H
#define MPI_TEST_MESH_H

#include <stdio.h>
#include <stdlib.h>

#include "op_mpi_mesh.h"
#include "test_check_mpi.h"

typedef struct {
  op_mpi_mesh m;
  op_mpi_set nodes, edges, bedges, cells;
  op_mpi_map pedge, pecell, pbedge, pbecell, pcell;
  op_mpi_dat p_x, p_bound, p_xc;
} test_airfoil;

/* Reads file on comm; p_xc computed from the nodes of each cell (which may
 * lie on other processes: looked up through the file on this process). */
void test_airfoil_read(test_airfoil *a, MPI_Comm comm, const char *file);

typedef struct {
  op_mpi_mesh m;
  int nx, ny;
  op_mpi_set cells, interior;
  op_mpi_map stencil;
  op_mpi_dat xc;  /* cell centres, ghosts included */
} test_grid;

void test_grid_make(test_grid *g, MPI_Comm comm, int nx, int ny);

/* "PTSCOTCH:KWAY" -> partitions the mesh with that partitioner, using the
 * test mesh's natural primary map and coordinates. */
void test_airfoil_distribute(test_airfoil *a, const char *partitioner, FILE *out);
void test_grid_distribute(test_grid *g, const char *partitioner, FILE *out);

#endif /* MPI_TEST_MESH_H */
