void f(void) {
  op_par_loop(kern, "kern", s, op_arg_gbl(big, 2, "double", OP_MAX),
              op_arg_info(&where, 1, "int", 0));
}
