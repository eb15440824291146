/*
 * op_mpi_mesh.h - a mesh distributed over the processes of a communicator:
 * the sets, maps and dats of an OP2 program, held in pieces.
 *
 * Life of a distributed mesh (every call is collective, in the same order on
 * every process, as OP2's declarations are):
 *
 *  1. declared in slices: each process declares the contiguous range of
 *     global element numbers it read or generated (op_mpi_decl_set with its
 *     slice size; op_mpi_slice picks balanced slices), with the map rows
 *     (entries in global numbers) and dat rows of its slice. No process ever
 *     holds a whole set.
 *  2. partitioned (op_mpi_partition.h): every element of every set is given
 *     the process that will own it.
 *  3. migrated and given halos (op_mpi_halo.h): each process holds the
 *     elements it owns plus OP2's import halos, in OP2's local numbering:
 *
 *       [0, core_size)               owned, touching no halo element
 *       [core_size, size)            owned, exported to a neighbour's exec halo
 *       [size, size + exec_size)     execute halo: others' elements this process
 *                                    computes redundantly, so that its own
 *                                    elements receive every increment
 *       [.. + nonexec_size)          non-execute halo: others' elements it reads
 *
 *     map rows exist for owned and exec elements and hold local indices; dats
 *     hold rows for all local elements.
 *
 * Global numbers are the user's numbering (the order of the file or of the
 * generator), kept in set->gid so that output is written in that order.
 */
#ifndef OP_MPI_MESH_H
#define OP_MPI_MESH_H

#include <mpi.h>
#include <stddef.h>

#include "op2.h" /* op_type, op_access */

