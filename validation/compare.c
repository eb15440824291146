/*
 * compare.c - op2-compare: compares two HDF5 result files field by field.
 *
 *   op2-compare [options] A.h5 B.h5
 *
 * Every dataset present in both files is compared element by element:
 * bitwise by default, or within |a - b| <= atol + rtol * |b| (B is the
 * reference). A dataset present in only one file is a difference. Exit
 * status: 0 equal, 1 different, 2 error (see usage()).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "h5field.h"
#include "op_version.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SRC_FILE (strrchr(__FILE__, '/') ? strrchr(__FILE__, '/') + 1 : __FILE__)

enum { EXIT_EQUAL = 0, EXIT_DIFFERENT = 1, EXIT_TROUBLE = 2 };

/* Elements read at a time from each file (OP2_COMPARE_BLOCK overrides it,
 * for tests of the blocking). */
#define DEFAULT_BLOCK_ELEMS (1u << 20)

typedef struct {
  const char *file_a, *file_b;
  int tolerance;       /* 0: bitwise */
  double rtol, atol;
  int worst;           /* elements listed per differing dataset */
  int quiet;
  char **only;         /* --only names, or NULL */
  int nonly;
  int *only_used;      /* per --only name: matched a dataset */
  hsize_t block_elems;
} options;

static void usage(FILE *f)
{
  fputs("usage: op2-compare [options] A.h5 B.h5\n"
        "\n"
        "Compares every dataset of two HDF5 result files (OP2's layout: one\n"
        "[set size, dim] dataset per dat, maybe inside groups), element by element.\n"
        "B is the reference: relative differences are taken against |b|.\n"
        "\n"
        "options:\n"
        "  --rtol R        compare within |a-b| <= atol + rtol*|b| (any NaN differs)\n"
        "  --atol A        (either one switches from the default bitwise comparison;\n"
        "                  the other then defaults to 0)\n"
        "  --worst N       list the N worst elements of each differing dataset (default 5)\n"
        "  --only N1[,N2]  compare only these datasets (repeatable); a name is a path\n"
        "                  (/group/p_q or group/p_q) or, without '/', a dataset's own name\n"
        "  --quiet         print only the one-line verdict\n"
        "  -h, --help      this text\n"
        "\n"
        "Bitwise mode compares bit patterns: NaN equals NaN with the same bits and\n"
        "-0 differs from 0. Datasets of different types or shapes differ.\n"
        "\n"
        "exit status: 0 equal, 1 different, 2 error (a missing or unreadable file,\n"
        "a file that is not HDF5, a dataset that cannot be read, a bad option).\n",
        f);
}

/* ---- options ---------------------------------------------------------- */

static int parse_nonneg_real(const char *opt, const char *text, double *out)
{
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v) || v < 0) {
    fprintf(stderr, "op2-compare: %s '%s': expected a finite number >= 0\n", opt, text);
    return -1;
  }
  *out = v;
  return 0;
}

static int parse_count(const char *opt, const char *text, long long max, long long *out)
{
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v < 0 || v > max) {
    fprintf(stderr, "op2-compare: %s '%s': expected an integer in [0, %lld]\n", opt, text, max);
    return -1;
  }
  *out = v;
  return 0;
}

static int add_only(options *o, const char *list)
{
  const char *p = list;
  for (;;) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    if (len == 0) {
      fprintf(stderr, "op2-compare: --only '%s': empty dataset name\n", list);
      return -1;
    }
    char **only = realloc(o->only, (size_t)(o->nonly + 1) * sizeof *only);
    if (only == NULL) {
      fprintf(stderr, "op2-compare: out of memory (%s:%d, %s)\n", SRC_FILE, __LINE__, __func__);
      return -1;
    }
    o->only = only;
    char *name = malloc(len + 1);
    if (name == NULL) {
      fprintf(stderr, "op2-compare: out of memory (%s:%d, %s)\n", SRC_FILE, __LINE__, __func__);
      return -1;
    }
    memcpy(name, p, len);
    name[len] = '\0';
    o->only[o->nonly++] = name;
    if (!comma)
      return 0;
    p = comma + 1;
  }
}

/* The value of option argv[*i] given as "--opt=value" or "--opt value". */
static const char *option_value(int argc, char **argv, int *i, const char *opt)
{
  size_t n = strlen(opt);
  const char *a = argv[*i];
  if (strncmp(a, opt, n) == 0 && a[n] == '=')
    return a + n + 1;
  if (*i + 1 >= argc) {
    fprintf(stderr, "op2-compare: %s needs a value\n", opt);
    return NULL;
  }
  return argv[++*i];
}

