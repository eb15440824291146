/*
 * op_lib_core.h - what an OP2 application, its kernels and the code op2-gen
 * writes may count on besides op2.h, as OP2's header of this name gives it:
 * the C library's usual headers, MIN and MAX, OP_GBL, and the HDF5 calls
 * (op_decl_set_hdf5 ...) when the application links the I/O library.
 *
 * OP2 applications include op_seq.h (or op_lib_c.h, op_lib_cpp.h): each of
 * those is this header. docs/op2-library.md lists which of OP2's calls the
 * suite provides.
 */
#ifndef OP_LIB_CORE_H
#define OP_LIB_CORE_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"

#if defined(__has_include)
#if __has_include("op_hdf5.h")
#include "op_hdf5.h"
#endif
#endif

/* OP2's type of global element numbers (op_decl_map_long's entries). */
typedef long long idx_g_t;

/* A global argument's "map" in OP2's spelling of op_arg_gbl's relatives. */
#ifndef OP_GBL
#define OP_GBL ((op_map)0)
#endif

/* OP2 kernels use these (jac's update: MAX(*u_max, *u)). */
#ifndef MIN
#define MIN(a, b) (((a) < (b)) ? (a) : (b))
#endif
#ifndef MAX
#define MAX(a, b) (((a) > (b)) ? (a) : (b))
#endif

#endif /* OP_LIB_CORE_H */
