/*
 * op_ppm.h - colour images (binary PPM, via libnetpbm) of a scalar field on a
 * structured nx x ny grid of cells.
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
} op_ppm_options;

/* Defaults: viridis, automatic range, scale 1, stride 1, NaN magenta. */
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
