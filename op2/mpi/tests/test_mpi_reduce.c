/*
 * test_mpi_reduce.c - a loop's reductions over the processes (op_mpi_reduce,
 * what op_loop_end calls for every distributed loop with a reduced global).
 *
 * Each process holds what its backend leaves in a reduced global: its own
 * blocks combined in block order, starting from the value before the loop on
 * the root and from zero elsewhere (as op_loop_begin sets it). The result
 * must be, on every process and in each of 50 repetitions, the shared-memory
 * combination (op_reduce_blocks_double) of those values in rank order. The
 * data are order-sensitive: on three processes or more, the reverse order
 * gives another sum for most of the sixteen data sets (checked, so that the
 * check above can fail; on two processes a sum of two values does not depend
 * on their order). MIN and MAX with op_arg_info values (a tie goes to the
 * lowest rank, the first strictly better), floats, ints and several
 * reductions in one call are checked likewise.
 */
#include <math.h>
#include <string.h>

#include "mpi_test_mesh.h"
#include "op2_loop.h" /* op_reduce_blocks_*: the seq backend's combination */
#include "op_mpi_reduce.h"

/* Process r holds 5 + 2r blocks of dim 2. */
static int blocks_of(int r) { return 5 + 2 * r; }

/* Pseudo-random values with full mantissas, both signs, of magnitudes 1e-5
 * to 1e5, each rank's at its own scale: their sums round differently in
 * different orders. */
static double partial(int seed, int r, int b, int d) {
  unsigned long long h = 0x9E3779B97F4A7C15ULL * (unsigned long long)(seed * 100000 + r * 1000 + b * 10 + d + 1);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 29;
  double mant = 1.0 + (double)(h >> 11) / 9007199254740992.0; /* 53 random bits */
  int expo = (int)(h % 5) - 2 + 3 * (r % 3) - 3; /* ranks of different scales */
  return ((h >> 7) & 1 ? -1.0 : 1.0) * mant * pow(10.0, expo);
}

/* A sum of dim 2 as one process's backend leaves it. */
static void process_value(int seed, int r, const double g0[2], double v[2]) {
  v[0] = r == 0 ? g0[0] : 0.0;
  v[1] = r == 0 ? g0[1] : 0.0;
  double part[2];
  for (int b = 0; b < blocks_of(r); b++) {
    part[0] = partial(seed, r, b, 0), part[1] = partial(seed, r, b, 1);
    op_reduce_blocks_double(OP_INC, v, part, 1, 2);
  }
}

