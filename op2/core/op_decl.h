/*
 * op_decl.h - what the declarations (op_decl.c) give the rest of the
 * library: enumeration of everything declared so far, for I/O (dumps,
 * checkpoints) and diagnostics, and the names of OP2's types.
 */
#ifndef OP_DECL_H
#define OP_DECL_H

#include "op2.h"

#ifdef __cplusplus
extern "C" {
#endif

int op_num_sets(void);
op_set op_set_at(int i);
int op_num_maps(void);
op_map op_map_at(int i);
int op_num_dats(void);
op_dat op_dat_at(int i);

/* Global constants registered with op_decl_const, by C name. */
typedef struct {
  char *name;
  char *type_name;
  int dim;
  size_t bytes;
  const void *data; /* the application's variable */
} op_const_info;
int op_num_consts(void);
const op_const_info *op_const_at(int i);

/* Parses "double", "float", "int" and OP2's other spellings of them ("real(8)",
 * "r8", "real*8", "double precision"; "real(4)", "r4", "real*4", "real";
 * "integer(4)", "i4", "integer*4", "integer", "int(4)"), each also with OP2's
 * layout suffix ":soa" ("double:soa"); returns -1 for anything else (OP2's
 * "uint", "ll", "ull", "bool": docs/op2-library.md). */
int op_type_from_name(const char *name);
/* 1 when the type name asks for OP2's structure-of-arrays layout (":soa"). */
int op_type_is_soa(const char *name);
int op_type_bytes(op_type t);

#ifdef __cplusplus
}
#endif

#endif
