/* op2_state.h - the library's global state (one per process). */
#ifndef OP2_STATE_H
#define OP2_STATE_H

#include "op2.h"
#include "op2_registry.h"

typedef struct {
  int initialised;
  int diags;
  int part_size;
  op_set *sets;
  int nsets, cap_sets;
  op_map *maps;
  int nmaps, cap_maps;
  op_dat *dats;
  int ndats, cap_dats;
  op_const_info *consts;
  int nconsts, cap_consts;
} op_state;

extern op_state op_g;

#define OP_DEFAULT_PART_SIZE 256

void op_registry_free(void);
void op_timing_free(void);

#endif
