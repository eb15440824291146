/* Generator of the standard airfoil C-mesh: docs/meshes.md, "The recipe, step by step".
 *
 * This file is compiled with -ffp-contract=off (see CMakeLists.txt): the coordinates are data,
 * and their last bits, which can decide a digit of the %f rounding, must not depend on the
 * build type or the CPU. */
#include "airfoil_mesh.h"
#include "cubic_spline.h"

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NSURF = 100, NKNOT = 2 * NSURF - 1 };

static const double PI = 3.14159265358979323846;

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

/* Steps 1-3: the 199 spline knots (X, Y), the mapped aerofoil surface. */
static int surface_knots(double *X, double *Y, char *err, size_t errlen)
{
    double complex w[NSURF];
    for (int k = 0; k < NSURF; k++) {
        double t = PI / 2.0 * k / (NSURF - 1);
        double sn = sin(t);
        double x = sn * sn;
        double y = 0.594689181 * (0.298222773 * sqrt(x) - 0.127125232 * x - 0.357907906 * x * x
                                  + 0.291984971 * x * x * x - 0.105174696 * x * x * x * x);
        if (k == NSURF - 1)
            y = 0.0;
        w[k] = csqrt(CMPLX(x - 0.0077, y));
    }
    for (int k = 0; k < NSURF; k++) { /* -conj(w_{99-k}) */
        X[k] = -creal(w[NSURF - 1 - k]);
        Y[k] = cimag(w[NSURF - 1 - k]);
    }
    for (int k = 1; k < NSURF; k++) {
        X[NSURF - 1 + k] = creal(w[k]);
        Y[NSURF - 1 + k] = cimag(w[k]);
    }
    for (int k = 0; k + 1 < NKNOT; k++) {
        if (!(X[k] < X[k + 1])) {
            set_err(err, errlen, "%s:%d: spline abscissae not strictly increasing at knot %d",
                    __FILE__, __LINE__, k);
            return -1;
        }
    }
    return 0;
}

static void *alloc_array(size_t count, size_t size, const char *what, char *err, size_t errlen)
{
    void *p = malloc(count * size);
    if (!p)
        set_err(err, errlen, "%s:%d: out of memory allocating %zu bytes for %s", __FILE__,
                __LINE__, count * size, what);
    return p;
}

int airfoil_mesh_counts(int ni, int nj, int counts[4], char *err, size_t errlen)
{
    if (ni < AIRFOIL_MESH_MIN_I || nj < AIRFOIL_MESH_MIN_J) {
        set_err(err, errlen, "airfoil mesh: need I >= %d and J >= %d (got I=%d, J=%d)",
                AIRFOIL_MESH_MIN_I, AIRFOIL_MESH_MIN_J, ni, nj);
        return -1;
    }
    const long long li = ni, lj = nj; /* the recipe's I and J (complex.h owns the name I) */
    const long long nnode = (3 * li + 1) * (lj + 1), ncell = 3 * li * lj;
    const long long nedge = (3 * li - 1) * lj + 3 * li * (lj - 1) + li, nbedge = 4 * li + 2 * lj;
    const long long limit = INT_MAX / 4;
    if (nnode > limit || ncell > limit || nedge > limit || nbedge > limit) {
        set_err(err, errlen, "airfoil mesh: I=%d, J=%d is too large (%lld nodes, %lld edges)",
                ni, nj, nnode, nedge);
        return -1;
    }
    counts[0] = (int)nnode;
    counts[1] = (int)ncell;
    counts[2] = (int)nedge;
    counts[3] = (int)nbedge;
    return 0;
}

