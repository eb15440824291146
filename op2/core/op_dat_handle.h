/*
 * op_dat_handle.h - a dat's handle after the dat is gone (op_dat_handle.c).
 */
#ifndef OP_DAT_HANDLE_H
#define OP_DAT_HANDLE_H

#include "op2.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Why a dat's handle is dead (op_dat's `freed`; op_dat_handle.c). */
enum { OP_DAT_FREED_TEMP = 1, OP_DAT_FREED_EXIT = 2 };
/* Stops the program, naming the dat and the call, when dat is NULL or was
 * freed (by op_free_dat_temp, or by op_exit). Every call that takes a dat
 * asks this before it looks at the dat's rows. */
void op_dat_require_live(op_dat dat, const char *call);
/* Frees what dat holds but its record and name, which stay until the
 * process exits, marked freed for why (OP_DAT_FREED_*). The caller has
 * removed it from the registry and told the backend and the MPI layer. */
void op_dat_retire(op_dat dat, int why);

#ifdef __cplusplus
}
#endif

#endif
