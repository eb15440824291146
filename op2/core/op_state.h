/* op_state.h - the library's global state (one per process, defined in op_state.c). */
#ifndef OP_STATE_H
#define OP_STATE_H

#include "op2.h"
#include "op_decl.h"

typedef struct {
  int initialised;
  int exited;  /* op_exit was called (and op_init not since): a late call says so */
  int started; /* the backend (and MPI) started: at op_init, or at the first
                * declaration when the program was asked for its help */
  int diags;
  int part_size;
  int thread_spread;        /* op_set_thread_spread's value (default 1) */
  int thread_spread_option; /* --op-thread-spread=N, 0 when not given */
  int affine_runs;          /* plans look for affine and interleaved runs (--op-affine-runs) */
  int no_realloc;           /* OP2's OP_NO_REALLOC: op_decl_dat keeps the application's array */
  int auto_soa;             /* OP2's op_init_soa / OP_AUTO_SOA: every dat declared ":soa" */
  int maps_base_index;      /* OP2's OP_MAPS_BASE_INDEX: 1 when maps are given 1-based */
  op_set *sets;
  int nsets, cap_sets;
  op_map *maps;
  int nmaps, cap_maps;
  op_dat *dats;             /* NULL where a temporary dat was freed (its index is reused) */
  unsigned char *dat_temp;  /* per dat: made by op_decl_dat_temp (op_free_dat_temp may free it) */
  int ndats, cap_dats;
  op_const_info *consts;
  int nconsts, cap_consts;
} op_state;

extern op_state op_g;

/* CPU backends: blocks of one colour run one after another, so small blocks
 * make every colour stream the whole mesh; blocks of 16384 elements keep each
 * pass to its own part of the data (airfoil res_calc: 29 ms -> 16 ms a call). */
#define OP_CPU_PART_SIZE 16384

/* Starts the backend (and MPI) if op_init left that to the first use. */
void op_start(void);

#endif
