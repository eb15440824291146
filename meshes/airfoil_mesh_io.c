/* The ASCII mesh file (OP2's new_grid.dat): a validating reader (the writers are in
 * airfoil_mesh_write.c).
 *
 * The reader loads the whole file and parses it line by line with a hand-written number
 * parser: the standard mesh has about ten million numbers, too many for fscanf. Decimal
 * numbers with at most 19 significant digits and a decimal exponent within +-22 (all of %f's
 * output for the mesh) take an exact fast path: the integer mantissa and the power of ten are
 * both exact doubles, so one IEEE multiplication or division gives the correctly rounded
 * value, the same one strtod gives. Anything else goes to strtod. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* fileno, fstat */
#endif
#include "airfoil_mesh.h"
#include "op2_slice.h"
#include "op_text.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

__attribute__((format(printf, 3, 4))) static void set_err(char *err, size_t errlen,
                                                          const char *fmt, ...)
{
    if (!err || errlen == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
}

/* ---------------------------------------------------------------------------------------- */
/* Reading                                                                                  */

void airfoil_mesh_free(airfoil_mesh *m)
{
    if (!m)
        return;
    free(m->x);
    free(m->cell);
    free(m->edge);
    free(m->ecell);
    free(m->bedge);
    free(m->becell);
    free(m->bound);
    memset(m, 0, sizeof *m);
}

enum { MAX_FIELDS = 4 };

/* The longest line (MESH_MAX_LINE, below) a streaming read must hold, and its buffer. */
#define MESH_STREAM_LINE 4096
#define MESH_STREAM_BUFFER (1u << 20)

typedef struct {
    const char *s;
    size_t n;
} field;

typedef struct {
    const char *path;
    const char *p, *end; /* unread part of the file */
    long line;           /* number of the last line handed out (1-based) */
    char *err;
    size_t errlen;
    /* Streaming (airfoil_mesh_read_ascii_slice): the file is read into buf a piece at a
     * time, with load_file's checks; NULL when the whole file is in memory. */
    FILE *stream;
    char *buf;
    size_t cap;
    unsigned long long read, limit; /* bytes read so far; the header's promise (0: unknown) */
    int failed;                     /* a streaming error is in err */
} parser;

static unsigned long long max_file_bytes(const char *head, size_t n);
static void set_err(char *err, size_t errlen, const char *fmt, ...);

/* Streaming: makes sure a whole line (or the end of the file) is in [p, end). */
static int refill(parser *ps)
{
    for (;;) {
        if (memchr(ps->p, '\n', (size_t)(ps->end - ps->p)) || feof(ps->stream))
            return 0;
        size_t keep = (size_t)(ps->end - ps->p);
        if (keep > MESH_STREAM_LINE) {
            set_err(ps->err, ps->errlen, "%s:%ld: line longer than 4096 bytes (is this a mesh file?)",
                    ps->path, ps->line + 1);
            return -1;
        }
        memmove(ps->buf, ps->p, keep);
        size_t got = fread(ps->buf + keep, 1, ps->cap - 1 - keep, ps->stream);
        const char *why = NULL;
        if (ferror(ps->stream))
            why = "error reading the file";
        else if (memchr(ps->buf + keep, '\0', got))
            why = "the file holds a NUL byte (binary data: is this a mesh file?)";
        ps->read += got;
        if (!why && ps->read == got && got > 0) {
            const char *nl = memchr(ps->buf, '\n', got);
            ps->limit = max_file_bytes(ps->buf, nl ? (size_t)(nl - ps->buf) : got);
        }
        if (!why && ps->limit && ps->read > ps->limit)
            why = "more bytes than the header's records can take (a line per record)";
        if (why) {
            set_err(ps->err, ps->errlen, "%s:%ld: %s", ps->path, ps->line + 1, why);
            return -1;
        }
        ps->p = ps->buf;
        ps->end = ps->buf + keep + got;
        if (got == 0)
            return 0;
    }
}

static int is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Hands out the next line; 0 at the end of the file (or on a streaming error: ps->failed). */
static int next_line(parser *ps, const char **ls, const char **le)
{
    if (ps->stream && !ps->failed && refill(ps) != 0)
        ps->failed = 1;
    if (ps->failed || ps->p >= ps->end)
        return 0;
    const char *nl = memchr(ps->p, '\n', (size_t)(ps->end - ps->p));
    *ls = ps->p;
    *le = nl ? nl : ps->end;
    ps->p = nl ? nl + 1 : ps->end;
    ps->line++;
    return 1;
}

/* Splits [ls, le) at blanks; stores up to max fields and returns how many there are. */
static int split_fields(const char *ls, const char *le, field *f, int max)
{
    int k = 0;
    const char *p = ls;
    for (;;) {
        while (p < le && is_blank(*p))
            p++;
        if (p >= le)
            return k;
        const char *q = p;
        while (q < le && !is_blank(*q))
            q++;
        if (k < max) {
            f[k].s = p;
            f[k].n = (size_t)(q - p);
        }
        k++;
        p = q;
    }
}

/* 0 and the value (saturated beyond +-10^13, still out of any valid range); -1 not an
 * integer. */
static int parse_int(const char *s, size_t n, long long *out)
{
    const char *p = s, *e = s + n;
    int neg = 0;
    if (p < e && (*p == '+' || *p == '-'))
        neg = *p++ == '-';
    if (p >= e)
        return -1;
    long long v = 0;
    for (; p < e; p++) {
        if (!is_digit(*p))
            return -1;
        if (v < 10000000000000LL)
            v = v * 10 + (*p - '0');
    }
    *out = neg ? -v : v;
    return 0;
}

static const double POW10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                 1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Decimal [+-]digits[.digits][(e|E)[+-]digits]; 0 and the value; -1 not a number;
 * -2 not finite as a double; -3 out of memory. */
static int parse_double(const char *s, size_t n, double *out)
{
    const char *p = s, *e = s + n;
    int neg = 0;
    if (p < e && (*p == '+' || *p == '-'))
        neg = *p++ == '-';
    uint64_t mant = 0;
    int ndig = 0, dropped = 0, any = 0;
    long scale = 0;
    for (; p < e && is_digit(*p); p++) {
        any = 1;
        if (mant == 0 && *p == '0')
            continue;
        if (ndig < 19) {
            mant = mant * 10 + (uint64_t)(*p - '0');
            ndig++;
        } else {
            scale++;
            dropped = 1;
        }
    }
    if (p < e && *p == '.') {
        for (p++; p < e && is_digit(*p); p++) {
            any = 1;
            if (mant == 0 && *p == '0') {
                scale--;
                continue;
            }
            if (ndig < 19) {
                mant = mant * 10 + (uint64_t)(*p - '0');
                ndig++;
                scale--;
            } else {
                dropped = 1;
            }
        }
    }
    if (!any)
        return -1;
    if (p < e && (*p == 'e' || *p == 'E')) {
        p++;
        int eneg = 0;
        if (p < e && (*p == '+' || *p == '-'))
            eneg = *p++ == '-';
        if (p >= e || !is_digit(*p))
            return -1;
        long ex = 0;
        for (; p < e && is_digit(*p); p++)
            if (ex < 100000)
                ex = ex * 10 + (*p - '0');
        scale += eneg ? -ex : ex;
    }
    if (p != e)
        return -1;

    double v;
    if (!dropped && mant <= (UINT64_C(1) << 53) && scale >= -22 && scale <= 22) {
        v = (double)mant;
        v = scale < 0 ? v / POW10[-scale] : v * POW10[scale];
        if (neg)
            v = -v;
    } else {
        char small[512];
        char *buf = n < sizeof small ? small : malloc(n + 1);
        if (!buf)
            return -3;
        memcpy(buf, s, n);
        buf[n] = '\0';
        char *end;
        v = strtod(buf, &end);
        int whole = end == buf + n;
        if (buf != small)
            free(buf);
        if (!whole)
            return -1;
    }
    if (!isfinite(v))
        return -2;
    *out = v;
    return 0;
}

/* Reads the next line as a record of nf fields; what, index and count name it for messages
 * (count 0: a single record, "the header"). */
static int get_record(parser *ps, field *f, int nf, const char *what, long index, long count,
                      const char *layout)
{
    const char *ls, *le;
    int eof = !next_line(ps, &ls, &le);
    if (ps->failed)
        return -1;
    int k = eof ? 0 : split_fields(ls, le, f, nf);
    if (!eof && k == nf)
        return 0;
    char name[64];
    if (count > 0)
        snprintf(name, sizeof name, "%s %ld of %ld", what, index, count);
    else
        snprintf(name, sizeof name, "the %s", what);
    if (eof)
        set_err(ps->err, ps->errlen,
                "%s:%ld: unexpected end of file: expected %s '%s' (file truncated?)", ps->path,
                ps->line + 1, name, layout);
    else
        set_err(ps->err, ps->errlen, "%s:%ld: expected %d numbers '%s' for %s, found %d",
                ps->path, ps->line, nf, layout, name, k);
    return -1;
}

static void bad_field(parser *ps, const field *f, int q, const char *kind, const char *what,
                      long index, const char *layout)
{
    set_err(ps->err, ps->errlen, "%s:%ld: field %d '%.*s' of %s %ld '%s' is not %s", ps->path,
            ps->line, q + 1, f[q].n > 40 ? 40 : (int)f[q].n, f[q].s, what, index, layout, kind);
}

/* Parses nf integer fields of a record, each in [0, limit[q]) (limit 0: in {1, 2}, a flag). */
static int get_ints(parser *ps, int nf, const long *limit, const char *const *role, int *dst,
                    const char *what, long index, long count, const char *layout)
{
    field f[MAX_FIELDS];
    if (get_record(ps, f, nf, what, index, count, layout) != 0)
        return -1;
    for (int q = 0; q < nf; q++) {
        long long v;
        if (parse_int(f[q].s, f[q].n, &v) == -1) {
            bad_field(ps, f, q, "an integer", what, index, layout);
            return -1;
        }
        if (limit[q] == 0) {
            if (v != AIRFOIL_MESH_WALL && v != AIRFOIL_MESH_FARFIELD) {
                set_err(ps->err, ps->errlen,
                        "%s:%ld: boundary flag '%.*s' of %s %ld is not 1 (wall) or 2 (far field)",
                        ps->path, ps->line, f[q].n > 40 ? 40 : (int)f[q].n, f[q].s, what, index);
                return -1;
            }
        } else if (v < 0 || v >= limit[q]) {
            set_err(ps->err, ps->errlen,
                    "%s:%ld: %s index '%.*s' (field %d of %s %ld '%s') is out of range [0, %ld)",
                    ps->path, ps->line, role[q], f[q].n > 40 ? 40 : (int)f[q].n, f[q].s, q + 1,
                    what, index, layout, limit[q]);
            return -1;
        }
        dst[q] = (int)v;
    }
    return 0;
}

/* A record line is a few numbers: no line of a mesh file is longer than this. Blank lines
 * after the last record are allowed up to MESH_MAX_TRAILING bytes. */
#define MESH_MAX_LINE 4096
#define MESH_MAX_TRAILING (1u << 20)

/* The most bytes a file with this header may hold: one line per record. A header that does
 * not parse allows one buffer: the parser then says what is wrong with it. */
static unsigned long long max_file_bytes(const char *head, size_t n)
{
    char line[256];
    size_t k = n < sizeof line - 1 ? n : sizeof line - 1;
    memcpy(line, head, k);
    line[k] = '\0';
    long long c[4];
    if (sscanf(line, "%lld %lld %lld %lld", &c[0], &c[1], &c[2], &c[3]) != 4)
        return 1u << 16;
    unsigned long long lines = 1;
    for (int q = 0; q < 4; q++) {
        if (c[q] < 0 || c[q] > INT_MAX)
            return 1u << 16;
        lines += (unsigned long long)c[q];
    }
    return lines * MESH_MAX_LINE + MESH_MAX_TRAILING;
}

/* Loads a whole file, NUL-terminated, refusing on the way what is not a mesh file: anything
 * but a regular file (a directory, a named pipe, /dev/zero: op_text_fopen_regular), a NUL byte,
 * a line longer than MESH_MAX_LINE, more bytes than the header's records can take. The buffer
 * starts at the file's size and grows if the file grows while it is read. */
static char *load_file(const char *path, const char *shown, size_t *size, char *err,
                       size_t errlen)
{
    FILE *f = op_text_fopen_regular(path, "mesh file", err, errlen);
    if (!f)
        return NULL;
    size_t cap = 1 << 16, len = 0;
    struct stat st;
    int regular = fstat(fileno(f), &st) == 0; /* op_text_fopen_regular opens nothing else */
    if (regular && (uintmax_t)st.st_size < SIZE_MAX / 2)
        cap = (size_t)st.st_size + 2;
    if (cap < (1 << 16))
        cap = 1 << 16;
    unsigned long long limit = 0; /* known once the header line is in */
    size_t line_start = 0;        /* offset of the current line's start */
    long line = 1;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) {
            set_err(err, errlen, "%s:%d: out of memory reading '%s' (%zu bytes)", __FILE__,
                    __LINE__, shown, cap);
            fclose(f);
            return NULL;
        }
        size_t want = cap - 1 - len;
        if (limit && len + want > limit + 1)
            want = limit + 1 - len; /* one byte past the limit tells */
        size_t got = fread(buf + len, 1, want, f);
        /* The new bytes: no NUL, no overlong line. */
        const char *why = NULL;
        if (memchr(buf + len, '\0', got))
            why = "the file holds a NUL byte (binary data: is this a mesh file?)";
        for (size_t k = len; !why && k < len + got; k++) {
            if (buf[k] == '\n') {
                if (!limit && line == 1)
                    limit = max_file_bytes(buf, k);
                line_start = k + 1;
                line++;
            } else if (k - line_start >= MESH_MAX_LINE) {
                why = "line longer than 4096 bytes (is this a mesh file?)";
            }
        }
        len += got;
        if (!why && limit && len > limit)
            why = "more bytes than the header's records can take (a line per record)";
        if (why) {
            set_err(err, errlen, "%s:%ld: %s", shown, line, why);
            free(buf);
            fclose(f);
            return NULL;
        }
        if (got < want || (limit && len == limit + 1))
            break;
        if (len < cap - 1)
            continue;
        char *bigger = cap > SIZE_MAX / 2 ? NULL : realloc(buf, cap * 2);
        if (!bigger)
            free(buf);
        buf = bigger;
        cap *= 2;
    }
    if (ferror(f)) {
        set_err(err, errlen, "error reading '%s': %s", shown, strerror(errno ? errno : EIO));
        free(buf);
        fclose(f);
        return NULL;
    }
    fclose(f); /* opened for reading: nothing is lost if this fails */
    buf[len] = '\0';
    *size = len;
    return buf;
}

