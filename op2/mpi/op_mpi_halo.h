/*
 * op_mpi_halo.h - from a partitioned mesh to OP2's distributed one: elements
 * moved to their owners, halos built, everything renumbered locally.
 *
 * The halos, per set S (OP2's definitions):
 *  - execute halo of S on process p: elements of S owned elsewhere that a
 *    map takes to an element p owns. p runs them too, so that every increment
 *    into its own elements is made on p (loops that write through a map run
 *    over owned + execute halo);
 *  - non-execute halo of S on p: elements of S owned elsewhere, not in the
 *    execute halo, that the rows p runs (owned and execute halo, of any set)
 *    name. p only reads them.
 * Owned elements are numbered core first (no map entry leaves the process:
 * they can run while halos are in flight), then the rest; each group in
 * global order. Halo elements follow, grouped by the process they come from.
 */
#ifndef OP_MPI_HALO_H
#define OP_MPI_HALO_H

#include <stdio.h>

#include "op_mpi_mesh.h"
#include "op_mpi_partition.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Moves every element to its part (needs nparts == nprocs), builds the halos
 * and the local numbering, translates the maps to local indices, and fills
 * every dat's halo. The mesh is then OP_MPI_DISTRIBUTED. */
void op_mpi_halo_create(op_mpi_mesh m);

/* op_mpi_partition_parts for one part per process, op_mpi_halo_create, and,
 * when out is not NULL, the summary printed by rank 0 on out. */
void op_mpi_distribute(op_mpi_mesh m, const char *lib, const char *routine, op_mpi_set set,
                       op_mpi_map map, op_mpi_dat coords, FILE *out);

/* The same, with what the mesh offers the partitioners (op_mpi_partition.h). */
void op_mpi_distribute_mesh(op_mpi_mesh m, const char *lib, const char *routine,
                            const op_mpi_part_mesh *pm, FILE *out);

/* Rank 0 prints, per set, each process's owned (core), execute and
 * non-execute halo sizes and neighbours, then the partitioner, the edge cut
 * and the imbalance (largest part of the primary set over the mean). */
void op_mpi_print_summary(op_mpi_mesh m, FILE *out);

/* Local index of global number g of set s (owned or halo), or -1. */
int op_mpi_local_index(op_mpi_set s, int g);

#ifdef __cplusplus
}
#endif

#endif /* OP_MPI_HALO_H */
