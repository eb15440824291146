/*
 * jacobi_mtx.c - Matrix Market input for the Jacobi solver: a square matrix
 * in coordinate format (real or integer values, general or symmetric), and a
 * right-hand side vector (one value per line, or Matrix Market array).
 *
 * Every error names FILE:LINE (1-based lines, counting comments).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/types.h>

#include "jacobi_system.h"
#include "op2_slice.h"
#include "op_number.h"
#include "op_text.h"

#define MAX_TOKENS 8

/* Matrix Market lines are at most 1024 characters (the format's own limit);
 * allow some slack. Before the size line the file holds only the banner and
 * comments: 16 MiB of them at most. After it, each announced entry or value
 * may take a line. */
#define MTX_MAX_LINE 4096
#define MTX_MAX_PREAMBLE (16ull << 20)

/* A line of the file, cut into whitespace-separated tokens (in place). */
typedef struct {
  op_text_reader in;
  const char *path;         /* the file name, safe to print (in.shown) */
  char *buf;                /* the current line */
  long line;                /* number of the line in buf */
  char text[96];            /* the start of the line, for messages */
  int ntok;
  char *tok[MAX_TOKENS + 1];
  char err[1024];           /* the reader's own message (a line too long, binary data) */
  unsigned long long skipped; /* bytes of comment and blank lines read */
} line_reader;

static void tokenize(line_reader *r) {
  r->ntok = 0;
  char *p = r->buf;
  while (*p) {
    while (*p == ' ' || *p == '\t' || *p == '\v' || *p == '\f') p++;
    if (!*p) break;
    if (r->ntok <= MAX_TOKENS) r->tok[r->ntok] = p;
    r->ntok++;
    while (*p && *p != ' ' && *p != '\t' && *p != '\v' && *p != '\f') p++;
    if (*p) *p++ = '\0';
  }
  if (r->ntok > MAX_TOKENS + 1) r->ntok = MAX_TOKENS + 1;
}

static int open_reader(line_reader *r, const char *path, const char *what, char *err,
                       size_t errlen) {
  memset(r, 0, sizeof *r);
  if (op_text_open(&r->in, path, what, MTX_MAX_LINE, MTX_MAX_PREAMBLE, err, errlen) != 0)
    return -1;
  r->path = r->in.shown;
  return 0;
}

/* Reads the next line; returns 1, 0 at end of file, -1 on an error (the
 * reader's message in r->err). */
static int read_raw(line_reader *r) {
  size_t len;
  int rc = op_text_next(&r->in, &r->buf, &len, r->err, sizeof r->err);
  if (rc <= 0) return rc;
  r->line = r->in.line;
  op_text_shown(r->text, sizeof r->text, r->buf);
  return 1;
}

static int is_blank(const char *s) {
  for (; *s; s++)
    if (*s != ' ' && *s != '\t' && *s != '\v' && *s != '\f') return 0;
  return 1;
}

static int is_comment(const char *s, const char *marks) {
  while (*s == ' ' || *s == '\t') s++;
  return *s && strchr(marks, *s) != NULL;
}

/* Comment and blank lines allowed in all: a stream of them (yes %) ends. */
#define MTX_MAX_SKIPPED (16ull << 20)

/* The next line that is neither blank nor a comment, tokenized. */
static int read_data_line(line_reader *r, const char *comment_marks) {
  for (;;) {
    int rc = read_raw(r);
    if (rc <= 0) return rc;
    if (is_blank(r->buf) || is_comment(r->buf, comment_marks)) {
      r->skipped += strlen(r->buf) + 1;
      if (r->skipped > MTX_MAX_SKIPPED) {
        snprintf(r->err, sizeof r->err,
                 "%s:%ld: more than %llu bytes of comments and blank lines: not a Matrix Market "
                 "file",
                 r->path, r->line, MTX_MAX_SKIPPED);
        return -1;
      }
      continue;
    }
    tokenize(r);
    return 1;
  }
}

/* The message for a line that is not there: the reader's own when it failed
 * (got < 0), else fmt (which starts with "%s:%ld: " for the file and line). */
static int missing(const line_reader *r, int got, char *err, size_t errlen, const char *what) {
  if (got < 0) return op_text_fail(err, errlen, "%s", r->err);
  return op_text_fail(err, errlen, "%s:%ld: %s", r->path, r->line + (r->line == 0), what);
}

static int parse_long(const char *s, long *v) {
  char *end;
  errno = 0;
  long x = strtol(s, &end, 10);
  if (end == s || *end || errno == ERANGE) return -1;
  *v = x;
  return 0;
}

/* 0, or -1 with the reason in err. The suite's one number syntax
 * (op_number.h): decimal only, and a value is zero or a normal double (at
 * least 2.2e-308 in magnitude), so that a diagonal that is not zero has a
 * finite reciprocal and no entry is a subnormal that loses its digits. */
