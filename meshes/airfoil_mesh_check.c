/* The airfoil mesh's consistency: what the finite-volume scheme relies on beyond indices in
 * range (airfoil_mesh.h, docs/meshes.md). One checker for every way a mesh arrives: the ASCII
 * reader calls it, the solver calls it on a mesh declared from HDF5, and on many processes each
 * process calls it on its own part (airfoil_mesh_check_part).
 *
 * The checks, in an order that blames the right thing:
 *   1. counts, indices in range, boundary flags 1 or 2, finite coordinates of a magnitude whose
 *      products do not overflow, edges long enough that their squares do not underflow;
 *   2. every cell is a side of exactly four edges (interior edges count for both their cells,
 *      boundary edges for theirs): a missing, doubled or misplaced edge shows here;
 *   3. every edge's normal (y1-y2, x2-x1) points out of c1 and into c2 (out of the cell of a
 *      boundary edge), judged from the cells' centres taken as the mean of their sides'
 *      midpoints, so that a cell with wrong corners cannot make a good edge look wrong;
 *   4. the signed normals around each cell sum to zero (its sides close up);
 *   5. the corners of each cell are counter-clockwise with positive area, and enclose the
 *      same area as the cell's sides (a cell given other node numbers does not).
 * The fault reported is the first in that order: the first check that fails, at the element
 * with the lowest (global) number. On a part, every check is made for the cells the process
 * owns, from their sides (all of them held there: the edges of an owned cell are owned or in
 * the execute halo) and corners (owned or halo nodes); an edge is checked against each of its
 * cells that is owned. Over all processes that is every check of the whole mesh, and the
 * fault of lowest key over the processes is the one the whole mesh gives.
 * Cost: one pass over the edges and two over the cells (measured in docs/meshes.md). */
#include "airfoil_mesh.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_text.h"

/* Relative size of the rounding a closed loop of normals or an area may show: coordinates
 * are read to six decimals, sums of a few terms add a few ulps. */
#define CLOSE_TOL 1e-9
/* The checks and the scheme form products of two coordinate differences (areas, the normals'
 * dot products, squared lengths): coordinates up to 1e150 keep them far below DBL_MAX (1.8e308),
 * and edges of 1e-150 or longer keep them far above DBL_MIN (2.2e-308). */
#define COORD_MAX 1e150
#define EDGE_MIN 1e-150

/* The checks in the order they are made (the fault key's high part). */
enum {
    CHECK_COUNTS,
    CHECK_NODES,
    CHECK_CELL_NODES,
    CHECK_EDGE_INDICES,
    CHECK_EDGE_SELF,
    CHECK_BEDGES,
    CHECK_EDGE_LENGTH,
    CHECK_BEDGE_LENGTH,
    CHECK_SIDES,
    CHECK_EDGE_ORIENTATION,
    CHECK_BEDGE_ORIENTATION,
    CHECK_CELL_SHAPE
};

typedef struct {
    double mx, my; /* sum of the midpoints of the cell's sides */
    double nx, ny; /* sum of the outward normals */
    double perim;  /* sum of the side lengths */
    double area2;  /* twice the area enclosed by the sides, about the first corner */
    int nside;
} cell_acc;

/* What is checked and how faults are named. */
typedef struct {
    const airfoil_mesh *m;
    const airfoil_mesh_part *p; /* NULL: the whole mesh */
    int nowned;                 /* cells checked: [0, nowned) */
    const char *src;
    char *err;
    size_t errlen;
    long long key; /* the fault found so far (-1: none) */
} checker;

/* Global numbers: the part's, or the index itself on a whole mesh. */
static long gnode(const checker *k, int i) { return k->p && k->p->node_gid ? k->p->node_gid[i] : i; }
static long gcell(const checker *k, int i) { return k->p && k->p->cell_gid ? k->p->cell_gid[i] : i; }
static long gedge(const checker *k, long i) { return k->p && k->p->edge_gid ? k->p->edge_gid[i] : i; }
static long gbedge(const checker *k, long i)
{
    return k->p && k->p->bedge_gid ? k->p->bedge_gid[i] : i;
}

/* Records a fault of check `check` at element `element` (global) when it comes before the one
 * found so far. */
