//
// srckern - an application written the ways OP2 allows that need more of the
// generator and the library than kernel headers: its kernels are defined in
// this source (an inline function, a plain one and a static one calling
// std::max from a header the source includes), its dats use OP2's other type
// strings ("double:soa", "real(8)", "int:soa"), a constant is a C++ const
// (internal linkage: the loop code keeps a copy), a temporary dat is declared
// and freed every iteration under the same name (op_free_dat_temp, whose
// loops find their plans again), and its map is declared from 64-bit entries
// (op_decl_map_long). Every process declares its slice (op_slice), so the
// MPI executables run it too. It checks itself against the same arithmetic
// done on the host, element after element: the values are small integers
// and halves, exact in any order.
//
// Usage: srckern [library options]; exit status 0 when every check passes.
//

#include <algorithm>
#include <stdio.h>
#include <stdlib.h>

#include "op_seq.h"
#include "op_plan.h"

#define N 60       // nodes: a ring, with chords
#define E (2 * N)  // edges
#define NITER 3

double scale; // a constant the kernels read by name
// One with internal linkage (a C++ const at file scope, as OP2's tutorial
// declares its constants): the loop code, compiled apart, keeps a copy.
const double flag_sign[2] = {-1.0, 1.0};

// An edge spreads each end's value to the other, weighted, and counts
// itself (on many processes a loop that increments through a map also runs
// the execute halo, whose edges another process counts).
void spread(const double *w, const double *xa, const double *xb, double *acca, double *accb,
            int *edges_seen) {
  for (int d = 0; d < 3; d++) {
    acca[d] += *w * xb[d];
    accb[d] += *w * xa[d];
  }
  (*edges_seen)++;
}

// A node takes its increment (with the sign its flag gives) and reports its
// largest first component.
static void apply(const double *acc, double *x, const int *flag, double *largest) {
  const double sign = flag_sign[*flag];
  for (int d = 0; d < 3; d++) x[d] += sign * scale * acc[d];
  *largest = std::max(*largest, x[0]);
}

inline void count_flags(const int *flag, int *n) { *n += *flag; }

static int failures = 0;

static void check(bool ok, const char *what) {
  if (!ok) {
    op_printf("srckern: FAILED: %s\n", what);
    failures++;
  }
}

