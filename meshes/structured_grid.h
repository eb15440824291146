/*
 * structured_grid.h - an nx x ny grid of cells as the sets and maps of an OP2
 * mesh, with g ghost layers around it (g = 0 for none).
 *
 * Numbering. The extended grid has ex = nx + 2g columns and ey = ny + 2g rows
 * of cells, numbered row-major with i fastest. Interior cell (i, j), i in
 * [0, nx), j in [0, ny), is extended cell (j + g) * ex + (i + g); the ghost
 * layers are i in [-g, 0) and [nx, nx + g) (west, east), j likewise (south,
 * north). Interior cells in their own order (j * nx + i) form the interior
 * set; sg_interior_cells lists their extended numbers.
 *
 * Maps (each returned as a malloc'd array, row-major, one row per element of
 * the "from" set, ready for op_decl_map; NULL with a message on error):
 *  - interior -> extended cells at given (di, dj) offsets, e.g. SG_STENCIL5;
 *  - x-faces -> cells: x-face (k, j), k in [0, nx], j in [0, ny), is the face
 *    on the west side of interior column k (between cells k-1 and k of row j),
 *    numbered j * (nx + 1) + k. Offset o gives cell (k + o, j): {-1, 0} are
 *    the two cells beside the face, {-2, -1, 0, 1} the four a MUSCL flux needs;
 *  - y-faces -> cells likewise: y-face (i, k), k in [0, ny], lies on the south
 *    side of interior row k, numbered k * nx + i; offset o gives cell (i, k + o).
 * Every cell a map names must exist: offsets reach at most g cells beyond the
 * interior. A map's entry count (rows x entries per row) must fit in an int,
 * as OP2's generated loop code indexes maps with ints.
 *
 * Ghost cells and boundary conditions. sg_ghost_sources lists every ghost
 * cell with the interior cell it copies from, per side:
 *  - SG_TRANSMISSIVE (zero gradient): the nearest interior cell in the normal
 *    direction (constant extrapolation: every layer copies the edge cell);
 *  - SG_REFLECTIVE: the mirror image across the boundary (ghost layer m
 *    outside copies interior layer m inside); the caller negates the normal
 *    velocity, which is why each ghost also carries the sides it lies beyond;
 *  - SG_PERIODIC: the cell wrapped around to the opposite side (both sides of
 *    a direction must then be periodic).
 * A corner ghost (beyond two sides) applies the x rule to i and the y rule to
 * j, so its source is always an interior cell.
 */
#ifndef MESHES_STRUCTURED_GRID_H
#define MESHES_STRUCTURED_GRID_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int nx, ny;     /* interior cells per row and per column */
  int g;          /* ghost layers on every side */
  int ex, ey;     /* nx + 2g, ny + 2g */
  int ncells;     /* ex * ey: the extended set */
  int ninterior;  /* nx * ny */
  int nghost;     /* ncells - ninterior */
  int nxfaces;    /* (nx + 1) * ny */
  int nyfaces;    /* nx * (ny + 1) */
} sg_grid;

typedef struct {
  int di, dj;
} sg_offset;

/* The 5-point stencil in the order self, east, west, north, south. */
extern const sg_offset SG_STENCIL5[5];

typedef enum { SG_TRANSMISSIVE = 0, SG_REFLECTIVE, SG_PERIODIC } sg_boundary;

/* Sides, as indices into a boundary array and as bits of a ghost's side mask. */
enum { SG_WEST = 0, SG_EAST = 1, SG_SOUTH = 2, SG_NORTH = 3 };
#define SG_SIDE_BIT(side) (1 << (side))

/* Fills grid. nx, ny >= 1, g >= 0, and every count must fit in an int.
 * Returns 0, or -1 with the reason in err. */
int sg_grid_init(sg_grid *grid, int nx, int ny, int g, char *err, size_t errlen);

/* Extended number of cell (i, j), i in [-g, nx + g), j in [-g, ny + g). */
static inline int sg_cell(const sg_grid *grid, int i, int j) {
  return (j + grid->g) * grid->ex + (i + grid->g);
}

/* Extended numbers of the interior cells, in interior order (ninterior). */
int *sg_interior_cells(const sg_grid *grid, char *err, size_t errlen);

/* interior -> extended cells: ninterior rows of noff entries, entry m of row
 * j * nx + i being cell (i + off[m].di, j + off[m].dj). */
int *sg_interior_map(const sg_grid *grid, const sg_offset *off, int noff, char *err,
                     size_t errlen);

/* x-faces -> cells (nxfaces rows) and y-faces -> cells (nyfaces rows) at the
 * given offsets along the face normal (see the top of this file). */
int *sg_xface_map(const sg_grid *grid, const int *off, int noff, char *err, size_t errlen);
int *sg_yface_map(const sg_grid *grid, const int *off, int noff, char *err, size_t errlen);

/* Rows [first, first + count) of the same maps, for a process that generates
 * only its slice of the grid (op2/mpi): row r is the whole map's row r. */
int *sg_interior_map_rows(const sg_grid *grid, const sg_offset *off, int noff, int first, int count,
                          char *err, size_t errlen);
/* The interior map's rows [first, first + count) written into out
 * (count x noff ints), for a caller that owns the storage (op_decl_map_fill):
 * sg_interior_map_check first (0, or -1 with the reason in err), then
 * sg_interior_map_fill on any pieces of the rows. */
int sg_interior_map_check(const sg_grid *grid, const sg_offset *off, int noff, int first,
                          int count, char *err, size_t errlen);
void sg_interior_map_fill(const sg_grid *grid, const sg_offset *off, int noff, int first,
                          int count, int *out);
int *sg_xface_map_rows(const sg_grid *grid, const int *off, int noff, int first, int count,
                       char *err, size_t errlen);
int *sg_yface_map_rows(const sg_grid *grid, const int *off, int noff, int first, int count,
                       char *err, size_t errlen);

/* The geometry of the extended cells, for a partitioner that needs no map or
 * dat for it (op_partition_geometry): centres (i + 0.5, j + 0.5) in cell
 * widths of cells [first, first + count), two doubles each; and the cells
 * sharing a face with cell c (at most 4, ascending), returning how many. */
void sg_cell_centres(const sg_grid *grid, int first, int count, double *xy);
int sg_cell_adjacent(const sg_grid *grid, int c, int *out);

/* Every ghost cell, in extended order, with its source cell and side mask. */
typedef struct {
  int n;        /* nghost */
  int *ghost;   /* extended numbers of the ghost cells */
  int *source;  /* the interior cell (extended number) each ghost copies */
  int *sides;   /* SG_SIDE_BIT mask of the sides the ghost lies beyond */
} sg_ghosts;

/* bc[SG_WEST..SG_NORTH]: the condition on each side. Needs g <= nx (g <= ny)
 * for reflective and periodic sides, whose sources reach g cells inward.
 * Returns 0, or -1 with the reason in err (out is then empty). */
int sg_ghost_sources(const sg_grid *grid, const sg_boundary bc[4], sg_ghosts *out, char *err,
                     size_t errlen);
void sg_ghosts_free(sg_ghosts *gh);

/* "transmissive", "reflective", "periodic"; -1 for an unknown name. */
int sg_boundary_from_name(const char *name);
const char *sg_boundary_name(sg_boundary b);

#ifdef __cplusplus
}
#endif

#endif /* MESHES_STRUCTURED_GRID_H */
