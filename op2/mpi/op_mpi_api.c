/*
 * op_mpi_api.c - the OP2 API on many processes: the core's hooks (op_dist.h)
 * on the distributed mesh of this layer (docs/mpi.md, "How a distributed run
 * goes").
 *
 * Linking op2_mpi brings this file in (the link option --undefined names its
 * anchor), and its constructor points op_dist here before main runs: every
 * executable linked with the layer is an MPI program, whatever backend runs
 * its loops. The core's objects (op_set, op_map, op_dat) and the layer's
 * (op_mpi_set, ...) are paired by the core's index; after op_partition the
 * core's sizes, map entries and data are the layer's, in its local numbering
 * (owned core, owned boundary, execute halo, non-execute halo).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* on_exit: the exit status, to end the job when a process fails */
#endif
#include <malloc.h> /* mallopt */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_decl.h"
#include "op_dist.h"
#include "op_mpi_check.h"
#include "op_mpi_exchange.h"
#include "op_mpi_halo.h"
#include "op_mpi_hdf5.h"
#include "op_mpi_mesh.h"
#include "op_mpi_partition.h"
#include "op_mpi_reduce.h"
#include "op_parallel.h" /* op_alloc_big_zero */

static op_mpi_mesh mesh;
static int distributed;
/* The layer's objects by the core's index. */
static op_mpi_set *msets;
static op_mpi_map *mmaps;
static op_mpi_dat *mdats;
static int cap_sets, cap_maps, cap_dats;
/* The core's dat of each of the layer's (by the layer's index). */
static op_dat *core_dats;
static int cap_core_dats;
/* --op-partition=NAME: the partitioner to use whatever the program asks. */
static char forced_partitioner[32];

static op_dist_ops ops;
static int root_failed; /* see root_status */

/* ---- small helpers --------------------------------------------------------------- */

#define GROW_TABLE(T, table, cap, index)                         \
  do {                                                           \
    if ((index) >= (cap)) {                                      \
      int c_ = (cap) ? 2 * (cap) : 16;                           \
      while (c_ <= (index)) c_ *= 2;                             \
      (table) = op_mpi_grow(T, (table), c_);                     \
      memset((table) + (cap), 0, sizeof(T) * (size_t)(c_ - (cap))); \
      (cap) = c_;                                                \
    }                                                            \
  } while (0)

static op_mpi_set mset(op_set s) {
  if (!s || s->index >= cap_sets || !msets[s->index])
    op_mpi_fatal("set '%s' is not known to the MPI layer", s ? s->name : "(null)");
  return msets[s->index];
}
static op_mpi_map mmap_of(op_map m) {
  if (!m || m->index >= cap_maps || !mmaps[m->index])
    op_mpi_fatal("map '%s' is not known to the MPI layer", m ? m->name : "(null)");
  return mmaps[m->index];
}
static op_mpi_dat mdat(op_dat d) {
  if (!d || d->index >= cap_dats || !mdats[d->index])
    op_mpi_fatal("dat '%s' is not known to the MPI layer", d ? d->name : "(null)");
  return mdats[d->index];
}

static int is_root(void) { return mesh->rank == 0; }

/* ---- life cycle ------------------------------------------------------------------- */

/* A process that ends with a non-zero status (op_fatal, a solver's bad input,
 * a failed verdict before the end) takes the whole job down with that status:
 * the others are usually waiting in a collective call for it. A process that
 * returns from main without op_exit finalizes MPI here. */
static volatile sig_atomic_t ending_status;

/* SIGTERM while a process other than the root waits to report a failure:
 * the launcher ends the job because another process aborted it, having
 * said why. Leave without a word. */
static void torn_down(int sig) {
  (void)sig;
  _exit(ending_status);
}

/* A process other than the root that ends with a failure found it either
 * alone (a file only it cannot read, a fault in its part) or, far more
 * often, as every process did (a deck key, a matrix file, a refusal of the
 * run's size, all checked by every process alike). Its standard error is
 * held back (init: fully buffered) so that the message is printed once: it
 * waits a while for the root, which reports the same failure and ends the
 * job (this process then leaves silently, torn_down), and prints its own
 * message and ends the job itself only when the root did not. A message a
 * process must print whatever the root does is flushed by its caller. */
static void wait_for_root(int status) {
  ending_status = status;
  signal(SIGTERM, torn_down);
  for (int k = 0; k < 300; k++) { /* 3 s */
    struct timespec ts = {0, 10 * 1000 * 1000};
    nanosleep(&ts, NULL);
  }
}