#ifdef __cplusplus
extern "C" {
#endif

/* Elements of one set sent to, or received from, each neighbour. */
typedef struct {
  int nranks;  /* neighbours */
  int *ranks;  /* their ranks, ascending */
  int *offset; /* nranks + 1: neighbour i's elements are list[offset[i] .. offset[i + 1]) */
  int *list;   /* local element indices */
} op_mpi_halo_list;

/* Where a stage of the mesh stands (each call checks it is called in order). */
typedef enum {
  OP_MPI_DECLARED = 0,   /* slices only */
  OP_MPI_PARTITIONED,    /* set->part filled */
  OP_MPI_DISTRIBUTED     /* migrated, halos built, local numbering */
} op_mpi_stage;

struct op_mpi_mesh_core;

typedef struct op_mpi_set_core {
  struct op_mpi_mesh_core *mesh;
  int index;
  char *name;
  int global_size;
  /* The slice declared here: global numbers [slice_start, slice_start + slice_size). */
  int slice_start, slice_size;
  int *slice_starts; /* nprocs + 1: every process's slice start, for owner look-ups */
  int *part;         /* slice_size: the process each slice element goes to (after partitioning) */
  /* Local elements (after distribution), OP2's names: */
  int core_size, size, exec_size, nonexec_size;
  int *gid; /* size + exec_size + nonexec_size: the global number of each local element */
  op_mpi_halo_list exp_exec, imp_exec, exp_nonexec, imp_nonexec;
  struct op_mpi_exchange_plan *plan; /* per neighbour: what a dat's exchange sends and receives */
  long long exchanges, messages, bytes; /* of this set's dats, started here so far */
} *op_mpi_set;

typedef struct op_mpi_map_core {
  int index;
  char *name;
  op_mpi_set from, to;
  int dim;
  int *slice; /* declared: from->slice_size * dim global numbers; freed when distributed */
  int *map;   /* distributed: (from->size + from->exec_size) * dim local indices into `to` */
} *op_mpi_map;

typedef struct op_mpi_dat_core {
  int index;
  char *name;
  op_mpi_set set;
  int dim;
  op_type type;
  size_t size; /* bytes per element: dim * bytes of the type */
  char *slice; /* declared: set->slice_size rows; freed when distributed */
  char *data;  /* distributed: rows of every local element (owned, exec, non-exec) */
  int dirty;   /* 1 when the halo rows may be stale (a loop wrote the dat since the last exchange) */
  struct op_mpi_exchange_state *xs; /* a halo exchange in flight, or NULL (op_mpi_exchange.c) */
} *op_mpi_dat;

typedef struct op_mpi_mesh_core {
  MPI_Comm comm; /* a duplicate of the caller's, errors returned to OP_MPI_CHECK */
  int rank, nprocs;
  op_mpi_stage stage;
  int nsets, nmaps, ndats; /* dats[i] is NULL where a dat was freed (op_mpi_free_dat) */
  op_mpi_set *sets;
  op_mpi_map *maps;
  op_mpi_dat *dats;
  /* How it was partitioned (op_mpi_partition_parts), for the summary. */
  char partitioner[64]; /* "PTSCOTCH KWAY", ... */
  op_mpi_set prime;     /* the set the partitioner split */
  int nparts;
  long long edge_cut;   /* of the graph: the adjacency given, else the primary map's; -1 without either */
} *op_mpi_mesh;

/* ---- life cycle ----------------------------------------------------------- */

op_mpi_mesh op_mpi_mesh_create(MPI_Comm comm);
void op_mpi_mesh_free(op_mpi_mesh m);

/* ---- slices ---------------------------------------------------------------- */

/* The balanced contiguous slice of n elements for process rank of nprocs: the
 * first n % nprocs processes get one element more. */
void op_mpi_slice(int n, int nprocs, int rank, int *start, int *count);
/* The process whose slice holds global number g (starts: nprocs + 1 entries). */
int op_mpi_slice_owner(const int *starts, int nprocs, int g);

/* ---- declarations (collective, same order everywhere) ---------------------- */

/* slice_size: the elements this process declares; the global numbers follow
 * in rank order. The global size must fit in an int. */
op_mpi_set op_mpi_decl_set(op_mpi_mesh m, int slice_size, const char *name);
/* rows: from->slice_size * dim global numbers of `to` (copied; every entry is
 * range-checked, an entry out of range is reported with its global row). */
op_mpi_map op_mpi_decl_map(op_mpi_mesh m, op_mpi_set from, op_mpi_set to, int dim,
                           const int *rows, const char *name);
/* rows: set->slice_size * dim values of `type` (copied); NULL: zero. */
op_mpi_dat op_mpi_decl_dat(op_mpi_mesh m, op_mpi_set set, int dim, op_type type,
                           const void *rows, const char *name);
/* The same two, taking rows over instead of copying them (freed with free()
 * by the mesh): an array the caller built need not exist twice. */
op_mpi_map op_mpi_decl_map_take(op_mpi_mesh m, op_mpi_set from, op_mpi_set to, int dim, int *rows,
                                const char *name);
op_mpi_dat op_mpi_decl_dat_take(op_mpi_mesh m, op_mpi_set set, int dim, op_type type, void *rows,
                                const char *name);
/* Before the mesh is distributed: a slice's rows replaced by rows of the
 * same size, taken over (the application replaced the array the core shows,
 * OP2's map->map or dat->data, having freed the one it replaced); a map's
 * entries are checked as when declared. */
void op_mpi_map_replace_slice(op_mpi_mesh m, op_mpi_map p, int *rows);
void op_mpi_dat_replace_slice(op_mpi_mesh m, op_mpi_dat d, void *rows);

/* A zeroed dat on a set of a mesh that is already distributed (a temporary
 * declared after the partition): rows for every local element, halos fresh. */
op_mpi_dat op_mpi_decl_dat_distributed(op_mpi_mesh m, op_mpi_set set, int dim, op_type type,
                                       const char *name);

/* Frees a dat of the mesh (no exchange of it in flight): its rows and name;
 * its index is given to the next dat declared (op_free_dat_temp). */
void op_mpi_free_dat(op_mpi_mesh m, op_mpi_dat d);

op_mpi_set op_mpi_find_set(op_mpi_mesh m, const char *name);
op_mpi_map op_mpi_find_map(op_mpi_mesh m, const char *name);
op_mpi_dat op_mpi_find_dat(op_mpi_mesh m, const char *name);

#ifdef __cplusplus
}
#endif

#endif /* OP_MPI_MESH_H */
