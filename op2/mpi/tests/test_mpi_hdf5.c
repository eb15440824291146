/*
 * test_mpi_hdf5.c - parallel HDF5 in and out.
 *
 * Reads the airfoil mesh in slices, distributes it, computes on it (node
 * degrees: an increment through a map; cell centres' x sums: a read through a
 * map), then writes
 *   OUT     every set, map and dat (op_mpi_dump_hdf5), with each cell's owner,
 *   RESULT  the two computed dats (op_mpi_write_hdf5).
 * ctest compares OUT's mesh objects with the input file, and RESULT between
 * process counts, with h5diff: both must match exactly, whatever the process
 * count and the partition. The degrees are also checked here against the
 * whole mesh.
 *
 * With "atomic" after the files, it then writes RESULT again with a dat
 * named twice: the job must abort, and RESULT must still be the good one.
 *
 * usage: test_mpi_hdf5 LIB:ROUTINE IN.h5 OUT.h5 RESULT.h5 [atomic]
 */
#include <string.h>

#include "mpi_test_mesh.h"
#include "op_mpi_exchange.h"
#include "op_mpi_hdf5.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  if (argc < 5) {
    fprintf(stderr, "usage: test_mpi_hdf5 LIB:ROUTINE IN.h5 OUT.h5 RESULT.h5 [atomic]\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  test_airfoil a, w;
  test_airfoil_read(&a, MPI_COMM_WORLD, argv[2]);
  test_airfoil_read(&w, MPI_COMM_SELF, argv[2]);
  op_mpi_dat deg = op_mpi_decl_dat(a.m, a.nodes, 1, OP_TYPE_INT, NULL, "deg");
  op_mpi_dat xsum = op_mpi_decl_dat(a.m, a.cells, 1, OP_TYPE_DOUBLE, NULL, "xsum");
  op_mpi_dat owner = op_mpi_decl_dat(a.m, a.cells, 1, OP_TYPE_INT, NULL, "owner");
  test_airfoil_distribute(&a, argv[1], NULL);
  for (int c = 0; c < a.cells->size; c++) ((int *)owner->data)[c] = a.m->rank; /* the partition, for OUT */

  /* deg[n] += 1 per edge end (runs the edges' execute halo). */
  op_mpi_arg ea[1] = {{deg, a.pedge, OP_INC}};
  int n = op_mpi_loop_begin(a.edges, 1, ea);
  op_mpi_loop_wait(1, ea);
  int *dg = (int *)deg->data;
  for (int e = 0; e < n; e++) dg[a.pedge->map[2 * e]]++, dg[a.pedge->map[2 * e + 1]]++;
  op_mpi_loop_end(1, ea);
  /* xsum[c] = sum of its nodes' x (reads p_x's halo). */
  op_mpi_arg ca[2] = {{a.p_x, a.pcell, OP_READ}, {xsum, NULL, OP_WRITE}};
  n = op_mpi_loop_begin(a.cells, 2, ca);
  op_mpi_loop_wait(2, ca);
  const double *x = (const double *)a.p_x->data;
  for (int c = 0; c < n; c++) {
    double s = 0;
    for (int k = 0; k < 4; k++) s += x[2 * a.pcell->map[4 * c + k]];
    ((double *)xsum->data)[c] = s;
  }
  op_mpi_loop_end(2, ca);

  /* Degrees against the whole mesh. */
  int *want = calloc((size_t)w.nodes->slice_size + 1, sizeof(int));
  for (int e = 0; e < w.edges->slice_size; e++) want[w.pedge->slice[2 * e]]++, want[w.pedge->slice[2 * e + 1]]++;
  for (int i = 0; i < a.nodes->size; i++)
    CHECK(dg[i] == want[a.nodes->gid[i]], "node %d: degree %d, whole mesh %d", a.nodes->gid[i],
          dg[i], want[a.nodes->gid[i]]);
  free(want);

  op_mpi_dump_hdf5(a.m, argv[3]);
  op_mpi_dat out[2] = {deg, xsum};
  op_mpi_write_hdf5(a.m, argv[4], 0, NULL, 2, out);
  if (argc > 5 && !strcmp(argv[5], "atomic")) {
    op_mpi_dat twice[3] = {deg, xsum, deg};
    op_mpi_write_hdf5(a.m, argv[4], 0, NULL, 3, twice); /* must abort, leaving argv[4] as it was */
    CHECK(0, "writing a dat twice into one file did not fail");
  }
  op_mpi_mesh_free(a.m);
  op_mpi_mesh_free(w.m);
  int rc = check_mpi_exit("test_mpi_hdf5");
  MPI_Finalize();
  return rc;
}
