//
// mpiprog - an application that uses MPI itself, as OP2's *_mpi.cpp sources
// do: it includes mpi.h and OP2's op_lib_mpi.h and op_util.h, makes the mesh
// on rank MPI_ROOT, scatters every process its share (compute_local_size),
// declares the shares, and then either asks op_partition for a partitioner
// this layer does not have (OP2's ParMETIS: argument "parmetis") or calls
// op_halo_create (argument "halo"): each time every process keeps the
// elements it declared, as OP2 does. Before that it dumps the mesh with
// op_dump_to_hdf5 (as OP2's aero write_hdf5 does before any partition) into
// the file its second argument names, and reads the map back. A loop over the
// edges (its kernel defined here) then needs the halos; a temporary dat is
// freed on every process. Prints "mpiprog: PASSED" when every check holds.
//
// Usage: mpiprog parmetis|halo DUMP.h5
//
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_lib_mpi.h"
#include "op_util.h"
#include "op_seq.h"

#define N 50 // nodes of a ring, and as many edges

inline void add_weight(const double *w, double *a, double *b) {
  *a += *w;
  *b += *w;
}

static int failures = 0;

static void check(int ok, const char *what) {
  if (!ok) {
    printf("mpiprog: FAILED on rank %d: %s\n", op_rank(), what);
    failures++;
  }
}

static void scatter(const void *all, void *mine, int dim, MPI_Datatype type, int size, int nprocs) {
  int *counts = (int *)malloc(sizeof(int) * nprocs), *displs = (int *)malloc(sizeof(int) * nprocs);
  for (int r = 0, at = 0; r < nprocs; r++) {
    counts[r] = dim * compute_local_size(N, nprocs, r);
    displs[r] = at;
    at += counts[r];
  }
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Scatterv(all, counts, displs, type, mine, counts[rank], type, MPI_ROOT, MPI_COMM_WORLD);
  (void)size;
  free(counts);
  free(displs);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  if (argc < 3) {
    op_printf("usage: mpiprog parmetis|halo DUMP.h5\n");
    op_exit();
    return 2;
  }
  const char *mode = argv[1], *dump = argv[2];
  int rank, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  check(MPI_ROOT == 0, "op_lib_mpi.h makes MPI_ROOT rank 0");

  int *g_edge = NULL;
  double *g_w = NULL;
  if (rank == MPI_ROOT) {
    g_edge = (int *)malloc(sizeof(int) * 2 * N);
    g_w = (double *)malloc(sizeof(double) * N);
    for (int e = 0; e < N; e++) {
      g_edge[2 * e] = e;
      g_edge[2 * e + 1] = (e + 1) % N;
      g_w[e] = e + 1;
    }
  }
  const int n = compute_local_size(N, nprocs, rank);
  int *edge = (int *)malloc(sizeof(int) * 2 * (n ? n : 1));
  double *w = (double *)malloc(sizeof(double) * (n ? n : 1));
  scatter(g_edge, edge, 2, MPI_INT, N, nprocs);
  scatter(g_w, w, 1, MPI_DOUBLE, N, nprocs);
  free(g_edge);
  free(g_w);

  op_set nodes = op_decl_set(n, "nodes");
  op_set edges = op_decl_set(n, "edges");
  op_map pedge = op_decl_map(edges, nodes, 2, edge, "pedge");
  op_dat p_w = op_decl_dat(edges, 1, "double", w, "p_w");
  op_dump_to_hdf5(dump);
  int back[2 * N];
  char err[OP_IO_ERRLEN];
  check(op_hdf5_read_dataset(dump, "pedge", "int", N, 2, back, err, sizeof err) == OP_IO_OK,
        "the dump made before the partition can be read");
  int wrong_rows = 0;
  for (int e = 0; e < N; e++) wrong_rows += back[2 * e] != e || back[2 * e + 1] != (e + 1) % N;
  check(wrong_rows == 0, "the dump before the partition holds every edge in global order");
  if (!strcmp(mode, "halo"))
    op_halo_create();
  else
    op_partition("PARMETIS", "KWAY", edges, pedge, NULL);
  op_halo_create(); /* after the partition: nothing more to do */
  check(nodes->size == n && edges->size == n, "every process keeps the elements it declared");

  op_dat p_sum = op_decl_dat_temp(nodes, 1, "double", (double *)NULL, "p_sum");
  op_par_loop(add_weight, "add_weight", edges, op_arg_dat(p_w, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(p_sum, 0, pedge, 1, "double", OP_INC),
              op_arg_dat(p_sum, 1, pedge, 1, "double", OP_INC));
  const double *sum = (const double *)op_fetch_data_global(p_sum);
  if (op_is_root()) {
    int wrong = 0;
    for (int k = 0; k < N; k++) wrong += sum[k] != (k + 1) + (k == 0 ? N : k);
    check(wrong == 0, "each node's sum of the weights of its two edges");
  }
  check(op_free_dat_temp(p_sum) == 1, "op_free_dat_temp on every process");
  int all_failures = 0;
  MPI_Allreduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == MPI_ROOT && all_failures == 0) printf("mpiprog: PASSED\n");
  free(edge);
  free(w);
  op_exit();
  return all_failures == 0 ? 0 : 1;
}