int airfoil_mesh_emit(int ni, int nj, const airfoil_mesh_sink *sink, char *err, size_t errlen)
{
    int counts[4];
    if (airfoil_mesh_counts(ni, nj, counts, err, errlen) != 0)
        return -1;
    double X[NKNOT], Y[NKNOT], S[NKNOT], work[3 * NKNOT];
    if (surface_knots(X, Y, err, errlen) != 0)
        return -1;
    if (cubic_spline_notaknot(NKNOT, X, Y, S, work) != 0) {
        set_err(err, errlen, "%s:%d: spline set-up failed", __FILE__, __LINE__);
        return -1;
    }
    const int ni3 = 3 * ni;
    /* The surface height of each column: the one array, 3I + 1 values. */
    double *yb = alloc_array((size_t)ni3 + 1, sizeof(double), "column heights", err, errlen);
    if (!yb)
        return -1;
#define NODE(i, j) ((i) + (j) * (ni3 + 1))
#define CELL(i, j) ((i) + (j) * ni3)
#define XB(i) ((i) == ni3 ? 3.0 : -3.0 + 6.0 * (i) / ni3)

    /* Steps 4-5: nodes, in their numbering (row j, then column i). */
    for (int i = 0; i <= ni3; i++)
        yb[i] = i > ni && i < 2 * ni ? cubic_spline_eval(NKNOT, X, Y, S, XB(i)) : 0.0;
    for (int j = 0; j <= nj; j++)
        for (int i = 0; i <= ni3; i++) {
            double xb = XB(i), yg = j == nj ? 3.0 : yb[i] + (3.0 - yb[i]) * j / nj;
            sink->node(sink->ctx, xb * xb - yg * yg, 2.0 * xb * yg);
        }
    free(yb);

    /* Step 6: cells. */
    for (int j = 0; j < nj; j++) {
        for (int i = 0; i < ni3; i++) {
            const int c[4] = {NODE(i, j), NODE(i + 1, j), NODE(i + 1, j + 1), NODE(i, j + 1)};
            sink->cell(sink->ctx, c);
        }
    }

    /* Step 7: interior edges, the three cases of each (i, j) in this order. */
    long long e = 0;
#define ADD_EDGE(n1, n2, c1, c2)                                                                   \
    do {                                                                                           \
        if (e++ < counts[2])                                                                       \
            sink->edge(sink->ctx, (n1), (n2), (c1), (c2));                                         \
    } while (0)
    for (int j = 0; j < nj; j++) {
        for (int i = 0; i < ni3; i++) {
            if (j == 0 && i < ni) /* the wake cut */
                ADD_EDGE(NODE(i, 0), NODE(i + 1, 0), CELL(ni3 - 1 - i, 0), CELL(i, 0));
            if (j < nj - 1)
                ADD_EDGE(NODE(i, j + 1), NODE(i + 1, j + 1), CELL(i, j), CELL(i, j + 1));
            if (i < ni3 - 1)
                ADD_EDGE(NODE(i + 1, j), NODE(i + 1, j + 1), CELL(i + 1, j), CELL(i, j));
        }
    }
#undef ADD_EDGE

    /* Step 8: boundary edges. */
    long long b = 0;
#define ADD_BEDGE(n1, n2, c, flag)                                                                 \
    do {                                                                                           \
        if (b++ < counts[3])                                                                       \
            sink->bedge(sink->ctx, (n1), (n2), (c), (flag));                                       \
    } while (0)
    for (int i = ni; i < 2 * ni; i++) /* aerofoil */
        ADD_BEDGE(NODE(i + 1, 0), NODE(i, 0), CELL(i, 0), AIRFOIL_MESH_WALL);
    for (int j = 0; j < nj; j++) /* outflow */
        ADD_BEDGE(NODE(ni3, j + 1), NODE(ni3, j), CELL(ni3 - 1, j), AIRFOIL_MESH_FARFIELD);
    for (int i = ni3 - 1; i >= 0; i--) /* outer */
        ADD_BEDGE(NODE(i, nj), NODE(i + 1, nj), CELL(i, nj - 1), AIRFOIL_MESH_FARFIELD);
    for (int j = nj - 1; j >= 0; j--) /* inflow */
        ADD_BEDGE(NODE(0, j), NODE(0, j + 1), CELL(0, j), AIRFOIL_MESH_FARFIELD);
#undef ADD_BEDGE
#undef NODE
#undef CELL
#undef XB

    /* Step 9: the counts. */
    if (e != counts[2] || b != counts[3]) {
        set_err(err, errlen, "%s:%d: internal error: made %lld edges and %lld boundary edges, "
                "expected %d and %d", __FILE__, __LINE__, e, b, counts[2], counts[3]);
        return -1;
    }
    return 0;
}

/* The arrays of an airfoil_mesh, filled record by record. */
typedef struct {
    airfoil_mesh *m;
    size_t node, cell, edge, bedge;
} array_sink;

static void put_node(void *ctx, double x, double y)
{
    array_sink *a = ctx;
    a->m->x[2 * a->node] = x;
    a->m->x[2 * a->node++ + 1] = y;
}

static void put_cell(void *ctx, const int n[4])
{
    array_sink *a = ctx;
    memcpy(a->m->cell + 4 * a->cell++, n, 4 * sizeof(int));
}

static void put_edge(void *ctx, int n1, int n2, int c1, int c2)
{
    array_sink *a = ctx;
    int *e = a->m->edge + 2 * a->edge, *c = a->m->ecell + 2 * a->edge++;
    e[0] = n1, e[1] = n2, c[0] = c1, c[1] = c2;
}

static void put_bedge(void *ctx, int n1, int n2, int c, int flag)
{
    array_sink *a = ctx;
    a->m->bedge[2 * a->bedge] = n1;
    a->m->bedge[2 * a->bedge + 1] = n2;
    a->m->becell[a->bedge] = c;
    a->m->bound[a->bedge++] = flag;
}

int airfoil_mesh_generate(int ni, int nj, airfoil_mesh *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    int counts[4];
    if (airfoil_mesh_counts(ni, nj, counts, err, errlen) != 0)
        return -1;
    m->nnode = counts[0];
    m->ncell = counts[1];
    m->nedge = counts[2];
    m->nbedge = counts[3];
    const size_t nnode = (size_t)m->nnode, ncell = (size_t)m->ncell, nedge = (size_t)m->nedge,
                 nbedge = (size_t)m->nbedge;
    if (!(m->x = alloc_array(nnode, 2 * sizeof(double), "node coordinates", err, errlen))
        || !(m->cell = alloc_array(ncell, 4 * sizeof(int), "cells", err, errlen))
        || !(m->edge = alloc_array(nedge, 2 * sizeof(int), "edges", err, errlen))
        || !(m->ecell = alloc_array(nedge, 2 * sizeof(int), "edge cells", err, errlen))
        || !(m->bedge = alloc_array(nbedge, 2 * sizeof(int), "bedges", err, errlen))
        || !(m->becell = alloc_array(nbedge, sizeof(int), "bedge cells", err, errlen))
        || !(m->bound = alloc_array(nbedge, sizeof(int), "bedge flags", err, errlen))) {
        airfoil_mesh_free(m);
        return -1;
    }
    array_sink a = {m, 0, 0, 0, 0};
    const airfoil_mesh_sink sink = {put_node, put_cell, put_edge, put_bedge, &a};
    if (airfoil_mesh_emit(ni, nj, &sink, err, errlen) != 0) {
        airfoil_mesh_free(m);
        return -1;
    }
    return 0;
}

void airfoil_mesh_round_coordinates(airfoil_mesh *m)
{
    char buf[512]; /* %f of any double fits: at most 309 integer digits */
    for (size_t k = 0; k < 2 * (size_t)m->nnode; k++) {
        snprintf(buf, sizeof buf, "%f", m->x[k]);
        m->x[k] = strtod(buf, NULL);
    }
}