static int is_option(const char *a, const char *opt)
{
  size_t n = strlen(opt);
  return strncmp(a, opt, n) == 0 && (a[n] == '\0' || a[n] == '=');
}

/* Returns 0 to go on, 1 after --help, -1 on a usage error. */
static int parse_options(int argc, char **argv, options *o)
{
  int nfiles = 0, have_rtol = 0, have_atol = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v;
    long long n;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 1;
    } else if (is_option(a, "--rtol")) {
      if ((v = option_value(argc, argv, &i, "--rtol")) == NULL ||
          parse_nonneg_real("--rtol", v, &o->rtol) != 0)
        return -1;
      have_rtol = 1;
    } else if (is_option(a, "--atol")) {
      if ((v = option_value(argc, argv, &i, "--atol")) == NULL ||
          parse_nonneg_real("--atol", v, &o->atol) != 0)
        return -1;
      have_atol = 1;
    } else if (is_option(a, "--worst")) {
      if ((v = option_value(argc, argv, &i, "--worst")) == NULL ||
          parse_count("--worst", v, 1000000, &n) != 0)
        return -1;
      o->worst = (int)n;
    } else if (is_option(a, "--only")) {
      if ((v = option_value(argc, argv, &i, "--only")) == NULL || add_only(o, v) != 0)
        return -1;
    } else if (strcmp(a, "--quiet") == 0 || strcmp(a, "-q") == 0) {
      o->quiet = 1;
    } else if (a[0] == '-' && a[1] != '\0') {
      fprintf(stderr, "op2-compare: unknown option '%s' (--help lists them)\n", a);
      return -1;
    } else if (nfiles == 0) {
      o->file_a = a;
      nfiles++;
    } else if (nfiles == 1) {
      o->file_b = a;
      nfiles++;
    } else {
      fprintf(stderr, "op2-compare: a third file '%s': give exactly two\n", a);
      return -1;
    }
  }
  if (nfiles != 2) {
    fprintf(stderr, "op2-compare: give two files to compare (--help for usage)\n");
    return -1;
  }
  o->tolerance = have_rtol || have_atol;
  if (o->nonly > 0) {
    o->only_used = calloc((size_t)o->nonly, sizeof *o->only_used);
    if (o->only_used == NULL) {
      fprintf(stderr, "op2-compare: out of memory (%s:%d, %s)\n", SRC_FILE, __LINE__, __func__);
      return -1;
    }
  }
  const char *env = getenv("OP2_COMPARE_BLOCK");
  if (env != NULL) {
    long long n;
    if (parse_count("OP2_COMPARE_BLOCK", env, 1LL << 40, &n) != 0 || n == 0)
      return -1;
    o->block_elems = (hsize_t)n;
  }
  return 0;
}

static void free_options(options *o)
{
  for (int k = 0; k < o->nonly; k++)
    free(o->only[k]);
  free(o->only);
  free(o->only_used);
  o->only = NULL;
  o->only_used = NULL;
  o->nonly = 0;
}

/* Does dataset path (with its leading '/') pass --only? */
static int selected(options *o, const char *path)
{
  if (o->nonly == 0)
    return 1;
  const char *base = strrchr(path, '/') + 1;
  int hit = 0;
  for (int i = 0; i < o->nonly; i++) {
    const char *want = o->only[i];
    int match = strchr(want, '/') ? strcmp(want[0] == '/' ? want + 1 : want, path + 1) == 0
                                  : strcmp(want, base) == 0;
    if (match) {
      o->only_used[i] = 1;
      hit = 1;
    }
  }
  return hit;
}

/* ---- files ------------------------------------------------------------ */

static hid_t open_file(const char *path)
{
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "op2-compare: %s: cannot open: %s\n", path, strerror(errno));
    return H5I_INVALID_HID;
  }
  if (!S_ISREG(st.st_mode)) {
    fprintf(stderr, "op2-compare: %s: not a regular file\n", path);
    return H5I_INVALID_HID;
  }
  htri_t is = H5Fis_hdf5(path);
  if (is < 0) {
    fprintf(stderr, "op2-compare: %s: cannot read (H5Fis_hdf5 failed; %s:%d, %s)\n", path,
            SRC_FILE, __LINE__, __func__);
    return H5I_INVALID_HID;
  }
  if (is == 0) {
    fprintf(stderr, "op2-compare: %s: not an HDF5 file\n", path);
    return H5I_INVALID_HID;
  }
  hid_t f = H5Fopen(path, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0)
    fprintf(stderr, "op2-compare: %s: cannot open as HDF5 (H5Fopen failed; %s:%d, %s)\n", path,
            SRC_FILE, __LINE__, __func__);
  return f;
}

