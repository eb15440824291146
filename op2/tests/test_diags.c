/*
 * test_diags MODE - one misuse per mode, caught at the default diagnostics
 * level (0: these checks are always on) with a message naming the loop and
 * the argument (ctest matches the message).
 * Calls op_loop_begin directly, as generated code does, so that misuses the
 * generator itself refuses (MIN on a dat) can be tried at run time too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_loop.h"

/* Rows of a map of dim 2 for op_decl_map_fill: row r is {r % 1000, (r + 1) % 1000},
 * except that ctx, when given, names two rows whose second entry is 7777. */
#define FILL_ROWS 100000
static void fill_rows(int first, int count, int *rows, void *ctx) {
  const int *bad = ctx;
  for (int k = 0; k < count; k++) {
    const int r = first + k;
    rows[2 * k] = r % 1000;
    rows[2 * k + 1] = bad && (r == bad[0] || r == bad[1]) ? 7777 : (r + 1) % 1000;
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_diags MODE\n");
    return 2;
  }
  const char *mode = argv[1];
  op_init_strip_options(&argc, argv, 0);
  static int e2n[] = {0, 1, 1, 2, 2, 3};
  static int bad[] = {0, 1, 1, 7};
  static int e2e[] = {0, 1, 1, 2, 2, 0};
  op_set nodes = op_decl_set(4, "nodes");
  op_set edges = op_decl_set(3, "edges");
  op_set other = op_decl_set(3, "other");
  op_map pedge = op_decl_map(edges, nodes, 2, e2n, "pedge");
  op_map pother = op_decl_map(other, nodes, 2, e2n, "pother");
  op_map pself = op_decl_map(edges, edges, 2, e2e, "pself");
  op_dat x = op_decl_dat_temp(nodes, 2, "double", "x");
  op_dat f = op_decl_dat_temp(edges, 1, "double", "f");
  double g = 0.0;
  op_arg a;
  op_arg_sig s = {OP_ARG_DAT, 1, OP_TYPE_DOUBLE, OP_READ, -1, -1};
  op_set set = edges;

  if (!strcmp(mode, "dim")) {
    a = op_arg_dat(x, 0, pedge, 3, "double", OP_READ);
  } else if (!strcmp(mode, "type")) {
    a = op_arg_dat(x, 0, pedge, 2, "float", OP_READ);
    s.type = OP_TYPE_FLOAT;
  } else if (!strcmp(mode, "from_set")) {
    a = op_arg_dat(x, 0, pother, 2, "double", OP_READ);
  } else if (!strcmp(mode, "to_set")) {
    a = op_arg_dat(x, 0, pself, 2, "double", OP_READ);
  } else if (!strcmp(mode, "index")) {
    a = op_arg_dat(x, 2, pedge, 2, "double", OP_READ);
  } else if (!strcmp(mode, "min_on_dat")) {
    a = op_arg_dat(f, -1, OP_ID, 1, "double", OP_MIN);
    s.indirect = 0;
    s.acc = OP_MIN;
  } else if (!strcmp(mode, "direct_other_set")) {
    a = op_arg_dat(x, -1, OP_ID, 2, "double", OP_READ);
    s.indirect = 0;
  } else if (!strcmp(mode, "gbl_write")) {
    a = op_arg_gbl(&g, 1, "double", OP_WRITE);
    s.kind = OP_ARG_GBL;
    s.indirect = 0;
    s.acc = OP_WRITE;
  } else if (!strcmp(mode, "gbl_type")) {
    /* A type string op2-gen would refuse, as a program built otherwise passes it. */
    a = op_arg_gbl_core(&g, 1, "complex", sizeof g, NULL, OP_INC);
    s.kind = OP_ARG_GBL;
    s.indirect = 0;
    s.acc = OP_INC;
  } else if (!strcmp(mode, "stale_code")) {
    a = op_arg_dat(x, -1, OP_ID, 2, "double", OP_READ); /* generated for a map */
    set = nodes;
  } else if (!strcmp(mode, "map_range")) {
    op_decl_map(edges, nodes, 2, bad, "pbad");
    return 0;
  } else if (!strcmp(mode, "map_long_range")) {
    /* OP2's 64-bit entries: one beyond the int numbering. */
    long long wide[6] = {0, 1, 1, 2, 3, 4294967296LL};
    op_decl_map_long(edges, nodes, 2, wide, "pwide");
    return 0;
  } else if (!strcmp(mode, "map_long")) {
    /* ...and ones within it: the same map as from int entries. */
    long long wide[6] = {0, 1, 1, 2, 3, 0};
    op_map m = op_decl_map_long(edges, nodes, 2, wide, "pwide");
    for (int i = 0; i < 6; i++)
      if (m->map[i] != (int)wide[i]) return 1;
    printf("long map matches\n");
    return 0;
  } else if (!strcmp(mode, "map_fill_range")) {
    /* Two bad rows in different pieces: the lower one is reported. */
    op_set rows = op_decl_set(FILL_ROWS, "rows");
    op_set points = op_decl_set(1000, "points");
    int bad_rows[2] = {FILL_ROWS - 10, 40000};
    op_decl_map_fill(rows, points, 2, fill_rows, bad_rows, "pfill");
    return 0;
  } else if (!strcmp(mode, "map_fill")) {
    /* Filled in pieces, the map holds what op_decl_map copies. */
    op_set rows = op_decl_set(FILL_ROWS, "rows");
    op_set points = op_decl_set(1000, "points");
    int *whole = malloc(sizeof(int) * 2 * FILL_ROWS);
    if (!whole) return 2;
    fill_rows(0, FILL_ROWS, whole, NULL);
    op_map copied = op_decl_map(rows, points, 2, whole, "pcopy");
    op_map filled = op_decl_map_fill(rows, points, 2, fill_rows, NULL, "pfill");
    const int same = !memcmp(copied->map, filled->map, sizeof(int) * 2 * FILL_ROWS);
    free(whole);
    printf("%s\n", same ? "filled map matches" : "filled map differs");
    op_exit();
    return same ? 0 : 1;
  } else if (!strcmp(mode, "valid")) {
    a = op_arg_dat(x, 1, pedge, 2, "double", OP_READ);
  } else {
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
  }
  op_loop_ctx L;
  op_loop_begin(&L, "probe", set, 1, &a, &s, "probe_kernel", "test_diags.c:1");
  op_loop_end(&L);
  printf("loop accepted\n");
  op_exit();
  return 0;
}