static void at_exit(int status, void *arg) {
  (void)arg;
  int init = 0, fin = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (!init || fin) return;
  fflush(stdout);
  if (status != 0 && mesh && mesh->rank != 0) wait_for_root(status);
  fflush(stderr);
  if (status != 0 || root_failed) {
    /* The launcher forwards what a process wrote a moment later: a job ended
     * at once can lose the message that says why (seen once in about 300
     * runs of the bad-input catalogue). A failure's exit waits that moment. */
    struct timespec ts = {0, 200 * 1000 * 1000};
    nanosleep(&ts, NULL);
    MPI_Abort(MPI_COMM_WORLD, status ? status : OP_EXIT_ERROR);
  }
  MPI_Finalize();
}

/* ---- data kept on a device (op_device_rows): exchanges move its rows ---- */

static op_dat core_of(op_mpi_dat d) {
  if (d->index >= cap_core_dats || !core_dats[d->index])
    op_mpi_fatal("internal error: dat '%s' of the layer has no OP2 dat", d->name);
  return core_dats[d->index];
}

/* The rows about to be sent, from the device where only it is current. */
static void before_pack(op_mpi_dat d, const int *rows, int n) {
  op_dat c = core_of(d);
  if (op_device_rows && c->data_d && !(c->where & OP_DAT_HOST_CURRENT) && n > 0)
    op_device_rows->rows_to_host(c, rows, n);
}

/* The halo rows just received, to the device where its copy is in use. */
static void after_unpack(op_mpi_dat d, int first, int n) {
  op_dat c = core_of(d);
  if (op_device_rows && c->data_d && (c->where & OP_DAT_DEVICE_CURRENT))
    op_device_rows->rows_to_device(c, first, n);
}

static const op_mpi_exchange_hooks device_hooks = {before_pack, after_unpack};

/* The AddressSanitizer runtime defines __asan_init; an application built
 * with -fsanitize=address brings it into the process even when this library
 * was built without. A weak reference is NULL where it is absent. */
#ifndef __SANITIZE_ADDRESS__
extern void __asan_init(void) __attribute__((weak));
#endif
static int asan_in_process(void) {
#ifdef __SANITIZE_ADDRESS__
  return 1;
#else
  return __asan_init != NULL;
#endif
}

static void init(void) {
  int init = 0, provided = 0;
  OP_MPI_CHECK(MPI_Initialized(&init));
  /* The OpenMP backend's threads never call MPI; PT-Scotch runs single-threaded. */
  if (!init) OP_MPI_CHECK(MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided));
  /* Distributing a mesh frees big arrays (slices) and makes others (local
   * arrays, op_alloc_big). glibc would raise its mmap threshold to the size
   * of each big block freed and serve later ones from the heap, in pages
   * already touched: no huge pages for the arrays the loops run over (on one
   * process that cost airfoil 20%, as seq without huge pages), and freed
   * memory kept. A fixed threshold gives every big array fresh pages and
   * returns it to the system when freed. Under AddressSanitizer its own
   * allocator serves malloc, and its mallopt does nothing and returns 0:
   * skipped there, whether this library or only the application was built
   * with it (asan_in_process). */
  if (!asan_in_process() && mallopt(M_MMAP_THRESHOLD, 1 << 20) != 1)
    op_mpi_fatal("mallopt(M_MMAP_THRESHOLD) failed: cannot fix where big arrays are allocated");
  mesh = op_mpi_mesh_create(MPI_COMM_WORLD);
  ops.rank = mesh->rank;
  ops.nprocs = mesh->nprocs;
  MPI_Comm local;
  OP_MPI_CHECK(MPI_Comm_split_type(mesh->comm, MPI_COMM_TYPE_SHARED, mesh->rank, MPI_INFO_NULL,
                                   &local));
  OP_MPI_CHECK(MPI_Comm_rank(local, &ops.local_rank));
  OP_MPI_CHECK(MPI_Comm_free(&local));
  op_mpi_exchange_set_hooks(&device_hooks);
  if (on_exit(at_exit, NULL) != 0) op_mpi_fatal("cannot register the exit handler");
  op_mpi_exit_ends_job();
  /* One printout: the root's. Other processes' errors still reach stderr,
   * held back until the process ends or flushes it (at_exit: a failure every
   * process finds is printed once, by the root). */
  if (mesh->rank != 0 && !freopen("/dev/null", "w", stdout))
    op_mpi_fatal("cannot send the standard output of rank %d to /dev/null", mesh->rank);
  static char held_stderr[1 << 16];
  if (mesh->rank != 0 && setvbuf(stderr, held_stderr, _IOFBF, sizeof held_stderr) != 0)
    op_mpi_fatal("cannot buffer the standard error of rank %d", mesh->rank);
}

