/*
 * srckern_c - a C application whose kernels are defined in its own source:
 * one `static inline`, one with external linkage (the generated loop code
 * takes a static copy of each), reading a static constant (of which the loop
 * code keeps a copy op_decl_const fills). Checks the results exactly; with OP2's
 * option OP_NO_REALLOC also that the loops wrote into its own array (the
 * dat is the array), without it that they did not (the dat is a copy).
 *
 * Usage: srckern_c [library options] [OP_NO_REALLOC]; exit status 0 when
 * every check passes.
 */
#include <stdio.h>
#include <string.h>

#include "op_seq.h"

#define N 100

/* A constant of internal linkage: the loop code keeps a copy of its own. */
static int factor;

static inline void twice(const int *a, int *b) { *b = factor * *a; }

void total(const int *b, int *sum);
void total(const int *b, int *sum) { *sum += *b; }

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  factor = 2;
  op_decl_const(1, "int", &factor);
  const int in_place = argc > 1 && !strcmp(argv[argc - 1], "OP_NO_REALLOC");
  int first, count, a[N], b[N];
  op_slice(N, &first, &count);
  for (int i = 0; i < count; i++) a[i] = first + i, b[i] = -1;
  op_set items = op_decl_set(count, "items");
  op_dat p_a = op_decl_dat(items, 1, "int", a, "p_a");
  op_dat p_b = op_decl_dat(items, 1, "int", b, "p_b");
  op_par_loop(twice, "twice", items, op_arg_dat(p_a, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(p_b, -1, OP_ID, 1, "int", OP_WRITE));
  int sum = 0;
  op_par_loop(total, "total", items, op_arg_dat(p_b, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&sum, 1, "int", OP_INC));
  op_fetch_data_ptr(p_b); /* a device backend brings the host copy up to date */
  int wrong = 0;
  for (int i = 0; i < count; i++) wrong += b[i] != (in_place ? 2 * a[i] : -1);
  const int ok = sum == N * (N - 1) && wrong == 0;
  op_printf("srckern_c: sum %d (expected %d), the application's array %s: %s\n", sum,
            N * (N - 1), in_place ? "written in place" : "left alone", ok ? "PASSED" : "FAILED");
  op_exit();
  return ok ? 0 : 1;
}
