/*
 * mgcfd_geometry.c - the channel with a bump as a structured grid, and its median-dual
 * control volumes: edge and boundary area vectors, volumes, the map to the coarser level
 * (mgcfd_mesh.h, docs/meshes.md).
 *
 * Every vector is computed relative to the node it belongs to (or to the edge's first node),
 * so that rounding follows the size of a cell, not the distance from the origin.
 */
#include "mgcfd_mesh.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>

static const double PI = 3.14159265358979323846;

mgcfd_geometry mgcfd_geometry_default(void) {
  mgcfd_geometry g = {3.0, 1.0, 1.0, 0.1, 1.0, 0.0};
  return g;
}

/* cos^2 profile of the given length about centre, 0 outside it: smooth to the first derivative. */
static double profile(double s, double centre, double length) {
  double u = (s - centre) / length;
  if (u <= -0.5 || u >= 0.5) return 0.0;
  double c = cos(PI * u);
  return c * c;
}

double mgcfd_bump(const mgcfd_geometry *g, double x, double y) {
  double f = g->bump_height * profile(x, 0.5 * g->length, g->bump_length);
  if (g->bump_width > 0.0) f *= profile(y, 0.5 * g->width, g->bump_width);
  return f;
}

mgcfd_grid mgcfd_level_grid(mgcfd_grid fine, int level) {
  mgcfd_grid n = {(fine.ni - 1) / (1 << level) + 1, (fine.nj - 1) / (1 << level) + 1,
                  (fine.nk - 1) / (1 << level) + 1};
  return n;
}

long long mgcfd_node_count(mgcfd_grid n) { return (long long)n.ni * n.nj * n.nk; }

long long mgcfd_edge_count(mgcfd_grid n) {
  return (long long)(n.ni - 1) * n.nj * n.nk + (long long)n.ni * (n.nj - 1) * n.nk +
         (long long)n.ni * n.nj * (n.nk - 1);
}

long long mgcfd_bnd_count(mgcfd_grid n) {
  return 2LL * n.ni * n.nj + 2LL * n.ni * n.nk + 2LL * n.nj * n.nk;
}

long long mgcfd_edges_before_plane(mgcfd_grid n, int k) {
  /* Every plane below k has its in-plane edges and one +z edge a node. */
  long long in_plane = (long long)(n.ni - 1) * n.nj + (long long)n.ni * (n.nj - 1);
  long long below = k < n.nk ? k : n.nk - 1;
  return (long long)k * in_plane + below * n.ni * n.nj;
}

int mgcfd_check(const mgcfd_geometry *g, mgcfd_grid fine, int levels, char *err, size_t errlen) {
  const double sizes[3] = {g->length, g->width, g->height};
  const char *names[3] = {"length", "width", "height"};
  for (int a = 0; a < 3; a++)
    if (!isfinite(sizes[a]) || sizes[a] <= 0.0) {
      snprintf(err, errlen, "the channel's %s %g is not a positive number", names[a], sizes[a]);
      return -1;
    }
  if (!isfinite(g->bump_height) || fabs(g->bump_height) >= g->height) {
    snprintf(err, errlen, "the bump height %g is not within (-%g, %g): the channel's height",
             g->bump_height, g->height, g->height);
    return -1;
  }
  if (!isfinite(g->bump_length) || g->bump_length <= 0.0 || !isfinite(g->bump_width) ||
      g->bump_width < 0.0) {
    snprintf(err, errlen, "the bump length %g must be positive and its width %g at least 0",
             g->bump_length, g->bump_width);
    return -1;
  }
  if (levels < 1 || levels > 20) {
    snprintf(err, errlen, "levels %d is not within [1, 20]", levels);
    return -1;
  }
  const int counts[3] = {fine.ni, fine.nj, fine.nk};
  const char *axes[3] = {"ni", "nj", "nk"};
  const long long step = 1LL << (levels - 1);
  for (int a = 0; a < 3; a++)
    if (counts[a] < 2 || (counts[a] - 1) % step != 0 || (counts[a] - 1) / step < 1) {
      snprintf(err, errlen,
               "%s = %d nodes does not coarsen %d times: it needs %s - 1 a positive multiple of "
               "2^%d = %lld (e.g. %lld)",
               axes[a], counts[a], levels - 1, axes[a], levels - 1, step,
               counts[a] < 2 ? step + 1 : ((counts[a] - 1) / step + 1) * step + 1);
      return -1;
    }
  /* OP2 counts a dat's values (set size times dim) in an int: MG-CFD's 5 variables a node,
   * 3 weights an edge. */
  long long nodes = mgcfd_node_count(fine), edges = mgcfd_edge_count(fine);
  if (nodes > INT_MAX / 5 || edges > INT_MAX / 3) {
    snprintf(err, errlen,
             "%d x %d x %d nodes (%lld nodes, %lld edges) is too large: OP2 sizes are ints, so "
             "5 values a node and 3 an edge must stay below %d",
             fine.ni, fine.nj, fine.nk, nodes, edges, INT_MAX);
    return -1;
  }
  return 0;
}

