/*
 * jacobi_system.c - builds the three problems of the Jacobi solver in the
 * edge form A'·u + r' = 0 (jacobi_system.h, docs/jacobi.md).
 */
#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jacobi_system.h"
#include "op_text.h"

/* ---- the generator --------------------------------------------------------------- */

void jacobi_lcg_seed(jacobi_lcg *g, uint64_t seed) { g->state = seed; }

/* state <- a state + c, n times: by squaring the affine map (a, c). */
void jacobi_lcg_skip(jacobi_lcg *g, uint64_t n) {
  uint64_t a = 6364136223846793005ULL, c = 1442695040888963407ULL;
  uint64_t acc_a = 1, acc_c = 0;
  for (; n; n >>= 1) {
    if (n & 1) {
      acc_a *= a;
      acc_c = acc_c * a + c;
    }
    c *= a + 1;
    a *= a;
  }
  g->state = acc_a * g->state + acc_c;
}

double jacobi_lcg_uniform(jacobi_lcg *g) {
  g->state = 6364136223846793005ULL * g->state + 1442695040888963407ULL;
  return (double)(g->state >> 11) * (1.0 / 9007199254740992.0); /* 2^-53 */
}

/* ---- shared parts ----------------------------------------------------------------- */

void jacobi_system_free_arrays(jacobi_system *s) {
  free(s->pedge);
  free(s->a);
  free(s->r);
  free(s->diag);
  s->pedge = NULL, s->a = NULL, s->r = NULL, s->diag = NULL;
}

void jacobi_system_free(jacobi_system *s) {
  free(s->pedge);
  free(s->a);
  free(s->r);
  free(s->diag);
  memset(s, 0, sizeof *s);
}

/* Rows [first, first + n) of a system of n_total unknowns. */
static int alloc_system(jacobi_system *s, int first, int n, int n_total, long nedge, char *err,
                        size_t errlen) {
  memset(s, 0, sizeof *s);
  s->first = first;
  s->n_total = n_total;
  if (nedge > INT_MAX)
    return op_text_fail(err, errlen, "%ld coefficients: more than the %d an OP2 set can hold",
                        nedge, INT_MAX);
  s->n = n;
  s->nedge = (int)nedge;
  s->pedge = malloc(sizeof(int) * 2 * (size_t)(nedge ? nedge : 1));
  s->a = malloc(sizeof(double) * (size_t)(nedge ? nedge : 1));
  s->r = calloc((size_t)(n ? n : 1), sizeof(double));
  s->diag = malloc(sizeof(double) * (size_t)(n ? n : 1));
  if (!s->pedge || !s->a || !s->r || !s->diag) {
    jacobi_system_free(s);
    return op_text_fail(err, errlen, "out of memory for %d unknowns and %ld coefficients (%.1f GB)", n,
                nedge, (double)nedge * 16.0 / 1e9);
  }
  return 0;
}

/* Row dominance of A' and the longest row, over the rows held. */
static void row_statistics(jacobi_system *s) {
  double *sum = calloc((size_t)s->n + 1, sizeof(double));
  int *len = calloc((size_t)s->n + 1, sizeof(int));
  s->offdiag_ratio = 0.0;
  s->offdiag_row = 0;
  s->max_row_len = 0;
  if (!sum || !len) {
    /* Statistics only: without memory, claim nothing. */
    s->offdiag_ratio = INFINITY;
    free(sum);
    free(len);
    return;
  }
  for (int e = 0; e < s->nedge; e++) {
    int i = s->pedge[2 * e], j = s->pedge[2 * e + 1];
    len[i - s->first]++;
    if (i != j) sum[i - s->first] += fabs(s->a[e]);
  }
  s->offdiag_row = s->first;
  for (int i = 0; i < s->n; i++) {
    if (sum[i] > s->offdiag_ratio) {
      s->offdiag_ratio = sum[i];
      s->offdiag_row = s->first + i;
    }
    if (len[i] > s->max_row_len) s->max_row_len = len[i];
  }
  free(sum);
  free(len);
}

