/*
 * Tests of the MG-CFD mesh family (mgcfd_mesh.h): the geometry of the median dual and the files
 * the program writes.
 *
 *   test_mgcfd_mesh geometry             levels built in memory: flat box, channel bump, hill
 *   test_mgcfd_mesh files DIR NI NJ NK L B [hill]   the files mgcfd_mesh wrote into DIR
 *
 * Each level is held to what a finite-volume scheme needs of it:
 *  - every dual cell closes: for each node the area vectors of its edges, signed out of it,
 *    and of its boundary faces sum to zero (the divergence theorem for a constant field);
 *  - the boundary as a whole closes: the outward boundary vectors sum to zero;
 *  - the volumes are positive and sum to the volume of the channel, computed another way:
 *    L W H less the integral of the lower wall's height over the triangles of its surface;
 *  - every edge, boundary and multigrid index is in range, every node is on an edge, every
 *    coarse node is the image of the fine node at its place, and every fine node goes to a
 *    nearest coarse node.
 * Rounding tolerances are 64 machine epsilons of the sum of the magnitudes added.
 */
#include "mgcfd_mesh.h"
#include "op_hdf5.h"
#include "test_check.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const double ROUNDING = 64 * DBL_EPSILON;

/* One level as arrays, in MG-CFD's layout. */
typedef struct {
  mgcfd_grid n;
  long long nodes, edges, bnd;
  double *xyz, *weight, *bweight, *vol;
  int *edge_node, *bnode, *bgroup, *mg; /* mg: NULL on the coarsest level */
} level;

static void level_free(level *l) {
  free(l->xyz);
  free(l->weight);
  free(l->bweight);
  free(l->vol);
  free(l->edge_node);
  free(l->bnode);
  free(l->bgroup);
  free(l->mg);
  memset(l, 0, sizeof *l);
}

static void level_alloc(level *l, mgcfd_grid n, int coarser) {
  l->n = n;
  l->nodes = mgcfd_node_count(n);
  l->edges = mgcfd_edge_count(n);
  l->bnd = mgcfd_bnd_count(n);
  l->xyz = malloc(sizeof(double) * 3 * (size_t)l->nodes);
  l->vol = calloc((size_t)l->nodes, sizeof(double));
  l->weight = malloc(sizeof(double) * 3 * (size_t)l->edges);
  l->edge_node = malloc(sizeof(int) * 2 * (size_t)l->edges);
  l->bweight = malloc(sizeof(double) * 3 * (size_t)l->bnd);
  l->bnode = malloc(sizeof(int) * (size_t)l->bnd);
  l->bgroup = malloc(sizeof(int) * (size_t)l->bnd);
  l->mg = coarser ? malloc(sizeof(int) * (size_t)l->nodes) : NULL;
  if (!l->xyz || !l->vol || !l->weight || !l->edge_node || !l->bweight || !l->bnode || !l->bgroup ||
      (coarser && !l->mg)) {
    fprintf(stderr, "test_mgcfd_mesh: out of memory\n");
    exit(2);
  }
}

/* The level as the library builds it in memory (the writer's steps, without a file). */
static void level_build(level *l, const mgcfd_geometry *g, mgcfd_grid fine, int lv, int levels,
                        int base) {
  mgcfd_grid n = mgcfd_level_grid(fine, lv);
  level_alloc(l, n, lv + 1 < levels);
  mgcfd_coords(g, n, 0, n.nk, l->xyz);
  /* Two blocks of planes, as the writer makes them, to check the edge numbering across them. */
  int half = n.nk / 2;
  long long e0 = mgcfd_edges_before_plane(n, half);
  mgcfd_edges(n, l->xyz, 0, half, base, l->edge_node, l->weight, l->vol);
  mgcfd_edges(n, l->xyz, half, n.nk, base, l->edge_node + 2 * e0, l->weight + 3 * e0, l->vol);
  CHECK(mgcfd_edges_before_plane(n, n.nk) == l->edges, "edge count");
  mgcfd_boundary(n, l->xyz, base, l->bnode, l->bgroup, l->bweight, l->vol);
  if (l->mg) mgcfd_coarse_map(n, l->xyz, 0, n.nk, base, l->mg);
}

/* A sum of many terms without the rounding of a running total (Neumaier's compensated
 * summation): the levels' volumes add up millions of terms. */
