/* The airfoil mesh's consistency: what the finite-volume scheme relies on beyond indices in
 * range (airfoil_mesh.h, docs/meshes.md). One checker for every way a mesh arrives: the ASCII
 * reader calls it, and the solver calls it on a mesh declared from HDF5.
 *
 * The checks, in an order that blames the right thing:
 *   1. counts, indices in range, boundary flags 1 or 2, finite coordinates;
 *   2. every cell is a side of exactly four edges (interior edges count for both their cells,
 *      boundary edges for theirs): a missing, doubled or misplaced edge shows here;
 *   3. every edge's normal (y1-y2, x2-x1) points out of c1 and into c2 (out of the cell of a
 *      boundary edge), judged from the cells' centres taken as the mean of their sides'
 *      midpoints, so that a cell with wrong corners cannot make a good edge look wrong;
 *   4. the signed normals around each cell sum to zero (its sides close up);
 *   5. the corners of each cell are counter-clockwise with positive area, and enclose the
 *      same area as the cell's sides (a cell given other node numbers does not).
 * Cost: one pass over the edges and two over the cells (measured in docs/meshes.md). */
#include "airfoil_mesh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_text.h"

/* Relative size of the rounding a closed loop of normals or an area may show: coordinates
 * are read to six decimals, sums of a few terms add a few ulps. */
#define CLOSE_TOL 1e-9

typedef struct {
    double mx, my; /* sum of the midpoints of the cell's sides */
    double nx, ny; /* sum of the outward normals */
    double perim;  /* sum of the side lengths */
    double area2;  /* twice the area enclosed by the sides, about the first corner */
    int nside;
} cell_acc;