static int parse_value(const line_reader *r, const char *s, double *v, char *err, size_t errlen) {
  op_number_status st = op_number_parse(s, strlen(s), v);
  if (st == OP_NUMBER_SYNTAX)
    return op_text_fail(err, errlen, "%s:%ld: bad number '%.40s' (a decimal number)", r->path,
                       r->line, s);
  if (st != OP_NUMBER_OK)
    return op_text_fail(err, errlen, "%s:%ld: '%.40s' %s", r->path, r->line, s,
                       op_number_reason(st));
  return 0;
}

/* The banner "%%MatrixMarket matrix FORMAT FIELD SYMMETRY" (case-insensitive
 * words). Returns 1 if line 1 is a banner (tokens in r), 0 if it is not. */
static int is_banner(line_reader *r) {
  if (strncasecmp(r->buf, "%%MatrixMarket", 14) != 0) return 0;
  tokenize(r);
  return 1;
}

static const char banner_help[] = "'%%MatrixMarket matrix coordinate real general' (or symmetric)";

static int check_matrix_banner(line_reader *r, int *symmetric, char *err, size_t errlen) {
  const char *p = r->path;
  if (r->ntok != 5 || strcasecmp(r->tok[0], "%%MatrixMarket") != 0)
    return op_text_fail(err, errlen, "%s:1: bad Matrix Market banner '%s' (expected %s)", p,
                        r->text, banner_help);
  if (strcasecmp(r->tok[1], "matrix") != 0)
    return op_text_fail(err, errlen, "%s:1: object '%.40s' is not supported (only 'matrix')", p, r->tok[1]);
  if (strcasecmp(r->tok[2], "array") == 0)
    return op_text_fail(err, errlen,
                "%s:1: format 'array' (dense storage) is not supported for the matrix: write it "
                "in 'coordinate' format",
                p);
  if (strcasecmp(r->tok[2], "coordinate") != 0)
    return op_text_fail(err, errlen, "%s:1: unknown format '%.40s' (expected 'coordinate')", p, r->tok[2]);
  if (strcasecmp(r->tok[3], "pattern") == 0)
    return op_text_fail(err, errlen,
                "%s:1: field 'pattern' is not supported: the matrix needs values ('real')", p);
  if (strcasecmp(r->tok[3], "complex") == 0)
    return op_text_fail(err, errlen, "%s:1: field 'complex' is not supported: the solver is real", p);
  if (strcasecmp(r->tok[3], "real") != 0 && strcasecmp(r->tok[3], "integer") != 0)
    return op_text_fail(err, errlen, "%s:1: unknown field '%.40s' (expected 'real')", p, r->tok[3]);
  if (strcasecmp(r->tok[4], "general") == 0)
    *symmetric = 0;
  else if (strcasecmp(r->tok[4], "symmetric") == 0)
    *symmetric = 1;
  else
    return op_text_fail(err, errlen, "%s:1: symmetry '%.40s' is not supported (general or symmetric)", p,
                r->tok[4]);
  return 0;
}

static int grow(jacobi_coo *m, long *cap, long need, char *err, size_t errlen) {
  if (need <= *cap) return 0;
  long c = *cap ? *cap : 1024;
  while (c < need) c *= 2;
  int *row = realloc(m->row, sizeof(int) * (size_t)c);
  if (row) m->row = row;
  int *col = realloc(m->col, sizeof(int) * (size_t)c);
  if (col) m->col = col;
  double *val = realloc(m->val, sizeof(double) * (size_t)c);
  if (val) m->val = val;
  long *line = realloc(m->line, sizeof(long) * (size_t)c);
  if (line) m->line = line;
  if (!row || !col || !val || !line)
    return op_text_fail(err, errlen, "out of memory for %ld matrix entries", c);
  *cap = c;
  return 0;
}

/* Entries of rows outside the slice read are checked but not kept. */
static void add_entry(jacobi_coo *m, int i, int j, double v, long line) {
  if (i < m->first_row || i >= m->first_row + m->nrows) return;
  m->row[m->nnz] = i;
  m->col[m->nnz] = j;
  m->val[m->nnz] = v;
  m->line[m->nnz] = line;
  m->nnz++;
}

