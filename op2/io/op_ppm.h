/*
 * op_ppm.h - colour images of a scalar field: on a structured nx x ny grid of
 * cells (op_ppm_write_field) or on the cells of an unstructured mesh in a
 * window (op_ppm_write_cells). Binary PPM through libnetpbm, and PNG beside it
 * (libpng) on request. An annotated picture carries the field's name, the
 * time and a colour bar with its range (op_ppm_options.title, colorbar).
 *
 * The field is row-major with row 0 at the BOTTOM of the domain (y = y0):
 * value(i, j) = field[(j * nx + i) * stride], i = 0..nx-1 (x), j = 0..ny-1 (y).
 * Images have their top row first, so row j of the field becomes image row
 * ny-1-j (the image looks like the domain with y pointing up).
 */
#ifndef OP_PPM_H
#define OP_PPM_H

#include <stddef.h>

#include "op2.h"
#include "op_io_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *colormap; /* "viridis" (default when NULL), "gray", "coolwarm", "jet" */
  int autorange;        /* 1: [min, max] of the finite values; 0: [vmin, vmax] */
  double vmin, vmax;    /* fixed range (autorange == 0); values outside are clamped */
  int scale;            /* each cell becomes scale x scale pixels; 0 means 1 */
  size_t stride;        /* distance between consecutive cells in doubles; 0 means 1 */
  unsigned char nan_rgb[3]; /* colour of NaN cells; used only when nan_rgb_set */
  int nan_rgb_set;      /* 0: NaN cells are magenta (255, 0, 255) */
  /* The annotated picture (when title != NULL or colorbar != 0): a line of
   * text above the field (the title, then "t = <time>" when show_time), a
   * colour bar with five values of the range beside it, a frame around it. */
  const char *title;
  int show_time;
  double time;
  int colorbar;
  int min_size;         /* annotated: scale raised until the field's longer side is at
                         * least this many pixels; 0 means 240, negative: never raised */
  int png;              /* 1: also write <file without .ppm>.png */
  const double *lines;  /* op_ppm_write_cells: nlines segments x0 y0 x1 y1 (mesh */
  int nlines;           /* coordinates) drawn in black over the cells */
  /* Annotated: coordinates along the bottom and the left of the field, at
   * round values (steps of 1, 2 or 5 times a power of ten, three to eight of
   * them), each a tick and its number. The field spans extent = x0 x1 y0 y1
   * (op_ppm_write_cells: its window, whatever extent says). */
  int axes;
  double extent[4];
} op_ppm_options;

/* Defaults: viridis, automatic range, scale 1, stride 1, NaN magenta, no
 * annotation, no PNG. */
op_ppm_options op_ppm_default_options(void);

/* Writes file (via file.tmp + rename). A constant field (or a range with
 * vmin == vmax) maps every finite cell to the middle colour of the map;
 * +inf/-inf clamp to the ends; NaN cells get the NaN colour. With autorange
 * the range actually used is returned in range_out[0..1] when range_out is
 * not NULL. Returns OP_IO_OK or an OP_IO_E* code with a message naming the
 * file. */
int op_ppm_write_field(const char *file, const double *field, int nx, int ny,
                       const op_ppm_options *opt, double range_out[2], char *err,
                       size_t errlen);

/* Convenience for solvers: component `component` of a "double" dat on a set
 * of nx*ny cells (cell (i, j) at element j*nx + i), host data fetched first
 * (op_fetch_data_ptr). opt->stride is ignored (the dat's dim is used). */
int op_ppm_write_dat(const char *file, op_dat dat, int component, int nx, int ny,
                     const op_ppm_options *opt, double range_out[2], char *err, size_t errlen);

/* The cells of an unstructured mesh, each filled with its value, in the window
 * [window[0], window[1]] x [window[2], window[3]] of mesh coordinates drawn
 * `width` pixels wide (the height follows from the window's aspect ratio).
 * cell_nodes maps cells to their 3 or 4 corner nodes (in order around the
 * cell), coords holds 2 doubles per node, values one double per cell. Where
 * no cell lies the picture is light grey. With autorange the range is that of
 * the cells reaching into the window. opt->scale and stride are ignored. */
int op_ppm_write_cells(const char *file, op_map cell_nodes, op_dat coords, const double *values,
                       const double window[4], int width, const op_ppm_options *opt,
                       double range_out[2], char *err, size_t errlen);

/* Colour of t in [0, 1] (clamped) in a colour map; 0 on success, -1 if the
 * map name is unknown. */
int op_ppm_colormap(const char *name, double t, unsigned char rgb[3]);

/* Reads a PPM/PGM/PAM image through libnetpbm. *rgb receives width*height*3
 * bytes (malloc'd, top row first, samples scaled to 0..255); free() it. */
int op_ppm_read(const char *file, int *width, int *height, unsigned char **rgb, char *err,
                size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* OP_PPM_H */
