/*
 * jac_exact - checks the solver's jac iterate against exact rational
 * arithmetic, independently of the solver's code.
 *
 *   jac_exact U.H5 NN K
 *
 * The jac problem (docs/jacobi.md): unknowns at the interior points (i, j),
 * 1 <= i, j <= NN-1, of an (NN+1) x (NN+1) grid whose boundary holds u = 1;
 * u_0 = 0 and one Jacobi step is u_new(p) = (sum of u over p's four
 * neighbours) / 4. After k steps u_k(p) = N_k(p) / 4^k with integer
 * numerators:
 *   N_0 = 0,  N_(k+1)(p) = sum over the neighbours q of (q interior ? N_k(q) : 4^k).
 * While every numerator fits in 53 bits, N_k / 4^k is a double exactly, and a
 * correct implementation must reproduce it bit for bit. The solver's node
 * numbering is (i-1)*(NN-1) + (j-1) (docs/jacobi.md).
 *
 * Exit 0 when every value agrees bitwise, 1 when one differs, 2 on usage or
 * file errors (or when K is too large for exact doubles).
 */
#include <hdf5.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int read_u(const char *path, long n, double *u) {
  H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    fprintf(stderr, "jac_exact: cannot open %s as HDF5\n", path);
    return -1;
  }
  int rc = -1;
  hid_t d = H5Dopen2(f, "u", H5P_DEFAULT);
  if (d < 0) {
    fprintf(stderr, "jac_exact: %s has no dataset 'u'\n", path);
    H5Fclose(f);
    return -1;
  }
  hid_t sp = H5Dget_space(d);
  hssize_t count = H5Sget_simple_extent_npoints(sp);
  if (count != n) {
    fprintf(stderr, "jac_exact: %s: dataset 'u' holds %lld values, expected %ld\n", path,
            (long long)count, n);
  } else if (H5Dread(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, u) < 0) {
    fprintf(stderr, "jac_exact: %s: cannot read dataset 'u'\n", path);
  } else {
    rc = 0;
  }
  H5Sclose(sp);
  H5Dclose(d);
  H5Fclose(f);
  return rc;
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: jac_exact U.H5 NN K\n");
    return 2;
  }
  const int nn = atoi(argv[2]), k = atoi(argv[3]);
  /* Numerators are at most 4^k: 4^26 = 2^52 still fits a double exactly. */
  if (nn < 2 || k < 0 || k > 26) {
    fprintf(stderr, "jac_exact: need NN >= 2 and 0 <= K <= 26 (exact doubles)\n");
    return 2;
  }
  const int m = nn - 1;
  const long n = (long)m * m;
  int64_t *num = calloc((size_t)n, sizeof(int64_t)), *next = calloc((size_t)n, sizeof(int64_t));
  double *u = malloc(sizeof(double) * (size_t)n);
  if (!num || !next || !u) {
    fprintf(stderr, "jac_exact: out of memory\n");
    return 2;
  }
  int64_t pow4 = 1; /* 4^step */
  for (int step = 0; step < k; step++) {
    for (int i = 1; i <= m; i++)
      for (int j = 1; j <= m; j++) {
        const int ni[4] = {i - 1, i + 1, i, i}, nj[4] = {j, j, j - 1, j + 1};
        int64_t s = 0;
        for (int q = 0; q < 4; q++) {
          int interior = ni[q] >= 1 && ni[q] <= m && nj[q] >= 1 && nj[q] <= m;
          s += interior ? num[(long)(ni[q] - 1) * m + (nj[q] - 1)] : pow4;
        }
        next[(long)(i - 1) * m + (j - 1)] = s;
      }
    int64_t *t = num;
    num = next;
    next = t;
    pow4 *= 4;
  }
  if (read_u(argv[1], n, u) != 0) return 2;
  long bad = 0;
  for (long p = 0; p < n; p++) {
    if (num[p] > (INT64_C(1) << 53)) {
      fprintf(stderr, "jac_exact: numerator %" PRId64 " does not fit a double exactly\n", num[p]);
      return 2;
    }
    const double exact = ldexp((double)num[p], -2 * k);
    if (memcmp(&exact, &u[p], sizeof(double)) != 0) {
      if (bad < 10)
        printf("node %ld (i=%ld, j=%ld): solver %.17g, exact %" PRId64 "/4^%d = %.17g\n", p,
               p / m + 1, p % m + 1, u[p], num[p], k, exact);
      bad++;
    }
  }
  if (bad) {
    printf("jac_exact: %ld of %ld values differ from the exact rationals after %d iterations "
           "(NN = %d)\n",
           bad, n, k, nn);
    return 1;
  }
  printf("jac_exact: all %ld values equal the exact rationals N/4^%d bitwise (NN = %d)\n", n, k,
         nn);
  free(num);
  free(next);
  free(u);
  return 0;
}