static int read_entries(line_reader *r, jacobi_coo *m, long announced, long size_line,
                        char *err, size_t errlen) {
  const char *p = r->path;
  long cap = 0, count = 0;
  if (grow(m, &cap, announced < (1L << 20) ? announced + 1 : (1L << 20), err, errlen)) return -1;
  for (;;) {
    int rc = read_data_line(r, "%");
    if (rc < 0) return op_text_fail(err, errlen, "%s", r->err);
    if (rc == 0) break;
    if (count == announced)
      return op_text_fail(err, errlen, "%s:%ld: more entries than the %ld announced on line %ld", p,
                  r->line, announced, size_line);
    if (r->ntok != 3)
      return op_text_fail(err, errlen, "%s:%ld: bad entry '%s' (expected 'row column value')", p,
                  r->line, r->text);
    long i, j;
    double v;
    if (parse_long(r->tok[0], &i) != 0)
      return op_text_fail(err, errlen, "%s:%ld: bad row index '%.40s'", p, r->line, r->tok[0]);
    if (parse_long(r->tok[1], &j) != 0)
      return op_text_fail(err, errlen, "%s:%ld: bad column index '%.40s'", p, r->line, r->tok[1]);
    if (i < 1 || i > m->n)
      return op_text_fail(err, errlen, "%s:%ld: row index %ld outside 1..%d", p, r->line, i, m->n);
    if (j < 1 || j > m->n)
      return op_text_fail(err, errlen, "%s:%ld: column index %ld outside 1..%d", p, r->line, j, m->n);
    if (parse_value(r, r->tok[2], &v, err, errlen) != 0) return -1;
    if (m->symmetric && i < j)
      return op_text_fail(err, errlen,
                  "%s:%ld: entry (%ld, %ld) lies above the diagonal, but a symmetric file "
                  "stores the lower triangle only",
                  p, r->line, i, j);
    long need = m->nnz + (m->symmetric && i != j ? 2 : 1);
    if (need > INT_MAX)
      return op_text_fail(err, errlen, "%s:%ld: more than %d stored coefficients: too large", p, r->line,
                  INT_MAX);
    if (grow(m, &cap, need, err, errlen)) return -1;
    if (count % 65536 == 0 && announced > 0) jacobi_progress((double)count / (double)announced);
    add_entry(m, (int)(i - 1), (int)(j - 1), v, r->line);
    if (m->symmetric && i != j) add_entry(m, (int)(j - 1), (int)(i - 1), v, r->line);
    count++;
  }
  m->file_entries = count;
  if (count < announced)
    return op_text_fail(err, errlen, "%s:%ld: the file ends after %ld of the %ld entries announced on line %ld",
                p, r->line, count, announced, size_line);
  return 0;
}

void jacobi_rows_of(int n, int nparts, int part, int *first, int *count) {
  *first = (int)op_slice_first(n, nparts, part);
  *count = (int)op_slice_count(n, nparts, part);
}

int jacobi_mtx_read(const char *path, int nparts, int part, jacobi_coo *m, char *err,
                    size_t errlen) {
  memset(m, 0, sizeof *m);
  if (nparts < 1 || part < 0 || part >= nparts)
    return op_text_fail(err, errlen, "reading %s: part %d of %d", path, part, nparts);
  line_reader r;
  if (open_reader(&r, path, "matrix file", err, errlen) != 0) return -1;
  const char *p = r.path;
  int rc = -1;
  int got = read_raw(&r);
  if (got <= 0) {
    char what[200];
    snprintf(what, sizeof what, "empty file (expected the banner %s)", banner_help);
    missing(&r, got, err, errlen, what);
    goto done;
  }
  if (!is_banner(&r)) {
    op_text_fail(err, errlen, "%s:1: not a Matrix Market file: the first line must be %s", p,
         banner_help);
    goto done;
  }
  if (check_matrix_banner(&r, &m->symmetric, err, errlen) != 0) goto done;

  got = read_data_line(&r, "%");
  if (got <= 0) {
    missing(&r, got, err, errlen, "the file ends before the size line 'rows columns entries'");
    goto done;
  }
  long rows, cols, nnz;
  if (r.ntok != 3 || parse_long(r.tok[0], &rows) || parse_long(r.tok[1], &cols) ||
      parse_long(r.tok[2], &nnz)) {
    op_text_fail(err, errlen, "%s:%ld: bad size line '%s' (expected 'rows columns entries')", p,
         r.line, r.text);
    goto done;
  }
  if (rows < 1 || cols < 1 || nnz < 0) {
    op_text_fail(err, errlen, "%s:%ld: bad size line '%s': sizes must be positive", p, r.line, r.text);
    goto done;
  }
  if (rows != cols) {
    op_text_fail(err, errlen, "%s:%ld: the matrix is %ld x %ld: Jacobi needs a square matrix", p,
         r.line, rows, cols);
    goto done;
  }
  if (rows > INT_MAX / 2) {
    op_text_fail(err, errlen, "%s:%ld: %ld rows: too large", p, r.line, rows);
    goto done;
  }
  if (nnz > INT_MAX) {
    op_text_fail(err, errlen, "%s:%ld: %ld entries: more than the %d an OP2 set can hold", p,
                 r.line, nnz, INT_MAX);
    goto done;
  }
  /* From here on, a line per announced entry. */
  op_text_set_max_bytes(&r.in, MTX_MAX_PREAMBLE + MTX_MAX_SKIPPED +
                                   ((unsigned long long)nnz + 1) * MTX_MAX_LINE);
  m->n = (int)rows;
  jacobi_rows_of(m->n, nparts, part, &m->first_row, &m->nrows);
  if (read_entries(&r, m, nnz, r.line, err, errlen) != 0) goto done;
  rc = 0;
done:
  op_text_close(&r.in);
  if (rc != 0) jacobi_coo_free(m);
  return rc;
}

