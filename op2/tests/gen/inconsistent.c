#include "op2.h"
void f(op_set s, op_dat d) {
  op_par_loop(kern, "kern", s, op_arg_dat(d, -1, OP_ID, 1, "double", OP_READ));
  op_par_loop(kern, "kern", s, op_arg_dat(d, -1, OP_ID, 1, "double", OP_RW));
}