static int option(const char *arg) {
  static const char key[] = "--op-partition=";
  if (strncmp(arg, key, sizeof key - 1) != 0) return 0;
  const char *v = arg + sizeof key - 1;
  if (strcmp(v, "PTSCOTCH") && strcmp(v, "RCB") && strcmp(v, "BLOCK"))
    op_fatal("option %s: the partitioner must be PTSCOTCH, RCB or BLOCK", arg);
  snprintf(forced_partitioner, sizeof forced_partitioner, "%s", v);
  return 1;
}

static const char *usage(void) {
  return "  --op-partition=NAME on many processes: PTSCOTCH (k-way on the mesh's graph), RCB\n"
         "                      (recursive coordinate bisection: the mesh's coordinates) or\n"
         "                      BLOCK, whatever the program's op_partition asks (docs/mpi.md)\n";
}

static void free_gathered(void);
/* Gathered rows of each dat on the root (op_fetch_data_global), by the core's index. */
static char **gathered_dats;
static int **gathered_maps;
static int ngathered_dats, ngathered_maps;

static void finish(void) {
  if (root_failed) {
    /* The others wait in op_root_status: end the job, with the status the
     * one-process build gives a run that could not write its results. */
    fflush(stdout);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, OP_EXIT_ERROR);
  }
  free_gathered();
  op_mpi_mesh_free(mesh);
  mesh = NULL;
  free(msets);
  free(mmaps);
  free(mdats);
  free(core_dats);
  msets = NULL, mmaps = NULL, mdats = NULL, core_dats = NULL;
  cap_sets = cap_maps = cap_dats = cap_core_dats = 0;
  distributed = 0;
  fflush(stdout);
  OP_MPI_CHECK(MPI_Finalize());
}

/* ---- declarations ------------------------------------------------------------------ */

static void check_declaring(const char *what, const char *name) {
  if (distributed)
    op_mpi_fatal("%s '%s' declared after op_partition: on many processes declare every set and "
                 "map, and every dat with data, before op_partition",
                 what, name);
}

static void set_declared(op_set s) {
  check_declaring("set", s->name);
  GROW_TABLE(op_mpi_set, msets, cap_sets, s->index);
  msets[s->index] = op_mpi_decl_set(mesh, s->size, s->name);
}

/* One copy of every array: the layer takes the core's storage over (its
 * huge-page memory, op_alloc_big) as its slice, and the core's map and dat
 * show the layer's slice now and its local rows after the partition. */
static void adopt_map(op_map m, op_mpi_map p) {
  GROW_TABLE(op_mpi_map, mmaps, cap_maps, m->index);
  mmaps[m->index] = p;
  if (m->map != p->slice && !m->user_owned) free(m->map);
  m->map = p->slice;
  m->user_owned = 1;
}

static void adopt_dat(op_dat d, op_mpi_dat p, char *rows) {
  GROW_TABLE(op_mpi_dat, mdats, cap_dats, d->index);
  mdats[d->index] = p;
  GROW_TABLE(op_dat, core_dats, cap_core_dats, p->index);
  core_dats[p->index] = d;
  if (d->data != rows && !d->user_owned) free(d->data);
  d->data = rows;
  d->user_owned = 1;
  d->where = OP_DAT_HOST_CURRENT;
}

static void map_declared(op_map m) {
  check_declaring("map", m->name);
  adopt_map(m, op_mpi_decl_map_take(mesh, mset(m->from), mset(m->to), m->dim, m->map, m->name));
}

static void dat_declared(op_dat d, int zero) {
  if (!distributed) {
    /* A zero dat's slice untouched (no memory until written), a given one's
     * the core's copy. */
    void *rows = d->data;
    if (zero) rows = op_alloc_big_zero((size_t)d->set->size * (size_t)d->size);
    op_mpi_dat p = op_mpi_decl_dat_take(mesh, mset(d->set), d->dim, d->type, rows, d->name);
    adopt_dat(d, p, p->slice);
    return;
  }
  if (!zero) check_declaring("dat", d->name);
  op_mpi_dat p = op_mpi_decl_dat_distributed(mesh, mset(d->set), d->dim, d->type, d->name);
  adopt_dat(d, p, p->data);
  op_backend_dat_declared(d);
}

