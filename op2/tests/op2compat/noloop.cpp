//
// noloop - a source with no op_par_loop, as OP2's tutorial starts (its step 1
// and 2 declare the mesh and stop): op2-gen has nothing to generate, and the
// application still builds and runs on every backend.
//
// Usage: noloop [library options]; exit status 0 when the declarations hold.
//
#include <stdio.h>

#include "op_seq.h"

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  int first, count;
  op_slice(10, &first, &count);
  double x[10];
  for (int i = 0; i < count; i++) x[i] = first + i;
  op_set points = op_decl_set(count, "points");
  op_dat p_x = op_decl_dat(points, 1, "double", x, "p_x");
  const int ok = op_get_size(points) == 10 && p_x->dim == 1;
  op_printf("noloop: %s\n", ok ? "PASSED" : "FAILED");
  op_exit();
  return ok ? 0 : 1;
}
