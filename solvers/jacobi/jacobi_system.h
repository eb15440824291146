/*
 * jacobi_system.h - the linear systems the Jacobi solver iterates on, built
 * in the edge form of Giles, "OPlus2 for many-core platforms", 2010 (docs/jacobi.md):
 *
 *   A'·u + r' = 0,   iterated as   u <- u + (A'·u + r'),
 *
 * with A' stored edge by edge (edge e: coefficient a[e], row p1 = pedge[2e],
 * column p2 = pedge[2e+1]).
 *
 * A system A·x = b with a non-zero diagonal D is put in this form as
 * A' = -D^-1·A (so every diagonal coefficient of A' is exactly -1) and
 * r' = D^-1·b. Then u + (A'·u + r') = D^-1·(b - (A - D)·u), which is the
 * classic Jacobi step x_new = (b - sum_{j != i} A_ij x_j) / A_ii. The OP2
 * jac problem is already in this form (self edge -1, neighbours 0.25).
 *
 * Three problems (docs/jacobi.md):
 *   jac    the OP2 jac Laplacian on an (NN+1) x (NN+1) grid, u = 1 exactly;
 *   dense  a seeded, strictly diagonally dominant dense Ndim x Ndim matrix
 *          (the system of Mattson et al.), a complete graph of Ndim^2 edges;
 *   mtx    a square matrix from a Matrix Market file.
 * The right-hand side of dense and mtx is "random" (uniform [0,1) from the
 * seeded generator), "ones", "from_solution" (b = A·1, so the solution is
 * u = 1) or the path of a file (one value per line, or Matrix Market array).
 *
 * A process of a run on many processes builds only its rows of the system
 * (nparts processes, this one `part`; 1 and 0 for the whole system): the
 * nodes [first, first + n) and the edges of those rows, which are consecutive
 * in the whole system's edge order, so that OP2's declarations of slices in
 * global numbers take them as they are (docs/mpi.md).
 *
 * Every function returns 0, or -1 with a message in err (a file error names
 * FILE:LINE; a zero or missing diagonal names the row, 1-based).
 */
#ifndef JACOBI_SYSTEM_H
#define JACOBI_SYSTEM_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  int n;            /* unknowns held: rows [first, first + n) (the node set) */
  int nedge;        /* their stored coefficients, diagonal included (the edge set) */
  int first;        /* the first row held (0 for the whole system) */
  int n_total;      /* unknowns of the whole system */
  long nedge_total; /* coefficients of the whole system (set by jacobi_system_describe) */
  int *pedge;       /* 2 per edge: p1 (row), p2 (column), 0-based, whole-system numbers */
  double *a;        /* per edge: the coefficient of A' */
  double *r;        /* per node: r' */
  double *diag;     /* per node: the diagonal of the original A (b = diag * r') */
  int exact_ones;   /* 1 when the exact solution is u = 1 */
  /* Over the rows held: max over rows i of sum_{j != i} |A'_ij| (row
   * diagonal dominance: < 1 is strict), and the 0-based row where it is first
   * reached; the most coefficients in one row; duplicates summed. */
  double offdiag_ratio;
  int offdiag_row;
  int max_row_len;
  int duplicates;
  /* For jacobi_system_describe. */
  char kind[16];
  int param;            /* jac: NN; dense: Ndim */
  unsigned long long seed;
  char rhs[256], path[256];
  int symmetric;
  long file_entries;
  char summary[1024];
} jacobi_system;

/* ---- the seeded generator (documented in docs/jacobi.md) -------------------
 * A 64-bit linear congruential generator, Knuth's MMIX constants:
 *   state <- 6364136223846793005 * state + 1442695040888963407  (mod 2^64)
 * starting from state = seed; each draw advances the state once and returns
 * (state >> 11) / 2^53, a double uniform in [0, 1). */
typedef struct {
  uint64_t state;
} jacobi_lcg;

void jacobi_lcg_seed(jacobi_lcg *g, uint64_t seed);
double jacobi_lcg_uniform(jacobi_lcg *g);

/* ---- the problems ------------------------------------------------------------ */

/* Advances g by n draws at once (the LCG's affine map composed n times). */
void jacobi_lcg_skip(jacobi_lcg *g, uint64_t n);

/* The OP2 jac Laplacian: (nn-1)^2 unknowns, node (i-1)*(nn-1) + (j-1) for the
 * interior grid point (i, j), 1 <= i, j <= nn-1. nn >= 2. Rows: the balanced
 * slice `part` of nparts. */
int jacobi_build_jac(int nn, int nparts, int part, jacobi_system *s, char *err, size_t errlen);

/* The dense system: A_ij (i != j) uniform in [0,1) drawn row by row, column
 * by column (skipping the diagonal); A_ii = (sum of row i's off-diagonal
 * entries) + 1. A "random" right-hand side is drawn after the matrix. Rows:
 * the balanced slice `part` of nparts of the groups of DENSE_GROUP rows whose
 * edges are interleaved (so that a process's edges are consecutive). */
int jacobi_build_dense(int ndim, uint64_t seed, const char *rhs, int nparts, int part,
                       jacobi_system *s, char *err, size_t errlen);

/* A Matrix Market file: coordinate, real (or integer), general or symmetric;
 * duplicates are summed; "random" draws from a generator seeded with seed.
 * Rows: the balanced slice `part` of nparts (the file is streamed, keeping
 * the entries of those rows). */
int jacobi_build_mtx(const char *path, const char *rhs, uint64_t seed, int nparts, int part,
                     jacobi_system *s, char *err, size_t errlen);

/* 1 when rhs names a file to read (not random, ones or from_solution). */
int jacobi_rhs_is_file(const char *rhs);

/* Writes s->summary: the system, with its edges (nedge_total: the whole
 * system's) and whether duplicates were summed anywhere. */
void jacobi_system_describe(jacobi_system *s, long nedge_total, int duplicates);

void jacobi_system_free(jacobi_system *s);
/* The arrays alone (once declared to OP2, which copies them), the numbers
 * describing the system kept. */
void jacobi_system_free_arrays(jacobi_system *s);

/* The builders and the reader call fn(fraction done, ctx) now and then, so
 * that a long set-up can show progress (NULL: no calls; jacobi_progress.c). */
void jacobi_set_progress(void (*fn)(double fraction, void *ctx), void *ctx);
/* What the builders and the reader call. */
void jacobi_progress(double fraction);

/* ---- Matrix Market reading (jacobi_mtx.c) ---------------------------------- */

/* A square matrix in coordinate form, 0-based, in file order (symmetric
 * files expanded: each off-diagonal entry also gives its mirror). line[k] is
 * the file line of entry k. Read by part `part` of nparts, the entries of
 * the rows [first_row, first_row + nrows) only. */
typedef struct {
  int n;
  int first_row, nrows;
  long nnz;
  int *row, *col;
  double *val;
  long *line;
  long file_entries; /* entries in the file (before mirroring) */
  int symmetric;
} jacobi_coo;

int jacobi_mtx_read(const char *path, int nparts, int part, jacobi_coo *m, char *err,
                    size_t errlen);
/* The balanced slice `part` of nparts of n rows. */
void jacobi_rows_of(int n, int nparts, int part, int *first, int *count);
void jacobi_coo_free(jacobi_coo *m);

/* Reads n values: one per line ('%' and '#' comment lines and blank lines
 * skipped), or a Matrix Market "array real general" file of n x 1. */
int jacobi_vector_read(const char *path, int n, double *v, char *err, size_t errlen);

#endif
