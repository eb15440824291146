/*
 * op_state.c - the library's process-wide state, defined apart from the
 * modules that use it: op_g (op_state.h: the options and the registry) and
 * the tables of hooks the MPI layer and the device backends set before main
 * (op_dist.h). This file calls nothing, so a module that only reads the
 * state (op_error.c names the rank from op_dist; op_init.c, the plans and
 * op_renumber read op_g) depends on no other module for it.
 */
#include "op_dist.h"
#include "op_state.h"

op_state op_g;
const op_dist_ops *op_dist;
const op_device_rows_ops *op_device_rows;