static void fault(checker *k, int check, long element, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fault(checker *k, int check, long element, const char *fmt, ...)
{
    long long key = ((long long)check << 32) + element;
    if (k->key >= 0 && k->key <= key)
        return;
    k->key = key;
    va_list ap;
    va_start(ap, fmt);
    op_text_vformat(k->err, k->errlen, fmt, ap);
    va_end(ap);
}

/* On a whole mesh the elements come in their global order: the first fault of a check is the
 * one to report, and the loop can stop there. */
static int done(const checker *k) { return k->key >= 0 && !k->p; }

int airfoil_mesh_check_counts(int nnode, int ncell, int nedge, int nbedge, const char *source,
                              char *err, size_t errlen)
{
    if (nnode >= 3 && ncell >= 1 && nedge >= 0 && nbedge >= 3)
        return 0;
    op_text_format(err, errlen, "%s: %d nodes, %d cells, %d edges, %d boundary edges: not a mesh",
                   source, nnode, ncell, nedge, nbedge);
    return -1;
}

static void check_indices(checker *k)
{
    const airfoil_mesh *m = k->m;
    const char *src = k->src;
    if (!k->p && airfoil_mesh_check_counts(m->nnode, m->ncell, m->nedge, m->nbedge, src, k->err,
                                           k->errlen) != 0) {
        k->key = (long long)CHECK_COUNTS << 32;
        return;
    }
    for (long k2 = 0; k2 < 2L * m->nnode && !done(k); k2++) {
        const double v = m->x[k2];
        const long n = gnode(k, (int)(k2 / 2));
        if (!isfinite(v))
            fault(k, CHECK_NODES, n, "%s: node %ld: coordinate %s is %g, not a finite number", src,
                  n, k2 % 2 ? "y" : "x", v);
        else if (fabs(v) > COORD_MAX)
            fault(k, CHECK_NODES, n,
                  "%s: node %ld: coordinate %s = %g overflows: the scheme and these checks multiply "
                  "coordinate differences, which overflow a double beyond about %g (scale the mesh)",
                  src, n, k2 % 2 ? "y" : "x", v, COORD_MAX);
    }
    if (k->key >= 0)
        return;
    const int nrow = k->p ? k->nowned : m->ncell; /* rows of cell: owned (and halo) cells */
    for (long c = 0; c < nrow && !done(k); c++)
        for (int q = 0; q < 4; q++) {
            const int n = m->cell[4 * c + q];
            if (n < 0 || n >= m->nnode) {
                fault(k, CHECK_CELL_NODES, gcell(k, (int)c), "%s: cell %ld: node %d is outside [0, %d)",
                      src, gcell(k, (int)c), n, m->nnode);
                break;
            }
        }
    if (k->key >= 0)
        return;
    for (long e = 0; e < m->nedge && !done(k); e++)
        for (int q = 0; q < 2; q++) {
            const int n = m->edge[2 * e + q], c = m->ecell[2 * e + q];
            if (n < 0 || n >= m->nnode) {
                fault(k, CHECK_EDGE_INDICES, gedge(k, e), "%s: edge %ld: node %d is outside [0, %d)",
                      src, gedge(k, e), n, m->nnode);
                break;
            }
            if (c < 0 || c >= m->ncell) {
                fault(k, CHECK_EDGE_INDICES, gedge(k, e), "%s: edge %ld: cell %d is outside [0, %d)",
                      src, gedge(k, e), c, m->ncell);
                break;
            }
        }
    if (k->key >= 0)
        return;
    for (long e = 0; e < m->nedge && !done(k); e++) {
        const int *n = m->edge + 2 * e, *c = m->ecell + 2 * e;
        if (c[0] == c[1] || n[0] == n[1])
            fault(k, CHECK_EDGE_SELF, gedge(k, e), "%s: edge %ld joins %s %ld to itself", src,
                  gedge(k, e), n[0] == n[1] ? "node" : "cell",
                  n[0] == n[1] ? gnode(k, n[0]) : gcell(k, c[0]));
    }
    if (k->key >= 0)
        return;
    for (long e = 0; e < m->nbedge && !done(k); e++) {
        const long g = gbedge(k, e);
        const int *n = m->bedge + 2 * e;
        if (n[0] < 0 || n[0] >= m->nnode || n[1] < 0 || n[1] >= m->nnode)
            fault(k, CHECK_BEDGES, g, "%s: boundary edge %ld: node %d is outside [0, %d)", src, g,
                  n[n[0] < 0 || n[0] >= m->nnode ? 0 : 1], m->nnode);
        else if (n[0] == n[1])
            fault(k, CHECK_BEDGES, g, "%s: boundary edge %ld joins node %ld to itself", src, g,
                  gnode(k, n[0]));
        else if (m->becell[e] < 0 || m->becell[e] >= m->ncell)
            fault(k, CHECK_BEDGES, g, "%s: boundary edge %ld: cell %d is outside [0, %d)", src, g,
                  m->becell[e], m->ncell);
        else if (m->bound[e] != AIRFOIL_MESH_WALL && m->bound[e] != AIRFOIL_MESH_FARFIELD)
            fault(k, CHECK_BEDGES, g,
                  "%s: boundary edge %ld: boundary flag %d is not 1 (wall) or 2 (far field)", src, g,
                  m->bound[e]);
    }
}

/* An edge a -> b long enough that its squared length does not underflow. */
static void check_length(checker *k, int check, const char *what, long g, const int *n)
{
    const double *a = k->m->x + 2 * (size_t)n[0], *b = k->m->x + 2 * (size_t)n[1];
    /* The longer of |dx| and |dy| is within a factor sqrt(2) of the length: no square root
     * (hypot costs as much as the rest of the checks) until there is a fault to describe. */
    const double dx = fabs(b[0] - a[0]), dy = fabs(b[1] - a[1]);
    if (!((dx > dy ? dx : dy) < EDGE_MIN))
        return;
    const double len = hypot(dx, dy);
    if (len == 0.0)
        fault(k, check, g, "%s: %s %ld (nodes %ld -> %ld): its two nodes are at the same point",
              k->src, what, g, gnode(k, n[0]), gnode(k, n[1]));
    else if (len < EDGE_MIN)
        fault(k, check, g,
              "%s: %s %ld (nodes %ld -> %ld): its length %g underflows: the scheme and these "
              "checks multiply coordinate differences, which underflow a double for edges "
              "shorter than about %g (scale the mesh)",
              k->src, what, g, gnode(k, n[0]), gnode(k, n[1]), len, EDGE_MIN);
}

/* Adds side a -> b (counter-clockwise around cell c) to c's sums. */
static void add_side(cell_acc *acc, const airfoil_mesh *m, int c, const double *a, const double *b)
{
    cell_acc *s = &acc[c];
    const double *p = m->x + 2 * (size_t)m->cell[4 * (size_t)c];
    double nx = b[1] - a[1], ny = a[0] - b[0]; /* outward for a counter-clockwise side */
    s->nx += nx;
    s->ny += ny;
    s->mx += 0.5 * (a[0] + b[0]);
    s->my += 0.5 * (a[1] + b[1]);
    s->perim += sqrt(nx * nx + ny * ny);
    s->area2 += (a[0] - p[0]) * (b[1] - p[1]) - (a[1] - p[1]) * (b[0] - p[0]);
    s->nside++;
}

/* n . (mid - centre(c)): positive when the normal points out of c. */
static double outwards(const cell_acc *s, double nx, double ny, double mx, double my)
{
    return nx * (mx - s->mx / s->nside) + ny * (my - s->my / s->nside);
}

static void check_geometry(checker *k, cell_acc *acc)
{
    const airfoil_mesh *m = k->m;
    const double *x = m->x;
    const char *src = k->src;
    const int own = k->nowned;

    /* The sides of every owned cell, counter-clockwise: c1 meets its edge as n2 -> n1, c2 as
     * n1 -> n2, a boundary edge's cell as n2 -> n1. */
    for (long e = 0; e < m->nedge; e++) {
        const double *a = x + 2 * (size_t)m->edge[2 * e], *b = x + 2 * (size_t)m->edge[2 * e + 1];
        if (m->ecell[2 * e] < own)
            add_side(acc, m, m->ecell[2 * e], b, a);
        if (m->ecell[2 * e + 1] < own)
            add_side(acc, m, m->ecell[2 * e + 1], a, b);
    }
    for (long e = 0; e < m->nbedge; e++) {
        const double *a = x + 2 * (size_t)m->bedge[2 * e], *b = x + 2 * (size_t)m->bedge[2 * e + 1];
        if (m->becell[e] < own)
            add_side(acc, m, m->becell[e], b, a);
    }
    for (long c = 0; c < own && !done(k); c++)
        if (acc[c].nside != 4)
            fault(k, CHECK_SIDES, gcell(k, (int)c),
                  "%s: cell %ld is a side of %d edges (interior and boundary), a quadrilateral of 4: "
                  "an edge is missing, doubled, or names the wrong cell",
                  src, gcell(k, (int)c), acc[c].nside);
    if (k->key >= 0)
        return;

    /* Orientation of every edge against the (owned) cells it separates. */
    for (long e = 0; e < m->nedge && !done(k); e++) {
        const int *n = m->edge + 2 * e;
        const double *a = x + 2 * (size_t)n[0], *b = x + 2 * (size_t)n[1];
        double nx = a[1] - b[1], ny = b[0] - a[0];
        double mx = 0.5 * (a[0] + b[0]), my = 0.5 * (a[1] + b[1]);
        int c1 = m->ecell[2 * e], c2 = m->ecell[2 * e + 1];
        if ((c1 < own && !(outwards(&acc[c1], nx, ny, mx, my) > 0.0)) ||
            (c2 < own && !(outwards(&acc[c2], nx, ny, mx, my) < 0.0))) {
            const long g1 = gcell(k, c1), g2 = gcell(k, c2);
            fault(k, CHECK_EDGE_ORIENTATION, gedge(k, e),
                  "%s: edge %ld (nodes %ld -> %ld, cells %ld | %ld): its normal does not point "
                  "out of c1 = %ld into c2 = %ld (n1 and n2, or c1 and c2, swapped?)",
                  src, gedge(k, e), gnode(k, n[0]), gnode(k, n[1]), g1, g2, g1, g2);
        }
    }
    for (long e = 0; e < m->nbedge && !done(k); e++) {
        const int *n = m->bedge + 2 * e;
        const double *a = x + 2 * (size_t)n[0], *b = x + 2 * (size_t)n[1];
        double nx = a[1] - b[1], ny = b[0] - a[0];
        double mx = 0.5 * (a[0] + b[0]), my = 0.5 * (a[1] + b[1]);
        if (m->becell[e] < own && !(outwards(&acc[m->becell[e]], nx, ny, mx, my) > 0.0))
            fault(k, CHECK_BEDGE_ORIENTATION, gbedge(k, e),
                  "%s: boundary edge %ld (nodes %ld -> %ld, cell %ld): its normal points into "
                  "the cell, not out of the domain (n1 and n2 swapped?)",
                  src, gbedge(k, e), gnode(k, n[0]), gnode(k, n[1]), gcell(k, m->becell[e]));
    }
    if (k->key >= 0)
        return;

    /* 4 and 5. Each cell closed by its sides, and its corners enclosing the same area. */
    for (long c = 0; c < own && !done(k); c++) {
        const cell_acc *s = &acc[c];
        const long g = gcell(k, (int)c);
        if (!(fabs(s->nx) <= CLOSE_TOL * s->perim && fabs(s->ny) <= CLOSE_TOL * s->perim)) {
            fault(k, CHECK_CELL_SHAPE, g,
                  "%s: cell %ld: its sides do not close (the outward normals sum to (%.3g, "
                  "%.3g), perimeter %.3g)",
                  src, g, s->nx, s->ny, s->perim);
            continue;
        }
        const int *n = m->cell + 4 * (size_t)c;
        const double *p = x + 2 * (size_t)n[0];
        double area2 = 0.0;
        for (int q = 1; q < 3; q++) {
            const double *a = x + 2 * (size_t)n[q], *b = x + 2 * (size_t)n[q + 1];
            area2 += (a[0] - p[0]) * (b[1] - p[1]) - (a[1] - p[1]) * (b[0] - p[0]);
        }
        double tol = CLOSE_TOL * s->perim * s->perim;
        if (!(area2 > tol))
            fault(k, CHECK_CELL_SHAPE, g,
                  "%s: cell %ld (nodes %ld %ld %ld %ld): area %.3g is not positive (corners not "
                  "counter-clockwise, or the cell is degenerate)",
                  src, g, gnode(k, n[0]), gnode(k, n[1]), gnode(k, n[2]), gnode(k, n[3]),
                  0.5 * area2);
        else if (!(fabs(area2 - s->area2) <= tol))
            fault(k, CHECK_CELL_SHAPE, g,
                  "%s: cell %ld (nodes %ld %ld %ld %ld): its corners enclose an area of %.6g, its "
                  "sides %.6g: the cell's nodes do not match its edges",
                  src, g, gnode(k, n[0]), gnode(k, n[1]), gnode(k, n[2]), gnode(k, n[3]),
                  0.5 * area2, 0.5 * s->area2);
    }
}

int airfoil_mesh_check_part(const airfoil_mesh *m, const airfoil_mesh_part *part,
                            const char *source, char *err, size_t errlen, long long *key)
{
    char src[OP_TEXT_SHOWN];
    op_text_shown(src, sizeof src, source ? source : "mesh");
    checker k = {m, part, part ? part->ncell_owned : m->ncell, src, err, errlen, -1};
    if (key)
        *key = -1;
    check_indices(&k);
    if (k.key < 0)
        for (long e = 0; e < m->nedge && !done(&k); e++)
            check_length(&k, CHECK_EDGE_LENGTH, "edge", gedge(&k, e), m->edge + 2 * e);
    if (k.key < 0)
        for (long e = 0; e < m->nbedge && !done(&k); e++)
            check_length(&k, CHECK_BEDGE_LENGTH, "boundary edge", gbedge(&k, e), m->bedge + 2 * e);
    if (k.key < 0) {
        cell_acc *acc = calloc((size_t)(k.nowned > 0 ? k.nowned : 1), sizeof *acc);
        if (!acc)
            return op_text_fail(err, errlen, "%s: out of memory checking the mesh (%d cells)", src,
                                k.nowned);
        check_geometry(&k, acc);
        free(acc);
    }
    if (key)
        *key = k.key;
    return k.key >= 0 ? -1 : 0;
}

int airfoil_mesh_check(const airfoil_mesh *m, const char *source, char *err, size_t errlen)
{
    return airfoil_mesh_check_part(m, NULL, source, err, errlen, NULL);
}
