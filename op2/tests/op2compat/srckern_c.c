/*
 * srckern_c - a C application whose kernels are defined in its own source:
 * one `static inline`, one with external linkage (the generated loop code
 * takes a static copy of each). Checks the results exactly.
 *
 * Usage: srckern_c [library options]; exit status 0 when every check passes.
 */
#include <stdio.h>

#include "op_seq.h"

#define N 100

static inline void twice(const int *a, int *b) { *b = 2 * *a; }

void total(const int *b, int *sum);
void total(const int *b, int *sum) { *sum += *b; }

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  int first, count, a[N];
  op_slice(N, &first, &count);
  for (int i = 0; i < count; i++) a[i] = first + i;
  op_set items = op_decl_set(count, "items");
  op_dat p_a = op_decl_dat(items, 1, "int", a, "p_a");
  op_dat p_b = op_decl_dat_temp(items, 1, "int", "p_b");
  op_par_loop(twice, "twice", items, op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(p_b, -1, OP_ID, 1, "int", OP_WRITE));
  int sum = 0;
  op_par_loop(total, "total", items, op_arg_dat(p_b, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&sum, 1, "int", OP_INC));
  const int ok = sum == N * (N - 1);
  op_printf("srckern_c: sum %d (expected %d): %s\n", sum, N * (N - 1), ok ? "PASSED" : "FAILED");
  op_exit();
  return ok ? 0 : 1;
}