/* op_free_dat_temp: the layer's dat and everything kept for it go; the core
 * then frees its own (whose rows were the layer's). */
static void dat_freed(op_dat d) {
  op_mpi_dat p = mdat(d);
  if (p->index < cap_core_dats) core_dats[p->index] = NULL;
  mdats[d->index] = NULL;
  if (d->index < ngathered_dats) {
    free(gathered_dats[d->index]);
    gathered_dats[d->index] = NULL;
  }
  op_mpi_free_dat(mesh, p);
  d->data = NULL;
}

/* The core's set for the layer's p, which holds this process's slice. */
static op_set adopt_set(op_mpi_set p, const char *name) {
  op_set s = op_decl_set_local(p->slice_size, name);
  GROW_TABLE(op_mpi_set, msets, cap_sets, s->index);
  msets[s->index] = p;
  return s;
}

static op_set decl_set_hdf5(const char *file, const char *name) {
  check_declaring("set", name);
  return adopt_set(op_mpi_decl_set_hdf5(mesh, file, name), name);
}

static op_set decl_set_sliced(int global_size, const char *name) {
  check_declaring("set", name);
  int start, count;
  op_mpi_slice(global_size, mesh->nprocs, mesh->rank, &start, &count);
  return adopt_set(op_mpi_decl_set(mesh, count, name), name);
}

static op_map decl_map_hdf5(op_set from, op_set to, int dim, const char *file, const char *name) {
  check_declaring("map", name);
  op_mpi_map p = op_mpi_decl_map_hdf5(mesh, mset(from), mset(to), dim, file, name);
  op_map m = op_decl_map_local(from, to, dim, p->slice, name, 0);
  free(p->slice); /* the core's copy, in its memory, is the one kept */
  p->slice = m->map;
  adopt_map(m, p);
  return m;
}

static op_dat decl_dat_hdf5(op_set set, int dim, const char *type, const char *file,
                            const char *name) {
  check_declaring("dat", name);
  op_mpi_dat p = op_mpi_decl_dat_hdf5(mesh, mset(set), dim, type, file, name);
  op_dat d = op_decl_dat_local(set, dim, type, p->slice, name, 0);
  free(p->slice); /* the core's copy, in its memory, is the one kept */
  p->slice = d->data;
  adopt_dat(d, p, p->slice);
  return d;
}

/* ---- the partition ------------------------------------------------------------------ */

/* The core's objects take the layer's local sizes, entries and rows. */
static void install(void) {
  for (int i = 0; i < op_num_sets(); i++) {
    op_set s = op_set_at(i);
    op_mpi_set p = mset(s);
    s->size = p->size;
    s->core_size = p->core_size;
    s->exec_size = p->exec_size;
    s->nonexec_size = p->nonexec_size;
    s->gid = p->gid;
  }
  for (int i = 0; i < op_num_maps(); i++) {
    op_map m = op_map_at(i);
    m->map = mmap_of(m)->map;
  }
  for (int i = 0; i < op_num_dats(); i++) {
    op_dat d = op_dat_at(i);
    if (!d) continue; /* a freed temporary */
    d->data = mdat(d)->data;
    d->where = OP_DAT_HOST_CURRENT;
    op_backend_dat_declared(d);
  }
  op_plan_cache_clear();
}

/* The partitioner to run: --op-partition=NAME's, else the program's. */
static void choose(const char **lib, const char **routine) {
  if (forced_partitioner[0]) {
    *lib = !strcmp(forced_partitioner, "RCB") ? "GEOM" : forced_partitioner;
    *routine = !strcmp(forced_partitioner, "PTSCOTCH") ? "KWAY"
               : !strcmp(forced_partitioner, "RCB")    ? "RCB"
                                                       : "BLOCK";
  }
  if (!*lib || !(*lib)[0]) *lib = "BLOCK";
}

/* OP2's ownership (docs/op2-library.md, "Who owns a declared array"): until
 * the mesh is distributed, the application may free a map's entries
 * (map->map) or a dat's rows (dat->data) and put an array of its own from
 * malloc in their place; the layer's slice is then that array, which it
 * frees once distributed. */
