/*
 * op_dat_storage.c - a dat's rows as the library stores them: the host copy
 * made current (op_fetch_data_ptr), its change announced to the backend and
 * the other processes (op_host_data_changed), and a set's size over all
 * processes (op_get_size). The user's numbering is built on these
 * (op2_renumber.h, op_fetch_data in op_decl.c), never the other way round.
 */
#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_dat_handle.h"
#include "op_decl.h"
#include "op_dist.h"

void *op_fetch_data_ptr(op_dat dat) {
  op_dat_require_live(dat, "op_fetch_data_ptr");
  if (!(dat->where & OP_DAT_HOST_CURRENT)) {
    op_backend_dat_to_host(dat);
    dat->where |= OP_DAT_HOST_CURRENT;
  }
  return dat->data;
}

int op_get_size(op_set set) {
  OP_CHECK(set, "op_get_size: set is NULL");
  return op_dist ? op_dist->global_size(set) : set->size;
}

void op_host_data_changed(op_dat dat) {
  op_dat_require_live(dat, "op_host_data_changed");
  dat->where = OP_DAT_HOST_CURRENT;
  if (op_dist) op_dist->dat_changed(dat);
}