void jacobi_coo_free(jacobi_coo *m) {
  free(m->row);
  free(m->col);
  free(m->val);
  free(m->line);
  memset(m, 0, sizeof *m);
}

/* A Matrix Market "array" vector: banner checked here, then "rows cols",
 * then rows values, one per line. */
static int read_array_vector(line_reader *r, int n, double *v, char *err, size_t errlen) {
  const char *p = r->path;
  if (r->ntok != 5 || strcasecmp(r->tok[1], "matrix") != 0 ||
      strcasecmp(r->tok[2], "array") != 0 ||
      (strcasecmp(r->tok[3], "real") != 0 && strcasecmp(r->tok[3], "integer") != 0) ||
      strcasecmp(r->tok[4], "general") != 0)
    return op_text_fail(err, errlen,
                "%s:1: a right-hand side in Matrix Market form must be "
                "'%%%%MatrixMarket matrix array real general' (found '%s')",
                p, r->text);
  int got = read_data_line(r, "%");
  if (got <= 0) return missing(r, got, err, errlen, "the file ends before the size line 'rows columns'");
  long rows, cols;
  if (r->ntok != 2 || parse_long(r->tok[0], &rows) || parse_long(r->tok[1], &cols))
    return op_text_fail(err, errlen, "%s:%ld: bad size line '%s' (expected 'rows columns')", p, r->line,
                r->text);
  if (cols != 1 || rows != n)
    return op_text_fail(err, errlen, "%s:%ld: the vector is %ld x %ld, but the matrix needs %d x 1", p,
                r->line, rows, cols, n);
  for (int i = 0; i < n; i++) {
    got = read_data_line(r, "%");
    if (got < 0) return missing(r, got, err, errlen, "");
    if (got == 0)
      return op_text_fail(err, errlen, "%s:%ld: the file ends after %d of the %d values", p, r->line, i,
                  n);
    if (r->ntok != 1)
      return op_text_fail(err, errlen, "%s:%ld: expected one value per line, found '%s'", p,
                          r->line, r->text);
    if (parse_value(r, r->tok[0], &v[i], err, errlen) != 0) return -1;
  }
  got = read_data_line(r, "%");
  if (got < 0) return missing(r, got, err, errlen, "");
  if (got > 0)
    return op_text_fail(err, errlen, "%s:%ld: more values than the %d announced", p, r->line, n);
  return 0;
}

int jacobi_vector_read(const char *path, int n, double *v, char *err, size_t errlen) {
  line_reader r;
  if (open_reader(&r, path, "right-hand side file", err, errlen) != 0) return -1;
  /* A line per value, and the comments. */
  op_text_set_max_bytes(&r.in, MTX_MAX_PREAMBLE + MTX_MAX_SKIPPED +
                                   ((unsigned long long)n + 2) * MTX_MAX_LINE);
  const char *p = r.path;
  int rc = -1;
  int got = read_raw(&r);
  if (got > 0 && is_banner(&r)) {
    rc = read_array_vector(&r, n, v, err, errlen);
    goto done;
  }
  /* One value per line: the first line, already read, may hold the first. */
  int count = 0;
  for (;;) {
    if (got < 0) {
      missing(&r, got, err, errlen, "");
      goto done;
    }
    if (got == 0) break;
    if (!is_blank(r.buf) && !is_comment(r.buf, "%#")) {
      tokenize(&r);
      if (r.ntok != 1) {
        op_text_fail(err, errlen, "%s:%ld: expected one value per line, found '%s'", p, r.line,
             r.text);
        goto done;
      }
      if (count == n) {
        op_text_fail(err, errlen, "%s:%ld: more than the %d values the matrix needs (one per row)", p,
             r.line, n);
        goto done;
      }
      if (parse_value(&r, r.tok[0], &v[count], err, errlen) != 0) goto done;
      count++;
    }
    got = read_raw(&r);
  }
  if (count < n) {
    op_text_fail(err, errlen, "%s:%ld: %d values, but the matrix has %d rows", p, r.line, count, n);
    goto done;
  }
  rc = 0;
done:
  op_text_close(&r.in);
  return rc;
}