/* ---- element statistics ----------------------------------------------- */

typedef struct {
  hsize_t index;       /* flat element index */
  double a, b, diff;   /* numeric kinds */
  uint64_t abits, bbits;
  double badness;      /* ranks the list: larger is worse */
  char ta[48], tb[48]; /* text kinds */
} worst_entry;

typedef struct {
  hsize_t ndiff;
  double max_abs, max_rel;  /* over element pairs where both are finite */
  worst_entry *worst;
  int nworst, cap;
} stats;

/* Keeps the cap worst entries, worst first; among equals the earliest. */
static void note_worst(stats *s, const worst_entry *e)
{
  if (s->cap == 0)
    return;
  if (s->nworst == s->cap && !(e->badness > s->worst[s->nworst - 1].badness))
    return;
  int pos = s->nworst < s->cap ? s->nworst : s->cap - 1;
  while (pos > 0 && e->badness > s->worst[pos - 1].badness) {
    s->worst[pos] = s->worst[pos - 1];
    pos--;
  }
  s->worst[pos] = *e;
  if (s->nworst < s->cap)
    s->nworst++;
}

/* Compares one pair of numbers; bits are only meaningful in bitwise mode. */
static void compare_numbers(const options *o, stats *s, hsize_t index, double a, double b,
                            uint64_t abits, uint64_t bbits)
{
  int both_finite = isfinite(a) && isfinite(b);
  double diff = fabs(a - b);
  if (both_finite) {
    double rel = b != 0 ? diff / fabs(b) : (a != 0 ? INFINITY : 0);
    if (diff > s->max_abs)
      s->max_abs = diff;
    if (rel > s->max_rel)
      s->max_rel = rel;
  }
  int differs;
  if (!o->tolerance)
    differs = abits != bbits;
  else if (isnan(a) || isnan(b))
    differs = 1;
  else if (a == b)
    differs = 0; /* also equal infinities */
  else if (!both_finite)
    differs = 1;
  else
    differs = !(diff <= o->atol + o->rtol * fabs(b));
  if (!differs)
    return;
  s->ndiff++;
  worst_entry e;
  memset(&e, 0, sizeof e);
  e.index = index;
  e.a = a;
  e.b = b;
  e.diff = a - b;
  e.abits = abits;
  e.bbits = bbits;
  e.badness = both_finite ? diff : INFINITY;
  note_worst(s, &e);
}

static void compare_texts(stats *s, hsize_t index, const char *a, size_t alen, const char *b,
                          size_t blen)
{
  if (alen == blen && (alen == 0 || memcmp(a, b, alen) == 0))
    return;
  s->ndiff++;
  worst_entry e;
  memset(&e, 0, sizeof e);
  e.index = index;
  snprintf(e.ta, sizeof e.ta, "\"%.*s\"", (int)(alen < 40 ? alen : 40), a);
  snprintf(e.tb, sizeof e.tb, "\"%.*s\"", (int)(blen < 40 ? blen : 40), b);
  e.badness = 0;
  note_worst(s, &e);
}

/* Length of a fixed-length string element, up to its first NUL. */
static size_t fixed_len(const char *p, size_t size)
{
  const char *nul = memchr(p, '\0', size);
  return nul ? (size_t)(nul - p) : size;
}

