/*
 * test_loops - every access mode, every argument kind and every reduction,
 * through generated code, on a random mesh. Built for every backend; the
 * values are chosen to be exact in floating point so that the expected
 * results do not depend on the order of operations.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"

int int_factor;

#define TEST_LCG_SEED 12345u
#include "../test_expect.h"


int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 1);
  const int nnode = 1000, nedge = 5000, npair = nnode / 2;

  int *e2n = malloc(sizeof(int) * 2 * nedge);
  double *w = malloc(sizeof(double) * nedge);
  for (int e = 0; e < nedge; e++) {
    int a = (int)(lcg() % nnode), b;
    do b = (int)(lcg() % nnode); while (b == a);
    e2n[2 * e] = a;
    e2n[2 * e + 1] = b;
    w[e] = (double)(lcg() % 100);
  }
  /* Pairs (2p, 2p+1) in a shuffled order: each node is touched by one pair. */
  int *p2n = malloc(sizeof(int) * 2 * npair);
  int *perm = malloc(sizeof(int) * npair);
  for (int p = 0; p < npair; p++) perm[p] = p;
  for (int p = npair - 1; p > 0; p--) {
    int q = (int)(lcg() % (unsigned)(p + 1)), t = perm[p];
    perm[p] = perm[q];
    perm[q] = t;
  }
  for (int p = 0; p < npair; p++) {
    p2n[2 * p] = 2 * perm[p];
    p2n[2 * p + 1] = 2 * perm[p] + 1;
  }
  double *pw = malloc(sizeof(double) * npair);
  for (int p = 0; p < npair; p++) pw[p] = (double)(p % 17);

  op_set nodes = op_decl_set(nnode, "nodes");
  op_set edges = op_decl_set(nedge, "edges");
  op_set pairs = op_decl_set(npair, "pairs");
  op_set empty = op_decl_set(0, "empty");
  op_map pedge = op_decl_map(edges, nodes, 2, e2n, "pedge");
  op_map ppair = op_decl_map(pairs, nodes, 2, p2n, "ppair");
  op_dat d_w = op_decl_dat(edges, 1, "double", w, "w");
  op_dat d_pw = op_decl_dat(pairs, 1, "double", pw, "pw");
  op_dat d_acc = op_decl_dat_temp(nodes, 1, "double", "acc");
  op_dat d_v = op_decl_dat_temp(nodes, 2, "float", "v");
  op_dat d_out = op_decl_dat_temp(nodes, 1, "int", "out");
  op_dat d_s = op_decl_dat_temp(edges, 1, "double", "s");
  op_dat d_which = op_decl_dat_temp(edges, 1, "int", "which");
  op_dat d_k = op_decl_dat_temp(nodes, 1, "int", "k");
  op_dat d_e = op_decl_dat_temp(empty, 1, "double", "e");
  int_factor = 3;
  op_decl_const(1, "int", &int_factor);

  /* INC through a map. */
  op_par_loop(inc_edge, "inc_edge", edges, op_arg_dat(d_w, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(d_acc, 0, pedge, 1, "double", OP_INC),
              op_arg_dat(d_acc, 1, pedge, 1, "double", OP_INC));
  {
    double *expect = calloc((size_t)nnode, sizeof(double));
    for (int e = 0; e < nedge; e++) {
      expect[e2n[2 * e]] += w[e];
      expect[e2n[2 * e + 1]] += w[e];
    }
    const double *acc = op_fetch_data_ptr(d_acc);
    int bad = 0;
    for (int n = 0; n < nnode; n++) bad += acc[n] != expect[n];
    CHECK(bad == 0, "OP_INC through a map: %d nodes wrong", bad);
    free(expect);
  }

  /* RW direct (float), twice. */
  float *v = op_fetch_data_ptr(d_v);
  for (int n = 0; n < nnode; n++) v[2 * n] = (float)n, v[2 * n + 1] = -(float)n;
  op_host_data_changed(d_v);
  for (int r = 0; r < 2; r++)
    op_par_loop(scale_rw, "scale_rw", nodes, op_arg_dat(d_v, -1, OP_ID, 2, "float", OP_RW));
  {
    const float *vv = op_fetch_data_ptr(d_v);
    int bad = 0;
    for (int n = 0; n < nnode; n++)
      /* From (n, -n): (2n + 1, -n) after one call, (4n + 3, 1) after two. */
      bad += vv[2 * n] != 4.0f * n + 3.0f || vv[2 * n + 1] != 1.0f;
    CHECK(bad == 0, "OP_RW direct: %d nodes wrong", bad);
  }

  /* WRITE direct with the element index and a constant. */
  op_par_loop(write_idx, "write_idx", nodes, op_arg_idx(-1, OP_ID),
              op_arg_dat(d_out, -1, OP_ID, 1, "int", OP_WRITE));
  {
    const int *out = op_fetch_data_ptr(d_out);
    int bad = 0;
    for (int n = 0; n < nnode; n++) bad += out[n] != 3 * n;
    CHECK(bad == 0, "op_arg_idx(OP_ID) and op_decl_const: %d nodes wrong", bad);
  }

  /* READ through a map and op_arg_idx through a map. */
  op_par_loop(gather_nodes, "gather_nodes", edges, op_arg_dat(d_acc, 0, pedge, 1, "double", OP_READ),
              op_arg_dat(d_acc, 1, pedge, 1, "double", OP_READ), op_arg_idx(1, pedge),
              op_arg_dat(d_s, -1, OP_ID, 1, "double", OP_WRITE),
              op_arg_dat(d_which, -1, OP_ID, 1, "int", OP_WRITE));
  {
    const double *acc = op_fetch_data_ptr(d_acc), *s = op_fetch_data_ptr(d_s);
    const int *which = op_fetch_data_ptr(d_which);
    int bad = 0;
    for (int e = 0; e < nedge; e++)
      bad += s[e] != acc[e2n[2 * e]] + acc[e2n[2 * e + 1]] || which[e] != e2n[2 * e + 1];
    CHECK(bad == 0, "OP_READ through a map / op_arg_idx through a map: %d edges wrong", bad);
  }

  /* Every reduction kind and type, and a global read. */
  int *k = op_fetch_data_ptr(d_k);
  for (int n = 0; n < nnode; n++) k[n] = (n * 37) % 101 - 50;
  op_host_data_changed(d_k);
  double offset = 0.5, sum = 10.0, mn = INFINITY, mx = -INFINITY;
  int isum = 7, imin = 1000, imax = -1000;
  float fsum = 0.0f, fmx = -INFINITY;
  op_par_loop(reduce_all, "reduce_all", nodes, op_arg_dat(d_acc, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(d_k, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&offset, 1, "double", OP_READ), op_arg_gbl(&sum, 1, "double", OP_INC),
              op_arg_gbl(&mn, 1, "double", OP_MIN), op_arg_gbl(&mx, 1, "double", OP_MAX),
              op_arg_gbl(&isum, 1, "int", OP_INC), op_arg_gbl(&imin, 1, "int", OP_MIN),
              op_arg_gbl(&imax, 1, "int", OP_MAX), op_arg_gbl(&fsum, 1, "float", OP_INC),
              op_arg_gbl(&fmx, 1, "float", OP_MAX));
  {
    const double *acc = op_fetch_data_ptr(d_acc);
    double esum = 10.0, emn = INFINITY, emx = -INFINITY;
    int eisum = 7, eimin = 1000, eimax = -1000;
    float efsum = 0.0f, efmax = -INFINITY;
    for (int n = 0; n < nnode; n++) {
      esum += acc[n] + 0.5;
      emn = acc[n] < emn ? acc[n] : emn;
      emx = acc[n] > emx ? acc[n] : emx;
      eisum += k[n];
      eimin = k[n] < eimin ? k[n] : eimin;
      eimax = k[n] > eimax ? k[n] : eimax;
      efsum += (float)k[n];
      efmax = (float)acc[n] > efmax ? (float)acc[n] : efmax;
    }
    CHECK(sum == esum, "double OP_INC: %.17g, expected %.17g", sum, esum);
    CHECK(mn == emn, "double OP_MIN: %.17g, expected %.17g", mn, emn);
    CHECK(mx == emx, "double OP_MAX: %.17g, expected %.17g", mx, emx);
    CHECK(isum == eisum, "int OP_INC: %d, expected %d", isum, eisum);
    CHECK(imin == eimin, "int OP_MIN: %d, expected %d", imin, eimin);
    CHECK(imax == eimax, "int OP_MAX: %d, expected %d", imax, eimax);
    CHECK(fsum == efsum, "float OP_INC: %g, expected %g", fsum, efsum);
    CHECK(fmx == efmax, "float OP_MAX: %g, expected %g", fmx, efmax);
  }
  /* MIN and MAX keep the initial value when no element beats it. */
  mn = -1e300;
  mx = 1e300;
  sum = 0.0;
  isum = 0;
  imin = -1000000;
  imax = 1000000;
  fsum = 0.0f;
  fmx = 1e30f;
  op_par_loop(reduce_all, "reduce_all", nodes, op_arg_dat(d_acc, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(d_k, -1, OP_ID, 1, "int", OP_READ),
              op_arg_gbl(&offset, 1, "double", OP_READ), op_arg_gbl(&sum, 1, "double", OP_INC),
              op_arg_gbl(&mn, 1, "double", OP_MIN), op_arg_gbl(&mx, 1, "double", OP_MAX),
              op_arg_gbl(&isum, 1, "int", OP_INC), op_arg_gbl(&imin, 1, "int", OP_MIN),
              op_arg_gbl(&imax, 1, "int", OP_MAX), op_arg_gbl(&fsum, 1, "float", OP_INC),
              op_arg_gbl(&fmx, 1, "float", OP_MAX));
  CHECK(mn == -1e300 && mx == 1e300 && imin == -1000000 && imax == 1000000 && fmx == 1e30f,
        "MIN/MAX did not keep an initial value that no element beats");

  /* WRITE and RW through a map. */
  double *acc = op_fetch_data_ptr(d_acc);
  for (int n = 0; n < nnode; n++) acc[n] = (double)n;
  op_host_data_changed(d_acc);
  op_par_loop(write_ind, "write_ind", pairs, op_arg_dat(d_pw, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(d_acc, 0, ppair, 1, "double", OP_WRITE),
              op_arg_dat(d_acc, 1, ppair, 1, "double", OP_RW));
  {
    const double *a = op_fetch_data_ptr(d_acc);
    int bad = 0;
    for (int p = 0; p < npair; p++)
      bad += a[p2n[2 * p]] != pw[p] || a[p2n[2 * p + 1]] != 2.0 * (double)p2n[2 * p + 1];
    CHECK(bad == 0, "OP_WRITE / OP_RW through a map: %d pairs wrong", bad);
  }

  /* RW through a map with repeated targets within a block (the chunked form
   * must not be used: each write must be seen by the next edge). */
  for (int n = 0; n < nnode; n++) acc[n] = -1.0;
  op_host_data_changed(d_acc);
  op_par_loop(max_rw, "max_rw", edges, op_arg_dat(d_w, -1, OP_ID, 1, "double", OP_READ),
              op_arg_dat(d_acc, 0, pedge, 1, "double", OP_RW),
              op_arg_dat(d_acc, 1, pedge, 1, "double", OP_RW));
  {
    double *expect = malloc(sizeof(double) * (size_t)nnode);
    for (int n = 0; n < nnode; n++) expect[n] = -1.0;
    for (int e = 0; e < nedge; e++)
      for (int s2 = 0; s2 < 2; s2++)
        if (w[e] > expect[e2n[2 * e + s2]]) expect[e2n[2 * e + s2]] = w[e];
    const double *a = op_fetch_data_ptr(d_acc);
    int bad = 0;
    for (int n = 0; n < nnode; n++) bad += a[n] != expect[n];
    CHECK(bad == 0, "OP_RW through a map with repeated targets: %d nodes wrong", bad);
    free(expect);
  }

  /* A vector global whose dim is an expression, and a loop over an empty set. */
  int vdim = 3;
  double vacc[3] = {0, 0, 0};
  op_par_loop(vec_sum, "vec_sum", nodes, op_arg_dat(d_acc, -1, OP_ID, 1, "double", OP_READ),
              op_arg_gbl(vacc, vdim, "double", OP_INC));
  {
    const double *a = op_fetch_data_ptr(d_acc);
    double e0 = 0, e1 = 0;
    for (int n = 0; n < nnode; n++) e0 += a[n], e1 += a[n] * a[n];
    CHECK(vacc[0] == e0 && vacc[1] == e1 && vacc[2] == nnode,
          "vector OP_INC: (%g %g %g), expected (%g %g %d)", vacc[0], vacc[1], vacc[2], e0, e1,
          nnode);
  }
  double before[3] = {vacc[0], vacc[1], vacc[2]};
  op_par_loop(vec_sum, "vec_sum_empty", empty, op_arg_dat(d_e, -1, OP_ID, 1, "double", OP_READ),
              op_arg_gbl(vacc, vdim, "double", OP_INC));
  CHECK(memcmp(before, vacc, sizeof vacc) == 0, "a loop over an empty set changed its global");

  char name[128];
  snprintf(name, sizeof name, "loops, %s backend, %d thread(s), part size %d", op_backend_name(),
           op_num_threads(), op_part_size());
  op_exit();
  free(e2n);
  free(w);
  free(p2n);
  free(perm);
  free(pw);
  return check_exit(name);
}
