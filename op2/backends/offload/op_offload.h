/*
 * op_offload.h - the OpenMP target-offload backend's interface to generated
 * loop code. Not for applications. See docs/offload.md for the design.
 *
 * A generated op_par_loop_<kernel> for offload does:
 *
 *   op_offload_loop C;
 *   op_offload_loop_begin(&C, &desc, name, set, nargs, args, sig); // strategy, plan, data on the device
 *   ... one or more `target teams distribute parallel for` regions on C.device,
 *       reading and writing the device copies C.dat[i] (is_device_ptr) ...
 *   op_offload_loop_partials(&C);    // blocks strategy: per-block partials to the host
 *   op_reduce_blocks_<T>(...)        // blocks strategy: per reduction, in block order
 *   op_offload_loop_end(&C);         // dats written now live on the device; timer
 *
 * The device is whatever OpenMP offers (an NVIDIA GPU through GCC's nvptx
 * offloading here), or the host when there is none: then the "device" copies
 * are separate host buffers, so that the host runs exactly the copies a GPU
 * would need, and a copy that is missing shows as a wrong result.
 */
#ifndef OP_OFFLOAD_H
#define OP_OFFLOAD_H

#include <stddef.h>

#include "op2.h"
#include "op2_loop.h"
#include "op_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arguments per loop the backend keeps per-argument state for (op2-gen's GEN_MAX_ARGS). */
#define OP_OFFLOAD_MAX_ARGS 64
/* Elements of an op_decl_const array whose dim is not a literal in the source. */
#define OP_OFFLOAD_MAX_CONST_DIM 1024

/* How one loop call executes (docs/offload.md, "Strategies"). Loops that
 * write nothing through a map always run PARALLEL (or BLOCKS when asked). */
typedef enum {
  OP_OFFLOAD_PARALLEL = 0, /* one region over all elements (no indirect writes) */
  OP_OFFLOAD_ATOMIC,       /* one region, indirect increments with `omp atomic` */
  OP_OFFLOAD_COLOUR,       /* one region per colour of the plan's global colouring, over
                              that colour's element list */
  OP_OFFLOAD_MASK,         /* one region per colour over every element, skipping the
                              elements of other colours: a branch per element */
  OP_OFFLOAD_BLOCKS,       /* one region per block colour, a thread per plan block, its
                              elements in order: the CPU backends' order of operations */
  OP_OFFLOAD_NSTRATEGIES
} op_offload_strategy;

/* What the generator knows about one loop: written once per loop, static. */
typedef struct {
  const char *kernel;
  const char *where;   /* "file.c:line" of the call the code was generated from */
  int nargs;
  int ind_writes;      /* some dat is written (INC, WRITE or RW) through a map */
  int atomic_ok;       /* every dat written through a map is only incremented, with a literal dim */
  int blocks_only;     /* op_arg_info, or a reduction whose dim is not a literal */
} op_offload_loop_desc;

typedef struct {
  op_loop_ctx L;
  const op_offload_loop_desc *desc;
  const char *name;
  int strategy;        /* op_offload_strategy */
  int soa;             /* 1: multi-component dats may be SoA on the device (--op-offload-layout=soa) */
  int host;            /* 1: the regions run as ordinary parallel loops on the host */
  int device;          /* the OpenMP device number of every region of this call */
  int teams;           /* num_teams of the target regions, 0: the runtime's choice */
  int thread_limit;    /* thread_limit of the target regions, 0: the runtime's choice */
  const op_plan *plan; /* L.plan */
  /* Per argument: the device copy of the dat, its strides (component d of
   * element n at dat[n * es + d * cs]: AoS es = dim, cs = 1; SoA es = 1,
   * cs = the set size), the device copy of the map. */
  void *dat[OP_OFFLOAD_MAX_ARGS];
  int es[OP_OFFLOAD_MAX_ARGS], cs[OP_OFFLOAD_MAX_ARGS];
  const int *map[OP_OFFLOAD_MAX_ARGS];
  /* Device copies of the plan arrays the strategy reads (else NULL). */
  const int *gcol_elems;  /* COLOUR: elements grouped by colour */
  const int *elem_colour; /* MASK: each element's colour */
  const int *blkmap, *offset, *nelems; /* BLOCKS */
  /* BLOCKS: per-block partials of each reduction (and op_arg_info), on the
   * device and, after op_offload_loop_partials, on the host. */
  void *part_d[OP_OFFLOAD_MAX_ARGS];
  void *part_h[OP_OFFLOAD_MAX_ARGS];
} op_offload_loop;

void op_offload_loop_begin(op_offload_loop *C, const op_offload_loop_desc *desc, const char *name,
                           op_set set, int nargs, const op_arg *args, const op_arg_sig *sig);
void op_offload_loop_partials(op_offload_loop *C);
void op_offload_loop_end(op_offload_loop *C);

/* ---- what the generated file registers before main ---- */
/* Copies constant `name` (bytes of data) to the device's copy (declare target). */
typedef int (*op_offload_const_updater)(int device, const char *name, const void *data,
                                        size_t bytes, char *err, size_t errlen);
/* Runs a one-element region on the device; returns 1 when it ran on the host
 * (the executable holds no code for that device). */
typedef int (*op_offload_probe)(int device);
void op_offload_register_app(op_offload_const_updater updater, op_offload_probe probe);

/* ---- options (op_offload_options.c: plain C, for the unit tests too) ---- */
typedef struct {
  int device;          /* --op-device=N, -1: OpenMP's default device */
  int per_loop;        /* --op-offload-data=loop: copies in and out around every loop */
  int soa;             /* --op-offload-layout=soa */
  int strategy;        /* --op-offload-strategy=S, -1: the default (atomic where it can) */
  int threads;         /* --op-threads=N on the host, 0: OpenMP's */
  int host_target;     /* --op-offload-host=target: on the host, the target regions
                          themselves (OpenMP's host fallback) instead of parallel loops */
  int teams;           /* --op-offload-teams=N, 0: the runtime's choice */
  int thread_limit;    /* --op-offload-thread-limit=N, 0: the runtime's choice */
} op_offload_options;

const char *op_offload_strategy_name(int strategy);
int op_offload_strategy_from_name(const char *name); /* -1 if unknown */
/* Applies one --op-... option; returns 1 when it was one of the backend's
 * (fatal on a bad value), 0 when unknown. */
int op_offload_parse_option(op_offload_options *o, const char *arg);
/* OMP_TARGET_OFFLOAD as libgomp reads it: 0 unset or DEFAULT, 1 MANDATORY,
 * 2 DISABLED; -1 for any other value. */
int op_offload_target_offload_mode(const char *env);
/* The strategy a loop runs with: the one asked for when the loop can use it,
 * else the nearest one it can (docs/offload.md). */
int op_offload_strategy_for(const op_offload_loop_desc *d, int increments_only, int asked);

#ifdef __cplusplus
}
#endif

#endif