typedef struct {
  double sum, carry;
} exact_sum;

static void sum_add(exact_sum *s, double v) {
  double t = s->sum + v;
  s->carry += fabs(s->sum) >= fabs(v) ? (s->sum - t) + v : (v - t) + s->sum;
  s->sum = t;
}

static double sum_value(const exact_sum *s) { return s->sum + s->carry; }

static double norm(const double *v) { return sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

/* Indices in range, every node on an edge, groups known. */
static void check_indices(const char *what, const level *l, int base, long long coarse_nodes) {
  char *seen = calloc((size_t)l->nodes, 1);
  for (long long e = 0; e < l->edges; e++) {
    int a = l->edge_node[2 * e] - base, b = l->edge_node[2 * e + 1] - base;
    int ok = a >= 0 && a < l->nodes && b >= 0 && b < l->nodes && a != b;
    CHECK(ok, "%s: edge %lld joins %d and %d (base %d, %lld nodes)", what, e, a + base, b + base,
          base, l->nodes);
    if (!ok) continue;
    seen[a] = seen[b] = 1;
  }
  long long lonely = 0;
  for (long long p = 0; p < l->nodes; p++) lonely += !seen[p];
  CHECK(lonely == 0, "%s: %lld nodes are on no edge", what, lonely);
  for (long long r = 0; r < l->bnd; r++) {
    int p = l->bnode[r] - base, grp = l->bgroup[r];
    CHECK(p >= 0 && p < l->nodes, "%s: boundary node %lld is node %d", what, r, p + base);
    CHECK(grp == MGCFD_GROUP_LOWER_WALL || grp == MGCFD_GROUP_WALL || grp == MGCFD_GROUP_INFLOW ||
              grp == MGCFD_GROUP_OUTFLOW,
          "%s: boundary node %lld has group %d", what, r, grp);
  }
  long long outside = 0;
  for (long long p = 0; l->mg && p < l->nodes; p++)
    outside += l->mg[p] - base < 0 || l->mg[p] - base >= coarse_nodes;
  CHECK(outside == 0, "%s: %lld nodes go to no coarse node of the %lld (base %d)", what, outside,
        coarse_nodes, base);
  free(seen);
}

/* Every dual cell closes, and the boundary as a whole; returns the largest misclosure found
 * relative to its tolerance (at most 1 passes). */
static double check_closure(const char *what, const level *l, int base) {
  double *sum = calloc(3 * (size_t)l->nodes, sizeof(double));
  double *mag = calloc((size_t)l->nodes, sizeof(double));
  for (long long e = 0; e < l->edges; e++) {
    int a = l->edge_node[2 * e] - base, b = l->edge_node[2 * e + 1] - base;
    const double *w = l->weight + 3 * e;
    for (int c = 0; c < 3; c++) {
      sum[3 * a + c] += w[c]; /* out of the first node */
      sum[3 * b + c] -= w[c];
    }
    mag[a] += norm(w);
    mag[b] += norm(w);
  }
  double total[3] = {0, 0, 0}, total_mag = 0.0;
  for (long long r = 0; r < l->bnd; r++) {
    int p = l->bnode[r] - base;
    const double *w = l->bweight + 3 * r;
    for (int c = 0; c < 3; c++) {
      sum[3 * p + c] -= w[c]; /* stored pointing in: out is minus it */
      total[c] -= w[c];
    }
    mag[p] += norm(w);
    total_mag += norm(w);
  }
  double worst = 0.0;
  long long worst_node = -1;
  for (long long p = 0; p < l->nodes; p++) {
    double ratio = norm(sum + 3 * p) / (ROUNDING * mag[p]);
    if (!(ratio <= worst)) {
      worst = ratio;
      worst_node = p;
    }
  }
  CHECK(worst <= 1.0,
        "%s: the dual cell of node %lld does not close: |sum of its area vectors| = %.3g, %.3g "
        "times the rounding tolerance",
        what, worst_node, worst_node >= 0 ? norm(sum + 3 * worst_node) : 0.0, worst);
  double bratio = norm(total) / (ROUNDING * total_mag);
  CHECK(bratio <= 1.0, "%s: the boundary's area vectors sum to %.3g (%.3g times the tolerance)",
        what, norm(total), bratio);
  free(sum);
  free(mag);
  return worst > bratio ? worst : bratio;
}

/* The channel's volume from its lower wall: L W H less the integral of the wall's height over
 * the triangles of its surface (each boundary quadrilateral of a node, fanned about its centroid,
 * as docs/meshes.md describes). The walls x = 0, L, y = 0, W and z = H must be planes. */
static double channel_volume(const char *what, const level *l, const mgcfd_geometry *g) {
  const mgcfd_grid n = l->n;
  const double *x = l->xyz;
#define NODE(i, j, k) ((size_t)(i) + (size_t)n.ni * ((size_t)(j) + (size_t)n.nj * (size_t)(k)))
  for (int k = 0; k < n.nk; k++)
    for (int j = 0; j < n.nj; j++)
      for (int i = 0; i < n.ni; i++) {
        const double *p = x + 3 * NODE(i, j, k);
        if (i == 0 || i == n.ni - 1)
          CHECK(p[0] == (i ? g->length : 0.0), "%s: node (%d,%d,%d) off its wall", what, i, j, k);
        if (j == 0 || j == n.nj - 1)
          CHECK(p[1] == (j ? g->width : 0.0), "%s: node (%d,%d,%d) off its wall", what, i, j, k);
        if (k == n.nk - 1)
          CHECK(p[2] == g->height, "%s: node (%d,%d,%d) off the top", what, i, j, k);
      }
  exact_sum under = {0, 0}; /* integral of z over the lower wall */
  for (int j = 0; j + 1 < n.nj; j++)
    for (int i = 0; i + 1 < n.ni; i++) {
      const double *corner[4] = {x + 3 * NODE(i, j, 0), x + 3 * NODE(i + 1, j, 0),
                                 x + 3 * NODE(i + 1, j + 1, 0), x + 3 * NODE(i, j + 1, 0)};
      /* x and y from the cell's first corner, so that rounding follows the cell's size; z as
       * it is (the integrand). */
      double c[4][3];
      for (int q = 0; q < 4; q++) {
        c[q][0] = corner[q][0] - corner[0][0];
        c[q][1] = corner[q][1] - corner[0][1];
        c[q][2] = corner[q][2];
      }
      double f[3] = {0, 0, 0};
      for (int q = 0; q < 4; q++)
        for (int d = 0; d < 3; d++) f[d] += 0.25 * c[q][d];
      for (int q = 0; q < 4; q++) { /* the corner's quadrilateral: P, Ma, F, Mb */
        double poly[4][3];
        for (int d = 0; d < 3; d++) {
          poly[0][d] = c[q][d];
          poly[1][d] = 0.5 * (c[q][d] + c[(q + 1) % 4][d]);
          poly[2][d] = f[d];
          poly[3][d] = 0.5 * (c[q][d] + c[(q + 3) % 4][d]);
        }
        double m[3];
        for (int d = 0; d < 3; d++)
          m[d] = 0.25 * (poly[0][d] + poly[1][d] + poly[2][d] + poly[3][d]);
        for (int t = 0; t < 4; t++) {
          const double *a = poly[t], *b = poly[(t + 1) % 4];
          double area = 0.5 * fabs((a[0] - m[0]) * (b[1] - m[1]) - (a[1] - m[1]) * (b[0] - m[0]));
          sum_add(&under, area * (m[2] + a[2] + b[2]) / 3.0);
        }
      }
    }
#undef NODE
  return g->length * g->width * g->height - sum_value(&under);
}

static double det3(const double *o, const double *a, const double *b, const double *c) {
  double u[3], v[3], w[3];
  for (int d = 0; d < 3; d++) {
    u[d] = a[d] - o[d];
    v[d] = b[d] - o[d];
    w[d] = c[d] - o[d];
  }
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
         u[2] * (v[0] * w[1] - v[1] * w[0]);
}

/* Each node's volume another way: cell by cell, the eight corner pieces as hexahedra (node,
 * edge midpoints, face centroids, cell centroid), each face fanned about its centroid into four
 * triangles, each triangle the base of a tetrahedron with its apex at the node. */
static void corner_volumes(const level *l, double *vol) {
  const mgcfd_grid n = l->n;
  memset(vol, 0, sizeof(double) * (size_t)l->nodes);
  /* The faces of a hexahedron with corners numbered u + 2v + 4w, all looking out. */
  static const int faces[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4},
                                  {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
  for (int ck = 0; ck + 1 < n.nk; ck++)
    for (int cj = 0; cj + 1 < n.nj; cj++)
      for (int ci = 0; ci + 1 < n.ni; ci++) {
        double p[8][3];
        size_t id[8];
        for (int q = 0; q < 8; q++) {
          id[q] = (size_t)(ci + (q & 1)) + (size_t)n.ni * ((size_t)(cj + (q >> 1 & 1)) +
                                                           (size_t)n.nj * (size_t)(ck + (q >> 2)));
          for (int d = 0; d < 3; d++) /* from the cell's first corner: rounding as a cell's size */
            p[q][d] = l->xyz[3 * id[q] + d] - l->xyz[3 * id[0] + d];
        }
        for (int q = 0; q < 8; q++) {
          /* The corner piece of cell corner q: its corner s (= u + 2v + 4w) is the mean of the
           * cell corners that differ from q only along the axes set in s. */
          double h[8][3];
          for (int s = 0; s < 8; s++) {
            int count = 0;
            double sum[3] = {0, 0, 0};
            for (int r = 0; r < 8; r++)
              if (((r ^ q) & ~s) == 0) {
                for (int d = 0; d < 3; d++) sum[d] += p[r][d];
                count++;
              }
            for (int d = 0; d < 3; d++) h[s][d] = sum[d] / count;
          }
          double v = 0.0;
          for (int f = 0; f < 6; f++) {
            double m[3];
            for (int d = 0; d < 3; d++)
              m[d] = 0.25 * (h[faces[f][0]][d] + h[faces[f][1]][d] + h[faces[f][2]][d] +
                             h[faces[f][3]][d]);
            for (int t = 0; t < 4; t++)
              v += det3(h[0], m, h[faces[f][t]], h[faces[f][(t + 1) % 4]]) / 6.0;
          }
          vol[id[q]] += fabs(v); /* the piece's frame is left-handed at some corners */
        }
      }
}

static double check_volumes(const char *what, const level *l, const mgcfd_geometry *g) {
  double *other = malloc(sizeof(double) * (size_t)l->nodes + 1);
  corner_volumes(l, other);
  double worst = 0.0;
  long long worst_node = 0;
  for (long long p = 0; p < l->nodes; p++) {
    double ratio = fabs(l->vol[p] - other[p]) / (ROUNDING * other[p]);
    if (!(ratio <= worst)) {
      worst = ratio;
      worst_node = p;
    }
  }
  CHECK(worst <= 1.0,
        "%s: node %lld's volume is %.17g, its corner pieces' %.17g (%.3g times the "
        "rounding tolerance)",
        what, worst_node, l->vol[worst_node], other[worst_node], worst);
  free(other);
  exact_sum sum = {0, 0};
  double mag = 0.0;
  long long bad = 0;
  for (long long p = 0; p < l->nodes; p++) {
    if (!(l->vol[p] > 0.0)) bad++;
    sum_add(&sum, l->vol[p]);
    mag += fabs(l->vol[p]);
  }
  const double total = sum_value(&sum);
  CHECK(bad == 0, "%s: %lld volumes are not positive", what, bad);
  double want = channel_volume(what, l, g);
  CHECK(fabs(total - want) <= ROUNDING * mag,
        "%s: the volumes sum to %.17g, the channel's volume is %.17g (difference %.3g)", what,
        total, want, total - want);
  return worst;
}

/* Every coarse node is the image of the fine node at its place; every fine node goes to a
 * nearest coarse node. */
static void check_nesting(const char *what, const level *fine, const level *coarse, int base) {
  const mgcfd_grid n = fine->n, c = coarse->n;
  char *hit = calloc((size_t)coarse->nodes, 1);
  long long far = 0;
  for (int k = 0; k < n.nk; k++)
    for (int j = 0; j < n.nj; j++)
      for (int i = 0; i < n.ni; i++) {
        size_t p = (size_t)i + (size_t)n.ni * ((size_t)j + (size_t)n.nj * (size_t)k);
        int to = fine->mg[p] - base;
        if (to < 0 || to >= coarse->nodes) continue; /* check_indices reports it */
        hit[to] = 1;
        const double *x = fine->xyz + 3 * p, *y = coarse->xyz + 3 * (size_t)to;
        double d2 = (x[0] - y[0]) * (x[0] - y[0]) + (x[1] - y[1]) * (x[1] - y[1]) +
                    (x[2] - y[2]) * (x[2] - y[2]);
        if (i % 2 == 0 && j % 2 == 0 && k % 2 == 0) {
          size_t twin =
              (size_t)(i / 2) + (size_t)c.ni * ((size_t)(j / 2) + (size_t)c.nj * (size_t)(k / 2));
          CHECK(to == (long long)twin && d2 == 0.0,
                "%s: fine node %zu, at coarse node %zu's place, goes to %d", what, p, twin, to);
        }
        /* No coarse node of the coarse cell around it is nearer. */
        for (int kk = k / 2; kk <= (k + 1) / 2 && kk < c.nk; kk++)
          for (int jj = j / 2; jj <= (j + 1) / 2 && jj < c.nj; jj++)
            for (int ii = i / 2; ii <= (i + 1) / 2 && ii < c.ni; ii++) {
              const double *z =
                  coarse->xyz +
                  3 * ((size_t)ii + (size_t)c.ni * ((size_t)jj + (size_t)c.nj * (size_t)kk));
              double e2 = (x[0] - z[0]) * (x[0] - z[0]) + (x[1] - z[1]) * (x[1] - z[1]) +
                          (x[2] - z[2]) * (x[2] - z[2]);
              if (e2 < d2 * (1.0 - ROUNDING)) far++; /* nearer beyond rounding */
            }
      }
  CHECK(far == 0, "%s: %lld fine nodes have a nearer coarse node than theirs", what, far);
  long long missed = 0;
  for (long long q = 0; q < coarse->nodes; q++) missed += !hit[q];
  CHECK(missed == 0, "%s: %lld coarse nodes are the image of no fine node", what, missed);
  free(hit);
}

static void check_family(const char *name, level *lv, int levels, const mgcfd_geometry *g,
                         int base) {
  char what[128];
  for (int l = 0; l < levels; l++) {
    snprintf(what, sizeof what, "%s level %d", name, l);
    check_indices(what, &lv[l], base, l + 1 < levels ? lv[l + 1].nodes : 0);
    double worst = check_closure(what, &lv[l], base);
    double vworst = check_volumes(what, &lv[l], g);
    if (l + 1 < levels) check_nesting(what, &lv[l], &lv[l + 1], base);
    printf(
        "%s: %d x %d x %d = %lld nodes, %lld edges, %lld boundary nodes; of the rounding "
        "tolerance, worst misclosure %.3f, worst volume %.3f\n",
        what, lv[l].n.ni, lv[l].n.nj, lv[l].n.nk, lv[l].nodes, lv[l].edges, lv[l].bnd, worst,
        vworst);
  }
}

/* ---- in memory ------------------------------------------------------------------------------ */

static void test_geometry(void) {
  char err[512];
  const mgcfd_grid fine = {25, 9, 9};
  const int levels = 3;
  for (int shape = 0; shape < 3; shape++) {
    mgcfd_geometry g = mgcfd_geometry_default();
    const char *name = shape == 0 ? "flat box" : shape == 1 ? "channel bump" : "hill";
    if (shape == 0) g.bump_height = 0.0;
    if (shape == 2) {
      g.bump_width = 0.5;
      g.bump_height = 0.2;
    }
    CHECK(mgcfd_check(&g, fine, levels, err, sizeof err) == 0, "%s", err);
    level lv[3];
    for (int l = 0; l < levels; l++) level_build(&lv[l], &g, fine, l, levels, shape == 1);
    check_family(name, lv, levels, &g, shape == 1);
    if (shape == 0) {
      /* A box of cubes of side h = 0.125: an interior node's volume is h^3, the +x edge's
       * weight (h^2, 0, 0). */
      const level *f = &lv[0];
      size_t p = 4 + 25 * (4 + 9 * 4);
      CHECK(fabs(f->vol[p] - 0.125 * 0.125 * 0.125) <= 1e-15, "volume %.17g", f->vol[p]);
      long long e = mgcfd_edges_before_plane(f->n, 4);
      for (; e < f->edges && f->edge_node[2 * e] != (int)p; e++) {
      }
      CHECK(f->edge_node[2 * e + 1] == (int)p + 1 && fabs(f->weight[3 * e] - 0.015625) <= 1e-16 &&
                f->weight[3 * e + 1] == 0.0 && fabs(f->weight[3 * e + 2]) <= 1e-18,
            "edge %lld: (%d, %d) weight (%g, %g, %g)", e, f->edge_node[2 * e],
            f->edge_node[2 * e + 1], f->weight[3 * e], f->weight[3 * e + 1], f->weight[3 * e + 2]);
      /* The lower wall's boundary vector points up, into the channel: a quarter cell face at a
       * corner, a whole one inside. */
      CHECK(f->bgroup[0] == MGCFD_GROUP_LOWER_WALL && fabs(f->bweight[2] - 0.015625 / 4) <= 1e-16,
            "corner boundary vector z %g", f->bweight[2]);
    }
    for (int l = 0; l < levels; l++) level_free(&lv[l]);
  }
  /* Refusals. */
  mgcfd_geometry g = mgcfd_geometry_default();
  CHECK(mgcfd_check(&g, (mgcfd_grid){24, 9, 9}, 3, err, sizeof err) != 0 &&
            strstr(err, "ni = 24 nodes does not coarsen 2 times") != NULL,
        "message: %s", err);
  g.bump_height = 1.5;
  CHECK(mgcfd_check(&g, fine, 3, err, sizeof err) != 0 && strstr(err, "bump height") != NULL,
        "message: %s", err);
  g = mgcfd_geometry_default();
  CHECK(mgcfd_check(&g, (mgcfd_grid){40001, 40001, 3}, 1, err, sizeof err) != 0 &&
            strstr(err, "too large") != NULL,
        "message: %s", err);
  mgcfd_grid s = mgcfd_grid_for_size(&g, 100000, 4);
  CHECK(s.ni == 97 && s.nj == 33 && s.nk == 33, "--size 100000: %d x %d x %d", s.ni, s.nj, s.nk);
}

/* ---- the files --------------------------------------------------------------------------------
 */

static int read_ds(const char *file, const char *name, const char *type, long long rows, int cols,
                   void *buf) {
  char err[1024];
  op_hdf5_info info;
  int ok = op_hdf5_query_dataset(file, name, &info, err, sizeof err) == 0;
  CHECK(ok, "%s", err);
  if (!ok) return -1;
  int is_int = !strcmp(type, "int");
  ok = info.rank == 2 && info.rows == rows && info.cols == cols && info.type_known &&
       info.type == (is_int ? OP_TYPE_INT : OP_TYPE_DOUBLE);
  CHECK(ok, "%s: dataset %s is rank %d [%lld, %lld] %s, want [%lld, %d] %s", file, name, info.rank,
        info.rows, info.cols, info.type_name, rows, cols, type);
  if (!ok) return -1;
  ok = op_hdf5_read_dataset(file, name, type, rows, cols, buf, err, sizeof err) == 0;
  CHECK(ok, "%s", err);
  return ok ? 0 : -1;
}

/* The legacy name holds the same values as today's. */
static void check_same(const char *file, const char *name, const char *legacy, const char *type,
                       long long rows, int cols, const void *have) {
  size_t bytes = (size_t)rows * (size_t)cols * (strcmp(type, "int") ? sizeof(double) : sizeof(int));
  void *buf = malloc(bytes + 1);
  if (read_ds(file, legacy, type, rows, cols, buf) == 0)
    CHECK(memcmp(buf, have, bytes) == 0, "%s: %s differs from %s", file, legacy, name);
  free(buf);
}

static int test_files(const char *dir, mgcfd_grid fine, int levels, int base, int hill) {
  char path[4096], line[4096];
  /* The input file, as MG-CFD's reader takes it. */
  snprintf(path, sizeof path, "%s/input.dat", dir);
  FILE *in = fopen(path, "r");
  CHECK(in != NULL, "cannot open %s", path);
  if (!in) return check_exit("mgcfd_mesh files");
  char want[4096];
  int off = snprintf(want, sizeof want,
                     "size=%lld\nnum_levels=%d\nmesh_name=fvcorr\nbase_array_index=%d\n[levels]\n",
                     mgcfd_node_count(fine), levels, base);
  for (int l = 0; l < levels; l++)
    off += snprintf(want + off, sizeof want - (size_t)off, "%d=mesh_L%d.h5\n", l, l);
  char have[4096] = "";
  size_t used = 0;
  while (fgets(line, sizeof line, in))
    if (line[0] != '#' && used + strlen(line) < sizeof have) {
      memcpy(have + used, line, strlen(line) + 1);
      used += strlen(line);
    }
  fclose(in);
  CHECK(strcmp(have, want) == 0, "%s holds\n%s\nnot\n%s", path, have, want);

  mgcfd_geometry g = mgcfd_geometry_default();
  if (hill) g.bump_width = 0.5; /* mgcfd_mesh --hill */
  level *lv = calloc((size_t)levels, sizeof(level));
  for (int l = 0; l < levels; l++) {
    snprintf(path, sizeof path, "%s/mesh_L%d.h5", dir, l);
    level *v = &lv[l];
    level_alloc(v, mgcfd_level_grid(fine, l), l + 1 < levels);
    read_ds(path, "node_coordinates", "double", v->nodes, 3, v->xyz);
    read_ds(path, "edge-->node", "int", v->edges, 2, v->edge_node);
    read_ds(path, "edge_weights", "double", v->edges, 3, v->weight);
    read_ds(path, "bnd_node-->node", "int", v->bnd, 1, v->bnode);
    read_ds(path, "bnd_node-->group", "int", v->bnd, 1, v->bgroup);
    read_ds(path, "bnd_node_weights", "double", v->bnd, 3, v->bweight);
    read_ds(path, "areas", "double", v->nodes, 1, v->vol);
    char err[1024];
    int has_map = op_hdf5_dataset_exists(path, "node-->mg_node", err, sizeof err);
    CHECK(has_map == (l + 1 < levels), "%s: node-->mg_node %s", path,
          has_map ? "present" : "missing");
    if (v->mg) read_ds(path, "node-->mg_node", "int", v->nodes, 1, v->mg);
    check_same(path, "node_coordinates", "node_coordinates.renumbered", "double", v->nodes, 3,
               v->xyz);
    check_same(path, "edge-->node", "edge-->node.renumbered", "int", v->edges, 2, v->edge_node);
    check_same(path, "bnd_node-->node", "bnd_node-->node.renumbered", "int", v->bnd, 1, v->bnode);
    check_same(path, "edge_weights", "edge_weights.recalculated", "double", v->edges, 3, v->weight);
    if (v->mg)
      check_same(path, "node-->mg_node", "node-->mg_node.renumbered", "int", v->nodes, 1, v->mg);
  }
  if (check_failures == 0) check_family("files", lv, levels, &g, base);
  /* The files hold what the library builds, bit for bit. */
  for (int l = 0; l < levels && check_failures == 0; l++) {
    level m;
    level_build(&m, &g, fine, l, levels, base);
    CHECK(!memcmp(m.xyz, lv[l].xyz, sizeof(double) * 3 * (size_t)m.nodes) &&
              !memcmp(m.weight, lv[l].weight, sizeof(double) * 3 * (size_t)m.edges) &&
              !memcmp(m.vol, lv[l].vol, sizeof(double) * (size_t)m.nodes) &&
              !memcmp(m.bweight, lv[l].bweight, sizeof(double) * 3 * (size_t)m.bnd),
          "level %d: the file differs from the library's arrays", l);
    level_free(&m);
  }
  for (int l = 0; l < levels; l++) level_free(&lv[l]);
  free(lv);
  return check_exit("mgcfd_mesh files");
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "geometry")) {
    test_geometry();
    return check_exit("mgcfd_mesh geometry");
  }
  if ((argc == 8 || (argc == 9 && !strcmp(argv[8], "hill"))) && !strcmp(argv[1], "files")) {
    mgcfd_grid fine = {atoi(argv[3]), atoi(argv[4]), atoi(argv[5])};
    return test_files(argv[2], fine, atoi(argv[6]), atoi(argv[7]), argc == 9);
  }
  fprintf(stderr, "usage: test_mgcfd_mesh geometry | files DIR NI NJ NK LEVELS BASE [hill]\n");
  return 2;
}
