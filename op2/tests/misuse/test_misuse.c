/*
 * test_misuse MODE [library options] - one mistake in the use of the library
 * per mode, each of which the library must refuse at its default
 * diagnostics level (exit 2, naming the loop, the argument and what
 * differs, or the call and the dat): an op_arg_dat whose dim, type, map
 * index, set or map is not the dat's or the loop's; a global whose variable
 * is not of the type its string says; a dat used after op_free_dat_temp or
 * after op_exit. Mode "valid" runs the same loops correctly and checks the
 * sum (exit 0; 1 when the sum is wrong). Built for every backend, and on
 * many processes (op_slice: each declares its slice, in global numbers).
 *
 * The mesh: 4 nodes holding 1, 2, 3, 4 and 3 edges (n, n + 1); the sum over
 * the edges of their two nodes' values is 3 + 5 + 7 = 15.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"

#define NODES 4
#define EDGES 3

static inline void edge_sum(const double *a, const double *b, double *s) { *s += a[0] + b[0]; }
static inline void edge_sum_float(const double *a, const double *b, float *s) {
  *s += (float)(a[0] + b[0]);
}
static inline void edge_sum_float_node(const float *a, const float *b, double *s) {
  *s += (double)(a[0] + b[0]);
}
static inline void direct_sum(const double *a, double *s) { *s += a[0]; }
static inline void count_edges(double *s) { *s += 1.0; }

/* The global of each mode that sums into a variable of another type. */
static int int_sum;
static unsigned char byte_sum[8];

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_misuse MODE [library options]\n");
    return 2;
  }
  const char *mode = argv[1];
  op_init(argc, argv, 0);
  int nfirst, ncount, efirst, ecount;
  op_slice(NODES, &nfirst, &ncount);
  op_slice(EDGES, &efirst, &ecount);
  double xv[NODES], x2v[2 * NODES], fv[EDGES];
  float xfv[NODES];
  int e2n[2 * EDGES], other2n[2 * EDGES];
  for (int i = 0; i < ncount; i++) {
    xv[i] = nfirst + i + 1;
    xfv[i] = (float)xv[i];
    x2v[2 * i] = x2v[2 * i + 1] = xv[i];
  }
  for (int e = 0; e < ecount; e++) {
    e2n[2 * e] = other2n[2 * e] = efirst + e;
    e2n[2 * e + 1] = other2n[2 * e + 1] = efirst + e + 1;
    fv[e] = 1.0;
  }
  op_set nodes = op_decl_set(ncount, "nodes");
  op_set edges = op_decl_set(ecount, "edges");
  op_set other = op_decl_set(ecount, "other");
  op_map pedge = op_decl_map(edges, nodes, 2, e2n, "pedge");
  op_map pother = op_decl_map(other, nodes, 2, other2n, "pother");
  op_dat x = op_decl_dat(nodes, 1, "double", xv, "x");
  op_dat x2 = op_decl_dat(nodes, 2, "double", x2v, "x2");
  op_dat xf = op_decl_dat(nodes, 1, "float", xfv, "xf");
  op_dat f = op_decl_dat(edges, 1, "double", fv, "f");
  double sum = 0.0;

  if (!strcmp(mode, "valid")) {
    op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(x, 0, pedge, 1, "double", OP_READ),
                op_arg_dat(x, 1, pedge, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
    float fsum = 0.0f;
    op_par_loop(
        edge_sum_float, "edge_sum_float", edges, op_arg_dat(x, 0, pedge, 1, "double", OP_READ),
        op_arg_dat(x, 1, pedge, 1, "double", OP_READ), op_arg_gbl(&fsum, 1, "float", OP_INC));
    double dsum = 0.0, edges_seen = 0.0;
    op_par_loop(direct_sum, "direct_sum", edges, op_arg_dat(f, -1, OP_ID, 1, "double", OP_READ),
                op_arg_gbl(&dsum, 1, "double", OP_INC));
    op_par_loop(count_edges, "count_edges", edges, op_arg_gbl(&edges_seen, 1, "double", OP_INC));
    /* A temporary dat freed and declared again under its name works. */
    op_dat t = op_decl_dat_temp(nodes, 1, "double", "t");
    op_free_dat_temp(t);
    t = op_decl_dat_temp(nodes, 1, "double", "t");
    double *rows = op_fetch_data_ptr(t);
    int zero = 1;
    for (int i = 0; i < ncount; i++) zero &= rows[i] == 0.0;
    const int ok = sum == 15.0 && fsum == 15.0f && dsum == EDGES && edges_seen == EDGES && zero;
    op_printf("test_misuse: sums %g %g %g %g (expected 15 15 %d %d): %s\n", sum, (double)fsum, dsum,
              edges_seen, EDGES, EDGES, ok ? "PASSED" : "FAILED");
    op_exit();
    return ok ? 0 : 1;
  } else if (!strcmp(mode, "dim")) {
    op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(x2, 0, pedge, 1, "double", OP_READ),
                op_arg_dat(x, 1, pedge, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "type")) {
    op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(x, 0, pedge, 1, "double", OP_READ),
                op_arg_dat(xf, 1, pedge, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "type_float")) {
    /* The loop code written for float rows, a dat of doubles given. */
    op_par_loop(edge_sum_float_node, "edge_sum_float_node", edges,
                op_arg_dat(x, 0, pedge, 1, "float", OP_READ),
                op_arg_dat(x, 1, pedge, 1, "float", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "index")) {
    op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(x, 0, pedge, 1, "double", OP_READ),
                op_arg_dat(x, 2, pedge, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "to_set")) {
    op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(x, 0, pedge, 1, "double", OP_READ),
                op_arg_dat(f, 1, pedge, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "from_set")) {
    op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(x, 0, pother, 1, "double", OP_READ),
                op_arg_dat(x, 1, pedge, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "direct_set")) {
    op_par_loop(direct_sum, "direct_sum", edges, op_arg_dat(x, -1, OP_ID, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "gbl_int_as_double")) {
    op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(x, 0, pedge, 1, "double", OP_READ),
                op_arg_dat(x, 1, pedge, 1, "double", OP_READ),
                op_arg_gbl(&int_sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "gbl_int_as_float")) {
    /* Of the same size: only the variable's C type tells them apart. */
    op_par_loop(
        edge_sum_float, "edge_sum_float", edges, op_arg_dat(x, 0, pedge, 1, "double", OP_READ),
        op_arg_dat(x, 1, pedge, 1, "double", OP_READ), op_arg_gbl(&int_sum, 1, "float", OP_INC));
  } else if (!strcmp(mode, "gbl_bytes")) {
    /* A type the compiler does not name to the library: its size is checked. */
    op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(x, 0, pedge, 1, "double", OP_READ),
                op_arg_dat(x, 1, pedge, 1, "double", OP_READ),
                op_arg_gbl(byte_sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "fetch_freed")) {
    op_dat t = op_decl_dat_temp(nodes, 1, "double", "t");
    op_free_dat_temp(t);
    double rows[NODES];
    op_fetch_data(t, rows);
  } else if (!strcmp(mode, "loop_freed")) {
    op_dat t = op_decl_dat_temp(nodes, 1, "double", "t");
    op_free_dat_temp(t);
    op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(t, 0, pedge, 1, "double", OP_READ),
                op_arg_dat(x, 1, pedge, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "fetch_after_exit")) {
    op_exit();
    double rows[NODES];
    op_fetch_data(x, rows);
  } else if (!strcmp(mode, "ptr_after_exit")) {
    op_exit();
    op_fetch_data_ptr(x);
  } else if (!strcmp(mode, "changed_after_exit")) {
    op_exit();
    op_host_data_changed(x);
  } else if (!strcmp(mode, "loop_after_exit")) {
    op_exit();
    op_par_loop(edge_sum, "edge_sum", edges, op_arg_dat(x, 0, pedge, 1, "double", OP_READ),
                op_arg_dat(x, 1, pedge, 1, "double", OP_READ),
                op_arg_gbl(&sum, 1, "double", OP_INC));
  } else if (!strcmp(mode, "gbl_loop_after_exit")) {
    op_exit();
    op_par_loop(count_edges, "count_edges", edges, op_arg_gbl(&sum, 1, "double", OP_INC));
  } else {
    fprintf(stderr, "test_misuse: unknown mode %s\n", mode);
    return 2;
  }
  /* Reached only when the mistake went unnoticed. */
  printf("test_misuse: %s was not refused (sum %g, int_sum %d)\n", mode, sum, int_sum);
  return 1;
}
