/*
 * op_xdmf.h - XDMF (version 3 markup, readable by ParaView's XDMF readers and
 * VisIt) descriptions of OP2 results stored in HDF5 files in the OP2 layout
 * (op_hdf5.h), so that the .h5 files open directly in ParaView / VisIt.
 *
 * The .xmf file only describes; heavy data stays in the .h5 file and is
 * referenced as "file.h5:/dataset" with a path relative to the .xmf file's
 * directory. Every .xmf is written to name.tmp and renamed into place.
 *
 * Unstructured meshes: cells given by a map cells -> nodes with 4 entries
 * (Quadrilateral) or 3 (Triangle), node coordinates by a dat on the nodes of
 * dim 2 (Geometry XY) or 3 (XYZ). Structured grids: nx x ny cells of size
 * dx x dy starting at (x0, y0), shown as quadrilaterals in the X-Y plane
 * (so that ParaView opens them as a surface), their nodes and quadrilaterals
 * in two datasets of their own (OP_XDMF_GRID_NODES, OP_XDMF_GRID_QUADS) in
 * the data file or in a mesh file shared by several; cell data as
 * [ny*nx, dim] datasets, cell (i, j) at row j*nx + i.
 *
 * Attributes: dim 1 -> Scalar, dim 2 or 3 -> Vector, any other dim -> one
 * Scalar attribute per component, "<name>_<k>", each its own [N, 1] dataset
 * beside the dat (written by the _save functions, required by the _write
 * ones). ParaView's default reader (Xdmf3ReaderS) and its legacy XDMF reader
 * both read every file written here (docs/io.md says why each choice).
 */
#ifndef OP_XDMF_H
#define OP_XDMF_H

#include <stddef.h>

#include "op2.h"
#include "op_io_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  op_map cell_nodes;        /* cells -> nodes, dim 4 or 3 */
  op_dat coords;            /* on cell_nodes->to, dim 2 or 3 */
  const op_dat *cell_dats;  /* each on cell_nodes->from */
  int ncell_dats;
  const op_dat *node_dats;  /* each on cell_nodes->to */
  int nnode_dats;
  const char *mesh_file;    /* HDF5 file holding cell_nodes and coords; NULL: the data file */
} op_xdmf_mesh;

typedef struct {
  int nx, ny;               /* cells in x and in y */
  double x0, y0;            /* lower-left corner of cell (0, 0) */
  double dx, dy;            /* cell size */
  const op_dat *cell_dats;  /* each on a set of nx*ny cells, cell (i, j) at j*nx + i */
  int ncell_dats;
  const char *mesh_file;    /* HDF5 file holding the grid's nodes and quadrilaterals
                             * (op_xdmf_write_grid_mesh); NULL: the data file, where
                             * the writers below put them */
} op_xdmf_grid;

/* The datasets of a structured grid's nodes, [(nx+1)*(ny+1), 2] doubles (node
 * (i, j) at row j*(nx+1) + i, at (x0 + i dx, y0 + j dy)), and of its
 * quadrilaterals, [nx*ny, 4] ints (the corners of cell (i, j), counter-
 * clockwise from the lower left). */
#define OP_XDMF_GRID_NODES "xdmf_grid_nodes"
#define OP_XDMF_GRID_QUADS "xdmf_grid_quads"

/* "<h5file without .h5/.hdf5/.hdf>.xmf" into xmf; -1 when it does not fit. */
int op_xdmf_name(const char *h5file, char *xmf, size_t len);

/* Writes the .xmf for an HDF5 file that already holds the datasets (checked:
 * a missing dataset or a wrong shape/type is an error naming both files);
 * for a grid without mesh_file, it first writes the grid's nodes and
 * quadrilaterals into that file. */
int op_xdmf_write(const char *h5file, const op_xdmf_mesh *mesh, char *err, size_t errlen);
int op_xdmf_write_grid(const char *h5file, const op_xdmf_grid *grid, char *err, size_t errlen);

/* Writes the data (the dats, and for a mesh without mesh_file also the map and
 * the coordinates) into h5file (created if missing, datasets replaced), then
 * the .xmf. */
int op_xdmf_save(const char *h5file, const op_xdmf_mesh *mesh, char *err, size_t errlen);
int op_xdmf_save_grid(const char *h5file, const op_xdmf_grid *grid, char *err, size_t errlen);

/* Writes a grid's nodes and quadrilaterals as a new h5file (h5file.tmp,
 * renamed into place): the mesh_file that several grids' .xmf files share.
 * The root writes, on many processes. */
int op_xdmf_write_grid_mesh(const char *h5file, const op_xdmf_grid *grid, char *err,
                            size_t errlen);

/* ---- time series: one .xmf (temporal collection) over several .h5 files --------- */

typedef struct op_xdmf_series op_xdmf_series;

/* Nothing is written until the first append. The mesh/grid description and the
 * op objects it names are remembered (the op objects must stay declared). */
op_xdmf_series *op_xdmf_series_create(const char *xmf_file, const op_xdmf_mesh *mesh, char *err,
                                      size_t errlen);
op_xdmf_series *op_xdmf_series_create_grid(const char *xmf_file, const op_xdmf_grid *grid,
                                           char *err, size_t errlen);
/* Adds a step (time, h5file holding that step's datasets, checked) and
 * rewrites the .xmf atomically with all steps so far. */
int op_xdmf_series_append(op_xdmf_series *s, double time, const char *h5file, char *err,
                          size_t errlen);
/* Writes the step's data into h5file (as op_xdmf_save), then appends. */
int op_xdmf_series_save(op_xdmf_series *s, double time, const char *h5file, char *err,
                        size_t errlen);
int op_xdmf_series_steps(const op_xdmf_series *s);
void op_xdmf_series_free(op_xdmf_series *s);

#ifdef __cplusplus
}
#endif

#endif /* OP_XDMF_H */
