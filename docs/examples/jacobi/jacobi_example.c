/*
 * jacobi_example - the edge-based Jacobi iteration of the OP2 design notes
 * (Giles, "OPlus2 for many-core platforms", 2010, section 5), as an
 * application of its own built against an installed OP2: A u + r = 0 is solved by u <- u + (A u +
 * r), with A stored as edges (A[e] = A(p1[e], p2[e])) and two parallel loops per iteration.
 *
 * The system: the 1D Laplacian on N interior points scaled by its diagonal,
 * (u[i-1] + u[i+1]) / 2 - u[i] + r[i] = 0, with u = 1 at both ends (folded
 * into r) and r = 0 inside, whose solution is u = 1. It prints the iterations
 * and the largest error, and exits 1 unless the error is below 1e-10.
 *
 *   jacobi_example_<backend> [N]        (default N = 20)
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "op2.h"

int main(int argc, char **argv) {
  op_init(argc, argv, 0);
  const int n = argc > 1 ? atoi(argv[1]) : 20;
  if (n < 2 || n > 1000000) {
    fprintf(stderr, "jacobi_example: N = %s is outside 2..1000000\n", argc > 1 ? argv[1] : "?");
    return 2;
  }
  /* Edges: i -> i (A = -1) and i -> i +- 1 (A = 1/2). */
  const int nedge = 3 * n - 2;
  int *pedge = malloc(sizeof(int) * 2 * (size_t)nedge);
  double *A = malloc(sizeof(double) * (size_t)nedge), *r = calloc((size_t)n, sizeof(double));
  double *u = calloc((size_t)n, sizeof(double)), *du = calloc((size_t)n, sizeof(double));
  if (!pedge || !A || !r || !u || !du) {
    fprintf(stderr, "jacobi_example: out of memory\n");
    return 2;
  }
  int e = 0;
  for (int i = 0; i < n; i++) {
    pedge[2 * e] = i, pedge[2 * e + 1] = i, A[e++] = -1.0;
    if (i > 0) pedge[2 * e] = i, pedge[2 * e + 1] = i - 1, A[e++] = 0.5;
    if (i < n - 1) pedge[2 * e] = i, pedge[2 * e + 1] = i + 1, A[e++] = 0.5;
  }
  r[0] = r[n - 1] = 0.5; /* the boundary values u = 1, times 1/2 */

  op_set nodes = op_decl_set(n, "nodes");
  op_set edges = op_decl_set(nedge, "edges");
  op_map p = op_decl_map(edges, nodes, 2, pedge, "pedge");
  op_dat p_A = op_decl_dat(edges, 1, "double", A, "A");
  op_dat p_r = op_decl_dat(nodes, 1, "double", r, "r");
  op_dat p_u = op_decl_dat(nodes, 1, "double", u, "u");
  op_dat p_du = op_decl_dat(nodes, 1, "double", du, "du");

  int iter = 0;
  double change = 1.0;
  while (change > 1e-13 && iter < 100000) {
    op_par_loop(res, "res", edges, op_arg_dat(p_A, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(p_u, 1, p, 1, "double", OP_READ),
                op_arg_dat(p_du, 0, p, 1, "double", OP_INC));
    double change_sq = 0.0, u_sq = 0.0;
    op_par_loop(update, "update", nodes, op_arg_dat(p_r, -1, OP_ID, 1, "double", OP_READ),
                op_arg_dat(p_du, -1, OP_ID, 1, "double", OP_RW),
                op_arg_dat(p_u, -1, OP_ID, 1, "double", OP_RW),
                op_arg_gbl(&change_sq, 1, "double", OP_INC),
                op_arg_gbl(&u_sq, 1, "double", OP_INC));
    change = sqrt(change_sq);
    iter++;
  }
  const double *uh = op_fetch_data_ptr(p_u);
  double err = 0.0;
  for (int i = 0; i < n; i++) err = fmax(err, fabs(uh[i] - 1.0));
  printf("jacobi_example (%s backend): N = %d, %d iterations, max |u - 1| = %.3e\n",
         op_backend_name(), n, iter, err);
  op_timing_output();
  op_exit();
  free(pedge), free(A), free(r), free(u), free(du);
  return err < 1e-10 ? 0 : 1;
}
