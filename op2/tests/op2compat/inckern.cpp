// inckern - an application that keeps its kernels as MG-CFD does: several to
// a header that the main source includes (inckern/node_kernels.h,
// inckern/edge_kernels.h), none named after its kernel; the headers include
// helpers beside them, a header of sizes from the include directory, and
// <iostream>; a constant is declared with a size given by a macro
// (op_decl_const(NCOMP, ...)). The loop code must find every kernel, bring
// each header once, and compile on every backend. Checks its results
// exactly.
//
// Usage: inckern [library options]; exit status 0 when every check passes.
#include <cstdio>

#include "op_seq.h"

#include "inckern/edge_kernels.h"
#include "inckern/node_kernels.h"

double weights[NCOMP] = {1.0, 2.0, 4.0};

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  op_decl_const(NCOMP, "double", weights);
  const int n = 50;  // a ring of n nodes and n edges
  int ids[n], ring[2 * n];
  for (int i = 0; i < n; i++) ids[i] = i, ring[2 * i] = i, ring[2 * i + 1] = (i + 1) % n;
  op_set nodes = op_decl_set(n, "nodes");
  op_set edges = op_decl_set(n, "edges");
  op_map edge_nodes = op_decl_map(edges, nodes, 2, ring, "edge_nodes");
  op_dat p_id = op_decl_dat(nodes, 1, "int", ids, "p_id");
  op_dat p_q = op_decl_dat_temp(nodes, NCOMP, "double", (double *)NULL, "p_q");
  op_dat p_r = op_decl_dat_temp(nodes, NCOMP, "double", (double *)NULL, "p_r");
  op_par_loop(init_node, "init_node", nodes, op_arg_dat(p_id, -1, OP_ID, 1, "int", OP_READ),
              op_arg_dat(p_q, -1, OP_ID, NCOMP, "double", OP_WRITE));
  double total = 0;
  op_par_loop(sum_node, "sum_node", nodes, op_arg_dat(p_q, -1, OP_ID, NCOMP, "double", OP_READ),
              op_arg_gbl(&total, 1, "double", OP_INC));
  op_par_loop(edge_flux, "edge_flux", edges,
              op_arg_dat(p_q, 0, edge_nodes, NCOMP, "double", OP_READ),
              op_arg_dat(p_q, 1, edge_nodes, NCOMP, "double", OP_READ),
              op_arg_dat(p_r, 0, edge_nodes, NCOMP, "double", OP_INC),
              op_arg_dat(p_r, 1, edge_nodes, NCOMP, "double", OP_INC));
  int counted = 0;
  op_par_loop(count_edge, "count_edge", edges, op_arg_gbl(&counted, 1, "int", OP_INC));
  // sum over i of w_k (i + k): the ids 0..n-1 give n(n-1)/2 each, plus n k.
  double expected = 0;
  for (int k = 0; k < NCOMP; k++) expected += weights[k] * (n * (n - 1) / 2 + n * k);
  // Node i gains q[i+1] - q[i] from its edge forward and loses q[i] - q[i-1]
  // from the one behind: w_k (1 - 1) = 0 inside the ring, and the ends wrap
  // by n: node 0 gets w_k (1 + (n - 1)) = n w_k, node n-1 gets -n w_k.
  const double *r = (const double *)op_fetch_data_ptr(p_r);
  int wrong = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < NCOMP; k++) {
      const double want = i == 0 ? n * weights[k] : i == n - 1 ? -n * weights[k] : 0.0;
      wrong += r[NCOMP * i + k] != want;
    }
  const int ok = total == expected && counted == n && wrong == 0;
  op_printf("inckern: total %g (expected %g), %d edges, %d wrong fluxes: %s\n", total, expected,
            counted, wrong, ok ? "PASSED" : "FAILED");
  op_exit();
  return ok ? 0 : 1;
}
