#include "op2.h"
void f(op_set s, op_arg a) {
  op_par_loop(kern, "kern", s,
              a);
}
