#include "op2.h"
void f(op_set s, op_dat d) {
  /* op_par_loop(in_a_comment, ...) is ignored */
  const char *text = "op_par_loop(in_a_string)";
  (void)text;
  op_par_loop(no_such_kernel, "k", s, op_arg_dat(d, -1, OP_ID, 1, "double", OP_READ));
}
