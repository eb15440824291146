/*
 * op2-tune-check - a tune file and the CUDA backend's tuning options, read and
 * checked exactly as the CUDA backend reads them (op_cuda_tune.c is plain C),
 * on any machine and in every build, with or without CUDA: what each loop
 * gets from the file is printed, a bad line is ignored with the backend's
 * warning, and a file or option the backend would refuse is refused alike.
 *
 *   op2-tune-check [--op-tune-file=FILE] [--op-force=S[:B[:P]]] [--op-force-loop=NAME=S...]
 *
 * Exit 0, or 2 (with the backend's message) for a file that cannot be read
 * or an option that is wrong. docs/cuda.md, "Tune files".
 */
#include <stdio.h>
#include <string.h>

#include "op2.h"
#include "op_cuda.h"
#include "op_version.h"

int main(int argc, char **argv) {
  if (op_asks_version(argc, argv)) {
    op_print_version("op2-tune-check");
    return 0;
  }
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: %s [--op-tune-file=FILE] [--op-force=...] [--op-force-loop=...]\n"
             "Reads a tune file and the CUDA tuning options as the CUDA backend does, and\n"
             "prints what each loop gets.\n\n%s",
             argv[0], op_cuda_tune_usage());
      return 0;
    }
    if (!op_cuda_tune_option(argv[i])) { /* checks the value: op_fatal, exit 2 */
      fprintf(stderr, "op2-tune-check: argument %d '%s': not a CUDA tuning option (--help)\n",
              i, argv[i]);
      return 2;
    }
  }
  op_cuda_tune_init(); /* loads the tune file as the backend does at start-up */
  op_cuda_tune_describe(stdout);
  return 0;
}