/* Cells along an axis: a multiple of step near want, at least step. */
static long long cells_near(double want, long long step) {
  long long m = llround(want / (double)step);
  return (m < 1 ? 1 : m) * step;
}

mgcfd_grid mgcfd_grid_for_size(const mgcfd_geometry *g, long long nodes, int levels) {
  const long long step = 1LL << (levels - 1);
  mgcfd_grid best = {(int)step + 1, (int)step + 1, (int)step + 1};
  long long best_miss = -1;
  for (long long c = step; c <= 100000; c += step) {
    long long cx = cells_near((double)c * g->length / g->height, step);
    long long cy = cells_near((double)c * g->width / g->height, step);
    if (cx > INT_MAX - 1 || cy > INT_MAX - 1) break;
    long long have = (cx + 1) * (cy + 1) * (c + 1);
    long long miss = have > nodes ? have - nodes : nodes - have;
    if (best_miss < 0 || miss < best_miss) {
      best_miss = miss;
      best.ni = (int)cx + 1;
      best.nj = (int)cy + 1;
      best.nk = (int)c + 1;
    }
    if (have > nodes) break;
  }
  return best;
}

/* The coordinate t in [0, 1] of index i of n nodes: exactly 0 and 1 at the ends, and the same
 * double on every level for the same point (2i / 2m is i / m exactly). */
static double along(int i, int n) { return (double)i / (double)(n - 1); }

void mgcfd_coords(const mgcfd_geometry *g, mgcfd_grid n, int k0, int k1, double *xyz) {
  size_t p = 0;
  for (int k = k0; k < k1; k++) {
    double t = along(k, n.nk);
    for (int j = 0; j < n.nj; j++) {
      double y = g->width * along(j, n.nj);
      for (int i = 0; i < n.ni; i++, p++) {
        double x = g->length * along(i, n.ni);
        /* A straight vertical line from the wall to the top: z is exactly f at t = 0 and
         * exactly H at t = 1. */
        double z = mgcfd_bump(g, x, y) * (1.0 - t) + g->height * t;
        xyz[3 * p] = x;
        xyz[3 * p + 1] = y;
        xyz[3 * p + 2] = z;
      }
    }
  }
}

/* ---- vectors ------------------------------------------------------------------------------ */

typedef struct {
  double x, y, z;
} vec;