static void take_replaced_arrays(void) {
  if (distributed) return;
  for (int i = 0; i < op_num_maps(); i++) {
    op_map m = op_map_at(i);
    op_mpi_map p = mmap_of(m);
    if (m->map != p->slice) op_mpi_map_replace_slice(mesh, p, m->map);
  }
  for (int i = 0; i < op_num_dats(); i++) {
    op_dat d = op_dat_at(i);
    if (!d) continue; /* a freed temporary */
    op_mpi_dat p = mdat(d);
    if (d->data != p->slice) op_mpi_dat_replace_slice(mesh, p, d->data);
  }
}

static void distribute_as_declared(FILE *summary) {
  take_replaced_arrays();
  op_mpi_partition_as_declared(mesh);
  op_mpi_halo_create(mesh);
  if (summary) op_mpi_print_summary(mesh, summary);
  distributed = 1;
  install();
}

static void distribute(const char *lib, const char *routine, const op_mpi_part_mesh *pm) {
  if (distributed)
    op_mpi_fatal("op_partition called twice (or after the first loop, which partitions in "
                 "blocks): call it once, after the declarations");
  take_replaced_arrays();
  choose(&lib, &routine);
  /* The summary on many processes only: one process prints what seq prints. */
  FILE *summary = mesh->nprocs > 1 ? stdout : NULL;
  char why[512];
  if (!op_mpi_partition_prime(lib, routine, pm, why, sizeof why)) {
    /* OP2's answer to a partitioner it was not built with (ParMETIS, KaHIP,
     * ...), or to a call without what the partitioner needs: the mesh stays
     * as declared. */
    if (is_root())
      printf("OP2 MPI: %s; each process keeps the elements it declared, as OP2 does\n", why);
    distribute_as_declared(summary);
    return;
  }
  op_mpi_distribute_mesh(mesh, lib, routine, pm, summary);
  distributed = 1;
  install();
}

/* OP2's op_halo_create: halos for the mesh as declared, unless op_partition
 * has made them already. */
static void halo_create(void) {
  if (!distributed) distribute_as_declared(mesh->nprocs > 1 ? stdout : NULL);
}

static void partition(const char *lib, const char *routine, op_set set, op_map map, op_dat coords) {
  op_mpi_part_mesh pm;
  memset(&pm, 0, sizeof pm);
  pm.set = set ? mset(set) : NULL;
  pm.map = map ? mmap_of(map) : NULL;
  pm.coords = coords ? mdat(coords) : NULL;
  distribute(lib, routine, &pm);
}

static void partition_geometry(const char *lib, const char *routine, op_set set, op_map map,
                               const op_mesh_geometry *geo) {
  op_mpi_part_mesh pm;
  memset(&pm, 0, sizeof pm);
  pm.set = set ? mset(set) : NULL;
  pm.map = map ? mmap_of(map) : NULL;
  pm.geo_set = mset(geo->set);
  pm.cdim = geo->cdim;
  pm.fill_coords = geo->coords;
  pm.max_adjacent = geo->max_adjacent;
  pm.adjacent = geo->adjacent;
  pm.ctx = geo->ctx;
  distribute(lib, routine, &pm);
}

static int needs_coords(const char *lib, const char *routine) {
  choose(&lib, &routine);
  const op_mpi_partitioner *pt = op_mpi_partitioner_find(lib, routine);
  return pt && (pt->needs & OP_MPI_NEEDS_COORDS);
}

static int global_size(op_set s) { return mset(s)->global_size; }

/* ---- loops ----------------------------------------------------------------------------- */

/* The loop in progress (loops do not nest): its arguments as the layer sees them. */
static op_mpi_arg *margs;
static int cap_margs;

/* A program that never calls op_partition is partitioned in blocks of the
 * first loop's set before that loop's arguments take their data pointers. */
static void before_loop(op_set set) {
  if (!distributed) partition("BLOCK", "BLOCK", set, NULL, NULL);
}

static int loop_begin(op_loop_ctx *L) {
  before_loop(L->set);
  if (L->nargs > cap_margs) {
    cap_margs = L->nargs + 16;
    margs = op_mpi_grow(op_mpi_arg, margs, cap_margs);
  }
  for (int i = 0; i < L->nargs; i++) {
    const op_arg *a = &L->args[i];
    margs[i].acc = a->acc;
    margs[i].dat = a->kind == OP_ARG_DAT ? mdat(a->dat) : NULL;
    margs[i].map = a->kind == OP_ARG_DAT && a->map ? mmap_of(a->map) : NULL;
    /* Sums start from zero away from the root: the root's value before the
     * loop is counted once, in op_loop_end's combination. */
    if (a->kind == OP_ARG_GBL && a->acc == OP_INC && !is_root()) memset(a->data, 0, (size_t)a->size);
  }
  int n = op_mpi_loop_begin(mset(L->set), L->nargs, margs);
  if (n != op_loop_set_size(L->set, L->nargs, L->args))
    op_mpi_fatal("internal error: loop '%s' runs %d elements here but its plan %d", L->name, n,
                 op_loop_set_size(L->set, L->nargs, L->args));
  return n;
}

