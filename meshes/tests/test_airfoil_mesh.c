/* Tests of the airfoil mesh generator, its spline and the ASCII reader and writer.
 * Usage: test_airfoil_mesh spline|small|roundtrip|malformed|inconsistent|standard [SCRATCH_DIR]
 *        test_airfoil_mesh readfile FILE I J */
#include "airfoil_mesh.h"
#include "cubic_spline.h"
#include "test_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static void die(const char *file, int line, const char *msg)
{
    fprintf(stderr, "%s:%d: %s\n", file, line, msg);
    exit(1);
}

static void generate(int ni, int nj, airfoil_mesh *m)
{
    char err[512];
    if (airfoil_mesh_generate(ni, nj, m, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
}

static const double *X(const airfoil_mesh *m, int n)
{
    return m->x + 2 * (size_t)n;
}

/* ---------------------------------------------------------------------------------------- */

static double cubic(double t)
{
    return 0.5 - 1.25 * t + 0.75 * t * t + 0.3 * t * t * t;
}

static int test_spline(void)
{
    enum { N = 12 };
    double x[N], y[N], s[N], work[3 * N];
    for (int k = 0; k < N; k++) { /* uneven spacing */
        x[k] = -1.0 + 0.2 * k + 0.03 * (k % 3);
        y[k] = cubic(x[k]);
    }
    CHECK(cubic_spline_notaknot(N, x, y, s, work) == 0, "set-up failed");
    /* Not-a-knot reproduces a cubic: the whole spline is that cubic, extrapolation included. */
    for (int k = 0; k <= 200; k++) {
        double t = -1.3 + 3.0 * k / 200;
        double v = cubic_spline_eval(N, x, y, s, t);
        CHECK(fabs(v - cubic(t)) < 1e-12, "S(%g) = %.17g, cubic %.17g", t, v, cubic(t));
    }
    /* On data that is no cubic: interpolation, C2 everywhere, and a continuous third
     * derivative at x_1 and x_{n-2} (the not-a-knot conditions). */
    for (int k = 0; k < N; k++)
        y[k] = sin(3.0 * x[k]) + 0.1 * (k % 2);
    CHECK(cubic_spline_notaknot(N, x, y, s, work) == 0, "set-up failed");
    for (int k = 0; k < N; k++)
        CHECK(fabs(cubic_spline_eval(N, x, y, s, x[k]) - y[k]) < 1e-13, "S(x_%d) != y_%d", k, k);
    const double h = 1e-3;
    double d3[N][2]; /* third derivative left and right of each interior knot, by differences */
    for (int k = 1; k < N - 1; k++) {
        for (int side = 0; side < 2; side++) {
            double c = side ? x[k] + 2 * h : x[k] - 2 * h;
            double f[4];
            for (int q = 0; q < 4; q++)
                f[q] = cubic_spline_eval(N, x, y, s, c + (q - 1.5) * h);
            d3[k][side] = (f[3] - 3 * f[2] + 3 * f[1] - f[0]) / (h * h * h);
        }
        /* the second derivative is continuous at every knot */
        const double g = 1e-5;
        double f0 = cubic_spline_eval(N, x, y, s, x[k] - 2 * g);
        double f1 = cubic_spline_eval(N, x, y, s, x[k] - g);
        double f3 = cubic_spline_eval(N, x, y, s, x[k] + g);
        double f4 = cubic_spline_eval(N, x, y, s, x[k] + 2 * g);
        double sl = (f0 - 2 * f1 + y[k]) / (g * g), sr = (y[k] - 2 * f3 + f4) / (g * g);
        CHECK(fabs(sl - sr) < 1e-2, "second derivative jumps at knot %d: %g vs %g", k, sl, sr);
    }
    CHECK(fabs(d3[1][0] - d3[1][1]) < 1e-3 * (1 + fabs(d3[1][0])), "S''' jumps at x_1: %g %g",
          d3[1][0], d3[1][1]);
    CHECK(fabs(d3[N - 2][0] - d3[N - 2][1]) < 1e-3 * (1 + fabs(d3[N - 2][0])),
          "S''' jumps at x_n-2: %g %g", d3[N - 2][0], d3[N - 2][1]);
    CHECK(fabs(d3[4][0] - d3[4][1]) > 1e-2, "S''' at an ordinary knot should jump: %g %g",
          d3[4][0], d3[4][1]);
    x[5] = x[4];
    CHECK(cubic_spline_notaknot(N, x, y, s, work) != 0, "repeated abscissa accepted");
    return check_failures;
}

/* ---------------------------------------------------------------------------------------- */
/* Structural and geometric checks of a generated mesh. */

/* Coordinate d of the mean of cell c's corners. */
static double centre(const airfoil_mesh *m, int c, int d)
{
    const int *n = m->cell + 4 * (size_t)c;
    return 0.25 * (X(m, n[0])[d] + X(m, n[1])[d] + X(m, n[2])[d] + X(m, n[3])[d]);
}

static void check_mesh(const airfoil_mesh *m, int ni, int nj, double tol)
{
    const int ni3 = 3 * ni;
    CHECK(m->nnode == (ni3 + 1) * (nj + 1), "nnode %d", m->nnode);
    CHECK(m->ncell == ni3 * nj, "ncell %d", m->ncell);
    CHECK(m->nedge == (ni3 - 1) * nj + ni3 * (nj - 1) + ni, "nedge %d", m->nedge);
    CHECK(m->nbedge == 4 * ni + 2 * nj, "nbedge %d", m->nbedge);

    for (int k = 0; k < 4 * m->ncell; k++)
        CHECK(m->cell[k] >= 0 && m->cell[k] < m->nnode, "cell node %d", m->cell[k]);
    for (int k = 0; k < 2 * m->nedge; k++) {
        CHECK(m->edge[k] >= 0 && m->edge[k] < m->nnode, "edge node %d", m->edge[k]);
        CHECK(m->ecell[k] >= 0 && m->ecell[k] < m->ncell, "edge cell %d", m->ecell[k]);
    }
    for (int k = 0; k < m->nbedge; k++) {
        CHECK(m->bedge[2 * k] >= 0 && m->bedge[2 * k] < m->nnode, "bedge node");
        CHECK(m->bedge[2 * k + 1] >= 0 && m->bedge[2 * k + 1] < m->nnode, "bedge node");
        CHECK(m->becell[k] >= 0 && m->becell[k] < m->ncell, "bedge cell %d", m->becell[k]);
        int want = k < ni ? AIRFOIL_MESH_WALL : AIRFOIL_MESH_FARFIELD;
        CHECK(m->bound[k] == want, "bedge %d flag %d", k, m->bound[k]);
    }

    /* Every cell: a convex, counter-clockwise quadrilateral. */
    for (int c = 0; c < m->ncell; c++) {
        const int *n = m->cell + 4 * (size_t)c;
        double area = 0.0, len = 0.0;
        for (int q = 0; q < 4; q++) {
            const double *a = X(m, n[q]), *b = X(m, n[(q + 1) % 4]), *d = X(m, n[(q + 2) % 4]);
            double cross = (b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]);
            CHECK(cross > 0, "cell %d not convex counter-clockwise at corner %d", c, q);
            area += a[0] * b[1] - b[0] * a[1];
            len += hypot(b[0] - a[0], b[1] - a[1]);
        }
        CHECK(area > 0 && len > 0, "cell %d degenerate", c);
    }

    /* Each cell is bounded by exactly four edges, and the normals n = (y1-y2, x2-x1), the
     * (dy, -dx) of res_calc, point out of c1 (and the boundary edge's cell) and into c2:
     * n . (edge midpoint - cell centre) has the right sign, and the signed normals around
     * each cell (+n for c1, -n for c2) close up. */
    double *sum = calloc(2 * (size_t)m->ncell, sizeof(double));
    double *perim = calloc((size_t)m->ncell, sizeof(double));
    int *nside = calloc((size_t)m->ncell, sizeof(int));
    if (!sum || !perim || !nside)
        die(__FILE__, __LINE__, "out of memory");
    for (int e = 0; e < m->nedge; e++) {
        const double *a = X(m, m->edge[2 * e]), *b = X(m, m->edge[2 * e + 1]);
        double nx = a[1] - b[1], ny = b[0] - a[0], l = hypot(nx, ny);
        int c1 = m->ecell[2 * e], c2 = m->ecell[2 * e + 1];
        sum[2 * c1] += nx;
        sum[2 * c1 + 1] += ny;
        sum[2 * c2] -= nx;
        sum[2 * c2 + 1] -= ny;
        perim[c1] += l;
        perim[c2] += l;
        double mx = 0.5 * (a[0] + b[0]), my = 0.5 * (a[1] + b[1]);
        CHECK(nx * (mx - centre(m, c1, 0)) + ny * (my - centre(m, c1, 1)) > 0,
              "normal of edge %d does not point out of c1 = %d", e, c1);
        CHECK(nx * (mx - centre(m, c2, 0)) + ny * (my - centre(m, c2, 1)) < 0,
              "normal of edge %d does not point into c2 = %d", e, c2);
        nside[c1]++;
        nside[c2]++;
        CHECK(l > 0, "edge %d has length 0", e);
    }
    double bsum[2] = {0, 0};
    for (int e = 0; e < m->nbedge; e++) {
        const double *a = X(m, m->bedge[2 * e]), *b = X(m, m->bedge[2 * e + 1]);
        double nx = a[1] - b[1], ny = b[0] - a[0];
        int c = m->becell[e];
        sum[2 * c] += nx;
        sum[2 * c + 1] += ny;
        perim[c] += hypot(nx, ny);
        nside[c]++;
        double mx = 0.5 * (a[0] + b[0]), my = 0.5 * (a[1] + b[1]);
        CHECK(nx * (mx - centre(m, c, 0)) + ny * (my - centre(m, c, 1)) > 0,
              "normal of boundary edge %d does not point out of cell %d", e, c);
        bsum[0] += nx;
        bsum[1] += ny;
    }
    for (int c = 0; c < m->ncell; c++) {
        CHECK(nside[c] == 4, "cell %d has %d edges", c, nside[c]);
        CHECK(fabs(sum[2 * c]) <= tol * perim[c] && fabs(sum[2 * c + 1]) <= tol * perim[c],
              "normals of cell %d do not close: (%g, %g), perimeter %g", c, sum[2 * c],
              sum[2 * c + 1], perim[c]);
    }
    CHECK(fabs(bsum[0]) < 1e-9 && fabs(bsum[1]) < 1e-9, "boundary normals sum to (%g, %g)",
          bsum[0], bsum[1]);

    /* Topology: c1 runs along an interior edge n2 -> n1 and c2 n1 -> n2 (counter-clockwise),
     * a boundary edge's cell n2 -> n1. The wake cut's c1 runs along the coincident nodes
     * (3I-i, 0) -> (3I-i-1, 0) instead. */
    for (int e = 0; e < m->nedge + m->nbedge; e++) {
        int interior = e < m->nedge, k = interior ? e : e - m->nedge;
        const int *en = interior ? m->edge + 2 * (size_t)k : m->bedge + 2 * (size_t)k;
        for (int side = 0; side < (interior ? 2 : 1); side++) {
            int c = interior ? m->ecell[2 * k + side] : m->becell[k];
            int from = side ? en[0] : en[1], to = side ? en[1] : en[0];
            if (interior && side == 0 && from < ni3 + 1 && to < ni3 + 1 && from <= ni && to <= ni
                && c % ni3 >= 2 * ni) {
                from = ni3 - from; /* the wake cut */
                to = ni3 - to;
            }
            const int *n = m->cell + 4 * (size_t)c;
            int found = 0;
            for (int q = 0; q < 4; q++)
                found |= n[q] == from && n[(q + 1) % 4] == to;
            CHECK(found, "%s edge %d (%d, %d) is not a side of cell %d in the right direction",
                  interior ? "interior" : "boundary", k, en[0], en[1], c);
        }
    }
    free(sum);
    free(perim);
    free(nside);

    /* The C wraps around the wake: (i, 0) and (3I-i, 0) coincide for i <= I; the trailing
     * edge (I, 0) = (2I, 0) = (1, 0) exactly. */
    for (int i = 0; i <= ni; i++) {
        const double *a = X(m, i), *b = X(m, ni3 - i);
        CHECK(fabs(a[0] - b[0]) <= tol * 9 && a[1] == 0 && b[1] == 0,
              "wake nodes %d and %d: (%.17g, %.17g) (%.17g, %.17g)", i, ni3 - i, a[0], a[1],
              b[0], b[1]);
    }
    CHECK(X(m, ni)[0] == 1.0 && X(m, 2 * ni)[0] == 1.0, "trailing edge not at x = 1");

    /* The far field: nodes (i, J) on the parabola x = y^2/36 - 9 (yg = 3), nodes (0, j) and
     * (3I, j) on x = 9 - y^2/36 (xb = -+3). */
    for (int i = 0; i <= ni3; i++) {
        const double *p = X(m, i + nj * (ni3 + 1));
        CHECK(fabs(p[0] - (p[1] * p[1] / 36 - 9)) < 1e-12 + 2e-6, "outer node %d off parabola", i);
    }
    for (int j = 0; j <= nj; j++) {
        for (int side = 0; side < 2; side++) {
            const double *p = X(m, (side ? ni3 : 0) + j * (ni3 + 1));
            CHECK(fabs(p[0] - (9 - p[1] * p[1] / 36)) < 1e-12 + 2e-6, "in/outflow node off");
            CHECK(side ? p[1] >= 0 : p[1] <= 0, "in/outflow node on the wrong side");
        }
    }
}

static void check_small(int ni, int nj)
{
    airfoil_mesh m;
    generate(ni, nj, &m);
    check_mesh(&m, ni, nj, 1e-12);
    airfoil_mesh_round_coordinates(&m);
    check_mesh(&m, ni, nj, 1e-12);
    airfoil_mesh_free(&m);
    CHECK(m.x == NULL && m.nnode == 0, "free does not zero");
}

static int test_small(void)
{
    check_small(8, 6);
    check_small(20, 12);
    for (int ni = 3; ni <= 6; ni++) { /* the coarsest meshes allowed */
        check_small(ni, 1);
        check_small(ni, 2);
    }
    airfoil_mesh m;
    char err[256];
    CHECK(airfoil_mesh_generate(2, 5, &m, err, sizeof err) != 0 && strstr(err, "I=2"),
          "I = 2 accepted: '%s'", err);
    CHECK(airfoil_mesh_generate(8, 0, &m, err, sizeof err) != 0 && strstr(err, "J=0"),
          "J = 0 accepted: '%s'", err);
    CHECK(airfoil_mesh_generate(100000, 100000, &m, err, sizeof err) != 0
              && strstr(err, "too large"),
          "huge mesh accepted");
    return check_failures;
}

/* ---------------------------------------------------------------------------------------- */

static int same_mesh(const airfoil_mesh *a, const airfoil_mesh *b)
{
    return a->nnode == b->nnode && a->ncell == b->ncell && a->nedge == b->nedge
           && a->nbedge == b->nbedge
           && !memcmp(a->x, b->x, 2 * sizeof(double) * (size_t)a->nnode)
           && !memcmp(a->cell, b->cell, 4 * sizeof(int) * (size_t)a->ncell)
           && !memcmp(a->edge, b->edge, 2 * sizeof(int) * (size_t)a->nedge)
           && !memcmp(a->ecell, b->ecell, 2 * sizeof(int) * (size_t)a->nedge)
           && !memcmp(a->bedge, b->bedge, 2 * sizeof(int) * (size_t)a->nbedge)
           && !memcmp(a->becell, b->becell, sizeof(int) * (size_t)a->nbedge)
           && !memcmp(a->bound, b->bound, sizeof(int) * (size_t)a->nbedge);
}

static void round_trip(int ni, int nj, const char *path)
{
    airfoil_mesh m, r;
    char err[512];
    generate(ni, nj, &m);
    if (airfoil_mesh_write_ascii(path, &m, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    airfoil_mesh_round_coordinates(&m);
    if (airfoil_mesh_read_ascii(path, &r, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    CHECK(same_mesh(&m, &r), "I=%d J=%d: read mesh differs from the rounded mesh", ni, nj);
    /* Writing what was read gives the same file. */
    char path2[1024];
    snprintf(path2, sizeof path2, "%s.again", path);
    if (airfoil_mesh_write_ascii(path2, &r, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    airfoil_mesh r2;
    if (airfoil_mesh_read_ascii(path2, &r2, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    CHECK(same_mesh(&r, &r2), "second round trip differs");
    airfoil_mesh_free(&m);
    airfoil_mesh_free(&r);
    airfoil_mesh_free(&r2);
    remove(path2);
    remove(path);
}

static int test_roundtrip(const char *dir)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/roundtrip_mesh.dat", dir);
    round_trip(8, 6, path);
    round_trip(20, 12, path);

    /* The reader's number parser against strtod on awkward spellings. */
    snprintf(path, sizeof path, "%s/roundtrip_numbers.dat", dir);
    static char long_num[700]; /* 0.333...3 with 650 digits: strtod through a heap copy */
    memset(long_num, '3', sizeof long_num - 1);
    memcpy(long_num, "0.", 2);
    long_num[sizeof long_num - 1] = '\0';
    const char *const nums[] = {long_num,
        "0",         "-0",           "+1.5",        "1e3",       "2.5E-3",   ".5",
        "5.",        "-0.000000",    "123456.789012", "0.1",     "1e22",     "1e23",
        "9007199254740993", "12345678901234567890123", "1.7976931348623157e308", "4.9e-324",
        "0.30000000000000004", "000123.4500", "1e-400"};
    enum { NNUM = sizeof nums / sizeof nums[0] };
    FILE *f = fopen(path, "w");
    if (!f)
        die(__FILE__, __LINE__, "cannot write the numbers file");
    fprintf(f, "%d 2 1 1\n", (int)(NNUM + 1) / 2);
    for (int k = 0; k < (int)NNUM; k += 2)
        fprintf(f, "%s %s\n", nums[k], k + 1 < (int)NNUM ? nums[k + 1] : "7");
    fprintf(f, "0 0 0 0\n0 1 1 1\n0 1 0 1\n0 1 1 2\n");
    if (fclose(f) != 0)
        die(__FILE__, __LINE__, "cannot write the numbers file");
    airfoil_mesh r;
    char err[512];
    /* These numbers describe no mesh: the format reader alone. */
    if (airfoil_mesh_parse_ascii(path, &r, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    for (int k = 0; k < (int)NNUM; k++) {
        double want = strtod(nums[k], NULL);
        CHECK(!memcmp(&r.x[k], &want, sizeof want), "'%s' read as %.17g, strtod %.17g", nums[k],
              r.x[k], want);
    }
    airfoil_mesh_free(&r);
    remove(path);
    return check_failures;
}

/* ---------------------------------------------------------------------------------------- */
/* Malformed files: each is a small valid file with one thing broken. */

typedef struct {
    char **line;
    int n;
} text;

static text read_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die(__FILE__, __LINE__, "cannot read back the test file");
    text t = {NULL, 0};
    char buf[256];
    while (fgets(buf, sizeof buf, f)) {
        buf[strcspn(buf, "\n")] = '\0';
        char **grown = realloc(t.line, sizeof(char *) * (size_t)(t.n + 1));
        if (!grown || !(grown[t.n] = malloc(strlen(buf) + 1)))
            die(__FILE__, __LINE__, "out of memory");
        strcpy(grown[t.n], buf);
        t.line = grown;
        t.n++;
    }
    if (ferror(f))
        die(__FILE__, __LINE__, "read error");
    fclose(f);
    return t;
}

/* Writes lines [0, n) of t with line number `at` (1-based) replaced by `repl` (NULL: kept),
 * then `tail` verbatim; reads it back and checks the error names path:expect_line: and says
 * `expect_text`. */
static void expect_error(const char *path, const text *t, int n, int at, const char *repl,
                         const char *tail, int expect_line, const char *expect_text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        die(__FILE__, __LINE__, "cannot write a malformed file");
    for (int k = 0; k < n; k++)
        fprintf(f, "%s\n", k + 1 == at && repl ? repl : t->line[k]);
    fputs(tail, f);
    if (fclose(f) != 0)
        die(__FILE__, __LINE__, "cannot write a malformed file");
    airfoil_mesh m;
    char err[512] = "";
    int rc = airfoil_mesh_read_ascii(path, &m, err, sizeof err);
    char where[1100];
    snprintf(where, sizeof where, "%s:%d:", path, expect_line);
    CHECK(rc != 0, "malformed file accepted (line %d replaced by '%s', tail '%s')", at,
          repl ? repl : "", tail);
    CHECK(rc == 0 || (strstr(err, where) && strstr(err, expect_text)),
          "message '%s' should contain '%s' and '%s'", err, where, expect_text);
    CHECK(m.x == NULL && m.nnode == 0, "mesh not left empty after an error");
    if (rc == 0)
        airfoil_mesh_free(&m);
    else
        printf("ok: %s\n", err);
}

static int test_malformed(const char *dir)
{
    char path[1024], bad[1024];
    snprintf(path, sizeof path, "%s/malformed_good.dat", dir);
    snprintf(bad, sizeof bad, "%s/malformed_bad.dat", dir);
    airfoil_mesh m;
    char err[512];
    generate(3, 2, &m);
    if (airfoil_mesh_write_ascii(path, &m, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    const int nnode = m.nnode, ncell = m.ncell, nedge = m.nedge, nbedge = m.nbedge;
    airfoil_mesh_free(&m);
    text t = read_lines(path);
    const int node1 = 2, cell1 = node1 + nnode, edge1 = cell1 + ncell, bedge1 = edge1 + nedge;
    CHECK(t.n == 1 + nnode + ncell + nedge + nbedge, "file has %d lines", t.n);

    /* The unchanged file reads, also with CRLF line ends and no final newline, or with blank
     * lines at the end. */
    if (airfoil_mesh_read_ascii(path, &m, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    airfoil_mesh_free(&m);
    char last[256];
    snprintf(last, sizeof last, "%s", t.line[t.n - 1]);
    FILE *f = fopen(bad, "w");
    if (!f)
        die(__FILE__, __LINE__, "cannot write");
    for (int k = 0; k < t.n - 1; k++)
        fprintf(f, "%s\r\n", t.line[k]);
    fprintf(f, "%s", last);
    if (fclose(f) != 0)
        die(__FILE__, __LINE__, "cannot write");
    CHECK(airfoil_mesh_read_ascii(bad, &m, err, sizeof err) == 0, "CRLF, no final newline: %s",
          err);
    airfoil_mesh_free(&m);
    f = fopen(bad, "w");
    if (!f)
        die(__FILE__, __LINE__, "cannot write");
    for (int k = 0; k < t.n; k++)
        fprintf(f, "%s\n", t.line[k]);
    fprintf(f, "\n  \t\n\n");
    if (fclose(f) != 0)
        die(__FILE__, __LINE__, "cannot write");
    CHECK(airfoil_mesh_read_ascii(bad, &m, err, sizeof err) == 0, "trailing blank lines: %s", err);
    airfoil_mesh_free(&m);

    /* Truncated: whole lines missing, or the last line cut. */
    expect_error(bad, &t, t.n - 1, 0, NULL, "", t.n, "unexpected end of file");
    expect_error(bad, &t, edge1 + 2, 0, NULL, "", edge1 + 3, "unexpected end of file");
    expect_error(bad, &t, edge1 + 2, 0, NULL, "4 5 1", edge1 + 3, "found 3");
    expect_error(bad, &t, 1, 0, NULL, "", 1, "bad header"); /* header only */
    expect_error(bad, &t, 0, 0, NULL, "", 1, "unexpected end of file");
    /* Bad header. */
    expect_error(bad, &t, t.n, 1, "12 -3 4 5", "", 1, "ncell");
    expect_error(bad, &t, t.n, 1, "12 3 4", "", 1, "found 3");
    expect_error(bad, &t, t.n, 1, "12 3 4 x5", "", 1, "nbedge");
    expect_error(bad, &t, t.n, 1, "12 3 4 99999999999999999999", "", 1, "nbedge");
    expect_error(bad, &t, t.n, 1, "1000000 3 4 5", "", 1, "bad header");
    /* Bad numbers. */
    expect_error(bad, &t, t.n, node1 + 4, "1.2.3 0.5", "", node1 + 4, "not a decimal number");
    expect_error(bad, &t, t.n, node1 + 4, "0.5 nan", "", node1 + 4, "not a decimal number");
    expect_error(bad, &t, t.n, node1 + 4, "0.5 1e999", "", node1 + 4, "not a finite double");
    expect_error(bad, &t, t.n, node1 + 4, "0.5", "", node1 + 4, "found 1");
    expect_error(bad, &t, t.n, node1 + 4, "0.5 1 2", "", node1 + 4, "found 3");
    expect_error(bad, &t, t.n, cell1 + 1, "0 1 2.0 3", "", cell1 + 1, "not an integer");
    expect_error(bad, &t, t.n, cell1 + 1, "0 1 2 3 4", "", cell1 + 1, "found 5");
    expect_error(bad, &t, t.n, edge1, "", "", edge1, "found 0");
    /* Indices out of range. */
    char line[128];
    snprintf(line, sizeof line, "0 1 %d 3", nnode);
    expect_error(bad, &t, t.n, cell1 + 2, line, "", cell1 + 2, "node index");
    expect_error(bad, &t, t.n, cell1 + 2, "0 -1 2 3", "", cell1 + 2, "out of range");
    snprintf(line, sizeof line, "%d 1 0 1", nnode);
    expect_error(bad, &t, t.n, edge1 + 3, line, "", edge1 + 3, "node index");
    snprintf(line, sizeof line, "0 1 0 %d", ncell);
    expect_error(bad, &t, t.n, edge1 + 3, line, "", edge1 + 3, "cell index");
    expect_error(bad, &t, t.n, edge1 + 3, "0 1 2 2", "", edge1 + 3, "to itself");
    snprintf(line, sizeof line, "0 1 %d 2", ncell);
    expect_error(bad, &t, t.n, bedge1 + 1, line, "", bedge1 + 1, "cell index");
    expect_error(bad, &t, t.n, bedge1 + 1, "0 1 0 3", "", bedge1 + 1, "flag");
    expect_error(bad, &t, t.n, bedge1 + 1, "0 1 0 0", "", bedge1 + 1, "flag");
    /* Extra data at the end. */
    expect_error(bad, &t, t.n, 0, NULL, "\n1 2 3 4\n", t.n + 2, "unexpected data");
    /* Not a mesh file at all: refused on the first buffer, whatever its size. */
    CHECK(airfoil_mesh_read_ascii("/dev/zero", &m, err, sizeof err) != 0 &&
              strstr(err, "/dev/zero: is a character device, not a regular file"),
          "/dev/zero: '%s'", err);
    CHECK(airfoil_mesh_read_ascii(dir, &m, err, sizeof err) != 0 && strstr(err, "is a directory"),
          "a directory: '%s'", err);
    f = fopen(bad, "wb");
    if (!f)
        die(__FILE__, __LINE__, "cannot write");
    fprintf(f, "%s\n", t.line[0]);
    for (int k = 0; k < 5000; k++)
        fputc('\0', f);
    if (fclose(f) != 0)
        die(__FILE__, __LINE__, "cannot write");
    CHECK(airfoil_mesh_read_ascii(bad, &m, err, sizeof err) != 0 &&
              strstr(err, ": the file holds a NUL byte"),
          "NUL bytes after the header: '%s'", err);
    f = fopen(bad, "w");
    if (!f)
        die(__FILE__, __LINE__, "cannot write");
    fprintf(f, "%s\n", t.line[0]);
    for (int k = 0; k < 5000; k++)
        fputc('1', f);
    if (fclose(f) != 0)
        die(__FILE__, __LINE__, "cannot write");
    expect_error(bad, &t, 1, 0, NULL, "55555555555555555555555555555555555555555555555555", 1,
                 "bad header"); /* a header and a long number: still the header's fault */
    f = fopen(bad, "w");
    if (!f)
        die(__FILE__, __LINE__, "cannot write");
    fprintf(f, "%s\n", t.line[0]);
    for (int k = 0; k < 5000; k++)
        fputc(' ', f);
    fputc('\n', f);
    if (fclose(f) != 0)
        die(__FILE__, __LINE__, "cannot write");
    CHECK(airfoil_mesh_read_ascii(bad, &m, err, sizeof err) != 0 &&
              strstr(err, ":2: line longer than 4096 bytes"),
          "a 5000-byte line: '%s'", err);
    /* More bytes than the header's records can take: the header says 30 records. */
    f = fopen(bad, "w");
    if (!f)
        die(__FILE__, __LINE__, "cannot write");
    for (int k = 0; k < t.n; k++)
        fprintf(f, "%s\n", t.line[k]);
    for (int k = 0; k < 300000; k++)
        fputs("         \n", f);
    if (fclose(f) != 0)
        die(__FILE__, __LINE__, "cannot write");
    CHECK(airfoil_mesh_read_ascii(bad, &m, err, sizeof err) != 0 &&
              strstr(err, "more bytes than the header's records can take"),
          "3 MB of blank lines after a small mesh: '%s'", err);
    /* A file that is not there. */
    snprintf(line, sizeof line, "%s/no_such_mesh.dat", dir);
    CHECK(airfoil_mesh_read_ascii(line, &m, err, sizeof err) != 0 && strstr(err, line),
          "missing file: '%s'", err);
    snprintf(line, sizeof line, "%s/no_such_dir/mesh.dat", dir);
    generate(3, 1, &m);
    CHECK(airfoil_mesh_write_ascii(line, &m, err, sizeof err) != 0 && strstr(err, line),
          "unwritable file: '%s'", err);
    airfoil_mesh_free(&m);

    for (int k = 0; k < t.n; k++)
        free(t.line[k]);
    free(t.line);
    remove(path);
    remove(bad);
    return check_failures;
}

/* ---------------------------------------------------------------------------------------- */

/* ---------------------------------------------------------------------------------------- */
/* Meshes indexed correctly but not consistent: each is refused, and the message names the
 * fault. */

static void swap_int(int *a, int *b)
{
    int t = *a;
    *a = *b;
    *b = t;
}

/* Copies of the rounded I=8, J=6 mesh, one fault each. */
static void expect_inconsistent(const char *what, void (*spoil)(airfoil_mesh *), const char *want)
{
    airfoil_mesh m;
    generate(8, 6, &m);
    airfoil_mesh_round_coordinates(&m);
    char err[512] = "";
    CHECK(airfoil_mesh_check(&m, "mesh.dat", err, sizeof err) == 0, "the good mesh: %s", err);
    spoil(&m);
    int rc = airfoil_mesh_check(&m, "mesh.dat", err, sizeof err);
    CHECK(rc != 0, "%s: accepted", what);
    CHECK(rc == 0 || (strstr(err, "mesh.dat: ") == err && strstr(err, want)),
          "%s: message '%s' lacks '%s'", what, err, want);
    if (rc != 0)
        printf("ok (%s): %s\n", what, err);
    airfoil_mesh_free(&m);
}

/* An interior edge away from the wake and the boundary. */
enum { SOME_EDGE = 100, SOME_CELL = 70 };

static void edge_nodes_swapped(airfoil_mesh *m) { swap_int(&m->edge[2 * SOME_EDGE], &m->edge[2 * SOME_EDGE + 1]); }
static void edge_cells_swapped(airfoil_mesh *m) { swap_int(&m->ecell[2 * SOME_EDGE], &m->ecell[2 * SOME_EDGE + 1]); }
static void bedge_nodes_swapped(airfoil_mesh *m) { swap_int(&m->bedge[2 * 30], &m->bedge[2 * 30 + 1]); }
static void cell_clockwise(airfoil_mesh *m)
{
    swap_int(&m->cell[4 * SOME_CELL + 1], &m->cell[4 * SOME_CELL + 3]);
}
static void cell_other_nodes(airfoil_mesh *m)
{
    /* Valid node numbers, still counter-clockwise: the cell moved by one column. */
    for (int q = 0; q < 4; q++)
        m->cell[4 * SOME_CELL + q] += 1;
}
static void edge_other_cell(airfoil_mesh *m)
{
    m->ecell[2 * SOME_EDGE + 1] = m->ecell[2 * SOME_EDGE + 1] == 0 ? 1 : 0;
}
static void bedge_is_interior(airfoil_mesh *m)
{
    /* A boundary edge that repeats an interior edge: its cell now has five sides. */
    m->bedge[2 * 30] = m->edge[2 * SOME_EDGE];
    m->bedge[2 * 30 + 1] = m->edge[2 * SOME_EDGE + 1];
    m->becell[30] = m->ecell[2 * SOME_EDGE];
}
static void flag_seven(airfoil_mesh *m) { m->bound[5] = 7; }
static void coordinate_nan(airfoil_mesh *m) { m->x[2 * 40 + 1] = NAN; }
static void node_moved(airfoil_mesh *m)
{
    /* A node pulled through its neighbours: the cells around it fold over. */
    int n = m->cell[4 * SOME_CELL];
    m->x[2 * n] += 50.0;
}

static int test_inconsistent(const char *dir)
{
    expect_inconsistent("interior edge n1/n2 swapped", edge_nodes_swapped, "does not point out of c1");
    expect_inconsistent("interior edge c1/c2 swapped", edge_cells_swapped, "does not point out of c1");
    expect_inconsistent("boundary edge n1/n2 swapped", bedge_nodes_swapped, "points into the cell");
    expect_inconsistent("cell clockwise", cell_clockwise, "is not positive");
    expect_inconsistent("cell with other node numbers", cell_other_nodes, "do not match its edges");
    expect_inconsistent("edge naming the wrong cell", edge_other_cell, "is a side of");
    expect_inconsistent("boundary edge on an interior side", bedge_is_interior, "is a side of 5 edges");
    expect_inconsistent("boundary flag 7", flag_seven, "boundary flag 7");
    expect_inconsistent("a coordinate NaN", coordinate_nan, "not a finite number");
    expect_inconsistent("a node moved", node_moved, "cell");

    /* Through the reader: the swapped edge in a file is refused with the file's name. */
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/inconsistent.dat", dir);
    airfoil_mesh m;
    generate(8, 6, &m);
    edge_nodes_swapped(&m);
    if (airfoil_mesh_write_ascii(path, &m, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    airfoil_mesh_free(&m);
    CHECK(airfoil_mesh_read_ascii(path, &m, err, sizeof err) != 0 && strstr(err, path) &&
              strstr(err, "edge 100") && m.x == NULL,
          "the reader accepted a swapped edge: '%s'", err);
    CHECK(airfoil_mesh_parse_ascii(path, &m, err, sizeof err) == 0, "format: %s", err);
    airfoil_mesh_free(&m);
    remove(path);
    return check_failures;
}

/* Half thickness of the recipe's NACA0012 surface at chord position x in [0, 1]. */
static double naca_half_thickness(double x)
{
    return 0.594689181 * (0.298222773 * sqrt(x) - 0.127125232 * x - 0.357907906 * x * x
                          + 0.291984971 * x * x * x - 0.105174696 * x * x * x * x);
}

static int test_standard(const char *dir)
{
    const int ni = 400, nj = 600;
    airfoil_mesh m;
    generate(ni, nj, &m);
    CHECK(m.nnode == 721801 && m.ncell == 720000 && m.nedge == 1438600 && m.nbedge == 2800,
          "standard counts %d %d %d %d", m.nnode, m.ncell, m.nedge, m.nbedge);
    check_mesh(&m, ni, nj, 1e-12);

    /* The aerofoil (nodes (i, 0), I <= i <= 2I) is the recipe's NACA0012 surface shifted by the
     * map's -0.0077: lower surface for xb < 0, upper for xb > 0, leading edge (xb = 0) at
     * x = -0.0077, y = 0. Between the spline knots the surface is matched to within the
     * spline's interpolation error. */
    double worst = 0.0;
    for (int i = ni; i <= 2 * ni; i++) {
        const double *p = X(&m, i);
        double xc = p[0] + 0.0077;
        if (i == 3 * ni / 2) {
            CHECK(fabs(xc) < 1e-15 && p[1] == 0, "leading edge at (%.17g, %.17g)", p[0], p[1]);
        }
        if (i < 3 * ni / 2)
            CHECK(p[1] <= 0, "lower surface node %d at y = %g", i, p[1]);
        else
            CHECK(p[1] >= 0, "upper surface node %d at y = %g", i, p[1]);
        if (xc >= 0 && xc <= 0.9923) {
            double d = fabs(fabs(p[1]) - naca_half_thickness(xc));
            worst = d > worst ? d : worst;
        } else {
            CHECK(xc > 0.9923 && xc <= 1.0077 && fabs(p[1]) < 1e-3,
                  "surface node %d at (%g, %g) outside the aerofoil's extent", i, p[0], p[1]);
        }
    }
    printf("largest distance of a surface node from NACA0012: %.3g\n", worst);
    CHECK(worst < 1e-6, "surface nodes up to %g off the aerofoil", worst);

    /* Write, read back: equal to the rounded mesh, still a valid mesh. */
    char path[1024], err[512];
    snprintf(path, sizeof path, "%s/standard_mesh.dat", dir);
    if (airfoil_mesh_write_ascii(path, &m, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    airfoil_mesh_round_coordinates(&m);
    airfoil_mesh r;
    if (airfoil_mesh_read_ascii(path, &r, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    CHECK(same_mesh(&m, &r), "standard mesh: read differs from rounded");
    check_mesh(&r, ni, nj, 1e-9);
    /* The consistency check the reader runs, timed on its own (docs/meshes.md). */
    double best = 1e30;
    for (int k = 0; k < 5; k++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        CHECK(airfoil_mesh_check(&r, path, err, sizeof err) == 0, "standard mesh: %s", err);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double t = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        best = t < best ? t : best;
    }
    printf("airfoil_mesh_check on the standard mesh: %.1f ms (best of 5)\n", 1e3 * best);
    FILE *f = fopen(path, "r");
    char head[3][128] = {"", "", ""};
    if (!f)
        die(__FILE__, __LINE__, "cannot reopen the standard mesh");
    for (int k = 0; k < 3; k++)
        if (!fgets(head[k], sizeof head[k], f))
            die(__FILE__, __LINE__, "standard mesh too short");
    fclose(f);
    CHECK(!strcmp(head[0], "721801 720000 1438600 2800\n"), "header '%s'", head[0]);
    CHECK(!strcmp(head[1], "9.000000 -0.000000\n"), "first node '%s'", head[1]);
    airfoil_mesh_free(&m);
    airfoil_mesh_free(&r);
    remove(path);
    return check_failures;
}

/* A file written by naca_cmesh -I ni -J nj: equal to the generated, rounded mesh, and no
 * FILE.tmp left behind. */
static int test_readfile(const char *path, int ni, int nj)
{
    airfoil_mesh m, r;
    char err[512];
    generate(ni, nj, &m);
    airfoil_mesh_round_coordinates(&m);
    if (airfoil_mesh_read_ascii(path, &r, err, sizeof err) != 0)
        die(__FILE__, __LINE__, err);
    CHECK(same_mesh(&m, &r), "'%s' differs from the mesh I=%d J=%d", path, ni, nj);
    char tmp[1100];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "r");
    CHECK(f == NULL, "'%s' left behind", tmp);
    if (f)
        fclose(f);
    airfoil_mesh_free(&m);
    airfoil_mesh_free(&r);
    return check_failures;
}

/* Bytes of a file, for comparing two (NULL when it cannot be read). */
static char *slurp(const char *path, long *n)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    if (fseek(f, 0, SEEK_END) == 0 && (*n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = malloc((size_t)*n + 1)) && fread(buf, 1, (size_t)*n, f) != (size_t)*n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* The file written as the mesh is generated is the file of the arrays. */
static int test_streamed(const char *dir)
{
    const int sizes[][2] = {{3, 1}, {7, 5}, {20, 12}, {64, 40}};
    char a[1024], b[1024], err[512];
    snprintf(a, sizeof a, "%s/streamed_arrays.dat", dir);
    snprintf(b, sizeof b, "%s/streamed.dat", dir);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        airfoil_mesh m;
        if (airfoil_mesh_generate(sizes[k][0], sizes[k][1], &m, err, sizeof err) != 0 ||
            airfoil_mesh_write_ascii(a, &m, err, sizeof err) != 0)
            die(__FILE__, __LINE__, err);
        airfoil_mesh_free(&m);
        CHECK(airfoil_mesh_write_generated(b, sizes[k][0], sizes[k][1], err, sizeof err) == 0, "%s",
              err);
        long na = 0, nb = 0;
        char *ta = slurp(a, &na), *tb = slurp(b, &nb);
        CHECK(ta && tb && na == nb && memcmp(ta, tb, (size_t)na) == 0,
              "I=%d J=%d: the streamed file (%ld bytes) differs from the arrays' (%ld bytes)",
              sizes[k][0], sizes[k][1], nb, na);
        free(ta);
        free(tb);
    }
    CHECK(airfoil_mesh_write_generated(b, 2, 5, err, sizeof err) != 0 && strstr(err, "I >= 3"),
          "I = 2 accepted: %s", err);
    return check_failures;
}

/* The streamed writer holds no array of the mesh: the standard mesh (720000 cells, whose
 * arrays take 46 MB) is written to /dev/null in an address space of 40 MB, where generating
 * it into arrays fails (checked, so that the limit is known to bind). Not under the address
 * sanitizer, which reserves terabytes of address space. */
static int test_streamed_memory(void)
{
#if defined(__SANITIZE_ADDRESS__)
    printf("streamed_memory: skipped under the address sanitizer\n");
    exit(77);
#else
    struct rlimit lim = {40u << 20, 40u << 20};
    if (setrlimit(RLIMIT_AS, &lim) != 0)
        die(__FILE__, __LINE__, "cannot limit the address space");
    char err[512];
    CHECK(airfoil_mesh_write_generated("/dev/null", 400, 600, err, sizeof err) == 0,
          "streamed in 40 MB: %s", err);
    airfoil_mesh m;
    CHECK(airfoil_mesh_generate(400, 600, &m, err, sizeof err) != 0,
          "the arrays of the standard mesh fit in 40 MB: the limit proves nothing");
    return check_failures;
#endif
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr,
                "usage: %s spline|small|roundtrip|malformed|inconsistent|standard|streamed|streamed_memory\n"
                "          [SCRATCH_DIR]\n"
                "       %s readfile FILE I J\n",
                argv[0], argv[0]);
        return 2;
    }
    const char *dir = argc > 2 ? argv[2] : ".";
    int rc;
    if (!strcmp(argv[1], "spline"))
        rc = test_spline();
    else if (!strcmp(argv[1], "small"))
        rc = test_small();
    else if (!strcmp(argv[1], "roundtrip"))
        rc = test_roundtrip(dir);
    else if (!strcmp(argv[1], "malformed"))
        rc = test_malformed(dir);
    else if (!strcmp(argv[1], "inconsistent"))
        rc = test_inconsistent(dir);
    else if (!strcmp(argv[1], "streamed"))
        rc = test_streamed(dir);
    else if (!strcmp(argv[1], "streamed_memory"))
        rc = test_streamed_memory();
    else if (!strcmp(argv[1], "standard"))
        rc = test_standard(dir);
    else if (!strcmp(argv[1], "readfile") && argc == 5)
        rc = test_readfile(argv[2], atoi(argv[3]), atoi(argv[4]));
    else {
        fprintf(stderr, "%s: unknown test '%s'\n", argv[0], argv[1]);
        return 2;
    }
    printf("%s: %s\n", argv[1], rc ? "FAILED" : "passed");
    return rc ? 1 : 0;
}