static vec sub(vec a, vec b) { return (vec){a.x - b.x, a.y - b.y, a.z - b.z}; }
static vec add(vec a, vec b) { return (vec){a.x + b.x, a.y + b.y, a.z + b.z}; }
static vec scale(vec a, double s) { return (vec){a.x * s, a.y * s, a.z * s}; }
static double dot(vec a, vec b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static vec cross(vec a, vec b) {
  return (vec){a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

/* The node at index triple idx, as a position relative to ref. */
typedef struct {
  mgcfd_grid n;
  const double *xyz;
} level_view;

static size_t node_id(mgcfd_grid n, const int idx[3]) {
  return (size_t)idx[0] + (size_t)n.ni * ((size_t)idx[1] + (size_t)n.nj * (size_t)idx[2]);
}

static vec at(const level_view *v, const int idx[3], vec ref) {
  const double *x = v->xyz + 3 * node_id(v->n, idx);
  return (vec){x[0] - ref.x, x[1] - ref.y, x[2] - ref.z};
}

static vec node_pos(const level_view *v, size_t id) {
  const double *x = v->xyz + 3 * id;
  return (vec){x[0], x[1], x[2]};
}

/* Centroid (mean of the corners) of the quadrilateral face at corner idx spanned by the axes
 * a and b, stepping sa and sb (+1 or -1) along them. */
static vec face_centroid(const level_view *v, const int idx[3], int a, int sa, int b, int sb,
                         vec ref) {
  int p1[3] = {idx[0], idx[1], idx[2]}, p2[3] = {idx[0], idx[1], idx[2]},
      p3[3] = {idx[0], idx[1], idx[2]};
  p1[a] += sa;
  p2[b] += sb;
  p3[a] += sa;
  p3[b] += sb;
  vec s = add(add(at(v, idx, ref), at(v, p1, ref)), add(at(v, p2, ref), at(v, p3, ref)));
  return scale(s, 0.25);
}

static int axis_size(mgcfd_grid n, int a) { return a == 0 ? n.ni : a == 1 ? n.nj : n.nk; }

/* Index ranges: may idx step s along axis a and stay in the grid? */
static int can_step(mgcfd_grid n, const int idx[3], int a, int s) {
  int to = idx[a] + s;
  return to >= 0 && to < axis_size(n, a);
}

/*
 * The dual face of the edge from node idx along axis d, and its share of the two volumes.
 * With (d, a, b) a cyclic order of the axes, each cell holding the edge lies on the side
 * (sa, sb) of it, and contributes the quadrilateral (edge midpoint M, centroid Fa of its face
 * spanned by d and a, cell centroid C, centroid Fb of its face spanned by d and b). Its area
 * vector 0.5 (C - M) x (Fb - Fa) points along sa sb d (in index space: a x b = d), so
 * sa sb times it points from the first node to the second.
 */
static vec edge_face(const level_view *v, const int idx[3], int d, double *vol_p, double *vol_q) {
  const int a = (d + 1) % 3, b = (d + 2) % 3;
  const vec ref = node_pos(v, node_id(v->n, idx));
  int q[3] = {idx[0], idx[1], idx[2]};
  q[d] += 1;
  const vec xq = at(v, q, ref); /* the second node, relative to the first */
  const vec mid = scale(xq, 0.5);
  vec area = {0, 0, 0};
  double share_p = 0.0, share_q = 0.0;
  for (int sb = -1; sb <= 1; sb += 2) {
    if (!can_step(v->n, idx, b, sb)) continue;
    for (int sa = -1; sa <= 1; sa += 2) {
      if (!can_step(v->n, idx, a, sa)) continue;
      vec fa = face_centroid(v, idx, a, sa, d, 1, ref);
      vec fb = face_centroid(v, idx, b, sb, d, 1, ref);
      /* The cell centroid: the mean of its two faces spanned by d and a (the one at the edge,
       * and the one a step sb along b). */
      int far[3] = {idx[0], idx[1], idx[2]};
      far[b] += sb;
      vec c = scale(add(fa, face_centroid(v, far, a, sa, d, 1, ref)), 0.5);
      vec quad = scale(cross(sub(c, mid), sub(fb, fa)), 0.5 * sa * sb);
      vec m = scale(add(add(mid, fa), add(c, fb)), 0.25);
      area = add(area, quad);
      share_p += dot(m, quad) / 3.0;
      share_q -= dot(sub(m, xq), quad) / 3.0;
    }
  }
  *vol_p += share_p;
  *vol_q += share_q;
  return area;
}

void mgcfd_edges(mgcfd_grid n, const double *xyz, int k0, int k1, int base, int *edge_node,
                 double *weight, double *vol) {
  const level_view v = {n, xyz};
  size_t e = 0;
  double sink_p = 0.0, sink_q = 0.0;
  for (int k = k0; k < k1; k++)
    for (int j = 0; j < n.nj; j++)
      for (int i = 0; i < n.ni; i++) {
        const int idx[3] = {i, j, k};
        const size_t p = node_id(n, idx);
        for (int d = 0; d < 3; d++) {
          if (!can_step(n, idx, d, 1)) continue;
          int q[3] = {i, j, k};
          q[d] += 1;
          const size_t qn = node_id(n, q);
          double *vp = vol ? &vol[p] : &sink_p, *vq = vol ? &vol[qn] : &sink_q;
          vec w = edge_face(&v, idx, d, vp, vq);
          edge_node[2 * e] = (int)p + base;
          edge_node[2 * e + 1] = (int)qn + base;
          weight[3 * e] = w.x;
          weight[3 * e + 1] = w.y;
          weight[3 * e + 2] = w.z;
          e++;
        }
      }
}

/* ---- the boundary ------------------------------------------------------------------------- */

/*
 * Node idx's part of the boundary face normal to axis d on side s (-1 at index 0, +1 at the
 * last index): for each boundary quadrilateral at the node, on the side (sa, sb) of it, the
 * quadrilateral (node P, midpoint Ma of its edge along a, face centroid F, midpoint Mb of its
 * edge along b), whose area vector 0.5 (F - P) x (Mb - Ma) points along sa sb d: s sa sb times
 * it points out of the channel. Returns the outward vector; adds the volume share to *vol.
 */
static vec boundary_face(const level_view *v, const int idx[3], int d, int s, double *vol) {
  const int a = (d + 1) % 3, b = (d + 2) % 3;
  const vec ref = node_pos(v, node_id(v->n, idx));
  vec area = {0, 0, 0};
  double share = 0.0;
  for (int sb = -1; sb <= 1; sb += 2) {
    if (!can_step(v->n, idx, b, sb)) continue;
    for (int sa = -1; sa <= 1; sa += 2) {
      if (!can_step(v->n, idx, a, sa)) continue;
      int pa[3] = {idx[0], idx[1], idx[2]}, pb[3] = {idx[0], idx[1], idx[2]};
      pa[a] += sa;
      pb[b] += sb;
      vec ma = scale(at(v, pa, ref), 0.5), mb = scale(at(v, pb, ref), 0.5);
      vec f = face_centroid(v, idx, a, sa, b, sb, ref);
      vec quad = scale(cross(f, sub(mb, ma)), 0.5 * s * sa * sb);
      vec m = scale(add(add(ma, f), mb), 0.25);
      area = add(area, quad);
      share += dot(m, quad) / 3.0;
    }
  }
  *vol += share;
  return area;
}

void mgcfd_boundary(mgcfd_grid n, const double *xyz, int base, int *bnd_node, int *bnd_group,
                    double *bnd_weight, double *vol) {
  const level_view v = {n, xyz};
  /* The faces in the order written: axis, side, group. */
  static const int faces[6][3] = {{2, -1, MGCFD_GROUP_LOWER_WALL}, {2, 1, MGCFD_GROUP_WALL},
                                  {1, -1, MGCFD_GROUP_WALL},       {1, 1, MGCFD_GROUP_WALL},
                                  {0, -1, MGCFD_GROUP_INFLOW},     {0, 1, MGCFD_GROUP_OUTFLOW}};
  size_t r = 0;
  double sink = 0.0;
  for (int f = 0; f < 6; f++) {
    const int d = faces[f][0], s = faces[f][1];
    const int fixed = s < 0 ? 0 : axis_size(n, d) - 1;
    int lo[3] = {0, 0, 0}, hi[3] = {n.ni, n.nj, n.nk};
    lo[d] = fixed;
    hi[d] = fixed + 1;
    for (int k = lo[2]; k < hi[2]; k++)
      for (int j = lo[1]; j < hi[1]; j++)
        for (int i = lo[0]; i < hi[0]; i++, r++) {
          const int idx[3] = {i, j, k};
          const size_t p = node_id(n, idx);
          vec out = boundary_face(&v, idx, d, s, vol ? &vol[p] : &sink);
          bnd_node[r] = (int)p + base;
          bnd_group[r] = faces[f][2];
          bnd_weight[3 * r] = -out.x; /* into the channel: mgcfd_mesh.h */
          bnd_weight[3 * r + 1] = -out.y;
          bnd_weight[3 * r + 2] = -out.z;
        }
  }
}

/* ---- the next coarser level ------------------------------------------------------------- */

void mgcfd_coarse_map(mgcfd_grid fine, const double *xyz, int k0, int k1, int base, int *map) {
  const level_view v = {fine, xyz};
  const mgcfd_grid coarse = mgcfd_level_grid(fine, 1);
  size_t r = 0;
  for (int k = k0; k < k1; k++)
    for (int j = 0; j < fine.nj; j++)
      for (int i = 0; i < fine.ni; i++, r++) {
        const int idx[3] = {i, j, k};
        const vec x = node_pos(&v, node_id(fine, idx));
        /* The candidates: the coarse nodes at the corners of the coarse cell around the node,
         * in increasing number, so that a tie keeps the lowest. */
        long long best = -1;
        double best_d2 = 0.0;
        for (int kk = k / 2; kk <= (k + 1) / 2; kk++)
          for (int jj = j / 2; jj <= (j + 1) / 2; jj++)
            for (int ii = i / 2; ii <= (i + 1) / 2; ii++) {
              const int twin[3] = {2 * ii, 2 * jj, 2 * kk};
              vec dx = at(&v, twin, x);
              double d2 = dot(dx, dx);
              if (best < 0 || d2 < best_d2) {
                best_d2 = d2;
                best = ii + (long long)coarse.ni * (jj + (long long)coarse.nj * kk);
              }
            }
        map[r] = (int)best + base;
      }
}
