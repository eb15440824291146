/* op_seq.h - the header OP2 applications include. In OP2 it selects the
 * single-threaded reference build; here every backend is built from the same
 * source by op2_application, so it is op2.h with OP2's extras (op_lib_core.h). */
#ifndef OP_SEQ_H
#define OP_SEQ_H
#include "op_lib_core.h"
#endif