static void compare_block(const options *o, const field *f, stats *s, hsize_t first,
                          hsize_t n, const unsigned char *a, const unsigned char *b)
{
  size_t m = f->msize;
  for (hsize_t k = 0; k < n; k++) {
    const unsigned char *pa = a + k * m, *pb = b + k * m;
    hsize_t index = first + k;
    switch (f->kind) {
    case FIELD_REAL:
      if (m == sizeof(float)) {
        float x, y;
        uint32_t bx, by;
        memcpy(&x, pa, sizeof x);
        memcpy(&y, pb, sizeof y);
        memcpy(&bx, pa, sizeof bx);
        memcpy(&by, pb, sizeof by);
        compare_numbers(o, s, index, x, y, bx, by);
      } else {
        double x, y;
        uint64_t bx, by;
        memcpy(&x, pa, sizeof x);
        memcpy(&y, pb, sizeof y);
        memcpy(&bx, pa, sizeof bx);
        memcpy(&by, pb, sizeof by);
        compare_numbers(o, s, index, x, y, bx, by);
      }
      break;
    case FIELD_INT: {
      long long x, y;
      memcpy(&x, pa, sizeof x);
      memcpy(&y, pb, sizeof y);
      if (x == y && !o->tolerance)
        break;
      compare_numbers(o, s, index, (double)x, (double)y, (uint64_t)x, (uint64_t)y);
      break;
    }
    case FIELD_UINT: {
      unsigned long long x, y;
      memcpy(&x, pa, sizeof x);
      memcpy(&y, pb, sizeof y);
      if (x == y && !o->tolerance)
        break;
      compare_numbers(o, s, index, (double)x, (double)y, x, y);
      break;
    }
    case FIELD_STRING:
      compare_texts(s, index, (const char *)pa, fixed_len((const char *)pa, m),
                    (const char *)pb, fixed_len((const char *)pb, m));
      break;
    case FIELD_VSTRING: {
      const char *x, *y;
      memcpy(&x, pa, sizeof x);
      memcpy(&y, pb, sizeof y);
      if (x == NULL)
        x = "";
      if (y == NULL)
        y = "";
      compare_texts(s, index, x, strlen(x), y, strlen(y));
      break;
    }
    case FIELD_BYTES:
      if (memcmp(pa, pb, m) != 0) {
        s->ndiff++;
        worst_entry e;
        memset(&e, 0, sizeof e);
        e.index = index;
        snprintf(e.ta, sizeof e.ta, "(%zu bytes)", m);
        snprintf(e.tb, sizeof e.tb, "(differ)");
        note_worst(s, &e);
      }
      break;
    case FIELD_UNSUPPORTED:
      break;
    }
  }
}

/* ---- one dataset ------------------------------------------------------ */

typedef enum { DS_EQUAL, DS_DIFFERENT, DS_ERROR } ds_result;

static void print_worst(const options *o, const field *f, const stats *s)
{
  int numeric = f->kind == FIELD_REAL || f->kind == FIELD_INT || f->kind == FIELD_UINT;
  if (numeric)
    printf("    %-12s %-6s %-25s %-25s %s\n", "row", "comp", "a", "b", "a-b");
  else
    printf("    %-12s %-6s %-25s %s\n", "row", "comp", "a", "b");
  for (int i = 0; i < s->nworst; i++) {
    const worst_entry *e = &s->worst[i];
    unsigned long long row = (unsigned long long)(e->index / f->row_elems);
    unsigned long long comp = (unsigned long long)(e->index % f->row_elems);
    if (!numeric) {
      printf("    %-12llu %-6llu %-25s %s\n", row, comp, e->ta, e->tb);
      continue;
    }
    printf("    %-12llu %-6llu %-25.17g %-25.17g %.17g", row, comp, e->a, e->b, e->diff);
    /* Values that print alike (-0 and 0, NaNs) differ in their bits. */
    if (f->kind == FIELD_REAL && !o->tolerance && (e->a == e->b || (isnan(e->a) && isnan(e->b)))) {
      int w = f->msize == 4 ? 8 : 16;
      printf("  (bits 0x%0*llx vs 0x%0*llx)", w, (unsigned long long)e->abits, w,
             (unsigned long long)e->bbits);
    }
    putchar('\n');
  }
}

