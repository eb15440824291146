/* op_backend_seq.c - the sequential backend: host memory only, one thread. */
#include "op2.h"
#include "op2_loop.h"
#include "op_state.h"

const char *op_backend_name(void) { return "seq"; }
int op_num_threads(void) { return 1; }

void op_backend_init(void) {}
void op_backend_exit(void) {}
int op_backend_default_part_size(void) { return OP_CPU_PART_SIZE; }
int op_backend_option(const char *arg) { return 0; }
const char *op_backend_usage(void) { return ""; }
void op_backend_dat_to_host(op_dat dat) {}
void op_backend_dat_declared(op_dat dat) {}
void op_backend_dat_freed(op_dat dat) {}
void op_backend_const_declared(const char *name, const void *data, size_t bytes) {}