/* Keeps records [first[q], first[q] + count[q]) of section q (nodes, cells, edges, boundary
 * edges) in m, or all of them when first is NULL; every record is checked either way. The
 * file's counts go to total (may be NULL). */
static int parse_mesh(parser *ps, size_t size, airfoil_mesh *m, const long *first,
                      const long *count, long *total)
{
    static const char *const hdr_layout = "nnode ncell nedge nbedge";
    field f[MAX_FIELDS];
    if (get_record(ps, f, 4, "header", 0, 0, hdr_layout) != 0)
        return -1;
    long counts[4];
    static const char *const names[4] = {"nnode", "ncell", "nedge", "nbedge"};
    for (int q = 0; q < 4; q++) {
        long long v;
        int rc = parse_int(f[q].s, f[q].n, &v);
        if (rc != 0 || v <= 0 || v > INT_MAX / 4) {
            set_err(ps->err, ps->errlen,
                    "%s:%ld: bad header '%s': %s '%.*s' is not an integer in [1, %d]", ps->path,
                    ps->line, hdr_layout, names[q], f[q].n > 40 ? 40 : (int)f[q].n, f[q].s,
                    INT_MAX / 4);
            return -1;
        }
        counts[q] = (long)v;
    }
    /* Each number takes at least two bytes (a digit and a separator): a header promising more
     * than the file can hold is rejected before anything is allocated. */
    double need = 2.0 * (2.0 * counts[0] + 4.0 * counts[1] + 4.0 * counts[2] + 4.0 * counts[3]);
    if (need > (double)size) {
        set_err(ps->err, ps->errlen,
                "%s:1: bad header: %ld nodes, %ld cells, %ld edges and %ld boundary edges need "
                "at least %.0f bytes, but the file has %zu (truncated, or a wrong header)",
                ps->path, counts[0], counts[1], counts[2], counts[3], need, size);
        return -1;
    }
    long lo[4] = {0, 0, 0, 0}, hi[4];
    for (int q = 0; q < 4; q++) {
        if (total)
            total[q] = counts[q];
        if (first) {
            if (first[q] < 0 || count[q] < 0 || first[q] + count[q] > counts[q]) {
                set_err(ps->err, ps->errlen, "%s: slice [%ld, %ld) of %s outside its %ld records",
                        ps->path, first[q], first[q] + count[q], names[q], counts[q]);
                return -1;
            }
            lo[q] = first[q];
        }
        hi[q] = first ? first[q] + count[q] : counts[q];
    }
    m->nnode = (int)(hi[0] - lo[0]);
    m->ncell = (int)(hi[1] - lo[1]);
    m->nedge = (int)(hi[2] - lo[2]);
    m->nbedge = (int)(hi[3] - lo[3]);
    m->x = malloc(2 * sizeof(double) * (size_t)(m->nnode + 1));
    m->cell = malloc(4 * sizeof(int) * (size_t)(m->ncell + 1));
    m->edge = malloc(2 * sizeof(int) * (size_t)(m->nedge + 1));
    m->ecell = malloc(2 * sizeof(int) * (size_t)(m->nedge + 1));
    m->bedge = malloc(2 * sizeof(int) * (size_t)(m->nbedge + 1));
    m->becell = malloc(sizeof(int) * (size_t)(m->nbedge + 1));
    m->bound = malloc(sizeof(int) * (size_t)(m->nbedge + 1));
    if (!m->x || !m->cell || !m->edge || !m->ecell || !m->bedge || !m->becell || !m->bound) {
        set_err(ps->err, ps->errlen, "%s:%d: out of memory for the mesh of '%s'", __FILE__,
                __LINE__, ps->path);
        return -1;
    }

    const long nn = counts[0], nc = counts[1];
    for (long k = 0; k < nn; k++) {
        if (get_record(ps, f, 2, "node", k, nn, "x y") != 0)
            return -1;
        const int keep = k >= lo[0] && k < hi[0];
        for (int q = 0; q < 2; q++) {
            double v;
            int rc = parse_double(f[q].s, f[q].n, &v);
            if (rc == 0 && keep)
                m->x[2 * (k - lo[0]) + q] = v;
            if (rc != 0) {
                bad_field(ps, f, q,
                          rc == -1   ? "a decimal number"
                          : rc == -2 ? "a finite double"
                                     : "readable (out of memory)",
                          "node", k, "x y");
                return -1;
            }
        }
    }

    static const char *const node4[4] = {"node", "node", "node", "node"};
    static const char *const edge_roles[4] = {"node", "node", "cell", "cell"};
    static const char *const bedge_roles[4] = {"node", "node", "cell", "flag"};
    const long cell_lim[4] = {nn, nn, nn, nn};
    const long edge_lim[4] = {nn, nn, nc, nc};
    const long bedge_lim[4] = {nn, nn, nc, 0};
    for (long k = 0; k < nc; k++) {
        int v[4];
        if (get_ints(ps, 4, cell_lim, node4, v, "cell", k, nc, "n1 n2 n3 n4") != 0)
            return -1;
        if (k >= lo[1] && k < hi[1])
            memcpy(&m->cell[4 * (k - lo[1])], v, 4 * sizeof(int));
    }
    for (long k = 0; k < counts[2]; k++) {
        int v[4];
        if (get_ints(ps, 4, edge_lim, edge_roles, v, "edge", k, counts[2], "n1 n2 c1 c2") != 0)
            return -1;
        if (v[0] == v[1] || v[2] == v[3]) {
            set_err(ps->err, ps->errlen, "%s:%ld: edge %ld joins %s %d to itself", ps->path,
                    ps->line, k, v[0] == v[1] ? "node" : "cell", v[0] == v[1] ? v[0] : v[2]);
            return -1;
        }
        if (k < lo[2] || k >= hi[2])
            continue;
        memcpy(&m->edge[2 * (k - lo[2])], v, 2 * sizeof(int));
        memcpy(&m->ecell[2 * (k - lo[2])], v + 2, 2 * sizeof(int));
    }
    for (long k = 0; k < counts[3]; k++) {
        int v[4];
        if (get_ints(ps, 4, bedge_lim, bedge_roles, v, "boundary edge", k, counts[3],
                     "n1 n2 cell flag") != 0)
            return -1;
        if (v[0] == v[1]) {
            set_err(ps->err, ps->errlen, "%s:%ld: boundary edge %ld joins node %d to itself",
                    ps->path, ps->line, k, v[0]);
            return -1;
        }
        if (k < lo[3] || k >= hi[3])
            continue;
        memcpy(&m->bedge[2 * (k - lo[3])], v, 2 * sizeof(int));
        m->becell[k - lo[3]] = v[2];
        m->bound[k - lo[3]] = v[3];
    }

    const char *ls, *le;
    while (next_line(ps, &ls, &le) || ps->failed) {
        if (ps->failed)
            return -1;
        if (split_fields(ls, le, f, MAX_FIELDS) != 0) {
            set_err(ps->err, ps->errlen,
                    "%s:%ld: unexpected data after the last boundary edge: '%.*s'", ps->path,
                    ps->line, le - ls > 40 ? 40 : (int)(le - ls), ls);
            return -1;
        }
    }
    return 0;
}

