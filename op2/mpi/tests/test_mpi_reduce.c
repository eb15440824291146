/*
 * test_mpi_reduce.c - global reductions combined in a fixed order.
 *
 * Every process holds a different number of block partials whose sum depends
 * on the order of the additions (the test
 * checks that the reverse order gives another result, so the check below
 * can fail). The reduction must give, on every process and in each of 50
 * repetitions, the value of the shared-memory backends' combination
 * (op_reduce_blocks_double) applied to the initial value and then to all
 * processes' blocks in rank order: on one process that is exactly what the
 * seq backend computes. MIN and MAX, floats and ints are checked likewise.
 */
#include <math.h>
#include <string.h>

#include "mpi_test_mesh.h"
#include "op2_loop.h" /* op_reduce_blocks_*: the seq backend's combination */
#include "op_mpi_reduce.h"

/* Process r holds 5 + 2r blocks of dim 2. */
static int blocks_of(int r) { return 5 + 2 * r; }

/* Pseudo-random values of magnitudes 1e-2 to 1e2 with full mantissas, both
 * signs: their sums round differently in different orders. */
static double partial(int seed, int r, int b, int d) {
  unsigned long long h = 0x9E3779B97F4A7C15ULL * (unsigned long long)(seed * 100000 + r * 1000 + b * 10 + d + 1);
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 29;
  double mant = 1.0 + (double)(h >> 11) / 9007199254740992.0; /* 53 random bits */
  int expo = (int)(h % 5) - 2;
  return ((h >> 7) & 1 ? -1.0 : 1.0) * mant * pow(10.0, expo);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, P;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &P);

  /* Everyone's blocks in rank order: the reference; sixteen data sets. */
  int total = 0;
  for (int r = 0; r < P; r++) total += blocks_of(r);
  double *all = malloc(sizeof(double) * 2 * (size_t)total);
  double *mine = NULL;
  const double g0[2] = {partial(99, 0, 0, 0), partial(99, 0, 0, 1)}; /* the value before the loop */
  int sensitive = 0;
  for (int seed = 0; seed < 16; seed++) {
    for (int r = 0, k = 0; r < P; r++) {
      if (r == rank) mine = all + 2 * k;
      for (int b = 0; b < blocks_of(r); b++, k++)
        for (int d = 0; d < 2; d++) all[2 * k + d] = partial(seed, r, b, d);
    }
    double want[2] = {g0[0], g0[1]};
    op_reduce_blocks_double(OP_INC, want, all, total, 2);
    /* Is the data order-sensitive? Backwards gives another sum. */
    double back[2] = {g0[0], g0[1]};
    for (int k = total - 1; k >= 0; k--) back[0] += all[2 * k], back[1] += all[2 * k + 1];
    sensitive += back[0] != want[0] || back[1] != want[1];

    double first[2] = {0, 0};
    for (int rep = 0; rep < (seed ? 1 : 50); rep++) {
      double g[2] = {g0[0], g0[1]};
      op_mpi_reduce_blocks(MPI_COMM_WORLD, OP_TYPE_DOUBLE, OP_INC, g, mine, blocks_of(rank), 2);
      TCHECK(memcmp(g, want, sizeof g) == 0, "data %d, repetition %d: %.17g %.17g, expected %.17g %.17g", seed,
             rep, g[0], g[1], want[0], want[1]);
      if (rep == 0) memcpy(first, g, sizeof g);
      TCHECK(memcmp(g, first, sizeof g) == 0, "repetition %d differs from the first", rep);
    }
    /* Every process holds the same bits. */
    double g_root[2];
    memcpy(g_root, first, sizeof first);
    MPI_Bcast(g_root, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    TCHECK(memcmp(first, g_root, sizeof first) == 0, "rank %d's result differs from rank 0's", rank);
  }
  TCHECK(sensitive >= 8, "only %d of 16 data sets depend on the order of the additions", sensitive);

  /* MIN and MAX start from the value before the loop, as in seq. */
  double lo[2] = {-2e16, 5.0}, hi[2] = {0.0, 0.0}, wlo[2] = {-2e16, 5.0}, whi[2] = {0, 0};
  op_reduce_blocks_double(OP_MIN, wlo, all, total, 2);
  op_reduce_blocks_double(OP_MAX, whi, all, total, 2);
  op_mpi_reduce_blocks(MPI_COMM_WORLD, OP_TYPE_DOUBLE, OP_MIN, lo, mine, blocks_of(rank), 2);
  op_mpi_reduce_blocks(MPI_COMM_WORLD, OP_TYPE_DOUBLE, OP_MAX, hi, mine, blocks_of(rank), 2);
  TCHECK(memcmp(lo, wlo, sizeof lo) == 0 && memcmp(hi, whi, sizeof hi) == 0, "min %g %g max %g %g", lo[0], lo[1],
         hi[0], hi[1]);

  /* Floats and ints, one value per process, including a process with no blocks. */
  float f = 1.0f, fpart = 1e-3f * (float)(rank + 1), fwant = 1.0f;
  int i = 7, ipart = 10 * rank - 3, iwant = 7;
  for (int r = 0; r < P; r++) fwant += 1e-3f * (float)(r + 1), iwant += (r == P - 1 ? 0 : 10 * r - 3);
  op_mpi_reduce_blocks(MPI_COMM_WORLD, OP_TYPE_FLOAT, OP_INC, &f, &fpart, 1, 1);
  op_mpi_reduce_blocks(MPI_COMM_WORLD, OP_TYPE_INT, OP_INC, &i, &ipart, rank == P - 1 ? 0 : 1, 1);
  TCHECK(f == fwant, "float sum %.9g, expected %.9g", f, fwant);
  TCHECK(i == iwant, "int sum %d, expected %d", i, iwant);

  free(all);
  int rc = mpi_test_finish("test_mpi_reduce");
  MPI_Finalize();
  return rc;
}