static ds_result compare_dataset(const options *o, hid_t fa, hid_t fb, const char *name)
{
  field a, b;
  char shape_a[160], shape_b[160];
  if (field_open(fa, o->file_a, name, &a) != 0)
    return DS_ERROR;
  if (field_open(fb, o->file_b, name, &b) != 0) {
    field_close(&a);
    return DS_ERROR;
  }
  field_shape_text(&a, shape_a, sizeof shape_a);
  field_shape_text(&b, shape_b, sizeof shape_b);
  ds_result r = DS_EQUAL;
  unsigned char *ba = NULL, *bb = NULL;
  stats s;
  memset(&s, 0, sizeof s);

  if (a.kind == FIELD_UNSUPPORTED || b.kind == FIELD_UNSUPPORTED) {
    fprintf(stderr, "op2-compare: %s: %s: cannot compare elements of type %s\n",
            a.kind == FIELD_UNSUPPORTED ? o->file_a : o->file_b, name,
            a.kind == FIELD_UNSUPPORTED ? a.type_name : b.type_name);
    r = DS_ERROR;
    goto done;
  }
  if (a.kind != b.kind || strcmp(a.type_name, b.type_name) != 0 ||
      (a.kind == FIELD_BYTES && H5Tequal(a.ftype, b.ftype) <= 0)) {
    if (!o->quiet)
      printf("%s: type mismatch: %s %s in A, %s %s in B\n", name, a.type_name, shape_a,
             b.type_name, shape_b);
    r = DS_DIFFERENT;
    goto done;
  }
  int same_shape = a.rank == b.rank && a.nelem == b.nelem;
  for (int i = 0; same_shape && i < a.rank; i++)
    same_shape = a.dims[i] == b.dims[i];
  if (!same_shape) {
    if (!o->quiet)
      printf("%s: shape mismatch: %s in A, %s in B (%s)\n", name, shape_a, shape_b, a.type_name);
    r = DS_DIFFERENT;
    goto done;
  }

  hsize_t rows_per_block = o->block_elems / (a.row_elems ? a.row_elems : 1);
  if (rows_per_block == 0)
    rows_per_block = 1;
  if (a.rank == 0)
    rows_per_block = a.rows; /* read whole */
  hsize_t block_elems = rows_per_block * a.row_elems;
  s.cap = o->worst;
  if (s.cap > 0 && (s.worst = malloc((size_t)s.cap * sizeof *s.worst)) == NULL) {
    fprintf(stderr, "op2-compare: %s: out of memory (%s:%d, %s)\n", name, SRC_FILE, __LINE__,
            __func__);
    r = DS_ERROR;
    goto done;
  }
  if (a.nelem > 0) {
    ba = calloc((size_t)block_elems, a.msize);
    bb = calloc((size_t)block_elems, b.msize);
    if (ba == NULL || bb == NULL) {
      fprintf(stderr, "op2-compare: %s: out of memory for %llu elements (%s:%d, %s)\n", name,
              (unsigned long long)block_elems, SRC_FILE, __LINE__, __func__);
      r = DS_ERROR;
      goto done;
    }
  }
  for (hsize_t row = 0; row < a.rows && a.nelem > 0; row += rows_per_block) {
    hsize_t nrows = a.rows - row < rows_per_block ? a.rows - row : rows_per_block;
    hsize_t n = nrows * a.row_elems;
    if (a.kind == FIELD_BYTES) { /* padding must compare equal */
      memset(ba, 0, (size_t)n * a.msize);
      memset(bb, 0, (size_t)n * b.msize);
    }
    if (field_read_rows(&a, row, nrows, ba) != 0) {
      r = DS_ERROR;
      goto done;
    }
    if (field_read_rows(&b, row, nrows, bb) != 0) {
      field_reclaim(&a, n, ba);
      r = DS_ERROR;
      goto done;
    }
    compare_block(o, &a, &s, row * a.row_elems, n, ba, bb);
    field_reclaim(&a, n, ba);
    field_reclaim(&b, n, bb);
  }
  r = s.ndiff > 0 ? DS_DIFFERENT : DS_EQUAL;
  if (!o->quiet) {
    int numeric = a.kind == FIELD_REAL || a.kind == FIELD_INT || a.kind == FIELD_UINT;
    printf("%s %s %s: ", name, shape_a, a.type_name);
    if (s.ndiff == 0 && !o->tolerance)
      printf("identical");
    else if (s.ndiff == 0)
      printf("equal within tolerance");
    else
      printf("%llu of %llu elements differ", (unsigned long long)s.ndiff,
             (unsigned long long)a.nelem);
    if (numeric && (s.ndiff > 0 || o->tolerance))
      printf(", max abs diff %.17g, max rel diff %.17g", s.max_abs, s.max_rel);
    putchar('\n');
    if (s.nworst > 0)
      print_worst(o, &a, &s);
  }
done:
  free(ba);
  free(bb);
  free(s.worst);
  field_close(&a);
  field_close(&b);
  return r;
}

/* ---- main ------------------------------------------------------------- */

