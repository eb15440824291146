void f(void) {
  op_par_loop(kern, "kern", s, op_arg_gbl(&sum, 1, "double", OP_INC),
              op_arg_info(&where, 1, "int", 0));
}
