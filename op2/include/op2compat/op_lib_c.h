/* op_lib_c.h - OP2's C API header: op2.h with OP2's extras (op_lib_core.h). */
#ifndef OP_LIB_C_H
#define OP_LIB_C_H
#include "op_lib_core.h"
#endif
