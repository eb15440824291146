/*
 * mgcfd_mesh.h - multigrid families of 3D channel meshes with a bump on the lower wall, in
 * the form MG-CFD reads (an edge-based, vertex-centred finite-volume Euler code: Warwick's
 * MG-CFD-app-OP2). docs/meshes.md, "MG-CFD's input", has the geometry and the file layout.
 *
 * Each level is a structured grid of ni x nj x nk nodes (along x, y, z) mapped onto the
 * channel [0,L] x [0,W] x [0,H] whose lower wall is lifted by the bump z = f(x, y). Node
 * (i, j, k) is number i + ni (j + nj k). Its control volume is the median dual: each hexahedral
 * cell is cut into eight corner pieces by the quadrilaterals (edge midpoint, face centroid, cell
 * centroid, face centroid), one for each of its twelve edges. A quadrilateral's area vector is
 * half the cross product of its diagonals, which depends on its boundary loop alone, so the
 * faces of every corner piece close exactly (in exact arithmetic) even where they are not
 * planar.
 *
 * The functions that can fail return 0, or -1 with a message in err.
 */
#ifndef MGCFD_MESH_H
#define MGCFD_MESH_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The channel and its bump: f(x, y) = height * c(x) * c_y(y), c(x) = cos^2(pi (x - L/2) / length)
 * for |x - L/2| < length/2 and 0 outside; c_y = 1 when width is 0 (a bump across the whole
 * channel), else the same profile of the given width about y = W/2 (a hill). */
typedef struct {
  double length, width, height;
  double bump_height, bump_length, bump_width;
} mgcfd_geometry;

/* Nodes along x, y, z. */
typedef struct {
  int ni, nj, nk;
} mgcfd_grid;

/* The boundary groups written to bnd_node-->group. MG-CFD treats groups up to 2 as walls
 * (pressure only) and groups 3 to 7 as far field. */
enum {
  MGCFD_GROUP_LOWER_WALL = 1, /* z = f(x, y): the bump */
  MGCFD_GROUP_WALL = 2,       /* the upper wall z = H and the side walls y = 0, y = W */
  MGCFD_GROUP_INFLOW = 4,     /* x = 0 */
  MGCFD_GROUP_OUTFLOW = 5     /* x = L */
};

/* A 3 x 1 x 1 channel with a bump of height 0.1 and length 1 across it. */
mgcfd_geometry mgcfd_geometry_default(void);
/* Lower-wall height f(x, y). */
double mgcfd_bump(const mgcfd_geometry *g, double x, double y);

/* Checks the geometry (finite, positive sizes, a bump lower than the channel) and that the
 * grid coarsens levels - 1 times: every n - 1 divisible by 2^(levels-1), at least two nodes
 * along each axis on the coarsest level, every count of a level within OP2's int sizes. */
int mgcfd_check(const mgcfd_geometry *g, mgcfd_grid fine, int levels, char *err, size_t errlen);
/* Level `level` of the family: n_l = (n - 1) / 2^level + 1 along each axis. */
mgcfd_grid mgcfd_level_grid(mgcfd_grid fine, int level);
/* A grid of about `nodes` nodes with cells near cubes that coarsens levels - 1 times. */
mgcfd_grid mgcfd_grid_for_size(const mgcfd_geometry *g, long long nodes, int levels);

/* Counts of a level: nodes, edges (each grid line segment once), boundary nodes (one entry
 * for each boundary face group a node lies on: a node on an edge of the channel has two). */
long long mgcfd_node_count(mgcfd_grid n);
long long mgcfd_edge_count(mgcfd_grid n);
long long mgcfd_bnd_count(mgcfd_grid n);
/* Index of the first edge of the nodes of plane k (the edges are numbered node by node, each
 * node's +x, +y, +z edges in that order; the first node of an edge is the lower one). */
long long mgcfd_edges_before_plane(mgcfd_grid n, int k);

/* Coordinates of the nodes of planes [k0, k1): 3 doubles a node, in node order. Level
 * coordinates come from the same t = i / (ni - 1), so a coarse node is bit for bit the fine
 * node at twice its indices. */
void mgcfd_coords(const mgcfd_geometry *g, mgcfd_grid n, int k0, int k1, double *xyz);

/* The edges of the nodes of planes [k0, k1): their two nodes (base 0 or 1 added) and their
 * dual-face area vectors, oriented from the first node to the second, into rows starting at
 * mgcfd_edges_before_plane(n, k0). xyz holds the coordinates of the whole level. When vol is
 * not NULL, each dual face's share of the volumes of its two nodes is added to vol (whole
 * level): (1/3) (m - x_node) . A_out, m the face's centroid. */
void mgcfd_edges(mgcfd_grid n, const double *xyz, int k0, int k1, int base, int *edge_node,
                 double *weight, double *vol);

/* The boundary nodes of a level, face by face (lower wall, upper wall, y = 0, y = W, inflow,
 * outflow), each face's nodes in node order: node (base added), group and the area vector of
 * the node's part of that face, pointing INTO the channel (MG-CFD's flux kernels add
 * weight . F for the boundary while each edge subtracts weight . F from its first node: the
 * boundary vectors point the other way round, docs/meshes.md). Arrays of mgcfd_bnd_count(n)
 * rows. When vol is not NULL the boundary faces' shares of the node volumes are added. */
void mgcfd_boundary(mgcfd_grid n, const double *xyz, int base, int *bnd_node, int *bnd_group,
                    double *bnd_weight, double *vol);

/* For the fine nodes of planes [k0, k1) of level `fine`, the nearest node of the next coarser
 * level (base added; ties go to the lowest number). xyz holds the fine level's coordinates:
 * a coarse node is the fine node at twice its indices. */
void mgcfd_coarse_map(mgcfd_grid fine, const double *xyz, int k0, int k1, int base, int *map);

/* ---- files ------------------------------------------------------------------------------ */

/* Progress of a long write: called with the level, what is being written and the share done. */
typedef void (*mgcfd_progress_fn)(void *ctx, int level, const char *what, double done);

/* Writes level `level` of the family to `path` (as path's temporary name, then renamed):
 * node_coordinates, edge-->node, edge_weights, bnd_node-->node, bnd_node-->group,
 * bnd_node_weights, areas (the dual volumes), node-->mg_node on every level but the last, and
 * the names MG-CFD's legacy mode (-l) reads as hard links to the same data. Memory: the
 * level's coordinates and volumes (32 bytes a node) and buffers of about a million rows. */
int mgcfd_write_level(const char *path, const mgcfd_geometry *g, mgcfd_grid fine, int level,
                      int levels, int base, mgcfd_progress_fn progress, void *ctx, char *err,
                      size_t errlen);
/* Writes MG-CFD's input file naming the levels' files (names relative to its directory). */
int mgcfd_write_input(const char *path, long long size, int levels, int base,
                      const char *const *level_files, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* MGCFD_MESH_H */
