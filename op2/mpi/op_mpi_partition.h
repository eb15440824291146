/*
 * op_mpi_partition.h - partitioners behind one interface, chosen by name at
 * run time (as PETSc chooses a type), and the partitioning of a whole mesh.
 *
 *   lib         routine   partitions              from
 *   "PTSCOTCH"  "KWAY"    map->to                 the graph of map->to: two elements are
 *                                                 adjacent when one row of map holds both
 *                                                 (OP2's rule: cells sharing an edge)
 *   "GEOM"      "RCB"     coords->set             recursive coordinate bisection of coords
 *   "BLOCK"     "BLOCK"   set                     contiguous blocks of global numbers
 *
 * (the names of OP2's op_partition(lib, routine, set, map, coords); routine
 * NULL or "" picks the library's first routine). The partitioner decides the
 * parts of one set, the primary set; every other set follows through the
 * maps, nearest first, as OP2 does: a set with a map into a partitioned set
 * takes, per element, the part most of its map entries are in; a set that a
 * partitioned set maps into gives each element the part most of the rows
 * naming it are in (ties: the lowest part; elements no row names, and sets no
 * map connects, are split in blocks).
 *
 * Deterministic: the same mesh on the same number of processes gives the same
 * parts every run (PT-Scotch with a fixed seed and its deterministic option,
 * RCB with ties broken by global number, blocks by arithmetic).
 */
#ifndef OP_MPI_PARTITION_H
#define OP_MPI_PARTITION_H

#include "op_mpi_mesh.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a partitioner is given: one set, held in slices. */
typedef struct {
  const char *set_name; /* for messages */
  int nlocal;           /* elements in this process's slice */
  const int *vtxdist;   /* nprocs + 1: the slices' first global numbers */
  const int *xadj;      /* graph (or NULL): nlocal + 1 offsets into adjncy */
  const int *adjncy;    /* global numbers of the neighbours; symmetric, no self loops */
  int cdim;             /* coordinates (or 0): values per element */
  const double *coords; /* nlocal * cdim */
} op_mpi_part_input;

enum { OP_MPI_NEEDS_GRAPH = 1, OP_MPI_NEEDS_COORDS = 2 };

/* Fills part[i] in [0, nparts) for each of the nlocal slice elements. */
typedef void (*op_mpi_part_fn)(MPI_Comm comm, const op_mpi_part_input *in, int nparts, int *part);

typedef struct {
  const char *lib, *routine;
  int needs; /* OP_MPI_NEEDS_* */
  op_mpi_part_fn fn;
  const char *what; /* one line for listings */
} op_mpi_partitioner;

/* The registered partitioners; NULL when none has that name. */
const op_mpi_partitioner *op_mpi_partitioner_find(const char *lib, const char *routine);
int op_mpi_num_partitioners(void);
const op_mpi_partitioner *op_mpi_partitioner_at(int i);

void op_mpi_part_block(MPI_Comm comm, const op_mpi_part_input *in, int nparts, int *part);
void op_mpi_part_rcb(MPI_Comm comm, const op_mpi_part_input *in, int nparts, int *part);
void op_mpi_part_ptscotch(MPI_Comm comm, const op_mpi_part_input *in, int nparts, int *part);

/* The graph of map->to over its slices (see the table above): malloc'd CSR,
 * neighbours of each element sorted ascending. */
void op_mpi_graph_build(op_mpi_mesh m, op_mpi_map map, int **xadj, int **adjncy);

/* A big graph made coarser for PT-Scotch (op_mpi_graph.c): elements grouped
 * into compact patches of at most `size`, the groups the vertices. */
