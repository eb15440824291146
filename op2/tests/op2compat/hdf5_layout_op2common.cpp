/*
 * hdf5_layout_op2common - built on OP2-Common's own library (not on this
 * suite: hdf5_layout_op2common.sh compiles it), reads the files
 * hdf5_layout.c writes with OP2-Common's readers and checks every value,
 * writes the dat p_x back into the second file in place (OP2-Common's
 * op_fetch_data_hdf5_file checks the existing dataset's size, dim and type
 * attributes), and dumps the mesh into a file of its own for hdf5_layout to
 * read.
 *
 * Usage: hdf5_layout_op2common DUMP FETCH OUT; exit status 0 when every
 * check passes, 1 otherwise (OP2-Common's own errors exit 2).
 */
#include <cstdio>

#include "op_seq.h"

static int failures = 0;

static void check(bool ok, const char *what) {
  if (!ok) {
    std::fprintf(stderr, "hdf5_layout_op2common: %s\n", what);
    failures++;
  }
}

int main(int argc, char **argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: hdf5_layout_op2common DUMP FETCH OUT\n");
    return 2;
  }
  op_init(argc, argv, 0);
  op_set nodes = op_decl_set_hdf5(argv[1], "nodes");
  op_set cells = op_decl_set_hdf5(argv[1], "cells");
  check(nodes && cells && nodes->size == 7 && cells->size == 5, "sets nodes (7) and cells (5)");
  op_map pcell = op_decl_map_hdf5(cells, nodes, 3, argv[1], "pcell");
  op_dat p_x = op_decl_dat_hdf5(nodes, 2, "double", argv[1], "p_x");
  op_dat p_flag = op_decl_dat_hdf5(cells, 1, "int", argv[1], "p_flag");
  double alpha[2] = {0, 0};
  op_get_const_hdf5("alpha", 2, "double", (char *)alpha, argv[1]);
  check(pcell && p_x && p_flag, "map pcell, dats p_x and p_flag");
  if (failures) return 1;
  const double *x = (const double *)p_x->data;
  const int *flag = (const int *)p_flag->data;
  for (int c = 0; c < 5; c++) {
    for (int k = 0; k < 3; k++) check(pcell->map[c * 3 + k] == c + k, "an entry of pcell");
    check(flag[c] == 3 * c - 4, "a value of p_flag");
  }
  for (int n = 0; n < 7; n++) check(x[2 * n] == n && x[2 * n + 1] == 10.0 * n + 0.5, "p_x");
  check(alpha[0] == 1.5 && alpha[1] == -2.25, "the constant alpha");
  op_fetch_data_hdf5_file(p_x, argv[2]);
  op_dump_to_hdf5(argv[3]);
  op_write_const_hdf5("alpha", 2, "double", (char *)alpha, argv[3]);
  op_exit();
  std::printf("hdf5_layout_op2common: %s\n", failures ? "FAILED" : "PASSED");
  return failures ? 1 : 0;
}