typedef enum { RHS_RANDOM, RHS_ONES, RHS_FROM_SOLUTION, RHS_FILE } rhs_kind;

static rhs_kind rhs_kind_of(const char *rhs) {
  if (!strcmp(rhs, "random")) return RHS_RANDOM;
  if (!strcmp(rhs, "ones")) return RHS_ONES;
  if (!strcmp(rhs, "from_solution")) return RHS_FROM_SOLUTION;
  return RHS_FILE;
}

int jacobi_rhs_is_file(const char *rhs) { return rhs_kind_of(rhs) == RHS_FILE; }

/* ---- jac ------------------------------------------------------------------------- */

/* The neighbours of node (i, j) of the jac grid (m points a side) that are unknowns. */
static int jac_row_length(int m, int i, int j) {
  return 1 + (i > 1) + (i < m) + (j > 1) + (j < m);
}

int jacobi_build_jac(int nn, int nparts, int part, jacobi_system *s, char *err, size_t errlen) {
  if (nn < 2 || nn > 20000)
    return op_text_fail(err, errlen, "jac: NN = %d is outside 2..20000", nn);
  const int m = nn - 1; /* interior points per side */
  const int n_total = m * m;
  int first, n;
  jacobi_rows_of(n_total, nparts, part, &first, &n);
  /* Self edges plus two per pair of neighbouring unknowns, of the rows held. */
  long nedge = 0;
  for (int node = first; node < first + n; node++)
    nedge += jac_row_length(m, node / m + 1, node % m + 1);
  if (alloc_system(s, first, n, n_total, nedge, err, errlen) != 0) return -1;
  long e = 0;
  for (int node = first; node < first + n; node++) {
    const int i = node / m + 1, j = node % m + 1, row = node - first;
    if (j == 1 && i % 64 == 0) jacobi_progress((double)(node - first) / n);
    /* Neighbours in increasing node order, the self edge in its place. */
    const int di[5] = {-1, 0, 0, 0, 1}, dj[5] = {0, -1, 0, 1, 0};
    s->r[row] = 0.0;
    for (int k = 0; k < 5; k++) {
      const int ii = i + di[k], jj = j + dj[k];
      if (k == 2) {
        s->pedge[2 * e] = node;
        s->pedge[2 * e + 1] = node;
        s->a[e++] = -1.0;
      } else if (ii >= 1 && ii <= m && jj >= 1 && jj <= m) {
        s->pedge[2 * e] = node;
        s->pedge[2 * e + 1] = (ii - 1) * m + (jj - 1);
        s->a[e++] = 0.25;
      } else {
        s->r[row] += 0.25; /* a boundary neighbour, where u = 1 */
      }
    }
    s->diag[row] = 1.0;
  }
  s->exact_ones = 1;
  row_statistics(s);
  snprintf(s->kind, sizeof s->kind, "jac");
  s->param = nn;
  jacobi_system_describe(s, (long)n_total + 4L * m * (m - 1), 0);
  return 0;
}

/* ---- general systems ---------------------------------------------------------------- */

/* Rows [first, first + count) of the right-hand side b of A·x = b (of n
 * rows), for the kinds that need no matrix; g is at row first's draw. */
static int fill_rhs_rows(const char *rhs, int n, int first, int count, jacobi_lcg *g, double *b,
                         char *err, size_t errlen) {
  switch (rhs_kind_of(rhs)) {
    case RHS_RANDOM:
      for (int i = 0; i < count; i++) b[i] = jacobi_lcg_uniform(g);
      return 0;
    case RHS_ONES:
      for (int i = 0; i < count; i++) b[i] = 1.0;
      return 0;
    case RHS_FILE: {
      /* A vector file: one value a row, read whole (n values, not the matrix). */
      double *all = malloc(sizeof(double) * (size_t)n);
      if (!all) return op_text_fail(err, errlen, "out of memory for %d values", n);
      int rc = jacobi_vector_read(rhs, n, all, err, errlen);
      if (rc == 0) memcpy(b, all + first, sizeof(double) * (size_t)count);
      free(all);
      return rc;
    }
    case RHS_FROM_SOLUTION:
      break;
  }
  return op_text_fail(err, errlen, "internal error: rhs from_solution needs the matrix");
}