static op_mpi_reduction reduction(op_type type, op_access acc, int dim, void *value) {
  op_mpi_reduction r;
  memset(&r, 0, sizeof r);
  r.type = type, r.acc = acc, r.dim = dim, r.value = value;
  return r;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);

  const double g0[2] = {partial(99, 0, 0, 0), partial(99, 0, 0, 1)}; /* the value before the loop */
  int sensitive_back = 0, sensitive_rest = 0;
  for (int seed = 0; seed < 16; seed++) {
    double want[2], back[2], v[2], first[2] = {0, 0};
    process_value(seed, 0, g0, want);
    for (int r = 1; r < P; r++) {
      process_value(seed, r, g0, v);
      op_reduce_blocks_double(OP_INC, want, v, 1, 2);
    }
    /* Is the data order-sensitive? The ranks backwards, or the root's value
     * added last to the others' sum (as a tree of additions may), give
     * another sum. */
    double rest[2] = {0.0, 0.0};
    process_value(seed, P - 1, g0, back);
    for (int r = P - 2; r >= 0; r--) {
      process_value(seed, r, g0, v);
      back[0] += v[0], back[1] += v[1];
    }
    for (int r = 1; r < P; r++) {
      process_value(seed, r, g0, v);
      rest[0] += v[0], rest[1] += v[1];
    }
    process_value(seed, 0, g0, v);
    rest[0] += v[0], rest[1] += v[1];
    sensitive_back += back[0] != want[0] || back[1] != want[1];
    sensitive_rest += rest[0] != want[0] || rest[1] != want[1];
    for (int rep = 0; rep < (seed ? 1 : 50); rep++) {
      double g[2];
      process_value(seed, rank, g0, g);
      op_mpi_reduction red = reduction(OP_TYPE_DOUBLE, OP_INC, 2, g);
      op_mpi_reduce(MPI_COMM_WORLD, 1, &red);
      CHECK(memcmp(g, want, sizeof g) == 0,
            "data %d, repetition %d: %.17g %.17g, expected %.17g %.17g", seed, rep, g[0], g[1],
            want[0], want[1]);
      if (rep == 0) memcpy(first, g, sizeof g);
      CHECK(memcmp(g, first, sizeof g) == 0, "repetition %d differs from the first", rep);
    }
    /* Every process holds the same bits. */
    double g_root[2];
    memcpy(g_root, first, sizeof first);
    MPI_Bcast(g_root, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    CHECK(memcmp(first, g_root, sizeof first) == 0, "rank %d's result differs from rank 0's", rank);
  }
  if (rank == 0)
    printf("rank order against the reverse order: %d of 16 data sets differ; against the root last: %d\n",
         sensitive_back, sensitive_rest);
  if (P >= 3)
    CHECK(
        sensitive_back >= 3 && sensitive_rest >= 3,
        "only %d (reverse) and %d (root last) of 16 data sets depend on the order of the processes",
        sensitive_back, sensitive_rest);

  /* MAX and MIN with their info values, three reductions in one call: a
   * maximum every process ties on (the info of rank 0 wins), a maximum only
   * the last rank holds, and a minimum with two info values. */
  double tie = 4.0, top = (double)rank, low[2] = {10.0 - rank, 3.0 + rank};
  int tie_info = 100 + rank, top_info = 100 + rank;
  int low_info[2] = {rank, -rank};
  double low_where[2][2] = {{rank + 0.5, rank + 0.25}, {-1.0 * rank, 2.0 * rank}};
  op_mpi_reduction red[3] = {reduction(OP_TYPE_DOUBLE, OP_MAX, 1, &tie), reduction(OP_TYPE_DOUBLE, OP_MAX, 1, &top),
                             reduction(OP_TYPE_DOUBLE, OP_MIN, 2, low)};
  red[0].ninfo = 1, red[0].info[0] = &tie_info, red[0].info_bytes[0] = sizeof(int);
  red[1].ninfo = 1, red[1].info[0] = &top_info, red[1].info_bytes[0] = sizeof(int);
  red[2].ninfo = 2, red[2].info[0] = low_info, red[2].info_bytes[0] = sizeof(int);
  red[2].info[1] = low_where, red[2].info_bytes[1] = 2 * sizeof(double);
  op_mpi_reduce(MPI_COMM_WORLD, 3, red);
  CHECK(tie == 4.0 && tie_info == 100, "tied max %g with info %d, expected 4 with rank 0's 100",
        tie, tie_info);
  CHECK(top == P - 1 && top_info == 100 + P - 1, "max %g with info %d, expected %d with %d", top,
        top_info, P - 1, 100 + P - 1);
  /* low[0] is least on the last rank, low[1] on rank 0: each component's info follows its own winner. */
  CHECK(low[0] == 10.0 - (P - 1) && low[1] == 3.0, "min %g %g", low[0], low[1]);
  CHECK(low_info[0] == P - 1 && low_info[1] == 0, "min infos %d %d, expected %d 0", low_info[0],
        low_info[1], P - 1);
  CHECK(low_where[0][0] == P - 1 + 0.5 && low_where[0][1] == P - 1 + 0.25 &&
            low_where[1][0] == 0.0 && low_where[1][1] == 0.0,
        "min where %g %g / %g %g", low_where[0][0], low_where[0][1], low_where[1][0],
        low_where[1][1]);

  /* Floats and ints, the root's holding the value before the loop. */
  float f = (rank == 0 ? 1.0f : 0.0f) + 1e-3f * (float)(rank + 1), fwant = 1.0f + 1e-3f;
  int i = (rank == 0 ? 7 : 0) + 10 * rank - 3, iwant = 4;
  for (int r = 1; r < P; r++) fwant += 1e-3f * (float)(r + 1), iwant += 10 * r - 3;
  op_mpi_reduction fi[2] = {reduction(OP_TYPE_FLOAT, OP_INC, 1, &f), reduction(OP_TYPE_INT, OP_INC, 1, &i)};
  op_mpi_reduce(MPI_COMM_WORLD, 2, fi);
  CHECK(f == fwant, "float sum %.9g, expected %.9g", f, fwant);
  CHECK(i == iwant, "int sum %d, expected %d", i, iwant);

  int rc = check_mpi_exit("test_mpi_reduce");
  MPI_Finalize();
  return rc;
}
