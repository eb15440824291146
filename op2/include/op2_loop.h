/*
 * op2_loop.h - what generated loop code calls. Not for applications to call
 * themselves, but public (installed): their op2-gen output includes it.
 *
 * A generated op_par_loop_<kernel> function brackets its work with
 * op_loop_begin / op_loop_end: begin checks the arguments against what the
 * generator saw in the source and against the declared mesh (always: a few
 * comparisons an argument), fetches the plan (checked too at diagnostics
 * level >= 1), and starts the loop's timer.
 */
#ifndef OP2_LOOP_H
#define OP2_LOOP_H

#include "op2.h"
#include "op2_error.h"
#include "op2_renumber.h"
#include "op_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest global (op_arg_gbl) dimension a generated loop reduces with local arrays. */
#define OP_MAX_GBL_DIM 64

/* Elements per chunk in the CPU backends' split loops: small enough that the
 * per-element temporaries stay in L1. */
#define OP_CPU_CHUNK 64

/* Interleaved runs (op_plan.h, seg_affine 3): the order in which a chunk's
 * increments are added, as groups (p, i) = order[k] / ninc, order[k] % ninc:
 * phase p < P, increment argument i < ninc. base[p * ninc + i] is the entry
 * increment i of phase p reaches for the phase's first element; for lane m
 * (element start + p + P * m) it reaches base + m. A datum X is then reached
 * from element start + P * X + (p - P * base), so the groups sorted by
 * p - P * base (ties: the same element, in argument order) give every datum
 * of a chunk its additions in element order; chunks come in element order
 * too, as the general way has them. */
static inline void op_interleaved_order(int P, int ninc, const int *base, int *order) {
  const int ng = P * ninc;
  for (int g = 0; g < ng; g++) {
    const long long key = (long long)(g / ninc) - (long long)P * base[g];
    int at = g;
    while (at > 0) {
      const int h = order[at - 1];
      const long long kh = (long long)(h / ninc) - (long long)P * base[h];
      if (kh < key || (kh == key && h < g)) break;
      order[at] = h;
      at--;
    }
    order[at] = g;
  }
}

/* What the generator read for one argument of one op_par_loop call. */
typedef struct {
  op_arg_kind kind;
  int indirect;   /* OP_ARG_DAT through a map, or OP_ARG_IDX through a map */
  op_type type;
  op_access acc;
  int dim;        /* the literal dim, or -1 when the source gives an expression */
  int ref;        /* OP_ARG_INFO: the position of its MIN/MAX global; else -1 */
} op_arg_sig;

typedef struct {
  const char *name;       /* the loop name given at the call */
  const char *kernel;     /* the kernel the generator wrote this loop for */
  const char *where;      /* "file.c:line" of the call the generator read */
  op_set set;
  int nargs;
  const op_arg *args;
  const op_plan *plan;
  int timer;              /* index into the timing table */
  double t0;
  int size;               /* elements run: set->size, plus the execute halo on many
                             processes when the loop writes through a map */
  int halo_waited;        /* op_loop_wait done (many processes) */
  double t_halo;          /* seconds in the MPI layer's exchanges (started, waited for) */
  int device_timed;       /* the backend adds the call's seconds later (op_timer_add_seconds):
                             op_loop_end counts the call and its bytes, not the host's time */
} op_loop_ctx;

void op_loop_begin(op_loop_ctx *L, const char *name, op_set set, int nargs, const op_arg *args,
                   const op_arg_sig *sig, const char *kernel, const char *where);
/* Like op_loop_begin but with a caller-chosen partition size and plan parts
 * (OP_PLAN_* flags), for backends that stage data or tune per loop. */
void op_loop_begin_part(op_loop_ctx *L, const char *name, op_set set, int nargs,
                        const op_arg *args, const op_arg_sig *sig, const char *kernel,
                        const char *where, int part_size, unsigned plan_parts);
void op_loop_end(op_loop_ctx *L);
/* The argument checks of op_loop_begin alone, for a backend that looks at the
 * arguments (their maps) before it begins the loop (CUDA's tuner). */
void op_loop_check_args(const char *name, op_set set, int nargs, const op_arg *args,
                        const op_arg_sig *sig, const char *kernel, const char *where);
/* Generated loops call this before the first block colour that is not core
 * (plan->ncolors_core): on many processes it waits for the halo exchanges the
 * loop started, which ran during the core colours; elsewhere it does nothing. */
void op_loop_wait(op_loop_ctx *L);

/* 1 when every dat written through a map is only incremented, and by no
 * argument otherwise read or written: then the increments may be atomic,
 * elements in any order (the CUDA and offload backends' atomic strategies). */
