/* op_lib_cpp.h - OP2's C++ API header: op2.h with OP2's extras (op_lib_core.h).
 * op2.h's calls take any pointer where OP2's C++ header has templates. */
#ifndef OP_LIB_CPP_H
#define OP_LIB_CPP_H
#include "op_lib_core.h"
#endif
