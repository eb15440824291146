/* op_profile.h - OP2's profiling header: op_profile_start, op_profile_end and
 * op_profile_output are declared with the rest of the API in op2.h. */
#ifndef OP_PROFILE_H
#define OP_PROFILE_H
#include "op2.h"
#endif