int op_args_increments_only(int nargs, const op_arg *args);
/* 1 when no two of elements [0, rows) touch one element of a dat the loop
 * writes through a map: every such dat is reached only through one map
 * column, one-to-one over those rows (a structured grid's loop writing its
 * own cell). Then the elements need no colouring and may run in any order.
 * With atomic_increments, a dat only incremented (as op_args_increments_only
 * asks) may be touched by many elements: the increments are atomic. */
int op_args_conflict_free(int nargs, const op_arg *args, int rows, int atomic_increments);

/* Scratch space for per-block reduction partials of argument `arg`, valid
 * until the next call for the same argument number. */
void *op_loop_scratch(int arg, size_t bytes);

/* Combines per-block partials (nblocks x dim, block order) into the global
 * value, in block order so the result does not depend on the thread count. */
void op_reduce_blocks_double(op_access acc, double *gbl, const double *part, int nblocks, int dim);
void op_reduce_blocks_float(op_access acc, float *gbl, const float *part, int nblocks, int dim);
void op_reduce_blocks_int(op_access acc, int *gbl, const int *part, int nblocks, int dim);
/* The same for an OP_MIN/OP_MAX global with op_arg_info values travelling
 * with it: info[j] (the user's variable, dim components of info_bytes[j]
 * bytes) takes block b's partial from info_part[j] when block b's value is
 * strictly better than the value so far, component by component. */
void op_reduce_blocks_info_double(op_access acc, double *gbl, const double *part, int nblocks,
                                  int dim, int ninfo, char *const *info,
                                  const char *const *info_part, const int *info_bytes);
void op_reduce_blocks_info_float(op_access acc, float *gbl, const float *part, int nblocks,
                                 int dim, int ninfo, char *const *info,
                                 const char *const *info_part, const int *info_bytes);
void op_reduce_blocks_info_int(op_access acc, int *gbl, const int *part, int nblocks, int dim,
                               int ninfo, char *const *info, const char *const *info_part,
                               const int *info_bytes);

/* ---- timing table (op_timing.c) ---- */
int op_timer_find(const char *name);
void op_timer_add(int timer, double seconds, double bytes);
/* Of a call's seconds (op_timer_add), those in the MPI layer: its halo
 * exchanges (started and waited for) and the combination of its reductions
 * over the processes (the timing table's columns on many processes). */
void op_timer_add_mpi(int timer, double halo, double reduce);
/* Seconds of a call already counted (a backend that times its loops on the
 * device, read after the call: op_loop_ctx.device_timed). */
void op_timer_add_seconds(int timer, double seconds);
/* Set by a backend whose loops' times arrive after the calls (CUDA events
 * read in a batch): op_timing_output and op_timing_json call it first, so
 * that every call made so far is in the table. NULL elsewhere. */
extern void (*op_timing_collect)(void);

/* OpenMP backend only (its generated loops call it): the chunk of a static
 * schedule over `count` blocks that deals op_thread_spread() pieces to each
 * thread. */
int op_omp_chunk(int count);
/* OpenMP backend only: the parallel regions its generated loops have entered
 * (one per colour of more than one block; each ends at a barrier where the
 * threads wait for each other), printed at op_exit under --op-diags=2. */
extern long op_omp_parallel_regions;

/* For generated CPU code: its own copy of constant `name` (the application's
 * has internal linkage), which every op_decl_const of that name fills from
 * then on. Called before main; `bytes` is the copy's size. */
void op_register_const_copy(const char *name, void *copy, size_t bytes);

/* ---- backend hooks: each backend library defines these ---- */
/* Makes the host copy of dat current (device backends copy back). */
void op_backend_dat_to_host(op_dat dat);
/* Called once a dat is declared (device backends may allocate). */
void op_backend_dat_declared(op_dat dat);
/* Called before a dat is freed (op_free_dat_temp): device backends free its copy. */
void op_backend_dat_freed(op_dat dat);
/* Called from op_decl_const_named (device backends copy to constant memory). */
void op_backend_const_declared(const char *name, const void *data, size_t bytes);
void op_backend_init(void);
/* Consumes a backend-specific --op-... command-line option; returns 0 if unknown. */
int op_backend_option(const char *arg);
/* The partition size used when neither OP_PART_SIZE nor --op-part-size sets one. */
int op_backend_default_part_size(void);
/* Lines describing the backend's own options (may be ""). */
const char *op_backend_usage(void);
void op_backend_exit(void);

#ifdef __cplusplus
}
#endif

#endif
