/*
 * replace - an application that replaces a map's entries and a dat's rows
 * after declaring them, as OP2's mesh tools do (free map->map, assign an
 * array of their own from malloc): the library must run its loops on the new
 * arrays and free them at op_exit, once (docs/op2-library.md, "Who owns a
 * declared array"). On many processes each process replaces its own rows,
 * before the first loop.
 *
 * N nodes and N edges, declared as a ring (edge e joins e and e+1) with node
 * values 0; then replaced by edge e joining e and second(e) = 3 (e / 3), which
 * some nodes end many edges and others none, and node values 3g+1 (g the
 * node's number). Two loops over the edges: a sum of x[first] + 2 x[second],
 * and an increment of each end's count through the map; then a sum over the
 * nodes of count * g. Both are exact integers, computed here from the
 * replaced arrays' formulas, and different for the declared ones. Before the
 * loops, the map's entries as op_fetch_map_global gives them out (as the
 * HDF5 writers take them) must be the new ones too.
 *
 * Usage: replace [library options]; exit status 0 when both sums are right.
 */
#include <stdio.h>
#include <stdlib.h>

#include "op_seq.h"

#define N 60

static inline void edge_sum(const int *a, const int *b, int *sum) { *sum += *a + 2 * *b; }
static inline void count_ends(int *a, int *b) {
  *a += 1;
  *b += 1;
}
static inline void weighted(const int *count, const int *g, int *sum) { *sum += *count * *g; }

static int second(int g) { return 3 * (g / 3); }
static int value(int g) { return 3 * g + 1; }

static void *allocate(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) {
    fprintf(stderr, "replace: out of memory\n");
    exit(2);
  }
  return p;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  int first, count;
  op_slice(N, &first, &count);
  int *ends = allocate(sizeof(int) * 2 * (size_t)count);
  int *zero = allocate(sizeof(int) * (size_t)count);
  int *ids = allocate(sizeof(int) * (size_t)count);
  for (int i = 0; i < count; i++) {
    const int g = first + i;
    ends[2 * i] = g;
    ends[2 * i + 1] = (g + 1) % N;
    zero[i] = 0;
    ids[i] = g;
  }
  op_set nodes = op_decl_set(count, "nodes");
  op_set edges = op_decl_set(count, "edges");
  op_map pedge = op_decl_map(edges, nodes, 2, ends, "pedge");
  op_dat p_x = op_decl_dat(nodes, 1, "int", zero, "p_x");
  op_dat p_count = op_decl_dat(nodes, 1, "int", zero, "p_count");
  op_dat p_g = op_decl_dat(nodes, 1, "int", ids, "p_g");
  free(ends);
  free(zero);
  free(ids);

  /* The replacement: the library's arrays freed, arrays of the same size
   * from malloc in their place (OP2's ownership: op_exit frees them). */
  int *renumbered = allocate(sizeof(int) * 2 * (size_t)count);
  for (int i = 0; i < count; i++) {
    renumbered[2 * i] = first + i;
    renumbered[2 * i + 1] = second(first + i);
  }
  free(pedge->map);
  pedge->map = renumbered;
  int *values = allocate(sizeof(int) * (size_t)count);
  for (int i = 0; i < count; i++) values[i] = value(first + i);
  free(p_x->data);
  p_x->data = (char *)values;

  /* Before any loop (on many processes, before the partition) the map's
   * entries as the library gives them out (the writers' path) are the new
   * ones. */
  int wrong = 0;
  const int *entries = op_fetch_map_global(pedge); /* collective; NULL but on the root */
  if (op_is_root())
    for (int g = 0; g < N; g++) wrong += entries[2 * g] != g || entries[2 * g + 1] != second(g);

  int sum = 0, total = 0;
  op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(p_x, 0, pedge, 1, "int", OP_READ),
              op_arg_dat(p_x, 1, pedge, 1, "int", OP_READ), op_arg_gbl(&sum, 1, "int", OP_INC));
  op_par_loop(count_ends, "count_ends", edges, op_arg_dat(p_count, 0, pedge, 1, "int", OP_INC),
              op_arg_dat(p_count, 1, pedge, 1, "int", OP_INC));
  op_par_loop(weighted, "weighted", nodes, op_arg_dat(p_count, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(p_g, -1, OP_ID, 1, "int", OP_READ), op_arg_gbl(&total, 1, "int", OP_INC));

  /* Node n's count is the number of edges it ends, so the total is the sum
   * over the edges of their two ends' numbers. */
  int want_sum = 0, want_total = 0;
  for (int g = 0; g < N; g++) {
    want_sum += value(g) + 2 * value(second(g));
    want_total += g + second(g);
  }
  const int ok = sum == want_sum && total == want_total && wrong == 0;
  op_printf(
      "replace: sum %d (expected %d), total %d (expected %d), %d entries given out wrong: "
      "%s\n",
      sum, want_sum, total, want_total, wrong, ok ? "PASSED" : "FAILED");
  op_exit();
  return ok ? 0 : 1;
}
