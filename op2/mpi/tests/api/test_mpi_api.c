/*
 * test_mpi_api - the OP2 API on many processes, through generated loops (the
 * layer wired into the core: docs/mpi.md, "Wiring it in"). Every process
 * declares its slice of a mesh made from formulas of the global numbers, the
 * partitioner named on the command line splits it, and the loops run:
 *   - reductions of every kind are the same bits on every process and in
 *     every repetition; the integer sum is exact, so it must equal the
 *     formula's (the value before the loop counted once, not once a process);
 *     the largest value and its node (op_arg_info, op_arg_idx's global number)
 *     are the formula's;
 *   - an increment through a map (execute halo, halo exchange) then summed
 *     gives exactly the formula's value (integers held in doubles);
 *   - op_get_size, op_fetch_data_global and op_fetch_data_idx give the
 *     user's numbering.
 *
 *   test_mpi_api LIB:ROUTINE [--op-... options]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"

/* A failed check names the process (test_check.h). */
#define CHECK_RANK() op_rank()
#include "test_check.h"

enum { NNODE = 977, NEDGE = 3001, REPEAT = 20 };

/* Values over 2^60 and below 1: summed in another order, they round otherwise. */
static double value(int g) { return (g % 7 == 0 ? 1e18 : 1.0) * ((g * 37 % 101) - 50) + 1.0 / (g + 3); }
static int ivalue(int g) { return g % 17 - 8; }
static int edge_from(int e) { return e % NNODE; }
static int edge_to(int e) { return (e * 7 + 3) % NNODE; }
static double weight(int e) { return (double)(e % 5 + 1); }

int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 0);
  if (argc != 2 || !strchr(argv[1], ':')) {
    fprintf(stderr, "usage: test_mpi_api LIB:ROUTINE\n");
    op_exit();
    return 2;
  }
  char lib[32];
  snprintf(lib, sizeof lib, "%s", argv[1]);
  char *routine = strchr(lib, ':');
  *routine++ = '\0';

  int n0, nn, e0, ne;
  op_slice(NNODE, &n0, &nn);
  op_slice(NEDGE, &e0, &ne);
  int *pedge = malloc(sizeof(int) * 2 * (size_t)(ne + 1));
  double *w = malloc(sizeof(double) * (size_t)(ne + 1)), *v = malloc(sizeof(double) * (size_t)(nn + 1));
  double *xy = malloc(sizeof(double) * 2 * (size_t)(nn + 1));
  int *k = malloc(sizeof(int) * (size_t)(nn + 1));
  for (int i = 0; i < ne; i++) {
    pedge[2 * i] = edge_from(e0 + i);
    pedge[2 * i + 1] = edge_to(e0 + i);
    w[i] = weight(e0 + i);
  }
  for (int i = 0; i < nn; i++) {
    v[i] = value(n0 + i);
    k[i] = ivalue(n0 + i);
    xy[2 * i] = (double)((n0 + i) % 31);
    xy[2 * i + 1] = (double)((n0 + i) / 31);
  }
  op_set nodes = op_decl_set(nn, "nodes"), edges = op_decl_set(ne, "edges");
  op_map m = op_decl_map(edges, nodes, 2, pedge, "pedge");
  op_dat dw = op_decl_dat(edges, 1, "double", w, "w");
  op_dat dv = op_decl_dat(nodes, 1, "double", v, "v");
  op_dat dk = op_decl_dat(nodes, 1, "int", k, "k");
  op_dat dxy = op_decl_dat(nodes, 2, "double", xy, "xy");
  op_dat dacc = op_decl_dat_temp(nodes, 1, "double", "acc");
  free(pedge), free(w), free(v), free(k), free(xy);
  op_partition(lib, routine, edges, m, dxy);

  CHECK(op_get_size(nodes) == NNODE && op_get_size(edges) == NEDGE, "op_get_size: %d, %d",
        op_get_size(nodes), op_get_size(edges));

  /* Reductions, REPEAT times: the same bits every time and everywhere. */
  double first_sum = 0.0;
  for (int r = 0; r < REPEAT; r++) {
    double sum = 0.0, vmax = -1e300;
    int isum = 1000, where = -1;
    op_par_loop(node_reduce, "node_reduce", nodes,
                op_arg_dat(dv, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(dk, -1, OP_ID, 1, "int", OP_READ), op_arg_idx(-1, OP_ID),
                op_arg_gbl(&sum, 1, "double", OP_INC), op_arg_gbl(&isum, 1, "int", OP_INC),
                op_arg_gbl(&vmax, 1, "double", OP_MAX), op_arg_info(&where, 1, "int", 5));
    if (r == 0) first_sum = sum;
    CHECK(memcmp(&sum, &first_sum, sizeof sum) == 0, "repetition %d: sum %.17g, first %.17g", r,
          sum, first_sum);
    double root_sum = sum;
    op_broadcast(&root_sum, sizeof root_sum);
    CHECK(memcmp(&sum, &root_sum, sizeof sum) == 0, "sum %.17g here, %.17g on the root", sum,
          root_sum);
    int want_isum = 1000, want_where = 0;
    double want_max = -1e300;
    for (int g = 0; g < NNODE; g++) {
      want_isum += ivalue(g);
      if (value(g) > want_max) want_max = value(g), want_where = g;
    }
    CHECK(isum == want_isum, "integer sum %d, expected %d (the value before the loop %s)", isum,
          want_isum, isum > want_isum ? "counted more than once?" : "lost?");
    CHECK(vmax == want_max && where == want_where, "max %.17g at node %d, expected %.17g at %d",
          vmax, where, want_max, want_where);
  }

  /* An increment through a map, then a sum of it: integers, exact in any order. */
  op_par_loop(edge_spread, "edge_spread", edges,
              op_arg_dat(dw, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(dk, 1, m, 1, "int", OP_READ),
              op_arg_dat(dacc, 0, m, 1, "double", OP_INC));
  double want_acc[NNODE] = {0};
  for (int e = 0; e < NEDGE; e++) want_acc[edge_from(e)] += weight(e) * ivalue(edge_to(e));
  const double *acc = op_fetch_data_global(dacc);
  if (op_is_root())
    for (int g = 0; g < NNODE; g++)
      CHECK(acc[g] == want_acc[g], "acc of node %d is %g, expected %g", g, acc[g], want_acc[g]);
  double some[5];
  op_fetch_data_idx(dacc, some, 100, 104);
  for (int g = 100; g < 105; g++)
    CHECK(some[g - 100] == want_acc[g], "op_fetch_data_idx: node %d is %g, expected %g", g,
          some[g - 100], want_acc[g]);

  check_failures = op_max_int(check_failures);
  if (!check_failures)
    op_printf("test_mpi_api %s:%s on %d process(es): all checks passed\n", lib, routine,
              op_num_procs());
  op_exit();
  return check_failures ? 1 : 0;
}