static void loop_wait(op_loop_ctx *L) { op_mpi_loop_wait(L->nargs, margs); }

static int is_reduction(const op_arg *a) {
  return a->kind == OP_ARG_GBL && (a->acc == OP_INC || a->acc == OP_MIN || a->acc == OP_MAX);
}

/* Combines each process's value of every reduction of the loop (each already
 * the combination of its blocks) in rank order, on every process
 * (op_mpi_reduce.h): the same bits in every run for a given process count;
 * on one process the loop's own value. */
static void combine_reductions(op_loop_ctx *L) {
  if (mesh->nprocs == 1) return;
  op_mpi_reduction red[8], *r = red;
  int n = 0;
  for (int i = 0; i < L->nargs; i++) n += is_reduction(&L->args[i]);
  if (n == 0) return;
  if (n > (int)(sizeof red / sizeof red[0])) r = op_mpi_alloc(op_mpi_reduction, n);
  n = 0;
  for (int i = 0; i < L->nargs; i++) {
    const op_arg *a = &L->args[i];
    if (!is_reduction(a)) continue;
    op_mpi_reduction *x = &r[n++];
    x->type = a->type;
    x->acc = a->acc;
    x->dim = a->dim;
    x->value = a->data;
    x->ninfo = 0;
    for (int j = 0; j < L->nargs; j++)
      if (L->args[j].kind == OP_ARG_INFO && L->args[j].ref == i && x->ninfo < OP_MAX_GBL_DIM) {
        x->info[x->ninfo] = L->args[j].data;
        x->info_bytes[x->ninfo++] = L->args[j].size / L->args[j].dim;
      }
  }
  op_mpi_reduce(mesh->comm, n, r);
  if (r != red) free(r);
}

static void loop_end(op_loop_ctx *L) {
  if (!L->halo_waited) op_mpi_loop_wait(L->nargs, margs);
  op_mpi_loop_end(L->nargs, margs);
  combine_reductions(L);
}

static void dat_changed(op_dat d) {
  if (distributed) mdat(d)->dirty = 1;
}

/* ---- data in the user's numbering ------------------------------------------------------ */

/* Per dat and map: the last whole copy gathered on the root. */
static void free_gathered(void) {
  for (int i = 0; i < ngathered_dats; i++) free(gathered_dats[i]);
  for (int i = 0; i < ngathered_maps; i++) free(gathered_maps[i]);
  free(gathered_dats);
  free(gathered_maps);
  gathered_dats = NULL, gathered_maps = NULL;
  ngathered_dats = ngathered_maps = 0;
}

/* The owned rows of s (rb bytes each, local order) in global order on the
 * root, into out (global size rows); nothing elsewhere. Collective. */
static void gather_rows(op_mpi_set s, const char *rows, size_t rb, char *out) {
  const int P = mesh->nprocs, n = s->size;
  int *counts = NULL, *displs = NULL, *gids = NULL;
  char *recv = NULL;
  MPI_Datatype row;
  OP_MPI_CHECK(MPI_Type_contiguous((int)rb, MPI_BYTE, &row));
  OP_MPI_CHECK(MPI_Type_commit(&row));
  if (is_root()) {
    counts = op_mpi_alloc(int, P);
    displs = op_mpi_alloc(int, P);
  }
  OP_MPI_CHECK(MPI_Gather(&n, 1, MPI_INT, counts, 1, MPI_INT, 0, mesh->comm));
  if (is_root()) {
    long long total = 0;
    for (int r = 0; r < P; r++) displs[r] = (int)total, total += counts[r];
    if (total != s->global_size)
      op_mpi_fatal("internal error: set '%s': %lld owned elements over the processes, not %d",
                   s->name, total, s->global_size);
    gids = op_mpi_alloc(int, total);
    recv = op_mpi_alloc(char, (size_t)total * rb);
  }
  OP_MPI_CHECK(MPI_Gatherv(s->gid, n, MPI_INT, gids, counts, displs, MPI_INT, 0, mesh->comm));
  OP_MPI_CHECK(MPI_Gatherv(rows, n, row, recv, counts, displs, row, 0, mesh->comm));
  OP_MPI_CHECK(MPI_Type_free(&row));
  if (is_root())
    for (int k = 0; k < s->global_size; k++) memcpy(out + (size_t)gids[k] * rb, recv + (size_t)k * rb, rb);
  free(counts);
  free(displs);
  free(gids);
  free(recv);
}

