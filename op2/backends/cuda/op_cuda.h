/*
 * op_cuda.h - the CUDA backend's interface to generated loop code (C, host
 * side). Not for applications. See docs/cuda.md for the design.
 *
 * A generated op_par_loop_<kernel> for CUDA does:
 *
 *   op_cuda_loop C;
 *   op_cuda_loop_begin(&C, &desc, name, set, nargs, args, sig);  // config, plan, data on device
 *   op_cuda_loop_kernel(&C, (const void *)kernel_variant, shared_bytes);
 *   op_cuda_loop_start(&C);          // reduction partials, start event
 *   ... one or more launches, each followed by OP_CUDA_LAUNCHED(&C) ...
 *   op_cuda_loop_finish(&C);         // stop event, synchronise, partials to the host
 *   op_reduce_blocks_<T>(...)        // per reduction, in block order
 *   op_cuda_loop_end(&C);            // dats written now live on the device; tuner; timer
 */
#ifndef OP_CUDA_H
#define OP_CUDA_H

#include <stddef.h>
#include <stdio.h>

#include "op2.h"
#include "op2_loop.h"
#include "op_plan.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Arguments per loop the backend keeps per-argument state for (op2-gen's GEN_MAX_ARGS). */
#define OP_CUDA_MAX_ARGS 64
/* Elements of an op_decl_const array whose dim is not a literal in the source. */
#define OP_CUDA_MAX_CONST_DIM 1024

/* How one loop call executes (docs/cuda.md, "Strategies"). */
typedef enum {
  OP_CUDA_PLAIN = 0, /* direct: one thread per element, dats read through pointers */
  OP_CUDA_COALESCED, /* direct: AoS dats staged through per-warp shared memory (Giles, OP2
                        Developers Guide, 2011, 4.1) */
  OP_CUDA_STAGED,    /* indirect: plan blocks, indirect data in shared memory, two-level colours */
  OP_CUDA_ATOMIC,    /* indirect: one thread per element, indirect increments with atomicAdd */
  OP_CUDA_COLOUR,    /* indirect: one launch per colour of a one-level element colouring */
  OP_CUDA_NSTRATEGIES
} op_cuda_strategy;

typedef struct {
  int strategy; /* op_cuda_strategy */
  int block;    /* threads per CUDA block */
  int part;     /* plan partition size (staged); 0 where the strategy has none */
} op_cuda_config;

/* What the generator knows about one loop: written once per loop, static. */
typedef struct {
  const char *kernel;
  const char *where;    /* "file.c:line" of the call the code was generated from */
  int nargs;
  int indirect;         /* some op_arg_dat goes through a map */
  int has_coalesced;    /* the coalesced (direct) kernel exists */
  int has_staged;       /* the staged kernel exists */
  int has_atomic;       /* the atomic kernel exists */
  int ngind;            /* indirect dats as the generator grouped them (by source text) */
  const int *gind;      /* per argument: its group, or -1 */
  const void *staged_kernel; /* the staged kernel (its static shared memory), or NULL */
} op_cuda_loop_desc;

/* Device copies of the plan arrays the kernels read. */
typedef struct {
  const int *blkmap, *offset, *nelems, *nthrcol, *thrcol, *ind_offs, *ind_sizes, *gcol_elems;
  const int *ind_maps[OP_CUDA_MAX_ARGS]; /* per indirect dat (plan numbering) */
  const int *loc_maps[OP_CUDA_MAX_ARGS]; /* per argument (NULL when direct) */
} op_cuda_plan_d;

typedef struct {
  op_loop_ctx L;
  const op_cuda_loop_desc *desc;
  const char *name;
  op_cuda_config cfg;         /* as chosen (the tuner's key) */
  int block;                  /* threads per block used: cfg.block, clamped to the kernel */
  const op_plan *plan;        /* L.plan */
  const op_cuda_plan_d *pd;   /* device plan arrays (staged and colour) */
  int nparts;                 /* CUDA blocks over all launches: one reduction partial each */
  int max_grid;               /* grid-stride launches use at most this many blocks */
  void *gbl_d[OP_CUDA_MAX_ARGS];  /* device copy of each op_arg_gbl's value */
  void *part_d[OP_CUDA_MAX_ARGS]; /* device partials of each reduction */
  void *part_h[OP_CUDA_MAX_ARGS]; /* host copy after op_cuda_loop_finish */
  int launches;
  int timing;                 /* events recorded */
} op_cuda_loop;

void op_cuda_loop_begin(op_cuda_loop *C, const op_cuda_loop_desc *desc, const char *name,
                        op_set set, int nargs, const op_arg *args, const op_arg_sig *sig);
/* The kernel about to run: clamps the block size to what it can launch with and
 * allows `shared` bytes of dynamic shared memory (beyond 48 KiB when needed). */
void op_cuda_loop_kernel(op_cuda_loop *C, const void *kernel, size_t shared);
void op_cuda_loop_start(op_cuda_loop *C);
/* Checks the launch just made (cudaGetLastError), naming file, line and loop. */
void op_cuda_loop_launched(op_cuda_loop *C, const char *file, int line);
#define OP_CUDA_LAUNCHED(C) op_cuda_loop_launched((C), __FILE__, __LINE__)
void op_cuda_loop_finish(op_cuda_loop *C);
void op_cuda_loop_end(op_cuda_loop *C);

/* CUDA blocks for a grid-stride launch over count elements. */
int op_cuda_grid(const op_cuda_loop *C, int count);
/* Device pointers of a dat's data and of a map's table (both current on the device). */
void *op_cuda_dat_d(op_dat dat);
const int *op_cuda_map_d(op_map map);
/* The global numbers of a set's local elements on the device (op_arg_idx on
 * many processes), or NULL on one process (the index is the number). */
