/*
 * op_mpi_hdf5.h - a distributed mesh from and to HDF5 files in OP2's layout
 * (op2/io/op_hdf5.h), through parallel HDF5 (MPI-IO).
 *
 * Reading: each process reads only its slice (op_mpi_slice: balanced
 * contiguous rows) of each dataset, collectively. Every value is checked
 * before use: shapes against the declaration, map entries against the size
 * of their target set. A file that one process cannot read ends the job with
 * a message from that process naming the file.
 *
 * Writing: every process sends its owned rows to the process whose balanced
 * slice holds them, and the slices are written collectively, in the global
 * (user's) numbering, so the file holds the same data whatever the number of
 * processes and the partition. The file is written as FILE.tmp and renamed to
 * FILE by rank 0 after every process has finished writing, so a failed or
 * killed run never leaves a partial FILE in place of the last good one.
 *
 * Layout written (as op2/io writes it): a set is a one-element int dataset
 * holding its size; a map is int [from size, dim] with attributes dim, type,
 * from, to; a dat is [set size, dim] of its type with attributes dim, type, set.
 */
#ifndef OP_MPI_HDF5_H
#define OP_MPI_HDF5_H

#include "op_mpi_mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* OP2's op_decl_set_hdf5, op_decl_map_hdf5, op_decl_dat_hdf5, distributed:
 * collective; each declares this process's slice. */
op_mpi_set op_mpi_decl_set_hdf5(op_mpi_mesh m, const char *file, const char *name);
op_mpi_map op_mpi_decl_map_hdf5(op_mpi_mesh m, op_mpi_set from, op_mpi_set to, int dim,
                                const char *file, const char *name);
op_mpi_dat op_mpi_decl_dat_hdf5(op_mpi_mesh m, op_mpi_set set, int dim, const char *type,
                                const char *file, const char *name);

/* Reads dataset `name` of file ([global size, dim] of d's type: a dat written
 * in global order, e.g. a checkpoint from any number of processes) into
 * `owned`: a row for each element d's process owns, in its local order. Each
 * process reads its slice collectively and sends every row to its owner.
 * Collective; an error ends the job naming the file and dataset. */
void op_mpi_read_dat_rows(op_mpi_mesh m, op_mpi_dat d, const char *file, const char *name,
                          void *owned);

/* Writes FILE atomically: the sizes of the sets of the given maps and dats,
 * then the maps and dats (in that order), in global numbering. The mesh must
 * be distributed. Collective. */
void op_mpi_write_hdf5(op_mpi_mesh m, const char *file, int nmaps, const op_mpi_map *maps,
                       int ndats, const op_mpi_dat *dats);
/* Every set, map and dat of the mesh (OP2's op_dump_to_hdf5). */
void op_mpi_dump_hdf5(op_mpi_mesh m, const char *file);

#ifdef __cplusplus
}
#endif

#endif /* OP_MPI_HDF5_H */
