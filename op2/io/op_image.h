/*
 * op_image.h - an RGB picture in memory, what op_ppm.h draws fields into:
 * rectangles, lines, filled polygons and text (libnetpbm's built-in font),
 * written as binary PPM through libnetpbm and as PNG through libpng, each
 * through file.tmp + rename.
 *
 * Pixel (x, y) is rgb[3 * (y * width + x)], y = 0 the top row.
 */
#ifndef OP_IMAGE_H
#define OP_IMAGE_H

#include <stddef.h>

#include "op_io_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int width, height;
  unsigned char *rgb; /* width * height * 3 bytes */
} op_image;

/* A white width x height picture. Returns OP_IO_OK, or OP_IO_EARG (a size
 * outside 1..32768 each way) / OP_IO_ENOMEM with a message naming file. */
int op_image_alloc(op_image *im, int width, int height, const char *file, char *err,
                   size_t errlen);
void op_image_free(op_image *im);

/* Drawing clips to the picture. */
void op_image_rect(op_image *im, int x, int y, int w, int h, const unsigned char rgb[3]);
void op_image_line(op_image *im, int x0, int y0, int x1, int y1, const unsigned char rgb[3]);
/* Fills the polygon (n corners, pixel coordinates, x right, y down): the
 * pixels whose centres lie inside it. Convex or not, either orientation. */
void op_image_polygon(op_image *im, const double *x, const double *y, int n,
                      const unsigned char rgb[3]);

/* Text in libnetpbm's built-in font, each font pixel drawn as a scale x scale
 * block; (x, y) is the top left corner of the line. Characters outside the
 * font are skipped. */
void op_image_text(op_image *im, int x, int y, const char *text, int scale,
                   const unsigned char rgb[3]);
int op_image_text_width(const char *text, int scale);
int op_image_text_height(int scale);

/* Writes the picture as binary PPM (P6) through libnetpbm, or as 8-bit RGB
 * PNG through libpng, to file.tmp, then renames it over file. */
int op_image_write_ppm(const op_image *im, const char *file, char *err, size_t errlen);
int op_image_write_png(const op_image *im, const char *file, char *err, size_t errlen);

/* "<file without .ppm/.pnm>.png" into png; -1 when it does not fit. */
int op_image_png_name(const char *file, char *png, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* OP_IMAGE_H */
