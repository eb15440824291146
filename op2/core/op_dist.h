/*
 * op_dist.h - the hooks through which the core runs on many processes.
 *
 * The core alone is the shared-memory library: one process holds the whole
 * mesh. An MPI executable links the distributed-memory layer (op2/mpi), whose
 * start-up code points op_dist at its table of hooks before main runs; every
 * OP2 call that means something else on many processes (declarations, the
 * partition, loops, global sizes, gathering for output) asks op_dist first.
 * With op_dist NULL every call is what it was, so the shared-memory backends
 * neither know nor pay for the layer. Not for applications.
 */
#ifndef OP_DIST_H
#define OP_DIST_H

#include <stddef.h>

#include "op2.h"
#include "op2_loop.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct op_dist_ops {
  /* ---- life cycle (op_init, op_exit, op_fatal) ---- */
  void (*init)(void);
  /* A --op-... option of the layer's (1), or not its (0). */
  int (*option)(const char *arg);
  const char *(*usage)(void);
  void (*exit)(void);
  int rank, nprocs; /* valid after init */
  int local_rank;    /* among the processes on this machine (a device each, say) */

  /* ---- declarations: the core object exists; its size, entries or rows
   * are this process's slice, in global numbers (op2/mpi takes them over) ---- */
  void (*set_declared)(op_set s);
  void (*map_declared)(op_map m);
  void (*dat_declared)(op_dat d, int zero);
  /* op_free_dat_temp: the layer lets its rows go (before the core frees d). */
  void (*dat_freed)(op_dat d);
  /* The HDF5 declarations of op2/io, each process reading its slice. */
  op_set (*decl_set_hdf5)(const char *file, const char *name);
  /* A set of global_size elements, each process declaring its slice (OP2's
   * op_decl_set_hdf5_infer_size, which reads the size from a dataset's shape). */
  op_set (*decl_set_sliced)(int global_size, const char *name);
  op_map (*decl_map_hdf5)(op_set from, op_set to, int dim, const char *file, const char *name);
  op_dat (*decl_dat_hdf5)(op_set set, int dim, const char *type, const char *file,
                          const char *name);

  /* ---- the partition (op_partition; a loop before it partitions in blocks) ---- */
  void (*partition)(const char *lib, const char *routine, op_set set, op_map map, op_dat coords);
  /* op_halo_create: distributes the mesh as declared when not yet distributed. */
  void (*halo_create)(void);
  void (*partition_geometry)(const char *lib, const char *routine, op_set set, op_map map,
                             const op_mesh_geometry *geo);
  int (*needs_coords)(const char *lib, const char *routine);
  /* Called by op_arg_dat: a loop is coming, so the mesh must be distributed
   * now, before the argument takes the dat's data pointer. */
  void (*before_loop)(op_set set);
  int (*global_size)(op_set s);

  /* ---- loops (op_loop_begin_part, op_loop_wait, op_loop_end) ---- */
  int (*loop_begin)(op_loop_ctx *L); /* starts the exchanges; the elements to run */
  void (*loop_wait)(op_loop_ctx *L);
  void (*loop_end)(op_loop_ctx *L);  /* dirty bits, reductions over the processes */
  void (*dat_changed)(op_dat d);     /* the host copy was written: halos are stale */

  /* ---- data in the user's numbering ---- */
  const void *(*dat_global)(op_dat d); /* on the root: every row; else NULL */
  const int *(*map_global)(op_map m);  /* on the root: every row, global entries */
  void (*fetch_idx)(op_dat d, void *dest, int low, int high); /* on every process */
  /* Rows of dataset `name` of an HDF5 file into the owned rows of dat (local
   * order); returns 0, or an OP_IO_* code with the message in err. */
  int (*read_dat_rows)(const char *file, const char *name, op_dat dat, void *owned, char *err,
                       size_t errlen);
  void (*broadcast)(void *data, size_t bytes); /* the root's bytes to every process */
  int (*max_int)(int v);
  double (*max_double)(double v);
  /* op_root_status: the root's rc to every process; on a failure the others
   * wait for the root to end the job. */
  int (*root_status)(int rc);
  /* Per-loop seconds: the largest over the processes, and the mean. */
  void (*reduce_times)(int n, const double *mine, double *largest, double *mean);
  /* Halo traffic so far, summed over the processes. */
  void (*halo_traffic)(long long *messages, long long *bytes);
  /* The same per set, printed by the root (collective). */
  void (*print_halo_sets)(void);
} op_dist_ops;

/* NULL: one process, no layer. */
extern const op_dist_ops *op_dist;

/* A backend that keeps dats in device memory says how halo rows move between
 * its copies, so that exchanges pack and unpack them (set in its
 * op_backend_init; NULL for host-memory backends). */
typedef struct {
  /* rows[0..n) of d: from the device copy into the host copy */
  void (*rows_to_host)(op_dat d, const int *rows, int n);
  /* rows [first, first + n) of d: from the host copy into the device copy */
  void (*rows_to_device)(op_dat d, int first, int n);
} op_device_rows_ops;
extern const op_device_rows_ops *op_device_rows;

/* The elements a loop over set runs: owned, plus the execute halo when it
 * writes through a map (so that owned elements receive every increment). */
int op_loop_set_size(op_set set, int nargs, const op_arg *args);
/* Elements of the set held here: owned and both halos (what a dat has rows for). */
static inline int op_set_held(const struct op_set_core *s) {
  return s->size + s->exec_size + s->nonexec_size;
}

/* The core's own declarations, without the layer (for the layer). */
op_set op_decl_set_local(int size, const char *name);
op_map op_decl_map_local(op_set from, op_set to, int dim, int *imap, const char *name,
                         int check_range);
op_dat op_decl_dat_local(op_set set, int dim, const char *type, const void *data,
                         const char *name, int notify_backend);

#ifdef __cplusplus
}
#endif

#endif
