/*
 * op_mpi_census.h - the halos of every part of a partitioned mesh, counted
 * on one process without distributing it (for the partition model: how a
 * run on thousands of processes would communicate, from the partition
 * alone). It applies the definitions of op_mpi_halo.h to all parts at once;
 * the mpi tests check it against the halos op_mpi_halo_create builds, and
 * its edge cut against op_mpi_edge_cut's. Memory: the mesh and an inverse of
 * the maps into one set at a time; time: a few passes over the mesh.
 */
#ifndef OP_MPI_CENSUS_H
#define OP_MPI_CENSUS_H

#include "op_mpi_mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int nparts, nsets;
  /* Per set s and part p, entry [s * nparts + p]: */
  int *owned;     /* elements of s the part owns */
  int *exec;      /* its execute halo of s */
  int *nonexec;   /* its non-execute halo of s */
  int *recv_from; /* parts it receives halo rows of s from */
  int *send_to;   /* parts it sends rows of s to */
  int *sent;      /* rows of s it sends (summed over neighbours) */
  long long edge_cut; /* of cut_map's graph (op_mpi_edge_cut's count); -1 without one */
} op_mpi_census;

/* m partitioned (op_mpi_partition_parts, any number of parts), on one
 * process; cut_map (or NULL): the map whose graph's edge cut to count. */
void op_mpi_census_take(op_mpi_mesh m, op_mpi_map cut_map, op_mpi_census *c);
void op_mpi_census_free(op_mpi_census *c);

#ifdef __cplusplus
}
#endif

#endif /* OP_MPI_CENSUS_H */
