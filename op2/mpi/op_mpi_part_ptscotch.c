/*
 * op_mpi_part_ptscotch.c - PT-Scotch k-way partitioning of a distributed graph.
 *
 * The graph is checked by PT-Scotch before it is partitioned (an inconsistent
 * graph is a partitioner failure, reported like any failed call). The run is
 * made reproducible with a Scotch context that is deterministic and seeded
 * with a fixed value, and the global random state is reset first, so that
 * the same graph on the same number of processes gives the same parts.
 *
 * The context also holds PT-Scotch to one thread per process: its threaded
 * algorithms call MPI from several threads at once, which needs
 * MPI_THREAD_MULTIPLE (without it Open MPI crashed or hung on 4 processes),
 * and the MPI processes are the parallelism here anyway.
 *
 * A big graph is partitioned through a coarser one (op_mpi_graph_coarsen):
 * PT-Scotch's own memory goes with the vertices it is given.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
/* ptscotch.h needs stdio.h and mpi.h first. */
#include <mpi.h>
#include <ptscotch.h>

#include "op_mpi_check.h"
#include "op_mpi_partition.h"

/* Scotch's integers must be ours: the build picks the 32-bit headers. */
_Static_assert(sizeof(SCOTCH_Num) == sizeof(int), "PT-Scotch built with SCOTCH_Num != int");

enum { SCOTCH_SEED = 1 };
/* Load imbalance PT-Scotch may leave (its default is 5%): computing time goes
 * with the largest part. */
#define OP_MPI_SCOTCH_IMBALANCE 0.01

/* PT-Scotch's parts of a graph of n local vertices (vertex and edge weights
 * may be NULL). */
static void scotch_part(MPI_Comm comm, SCOTCH_Num n, const int *xadj,
                        const int *adjncy, const int *vwgt, const int *ewgt, int nparts,
                        int *part) {
  SCOTCH_randomReset();
  SCOTCH_randomSeed(SCOTCH_SEED);
  SCOTCH_Dgraph graph, bound;
  SCOTCH_Context ctx;
  SCOTCH_Strat strat;
  OP_SCOTCH_CHECK(SCOTCH_dgraphInit(&graph, comm));
  SCOTCH_Num narcs = xadj[n];
  /* PT-Scotch takes non-const arrays but does not write them. */
  OP_SCOTCH_CHECK(SCOTCH_dgraphBuild(&graph, 0, n, n, (SCOTCH_Num *)xadj, NULL, (SCOTCH_Num *)vwgt,
                                     NULL, narcs, narcs, (SCOTCH_Num *)adjncy, NULL,
                                     (SCOTCH_Num *)ewgt));
  OP_SCOTCH_CHECK(SCOTCH_dgraphCheck(&graph));

  OP_SCOTCH_CHECK(SCOTCH_contextInit(&ctx));
  OP_SCOTCH_CHECK(SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1));
  OP_SCOTCH_CHECK(SCOTCH_contextOptionSetNum(&ctx, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1));
  SCOTCH_contextRandomSeed(&ctx, SCOTCH_SEED);
  OP_SCOTCH_CHECK(SCOTCH_contextThreadSpawn(&ctx, 1, NULL)); /* one thread: see above */
  OP_SCOTCH_CHECK(SCOTCH_dgraphInit(&bound, comm));
  OP_SCOTCH_CHECK(SCOTCH_contextBindDgraph(&ctx, &graph, &bound));

  OP_SCOTCH_CHECK(SCOTCH_stratInit(&strat));
  int nprocs;
  OP_MPI_CHECK(MPI_Comm_size(comm, &nprocs));
  OP_SCOTCH_CHECK(SCOTCH_stratDgraphMapBuild(&strat, SCOTCH_STRATDEFAULT, nprocs, nparts,
                                             OP_MPI_SCOTCH_IMBALANCE));
  SCOTCH_Num *out = op_mpi_alloc(SCOTCH_Num, n + 1);
  OP_SCOTCH_CHECK(SCOTCH_dgraphPart(&bound, nparts, &strat, out));
  for (SCOTCH_Num i = 0; i < n; i++) part[i] = (int)out[i];
  free(out);
  SCOTCH_stratExit(&strat);
  SCOTCH_dgraphExit(&bound);
  SCOTCH_contextExit(&ctx);
  SCOTCH_dgraphExit(&graph);
}

void op_mpi_part_ptscotch(MPI_Comm comm, const op_mpi_part_input *in, int nparts, int *part) {
  if (!in->xadj || !in->adjncy)
    op_mpi_fatal("PT-Scotch: no graph given for set '%s'", in->set_name);
  const int size = op_mpi_coarsen_size(comm, in, nparts);
  if (size == 1) {
    scotch_part(comm, in->nlocal, in->xadj, in->adjncy, NULL, NULL, nparts, part);
    return;
  }
  /* A big graph: its groups are partitioned, each element in its group's part. */
  op_mpi_coarse c;
  op_mpi_graph_coarsen(comm, in, size, &c);
  int *gpart = op_mpi_alloc(int, c.ngroups + 1);
  scotch_part(comm, c.ngroups, c.xadj, c.adjncy, c.vwgt, c.ewgt, nparts, gpart);
  for (int i = 0; i < in->nlocal; i++) part[i] = gpart[c.group[i]];
  free(gpart);
  op_mpi_coarse_free(&c);
}