int main(int argc, char **argv)
{
  if (op_asks_version(argc, argv)) {
    op_print_version("op2-compare");
    return 0;
  }
  options o;
  memset(&o, 0, sizeof o);
  o.worst = 5;
  o.block_elems = DEFAULT_BLOCK_ELEMS;
  int rc = parse_options(argc, argv, &o);
  if (rc != 0) {
    free_options(&o);
    return rc > 0 ? EXIT_EQUAL : EXIT_TROUBLE;
  }

  /* Our own messages name the file and dataset; HDF5's stack would only
   * repeat them, less clearly. */
  if (H5Eset_auto2(H5E_DEFAULT, NULL, NULL) < 0)
    fprintf(stderr, "op2-compare: cannot silence HDF5's error printing (%s:%d, %s)\n", SRC_FILE,
            __LINE__, __func__);

  int status = EXIT_EQUAL;
  int ndatasets = 0, ndiffer = 0, nonly_a = 0, nonly_b = 0, nerrors = 0, listed = 0;
  dataset_list la = {NULL, 0}, lb = {NULL, 0};
  hid_t fa = open_file(o.file_a);
  hid_t fb = open_file(o.file_b);
  if (fa < 0 || fb < 0 || list_datasets(fa, o.file_a, &la) != 0 ||
      list_datasets(fb, o.file_b, &lb) != 0) {
    status = EXIT_TROUBLE;
    goto done;
  }
  listed = 1;
  if (!o.quiet) {
    printf("A: %s\nB: %s (reference)\n", o.file_a, o.file_b);
    if (o.tolerance)
      printf("mode: |a-b| <= %.17g + %.17g*|b|, any NaN differs\n", o.atol, o.rtol);
    else
      printf("mode: bitwise\n");
  }
  /* Walk the two sorted lists together. */
  for (int i = 0, j = 0; i < la.n || j < lb.n;) {
    int c = i >= la.n ? 1 : j >= lb.n ? -1 : strcmp(la.names[i], lb.names[j]);
    const char *name = c <= 0 ? la.names[i] : lb.names[j];
    if (selected(&o, name)) {
      ndatasets++;
      if (c != 0) {
        if (!o.quiet)
          printf("%s: only in %s (%s)\n", name, c < 0 ? "A" : "B", c < 0 ? o.file_a : o.file_b);
        if (c < 0)
          nonly_a++;
        else
          nonly_b++;
      } else {
        ds_result r = compare_dataset(&o, fa, fb, name);
        if (r == DS_DIFFERENT)
          ndiffer++;
        else if (r == DS_ERROR)
          nerrors++;
      }
    }
    if (c <= 0)
      i++;
    if (c >= 0)
      j++;
  }
  for (int k = 0; k < o.nonly; k++)
    if (!o.only_used[k]) {
      fprintf(stderr, "op2-compare: --only %s: no such dataset in %s or %s\n", o.only[k],
              o.file_a, o.file_b);
      nerrors++;
    }

  if (nerrors > 0)
    status = EXIT_TROUBLE;
  else if (ndiffer > 0 || nonly_a > 0 || nonly_b > 0)
    status = EXIT_DIFFERENT;
  if (status == EXIT_TROUBLE)
    printf("op2-compare: ERROR: %d dataset(s) or name(s) could not be compared (%s vs %s)\n",
           nerrors, o.file_a, o.file_b);
  else if (status == EXIT_DIFFERENT)
    printf("op2-compare: DIFFERENT: %d of %d dataset(s) differ, %d only in A, %d only in B "
           "(%s vs %s)\n",
           ndiffer, ndatasets, nonly_a, nonly_b, o.file_a, o.file_b);
  else
    printf("op2-compare: EQUAL: %d dataset(s) %s (%s vs %s)\n", ndatasets,
           o.tolerance ? "equal within tolerance" : "bitwise identical", o.file_a, o.file_b);

done:
  if (!listed)
    printf("op2-compare: ERROR: cannot compare %s and %s\n", o.file_a, o.file_b);
  free_dataset_list(&la);
  free_dataset_list(&lb);
  if (fa >= 0 && H5Fclose(fa) < 0)
    fprintf(stderr, "op2-compare: %s: H5Fclose failed\n", o.file_a);
  if (fb >= 0 && H5Fclose(fb) < 0)
    fprintf(stderr, "op2-compare: %s: H5Fclose failed\n", o.file_b);
  free_options(&o);
  return status;
}