/* Rows whose edges are interleaved in the dense system: enough that a
 * column's stretch of a group is a run the CPU backends stream without
 * reading the map (row numbers stepping by 1, the column number fixed: an
 * affine run of OP_AFFINE_MIN_RUN or more edges, op_plan.h), and long
 * enough that the work of starting a run is small beside it (res took 4.6
 * against 5.2 ms a call with 256 against 128 at Ndim = 4096 on one core,
 * docs/performance.md); few enough that the groups' blocks share no rows and
 * run in parallel (Ndim = 4096: 16 groups, so 16 blocks a colour). */
#define DENSE_GROUP 256

int jacobi_build_dense(int ndim, uint64_t seed, const char *rhs, int nparts, int part,
                       jacobi_system *s, char *err, size_t errlen) {
  if (ndim < 1 || ndim > 46340)
    return op_text_fail(err, errlen, "dense: Ndim = %d is outside 1..46340", ndim);
  const int n = ndim;
  /* Whole groups of rows: their edges are interleaved. */
  int group0, ngroups;
  jacobi_rows_of((n + DENSE_GROUP - 1) / DENSE_GROUP, nparts, part, &group0, &ngroups);
  const int first = group0 * DENSE_GROUP;
  const int last = (group0 + ngroups) * DENSE_GROUP < n ? (group0 + ngroups) * DENSE_GROUP : n;
  const int nrows = last > first ? last - first : 0;
  if (alloc_system(s, first, nrows, n, (long)nrows * n, err, errlen) != 0) return -1;
  double *row = malloc(sizeof(double) * (size_t)n);
  double *b = malloc(sizeof(double) * (size_t)(nrows ? nrows : 1));
  if (!row || !b) {
    free(row);
    free(b);
    jacobi_system_free(s);
    return op_text_fail(err, errlen, "out of memory");
  }
  const rhs_kind kind = rhs_kind_of(rhs);
  jacobi_lcg g;
  jacobi_lcg_seed(&g, seed);
  jacobi_lcg_skip(&g, (uint64_t)first * (uint64_t)(n - 1)); /* the rows before ours */
  for (int i = first; i < last; i++) {
    if (i % 64 == 0) jacobi_progress((double)(i - first) / nrows);
    double offsum = 0.0;
    for (int j = 0; j < n; j++) {
      if (j == i) continue;
      row[j] = jacobi_lcg_uniform(&g);
      offsum += row[j];
    }
    row[i] = offsum + 1.0;
    if (kind == RHS_FROM_SOLUTION) {
      double rs = 0.0;
      for (int j = 0; j < n; j++) rs += row[j];
      b[i - first] = rs;
    }
    const double d = row[i];
    s->diag[i - first] = d;
    /* Edge order: groups of DENSE_GROUP rows, column by column within a
     * group, so that consecutive edges increment different rows (a row's
     * increments, in column order, do not wait for each other); every row
     * still sums its columns in ascending order. */
    const int g0 = i - i % DENSE_GROUP;
    const int gsize = n - g0 < DENSE_GROUP ? n - g0 : DENSE_GROUP;
    const size_t base = (size_t)(g0 - first) * (size_t)n + (size_t)(i - g0);
    for (int j = 0; j < n; j++) {
      const size_t e = base + (size_t)j * (size_t)gsize;
      s->pedge[2 * e] = i;
      s->pedge[2 * e + 1] = j;
      s->a[e] = -row[j] / d;
    }
  }
  free(row);
  if (kind != RHS_FROM_SOLUTION) {
    /* The right-hand side is drawn after the whole matrix: ours from there. */
    jacobi_lcg_seed(&g, seed);
    jacobi_lcg_skip(&g, (uint64_t)n * (uint64_t)(n - 1) + (uint64_t)first);
    if (fill_rhs_rows(rhs, n, first, nrows, &g, b, err, errlen) != 0) {
      free(b);
      jacobi_system_free(s);
      return -1;
    }
  }
  for (int i = 0; i < nrows; i++) s->r[i] = b[i] / s->diag[i];
  free(b);
  s->exact_ones = kind == RHS_FROM_SOLUTION;
  row_statistics(s);
  snprintf(s->kind, sizeof s->kind, "dense");
  s->param = n;
  s->seed = (unsigned long long)seed;
  snprintf(s->rhs, sizeof s->rhs, "%s", rhs);
  jacobi_system_describe(s, (long)n * n, 0);
  return 0;
}