/* Before the partition (no loop yet) the slices are in global order: each
 * process's rows (rb bytes each) of s to the root, into out. Collective. */
static void gather_slices(op_mpi_set s, const char *rows, size_t rb, char *out) {
  int *counts = NULL, *displs = NULL;
  if (is_root()) {
    counts = op_mpi_alloc(int, mesh->nprocs);
    displs = op_mpi_alloc(int, mesh->nprocs);
    for (int r = 0; r < mesh->nprocs; r++) {
      counts[r] = (int)((size_t)(s->slice_starts[r + 1] - s->slice_starts[r]) * rb);
      displs[r] = (int)((size_t)s->slice_starts[r] * rb);
    }
  }
  OP_MPI_CHECK(MPI_Gatherv(rows, (int)((size_t)s->slice_size * rb), MPI_BYTE, out, counts, displs,
                           MPI_BYTE, 0, mesh->comm));
  free(counts);
  free(displs);
}

static const void *dat_global(op_dat d) {
  take_replaced_arrays();
  op_mpi_dat p = mdat(d);
  const char *rows = op_fetch_data_ptr(d); /* from the device, where there is one */
  if (!distributed) {
    char *out = is_root() ? op_mpi_alloc(char, (size_t)p->set->global_size * p->size) : NULL;
    gather_slices(p->set, rows, p->size, out);
    rows = out;
  } else {
    char *out = is_root() ? op_mpi_alloc(char, (size_t)p->set->global_size * p->size) : NULL;
    gather_rows(p->set, rows, p->size, out);
    rows = out;
  }
  if (!is_root()) return NULL;
  if (d->index >= ngathered_dats) {
    int n = d->index + 16;
    gathered_dats = op_mpi_grow(char *, gathered_dats, n);
    memset(gathered_dats + ngathered_dats, 0, sizeof(char *) * (size_t)(n - ngathered_dats));
    ngathered_dats = n;
  }
  free(gathered_dats[d->index]);
  gathered_dats[d->index] = (char *)rows;
  return rows;
}

static const int *map_global(op_map m) {
  take_replaced_arrays();
  op_mpi_map p = mmap_of(m);
  int *out = is_root() ? op_mpi_alloc(int, (size_t)p->from->global_size * p->dim) : NULL;
  if (!distributed) {
    /* Still in slices, their entries global numbers (OP2's op_dump_to_hdf5
     * before op_partition, as aero's write_hdf5 calls it). */
    gather_slices(p->from, (const char *)p->slice, (size_t)p->dim * sizeof(int), (char *)out);
  } else {
    size_t n = (size_t)p->from->size * p->dim;
    int *rows = op_mpi_alloc(int, n ? n : 1);
    for (size_t q = 0; q < n; q++) rows[q] = p->to->gid[p->map[q]];
    gather_rows(p->from, (const char *)rows, (size_t)p->dim * sizeof(int), (char *)out);
    free(rows);
  }
  if (!is_root()) return NULL;
  if (m->index >= ngathered_maps) {
    int k = m->index + 16;
    gathered_maps = op_mpi_grow(int *, gathered_maps, k);
    memset(gathered_maps + ngathered_maps, 0, sizeof(int *) * (size_t)(k - ngathered_maps));
    ngathered_maps = k;
  }
  free(gathered_maps[m->index]);
  gathered_maps[m->index] = out;
  return out;
}

/* OP2's op_fetch_data_idx on many processes: the range of the global order,
 * on every process. */
static void fetch_idx(op_dat d, void *dest, int low, int high) {
  const char *all = dat_global(d);
  size_t bytes = (size_t)(high - low + 1) * mdat(d)->size;
  if (is_root()) memcpy(dest, all + (size_t)low * mdat(d)->size, bytes);
  OP_MPI_CHECK(MPI_Bcast(dest, (int)bytes, MPI_BYTE, 0, mesh->comm));
}