const int *op_cuda_gid_d(op_set set);

/* Bytes of shared memory per warp for the coalesced kernel of a loop whose largest
 * direct multi-component dat has `elem_bytes` bytes per element. */
#define OP_CUDA_WARP_SCRATCH(elem_bytes) ((size_t)32 * (size_t)(elem_bytes))

/* ---- constants: the generated file registers its updater (docs/cuda.md) ---- */
typedef int (*op_cuda_const_updater)(const char *name, const void *data, size_t bytes,
                                     char *err, size_t errlen);
void op_cuda_register_const_updater(op_cuda_const_updater fn);

/* ---- errors (op_cuda_fail.c) ---- */
/* Fatal error for a failed CUDA call: file, line, the call, the CUDA message, the loop. */
void op_cuda_fail(int err, const char *call, const char *loop, const char *file, int line);

/* ---- the auto-tuner (op_cuda_tune.c: plain C, no CUDA calls) ---- */
typedef struct {
  int indirect;      /* indirect loop (staged/atomic/colour) or direct (plain/coalesced) */
  int coalesced_ok;
  int staged_ok;
  int atomic_ok;
  /* What building the plan of a staged or a colour candidate would cost, in
   * map entries read (op_cuda_plan_costs); 0 when not known (small). */
  long long staged_cost, colour_cost;
  int conflict_free; /* no write clashes at all: colour would be atomic's order plus a gather */
} op_cuda_traits;

/* Candidates whose plan would cost more than this many map entries read are
 * not tried: at a few ns an entry, a fraction of a second on one core. The
 * 64M-point heat grid (1.1G entries for a staged plan) and dense Jacobi at
 * Ndim 4096 (4096 colours: 2.1G for a colour plan) stay with atomic; the
 * 720K-cell airfoil (17M for res_calc's staged plans) tries everything. */
#define OP_CUDA_TUNE_MAX_PLAN_COST ((long long)1 << 28)

const char *op_cuda_strategy_name(int strategy);
int op_cuda_strategy_from_name(const char *name); /* -1 if unknown */
/* Parses "STRATEGY[:block[:part]]"; returns 0 on success, else writes why into err. */
int op_cuda_parse_config(const char *text, op_cuda_config *cfg, char *err, size_t errlen);

/* Options: returns 1 when arg was a tuner option (fatal on a bad value). */
int op_cuda_tune_option(const char *arg);
const char *op_cuda_tune_usage(void);
/* Loads the tune file (if one was named and exists). */
void op_cuda_tune_init(void);
/* The configuration for this call of loop `name`. */
op_cuda_config op_cuda_tune_choose(const char *name, const op_cuda_traits *t, int default_part);
/* The configuration cannot run (e.g. too much shared memory): never offer it again. */
void op_cuda_tune_reject(const char *name, op_cuda_config cfg);
/* 1 when the loop's configuration is forced or fixed (--op-tune=off), not tuned. */
int op_cuda_tune_is_fixed(const char *name);
/* The call chosen as `asked` ran as `ran` (its kernel allows fewer threads per
 * block; staged needs more shared memory than the device has). A forced or
 * default choice becomes `ran` for this and later calls, so that times,
 * --op-diags and the tune file show what ran; any other is rejected. */
void op_cuda_tune_ran_as(const char *name, op_cuda_config asked, op_cuda_config ran);
/* Time of one call made with cfg (GPU milliseconds, from CUDA events). */
void op_cuda_tune_record(const char *name, op_cuda_config cfg, double ms);
/* Prints the choice per loop (diagnostics >= 1) and saves the tune file (if named). */
void op_cuda_tune_exit(int diags, const char *device_name);
/* For tests: every candidate the tuner would try for these traits. */
int op_cuda_tune_candidates(const op_cuda_traits *t, int default_part, op_cuda_config *out, int max);
int op_cuda_tune_save(const char *path, const char *device_name, char *err, size_t errlen);
/* Loads a tune file (docs/cuda.md). A line that does not parse (numbers out
 * of range, a negative or NaN time, an unknown strategy or tag) is ignored
 * with a warning naming the file and line. Returns the number of lines
 * ignored (the last one's message in err), 0 when the file does not exist, or
 * -1 when it cannot be read. */
int op_cuda_tune_load(const char *path, char *err, size_t errlen);
/* One line per loop the tune file settled or gave trial candidates for. */
void op_cuda_tune_describe(FILE *f);
void op_cuda_tune_reset(void);
/* The settled choice for a loop (1), or 0 while it is still being tuned / unknown. */
int op_cuda_tune_settled(const char *name, op_cuda_config *cfg);

/* ---- device images of plans (op_cuda_plan.c: plain C) ---- */
/* One int buffer holding every plan array a kernel reads; offsets into it
 * (-1 when absent). Built on the host, copied to the device as one block. */
typedef struct {
  int *image;
  size_t nints;
  long blkmap, offset, nelems, nthrcol, thrcol, ind_offs, ind_sizes, gcol_elems;
  long ind_maps[OP_CUDA_MAX_ARGS];
  long loc_maps[OP_CUDA_MAX_ARGS];
} op_cuda_plan_image;

void op_cuda_plan_pack(const op_plan *plan, op_cuda_plan_image *img);
void op_cuda_plan_image_free(op_cuda_plan_image *img);
/* Pointers into a copy of the image at `base` (device or host). */
void op_cuda_plan_pointers(const op_cuda_plan_image *img, const int *base, op_cuda_plan_d *pd);

#ifdef __cplusplus
}
#endif

#endif