/* Sorting the entries of a Matrix Market file by (row, column, position in
 * the file), so that duplicates are summed in file order. */
typedef struct {
  uint64_t key; /* row * n + column */
  long k;       /* entry number */
} entry_key;

static int cmp_entry(const void *pa, const void *pb) {
  const entry_key *a = pa, *b = pb;
  if (a->key != b->key) return a->key < b->key ? -1 : 1;
  return (a->k > b->k) - (a->k < b->k);
}

int jacobi_build_mtx(const char *path, const char *rhs, uint64_t seed, int nparts, int part,
                     jacobi_system *s, char *err, size_t errlen) {
  memset(s, 0, sizeof *s);
  if (!path || !*path)
    return op_text_fail(err, errlen, "problem mtx: key 'matrix' must name a Matrix Market file");
  jacobi_coo m;
  if (jacobi_mtx_read(path, nparts, part, &m, err, errlen) != 0) return -1;
  const int n = m.n, first = m.first_row, nrows = m.nrows;
  entry_key *order = malloc(sizeof(entry_key) * (size_t)(m.nnz ? m.nnz : 1));
  if (!order) {
    jacobi_coo_free(&m);
    return op_text_fail(err, errlen, "out of memory for %ld entries", m.nnz);
  }
  for (long k = 0; k < m.nnz; k++) {
    order[k].key = (uint64_t)m.row[k] * (uint64_t)n + (uint64_t)m.col[k];
    order[k].k = k;
  }
  qsort(order, (size_t)m.nnz, sizeof *order, cmp_entry);
  long unique = 0;
  for (long k = 0; k < m.nnz; k++)
    if (k == 0 || order[k].key != order[k - 1].key) unique++;

  int rc = -1;
  long *diag_line = NULL;
  double *b = NULL;
  int ndup = 0;
  if (alloc_system(s, first, nrows, n, unique, err, errlen) != 0) goto done;
  diag_line = calloc((size_t)nrows + 1, sizeof(long)); /* 0: no diagonal entry */
  b = malloc(sizeof(double) * (size_t)(nrows + 1));
  if (!diag_line || !b) {
    op_text_fail(err, errlen, "out of memory");
    goto done;
  }
  /* Sum duplicates: the coefficients of A, row by row, columns ascending. */
  long e = -1;
  for (long k = 0; k < m.nnz; k++) {
    const long src = order[k].k;
    if (k == 0 || order[k].key != order[k - 1].key) {
      e++;
      s->pedge[2 * e] = m.row[src];
      s->pedge[2 * e + 1] = m.col[src];
      s->a[e] = m.val[src];
      if (m.row[src] == m.col[src]) diag_line[m.row[src] - first] = m.line[src];
    } else {
      s->a[e] += m.val[src];
      ndup++;
    }
  }
  /* The diagonal: present and non-zero in every row. */
  for (int i = 0; i < nrows; i++) s->diag[i] = 0.0;
  for (long f = 0; f < unique; f++)
    if (s->pedge[2 * f] == s->pedge[2 * f + 1]) s->diag[s->pedge[2 * f] - first] = s->a[f];
  for (int i = 0; i < nrows; i++) {
    const int row = first + i;
    if (!diag_line[i]) {
      op_text_fail(err, errlen,
           "%s: row %d has no diagonal entry: Jacobi divides by A(%d,%d), which must be "
           "non-zero",
           path, row + 1, row + 1, row + 1);
      goto done;
    }
    if (s->diag[i] == 0.0) {
      op_text_fail(err, errlen, "%s:%ld: row %d: the diagonal entry A(%d,%d) is zero%s: Jacobi divides by it",
           path, diag_line[i], row + 1, row + 1, row + 1,
           ndup ? " (after summing duplicates)" : "");
      goto done;
    }
    /* Each value read is zero or a normal double (op_number.h); a sum of
     * duplicates may still fall below: 1 / A(i,i) would overflow. */
    if (fabs(s->diag[i]) < DBL_MIN) {
      op_text_fail(err, errlen,
                  "%s:%ld: row %d: the diagonal entry A(%d,%d) is %g%s, below 2.2e-308 in "
                  "magnitude: Jacobi divides by it, and its reciprocal overflows a double",
                  path, diag_line[i], row + 1, row + 1, row + 1, s->diag[i],
                  ndup ? " (after summing duplicates)" : "");
      goto done;
    }
  }
  /* The right-hand side of A·x = b. */
  jacobi_lcg g;
  jacobi_lcg_seed(&g, seed);
  jacobi_lcg_skip(&g, (uint64_t)first);
  if (rhs_kind_of(rhs) == RHS_FROM_SOLUTION) {
    for (int i = 0; i < nrows; i++) b[i] = 0.0;
    for (long f = 0; f < unique; f++) b[s->pedge[2 * f] - first] += s->a[f];
  } else if (fill_rhs_rows(rhs, n, first, nrows, &g, b, err, errlen) != 0) {
    goto done;
  }
  /* The edge form: A' = -D^-1 A, r' = D^-1 b. */
  for (long f = 0; f < unique; f++) s->a[f] = -s->a[f] / s->diag[s->pedge[2 * f] - first];
  for (int i = 0; i < nrows; i++) s->r[i] = b[i] / s->diag[i];
  s->exact_ones = rhs_kind_of(rhs) == RHS_FROM_SOLUTION;
  row_statistics(s);
  s->duplicates = ndup;
  snprintf(s->kind, sizeof s->kind, "mtx");
  snprintf(s->path, sizeof s->path, "%s", path);
  snprintf(s->rhs, sizeof s->rhs, "%s", rhs);
  s->symmetric = m.symmetric;
  s->file_entries = m.file_entries;
  jacobi_system_describe(s, unique, ndup > 0);
  rc = 0;
done:
  free(order);
  free(diag_line);
  free(b);
  jacobi_coo_free(&m);
  if (rc != 0) jacobi_system_free(s);
  return rc;
}

void jacobi_system_describe(jacobi_system *s, long nedge_total, int duplicates) {
  const int n = s->n_total;
  s->nedge_total = nedge_total;
  if (!strcmp(s->kind, "jac"))
    snprintf(s->summary, sizeof s->summary,
             "OP2 jac Laplacian, NN = %d: %d unknowns, %ld edges (%d self edges A = -1, %ld "
             "neighbour edges A = 0.25)",
             s->param, n, nedge_total, n, nedge_total - n);
  else if (!strcmp(s->kind, "dense"))
    snprintf(s->summary, sizeof s->summary,
             "dense diagonally dominant system, Ndim = %d, seed %llu, rhs %s: %d unknowns, %ld "
             "edges",
             n, s->seed, s->rhs, n, nedge_total);
  else
    snprintf(s->summary, sizeof s->summary,
             "Matrix Market %s (%s): %d unknowns, %ld edges from %ld file entries%s%s, rhs %s",
             s->path, s->symmetric ? "symmetric" : "general", n, nedge_total, s->file_entries,
             s->symmetric ? " (off-diagonal ones mirrored)" : "",
             duplicates ? " (duplicates summed)" : "", s->rhs);
}