static long long edge_end(int e, int k) {
  const int a = e < N ? e : e - N;
  const int b = e < N ? (a + 1) % N : (a + 5) % N;
  return k == 0 ? a : b;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  scale = 0.5;

  // This process's slices of the nodes and the edges, in global numbers.
  int n0, nn, e0, ne;
  op_slice(N, &n0, &nn);
  op_slice(E, &e0, &ne);
  long long *ends = (long long *)malloc(sizeof(long long) * 2 * (ne > 0 ? ne : 1));
  double *w = (double *)malloc(sizeof(double) * (ne > 0 ? ne : 1));
  double *x = (double *)malloc(sizeof(double) * 3 * (nn > 0 ? nn : 1));
  int *flag = (int *)malloc(sizeof(int) * (nn > 0 ? nn : 1));
  if (!ends || !w || !x || !flag) {
    op_printf("srckern: out of memory\n");
    exit(2);
  }
  for (int i = 0; i < ne; i++) {
    ends[2 * i] = edge_end(e0 + i, 0);
    ends[2 * i + 1] = edge_end(e0 + i, 1);
    w[i] = 1 + (e0 + i) % 3;
  }
  for (int i = 0; i < nn; i++) {
    for (int d = 0; d < 3; d++) x[3 * i + d] = ((n0 + i) * 3 + d) % 7 - 3;
    flag[i] = (n0 + i) % 2;
  }

  op_set nodes = op_decl_set(nn, "nodes");
  op_set edges = op_decl_set(ne, "edges");
  op_map pedge = op_decl_map_long(edges, nodes, 2, ends, "pedge");
  op_dat p_w = op_decl_dat(edges, 1, "real(8)", w, "p_w");
  op_dat p_x = op_decl_dat(nodes, 3, "double:soa", x, "p_x");
  op_dat p_flag = op_decl_dat(nodes, 1, "int:soa", flag, "p_flag");
  op_decl_const(1, "double", &scale);
  op_decl_const(2, "double", flag_sign);
  op_partition("PTSCOTCH", "KWAY", nodes, pedge, NULL);

  check(op_free_dat_temp(p_x) == -1, "op_free_dat_temp refuses a dat that is not temporary");
  double largest = 0;
  int flagged = 0, plans_after_first = -1;
  int edges_seen = 0;
  for (int iter = 0; iter < NITER; iter++) {
    op_dat p_acc = op_decl_dat_temp(nodes, 3, "double", (double *)NULL, "p_acc");
    op_par_loop(spread, "spread", edges,
                op_arg_dat(p_w, -1, OP_ID, 1, "real(8)", OP_READ),
                op_arg_dat(p_x, 0, pedge, 3, "double:soa", OP_READ),
                op_arg_dat(p_x, 1, pedge, 3, "double:soa", OP_READ),
                op_arg_dat(p_acc, 0, pedge, 3, "double", OP_INC),
                op_arg_dat(p_acc, 1, pedge, 3, "double", OP_INC),
                op_arg_gbl(&edges_seen, 1, "int", OP_INC));
    largest = -1e300;
    op_par_loop(apply, "apply", nodes,
                op_arg_dat(p_acc, -1, OP_ID, 3, "double", OP_READ),
                op_arg_dat(p_x, -1, OP_ID, 3, "double:soa", OP_RW),
                op_arg_dat(p_flag, -1, OP_ID, 1, "int:soa", OP_READ),
                op_arg_gbl(&largest, 1, "double", OP_MAX));
    flagged = 0;
    op_par_loop(count_flags, "count_flags", nodes,
                op_arg_dat(p_flag, -1, OP_ID, 1, "int:soa", OP_READ),
                op_arg_gbl(&flagged, 1, "int", OP_INC));
    check(op_free_dat_temp(p_acc) == 1, "op_free_dat_temp frees the temporary dat");
    if (iter == 0) plans_after_first = op_plan_cache_size();
  }
  check(op_plan_cache_size() == plans_after_first,
        "the loops on the temporary declared again find their plans again");

  // The same on the host, element after element, over the whole mesh.
  double ref[3 * N], acc[3 * N], ref_largest = 0;
  for (int n = 0; n < N; n++)
    for (int d = 0; d < 3; d++) ref[3 * n + d] = (n * 3 + d) % 7 - 3;
  for (int iter = 0; iter < NITER; iter++) {
    for (int k = 0; k < 3 * N; k++) acc[k] = 0;
    int seen = 0;
    for (int e = 0; e < E; e++) {
      const double we = 1 + e % 3;
      const long long a = edge_end(e, 0), b = edge_end(e, 1);
      spread(&we, &ref[3 * a], &ref[3 * b], &acc[3 * a], &acc[3 * b], &seen);
    }
    ref_largest = -1e300;
    for (int n = 0; n < N; n++) {
      const int f = n % 2;
      apply(&acc[3 * n], &ref[3 * n], &f, &ref_largest);
    }
  }
  check(largest == ref_largest, "the OP_MAX reduction of the kernel calling std::max");
  check(flagged == N / 2, "the OP_INC reduction of the inline kernel");
  check(edges_seen == NITER * E, "every edge counted once by the loop that increments through a map");
  const double *got = (const double *)op_fetch_data_global(p_x);
  if (op_is_root()) {
    int wrong = 0;
    for (int k = 0; k < 3 * N; k++) wrong += got[k] != ref[k];
    check(wrong == 0, "every node's values after the loops");
  }
  if (failures == 0) op_printf("srckern: PASSED\n");
  free(ends);
  free(w);
  free(x);
  free(flag);
  op_exit();
  return failures == 0 ? 0 : 1;
}