static int check_indices(const airfoil_mesh *m, const char *src, char *err, size_t errlen)
{
    if (m->nnode < 3 || m->ncell < 1 || m->nedge < 0 || m->nbedge < 3)
        return op_text_fail(err, errlen, "%s: %d nodes, %d cells, %d edges, %d boundary edges: not a mesh",
                    src, m->nnode, m->ncell, m->nedge, m->nbedge);
    for (long k = 0; k < 2L * m->nnode; k++)
        if (!isfinite(m->x[k]))
            return op_text_fail(err, errlen, "%s: node %ld: coordinate %s is %g, not a finite number", src,
                        k / 2, k % 2 ? "y" : "x", m->x[k]);
    for (long k = 0; k < 4L * m->ncell; k++)
        if (m->cell[k] < 0 || m->cell[k] >= m->nnode)
            return op_text_fail(err, errlen, "%s: cell %ld: node %d is outside [0, %d)", src, k / 4,
                        m->cell[k], m->nnode);
    for (long k = 0; k < 2L * m->nedge; k++) {
        if (m->edge[k] < 0 || m->edge[k] >= m->nnode)
            return op_text_fail(err, errlen, "%s: edge %ld: node %d is outside [0, %d)", src, k / 2,
                        m->edge[k], m->nnode);
        if (m->ecell[k] < 0 || m->ecell[k] >= m->ncell)
            return op_text_fail(err, errlen, "%s: edge %ld: cell %d is outside [0, %d)", src, k / 2,
                        m->ecell[k], m->ncell);
    }
    for (long k = 0; k < m->nedge; k++)
        if (m->ecell[2 * k] == m->ecell[2 * k + 1] || m->edge[2 * k] == m->edge[2 * k + 1])
            return op_text_fail(err, errlen, "%s: edge %ld joins %s %d to itself", src, k,
                        m->edge[2 * k] == m->edge[2 * k + 1] ? "node" : "cell",
                        m->edge[2 * k] == m->edge[2 * k + 1] ? m->edge[2 * k] : m->ecell[2 * k]);
    for (long k = 0; k < m->nbedge; k++) {
        for (int q = 0; q < 2; q++)
            if (m->bedge[2 * k + q] < 0 || m->bedge[2 * k + q] >= m->nnode)
                return op_text_fail(err, errlen, "%s: boundary edge %ld: node %d is outside [0, %d)", src,
                            k, m->bedge[2 * k + q], m->nnode);
        if (m->bedge[2 * k] == m->bedge[2 * k + 1])
            return op_text_fail(err, errlen, "%s: boundary edge %ld joins node %d to itself", src, k,
                        m->bedge[2 * k]);
        if (m->becell[k] < 0 || m->becell[k] >= m->ncell)
            return op_text_fail(err, errlen, "%s: boundary edge %ld: cell %d is outside [0, %d)", src, k,
                        m->becell[k], m->ncell);
        if (m->bound[k] != AIRFOIL_MESH_WALL && m->bound[k] != AIRFOIL_MESH_FARFIELD)
            return op_text_fail(err, errlen,
                        "%s: boundary edge %ld: boundary flag %d is not 1 (wall) or 2 (far field)",
                        src, k, m->bound[k]);
    }
    return 0;
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

int airfoil_mesh_check(const airfoil_mesh *m, const char *source, char *err, size_t errlen)
{
    char src[OP_TEXT_SHOWN];
    op_text_shown(src, sizeof src, source ? source : "mesh");
    if (check_indices(m, src, err, errlen) != 0)
        return -1;
    cell_acc *acc = calloc((size_t)m->ncell, sizeof *acc);
    if (!acc)
        return op_text_fail(err, errlen, "%s: out of memory checking the mesh (%d cells)", src, m->ncell);
    const double *x = m->x;
    int rc = 0;

    /* 2. The sides of every cell, counter-clockwise: c1 meets its edge as n2 -> n1, c2 as
     * n1 -> n2, a boundary edge's cell as n2 -> n1. */
    for (long e = 0; e < m->nedge; e++) {
        const double *a = x + 2 * (size_t)m->edge[2 * e], *b = x + 2 * (size_t)m->edge[2 * e + 1];
        add_side(acc, m, m->ecell[2 * e], b, a);
        add_side(acc, m, m->ecell[2 * e + 1], a, b);
    }
    for (long e = 0; e < m->nbedge; e++) {
        const double *a = x + 2 * (size_t)m->bedge[2 * e], *b = x + 2 * (size_t)m->bedge[2 * e + 1];
        add_side(acc, m, m->becell[e], b, a);
    }
    for (long c = 0; c < m->ncell && rc == 0; c++)
        if (acc[c].nside != 4)
            rc = op_text_fail(err, errlen,
                      "%s: cell %ld is a side of %d edges (interior and boundary), a "
                      "quadrilateral of 4: an edge is missing, doubled, or names the wrong cell",
                      src, c, acc[c].nside);

    /* 3. Orientation of every edge against the cells it separates. */
    for (long e = 0; e < m->nedge && rc == 0; e++) {
        const double *a = x + 2 * (size_t)m->edge[2 * e], *b = x + 2 * (size_t)m->edge[2 * e + 1];
        double nx = a[1] - b[1], ny = b[0] - a[0];
        double mx = 0.5 * (a[0] + b[0]), my = 0.5 * (a[1] + b[1]);
        int c1 = m->ecell[2 * e], c2 = m->ecell[2 * e + 1];
        if (!(outwards(&acc[c1], nx, ny, mx, my) > 0.0) ||
            !(outwards(&acc[c2], nx, ny, mx, my) < 0.0))
            rc = op_text_fail(err, errlen,
                      "%s: edge %ld (nodes %d -> %d, cells %d | %d): its normal does not point "
                      "out of c1 = %d into c2 = %d (n1 and n2, or c1 and c2, swapped?)",
                      src, e, m->edge[2 * e], m->edge[2 * e + 1], c1, c2, c1, c2);
    }
    for (long e = 0; e < m->nbedge && rc == 0; e++) {
        const double *a = x + 2 * (size_t)m->bedge[2 * e], *b = x + 2 * (size_t)m->bedge[2 * e + 1];
        double nx = a[1] - b[1], ny = b[0] - a[0];
        double mx = 0.5 * (a[0] + b[0]), my = 0.5 * (a[1] + b[1]);
        if (!(outwards(&acc[m->becell[e]], nx, ny, mx, my) > 0.0))
            rc = op_text_fail(err, errlen,
                      "%s: boundary edge %ld (nodes %d -> %d, cell %d): its normal points into "
                      "the cell, not out of the domain (n1 and n2 swapped?)",
                      src, e, m->bedge[2 * e], m->bedge[2 * e + 1], m->becell[e]);
    }

    /* 4 and 5. Each cell closed by its sides, and its corners enclosing the same area. */
    for (long c = 0; c < m->ncell && rc == 0; c++) {
        const cell_acc *s = &acc[c];
        if (!(fabs(s->nx) <= CLOSE_TOL * s->perim && fabs(s->ny) <= CLOSE_TOL * s->perim)) {
            rc = op_text_fail(err, errlen,
                      "%s: cell %ld: its sides do not close (the outward normals sum to (%.3g, "
                      "%.3g), perimeter %.3g)",
                      src, c, s->nx, s->ny, s->perim);
            break;
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
            rc = op_text_fail(err, errlen,
                      "%s: cell %ld (nodes %d %d %d %d): area %.3g is not positive (corners not "
                      "counter-clockwise, or the cell is degenerate)",
                      src, c, n[0], n[1], n[2], n[3], 0.5 * area2);
        else if (!(fabs(area2 - s->area2) <= tol))
            rc = op_text_fail(err, errlen,
                      "%s: cell %ld (nodes %d %d %d %d): its corners enclose an area of %.6g, its "
                      "sides %.6g: the cell's nodes do not match its edges",
                      src, c, n[0], n[1], n[2], n[3], 0.5 * area2, 0.5 * s->area2);
    }
    free(acc);
    return rc;
}