int airfoil_mesh_read_ascii(const char *path, airfoil_mesh *m, char *err, size_t errlen)
{
    if (airfoil_mesh_parse_ascii(path, m, err, errlen) != 0)
        return -1;
    if (airfoil_mesh_check(m, path, err, errlen) != 0) {
        airfoil_mesh_free(m);
        return -1;
    }
    return 0;
}

int airfoil_mesh_parse_ascii(const char *path, airfoil_mesh *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    size_t size;
    char shown[OP_TEXT_SHOWN];
    op_text_shown(shown, sizeof shown, path);
    char *buf = load_file(path, shown, &size, err, errlen);
    if (!buf)
        return -1;
    parser ps = {shown, buf, buf + size, 0, err, errlen, NULL, NULL, 0, 0, 0, 0};
    int rc = parse_mesh(&ps, size, m, NULL, NULL, NULL);
    free(buf);
    if (rc != 0)
        airfoil_mesh_free(m);
    return rc;
}

/* Streams the file twice: every record checked and its counts found (hence the slices), then
 * again keeping the slice's records. Only a buffer of the file is ever in memory. */
int airfoil_mesh_read_ascii_slice(const char *path, int nparts, int part, airfoil_mesh_slice *s,
                                  char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    char shown[OP_TEXT_SHOWN];
    op_text_shown(shown, sizeof shown, path);
    if (nparts < 1 || part < 0 || part >= nparts) {
        set_err(err, errlen, "%s: part %d of %d processes", shown, part, nparts);
        return -1;
    }
    long first[4], count[4], total[4];
    int rc = -1;
    for (int pass = 0; pass < 2; pass++) {
        FILE *f = op_text_fopen_regular(path, "mesh file", err, errlen);
        struct stat st;
        if (f && fstat(fileno(f), &st) != 0) {
            set_err(err, errlen, "%s: cannot read the mesh file: %s", shown, strerror(errno));
            fclose(f);
            f = NULL;
        }
        if (!f) {
            airfoil_mesh_free(&s->part);
            return -1;
        }
        char *buf = malloc(MESH_STREAM_BUFFER);
        if (!buf) {
            set_err(err, errlen, "%s:%d: out of memory for the read buffer", __FILE__, __LINE__);
            fclose(f);
            return -1;
        }
        parser ps = {shown, buf, buf, 0, err, errlen, f, buf, MESH_STREAM_BUFFER, 0, 0, 0};
        size_t size = S_ISREG(st.st_mode) ? (size_t)st.st_size : SIZE_MAX;
        if (pass == 0) {
            /* Every record checked, none kept: the counts, hence the slices. */
            airfoil_mesh none;
            memset(&none, 0, sizeof none);
            const long zero[4] = {0, 0, 0, 0};
            rc = parse_mesh(&ps, size, &none, zero, zero, total);
            airfoil_mesh_free(&none);
            for (int q = 0; rc == 0 && q < 4; q++) {
                first[q] = (long)op_slice_first(total[q], nparts, part);
                count[q] = (long)op_slice_count(total[q], nparts, part);
            }
        } else {
            rc = parse_mesh(&ps, size, &s->part, first, count, total);
        }
        free(buf);
        fclose(f); /* opened for reading */
        if (rc != 0) {
            airfoil_mesh_free(&s->part);
            return -1;
        }
    }
    for (int q = 0; q < 4; q++) {
        s->first[q] = (int)first[q];
        s->total[q] = (int)total[q];
    }
    return 0;
}