static int read_dat_rows(const char *file, const char *name, op_dat dat, void *owned, char *err,
                         size_t errlen) {
  (void)err, (void)errlen; /* a failure here ends the job with its message */
  if (!distributed) op_mpi_fatal("reading '%s' into dat '%s': call it after op_partition", name, dat->name);
  op_mpi_read_dat_rows(mesh, mdat(dat), file, name, owned);
  return 0;
}

static void broadcast(void *data, size_t bytes) {
  if (bytes > (size_t)0x7fffffff) op_mpi_fatal("op_broadcast of %zu bytes: at most 2 GB", bytes);
  OP_MPI_CHECK(MPI_Bcast(data, (int)bytes, MPI_BYTE, 0, mesh->comm));
}

static int max_int(int v) {
  int all = v;
  OP_MPI_CHECK(MPI_Allreduce(&v, &all, 1, MPI_INT, MPI_MAX, mesh->comm));
  return all;
}

static double max_double(double v) {
  double all = v;
  OP_MPI_CHECK(MPI_Allreduce(&v, &all, 1, MPI_DOUBLE, MPI_MAX, mesh->comm));
  return all;
}

/* root_failed: set on the root once op_root_status has told the others of a
 * failure; the job then ends however the root ends (op_exit aborts instead
 * of finalizing). */
static int root_status(int rc) {
  OP_MPI_CHECK(MPI_Bcast(&rc, 1, MPI_INT, 0, mesh->comm));
  if (rc == 0) return 0;
  if (is_root()) {
    root_failed = 1;
    return rc;
  }
  /* Wait for the root's message and its end of the job (MPI_Abort from its
   * exit or its op_exit): a receive that no send matches. */
  int never;
  OP_MPI_CHECK(MPI_Recv(&never, 1, MPI_INT, 0, 32767, mesh->comm, MPI_STATUS_IGNORE));
  op_mpi_fatal("internal error: a message arrived where none is ever sent");
}

static void reduce_times(int n, const double *mine, double *largest, double *mean) {
  OP_MPI_CHECK(MPI_Allreduce(mine, largest, n, MPI_DOUBLE, MPI_MAX, mesh->comm));
  OP_MPI_CHECK(MPI_Allreduce(mine, mean, n, MPI_DOUBLE, MPI_SUM, mesh->comm));
  for (int i = 0; i < n; i++) mean[i] /= mesh->nprocs;
}

static void halo_traffic(long long *messages, long long *bytes) {
  long long mine[2], all[2];
  op_mpi_exchange_counts(&mine[0], &mine[1]);
  OP_MPI_CHECK(MPI_Allreduce(mine, all, 2, MPI_LONG_LONG, MPI_SUM, mesh->comm));
  *messages = all[0];
  *bytes = all[1];
}

static void print_halo_sets(void) {
  fflush(stdout);
  op_mpi_print_exchanges(mesh, stdout);
}

/* ---- attaching ---------------------------------------------------------------------------- */

/* Named by op2_mpi's link option (--undefined) so that the linker takes this
 * file, and with it the constructor below, into every executable it builds. */
int op_mpi_api_anchor;

__attribute__((constructor)) static void attach(void) {
  ops.init = init;
  ops.option = option;
  ops.usage = usage;
  ops.exit = finish;
  ops.set_declared = set_declared;
  ops.map_declared = map_declared;
  ops.dat_declared = dat_declared;
  ops.dat_freed = dat_freed;
  ops.decl_set_hdf5 = decl_set_hdf5;
  ops.decl_set_sliced = decl_set_sliced;
  ops.decl_map_hdf5 = decl_map_hdf5;
  ops.decl_dat_hdf5 = decl_dat_hdf5;
  ops.partition = partition;
  ops.halo_create = halo_create;
  ops.partition_geometry = partition_geometry;
  ops.needs_coords = needs_coords;
  ops.before_loop = before_loop;
  ops.global_size = global_size;
  ops.loop_begin = loop_begin;
  ops.loop_wait = loop_wait;
  ops.loop_end = loop_end;
  ops.dat_changed = dat_changed;
  ops.dat_global = dat_global;
  ops.map_global = map_global;
  ops.fetch_idx = fetch_idx;
  ops.read_dat_rows = read_dat_rows;
  ops.broadcast = broadcast;
  ops.max_int = max_int;
  ops.max_double = max_double;
  ops.root_status = root_status;
  ops.reduce_times = reduce_times;
  ops.halo_traffic = halo_traffic;
  ops.print_halo_sets = print_halo_sets;
  op_dist = &ops;
}