typedef struct {
  int ngroups;          /* this process's groups */
  int *group;           /* nlocal: each slice element's group (0 .. ngroups - 1) */
  int *vtxdist;         /* nprocs + 1: the groups' global numbering, by process */
  int *xadj, *adjncy;   /* the groups' graph (global group numbers), sorted */
  int *vwgt, *ewgt;     /* elements in each group; arcs between two groups */
} op_mpi_coarse;
/* The group size for in's graph split into nparts (1: leave it alone). Collective. */
int op_mpi_coarsen_size(MPI_Comm comm, const op_mpi_part_input *in, int nparts);
void op_mpi_graph_coarsen(MPI_Comm comm, const op_mpi_part_input *in, int size, op_mpi_coarse *c);
void op_mpi_coarse_free(op_mpi_coarse *c);

/* The graph of a set given by a function of global numbers (op_mesh_geometry's
 * adjacent, op2.h): the same CSR as op_mpi_graph_build, for the set's slice,
 * each list sorted; a neighbour out of range, the element itself or more than
 * max_adjacent of them is an error naming the set and element. */
void op_mpi_graph_from_fn(op_mpi_set s, int max_adjacent, int (*adjacent)(int g, int *out, void *ctx),
                          void *ctx, int **xadj, int **adjncy);

/* What a mesh offers the partitioners: a map (PT-Scotch's graph, OP2's rule)
 * and a dat of coordinates, or functions of the global numbers of geo_set
 * (op_mesh_geometry in op2.h: a structured grid, which holds neither). */
typedef struct {
  op_mpi_set set;     /* what BLOCK splits */
  op_mpi_map map;     /* PT-Scotch: the graph of map->to (or NULL) */
  op_mpi_dat coords;  /* RCB: coords->set by its rows (or NULL) */
  op_mpi_set geo_set; /* the set the functions describe (or NULL) */
  int cdim;
  void (*fill_coords)(int first, int count, double *xyz, void *ctx); /* RCB, when no dat */
  int max_adjacent;
  int (*adjacent)(int g, int *out, void *ctx); /* PT-Scotch, before the map */
  void *ctx;
} op_mpi_part_mesh;

/* The set the partitioner (lib, routine) splits, given what pm offers, or
 * NULL with the reason in why (the partitioner is unknown, or needs what pm
 * lacks). */
op_mpi_set op_mpi_partition_prime(const char *lib, const char *routine, const op_mpi_part_mesh *pm,
                                  char *why, size_t whylen);

/* Partitions every set of m into nparts parts (op_mpi_partition_parts below,
 * with what pm offers). On one part nothing is run: every element is in it. */
void op_mpi_partition_mesh(op_mpi_mesh m, const char *lib, const char *routine,
                           const op_mpi_part_mesh *pm, int nparts);

/* Partitions every set of m into nparts parts (nparts <= the primary set's
 * size, or a clear error): set->part of every set. set, map and coords as in
 * the table above (map and coords may be NULL where the partitioner does not
 * need them). Records the edge cut of map's graph (when map is given). May be
 * called again, with another partitioner or part count, until the mesh is
 * distributed (the partition model does so). */
void op_mpi_partition_parts(op_mpi_mesh m, const char *lib, const char *routine, op_mpi_set set,
                            op_mpi_map map, op_mpi_dat coords, int nparts);

/* OP2's trivial partition: every process keeps the elements it declared
 * (part = its rank, for every set). What op_halo_create distributes without
 * op_partition, and what op_partition falls back to, as OP2 does, when asked
 * for a partitioner this layer does not have or not given what it needs. */
void op_mpi_partition_as_declared(op_mpi_mesh m);

/* The parts of every element of set's slice when it is split into nparts
 * blocks of consecutive global numbers (sizes differ by at most one). */
int op_mpi_block_part(int global, int global_size, int nparts);

/* Edge cut of map's graph for the parts in map->to->part: the pairs of
 * elements that share a row of map and lie in different parts. */
long long op_mpi_edge_cut(op_mpi_mesh m, op_mpi_map map);

#ifdef __cplusplus
}
#endif

#endif /* OP_MPI_PARTITION_H */
