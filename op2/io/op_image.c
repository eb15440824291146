/*
 * op_image.c - RGB pictures in memory, their drawing, and their writing as
 * PPM (libnetpbm) and PNG (libpng) (op_image.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "op_image.h"

#include <errno.h>
#include <math.h>
#include <pam.h>
#include <pbmfont.h>
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "op_io_util.h"
#include "op_netpbm.h"

/* ---- the picture ---------------------------------------------------------------------- */

enum { MAX_SIDE = 32768 };

int op_image_alloc(op_image *im, int width, int height, const char *file, char *err,
                   size_t errlen) {
  op_io_ctx c = {err, errlen, "image file", file, NULL, NULL};
  im->width = im->height = 0;
  im->rgb = NULL;
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE)
    return OP_IO_ERR(&c, OP_IO_EARG, "picture of %d x %d pixels (each side 1..%d)", width, height,
                     MAX_SIDE);
  im->rgb = malloc((size_t)width * (size_t)height * 3);
  if (!im->rgb)
    return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory for a %d x %d picture", width, height);
  memset(im->rgb, 255, (size_t)width * (size_t)height * 3);
  im->width = width;
  im->height = height;
  return OP_IO_OK;
}

void op_image_free(op_image *im) {
  free(im->rgb);
  im->rgb = NULL;
  im->width = im->height = 0;
}

static void put(op_image *im, int x, int y, const unsigned char rgb[3]) {
  if (x < 0 || y < 0 || x >= im->width || y >= im->height)
    return;
  memcpy(im->rgb + 3 * ((size_t)y * (size_t)im->width + (size_t)x), rgb, 3);
}

void op_image_rect(op_image *im, int x, int y, int w, int h, const unsigned char rgb[3]) {
  int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
  int x1 = x + w > im->width ? im->width : x + w, y1 = y + h > im->height ? im->height : y + h;
  for (int j = y0; j < y1; ++j)
    for (int i = x0; i < x1; ++i)
      memcpy(im->rgb + 3 * ((size_t)j * (size_t)im->width + (size_t)i), rgb, 3);
}

void op_image_line(op_image *im, int x0, int y0, int x1, int y1, const unsigned char rgb[3]) {
  /* Bresenham: every step moves one pixel along the longer axis. */
  int dx = abs(x1 - x0), dy = -abs(y1 - y0);
  int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, e = dx + dy;
  for (;;) {
    put(im, x0, y0, rgb);
    if (x0 == x1 && y0 == y1)
      break;
    int e2 = 2 * e;
    if (e2 >= dy) {
      e += dy;
      x0 += sx;
    }
    if (e2 <= dx) {
      e += dx;
      y0 += sy;
    }
  }
}

void op_image_polygon(op_image *im, const double *x, const double *y, int n,
                      const unsigned char rgb[3]) {
  if (n < 3)
    return;
  double ymin = y[0], ymax = y[0];
  for (int k = 1; k < n; ++k) {
    ymin = y[k] < ymin ? y[k] : ymin;
    ymax = y[k] > ymax ? y[k] : ymax;
  }
  if (!(ymax >= 0.0) || !(ymin < im->height))
    return; /* also NaN corners */
  int r0 = (int)ceil(ymin - 0.5), r1 = (int)floor(ymax - 0.5);
  r0 = r0 < 0 ? 0 : r0;
  r1 = r1 >= im->height ? im->height - 1 : r1;
  /* Scan lines through pixel centres; even-odd rule between the crossings. */
  enum { MAX_CROSS = 16 };
  for (int r = r0; r <= r1; ++r) {
    const double yc = r + 0.5;
    double xs[MAX_CROSS];
    int nx = 0;
    for (int k = 0; k < n && nx < MAX_CROSS; ++k) {
      const double xa = x[k], ya = y[k], xb = x[(k + 1) % n], yb = y[(k + 1) % n];
      if ((ya <= yc && yb > yc) || (yb <= yc && ya > yc))
        xs[nx++] = xa + (yc - ya) / (yb - ya) * (xb - xa);
    }
    for (int a = 1; a < nx; ++a) /* insertion sort: a handful of crossings */
      for (int b = a; b > 0 && xs[b - 1] > xs[b]; --b) {
        const double t = xs[b];
        xs[b] = xs[b - 1];
        xs[b - 1] = t;
      }
    for (int k = 0; k + 1 < nx; k += 2) {
      int c0 = (int)ceil(xs[k] - 0.5), c1 = (int)floor(xs[k + 1] - 0.5);
      c0 = c0 < 0 ? 0 : c0;
      c1 = c1 >= im->width ? im->width - 1 : c1;
      for (int c = c0; c <= c1; ++c)
        memcpy(im->rgb + 3 * ((size_t)r * (size_t)im->width + (size_t)c), rgb, 3);
    }
  }
}

/* ---- text --------------------------------------------------------------------------- */

static void default_font(void *font) { *(struct font **)font = pbm_defaultfont("bdf"); }

/* libnetpbm's built-in font: its error path (pm_error) comes back here. */
static struct font *load_font(void) {
  struct font *f = NULL;
  if (op_pm_guarded(default_font, &f) != 0 || !f)
    fprintf(stderr, "op2-io: libnetpbm's built-in font is missing (%s): pictures without text\n",
            op_pm_msg[0] ? op_pm_msg : "no message");
  return f;
}

/* libnetpbm's built-in BDF font (a 12-point sans serif), loaded once. */
static struct font *font(int *ascent, int *descent) {
  static struct font *f = NULL;
  static int asc = 0, desc = 0, tried = 0;
  if (!tried) {
    tried = 1;
    f = load_font();
    for (int ch = 32; f && ch < 127; ++ch) {
      const struct glyph *g = f->glyph[ch];
      if (!g)
        continue;
      asc = (int)g->height + g->y > asc ? (int)g->height + g->y : asc;
      desc = -g->y > desc ? -g->y : desc;
    }
  }
  *ascent = asc;
  *descent = desc;
  return f;
}

int op_image_text_height(int scale) {
  int a, d;
  font(&a, &d);
  return (a + d) * (scale < 1 ? 1 : scale);
}

int op_image_text_width(const char *text, int scale) {
  int a, d, w = 0;
  struct font *f = font(&a, &d);
  for (const unsigned char *p = (const unsigned char *)text; f && *p; ++p)
    if (f->glyph[*p])
      w += f->glyph[*p]->xadd;
  return w * (scale < 1 ? 1 : scale);
}

void op_image_text(op_image *im, int x, int y, const char *text, int scale,
                   const unsigned char rgb[3]) {
  int asc, desc;
  struct font *f = font(&asc, &desc);
  scale = scale < 1 ? 1 : scale;
  for (const unsigned char *p = (const unsigned char *)text; f && *p; ++p) {
    const struct glyph *g = f->glyph[*p];
    if (!g)
      continue;
    /* A glyph's bitmap sits g->y above the baseline (asc below the line's top). */
    const int top = asc - (g->y + (int)g->height);
    for (unsigned r = 0; r < g->height; ++r)
      for (unsigned c = 0; c < g->width; ++c)
        if (g->bmap[r * g->width + c])
          op_image_rect(im, x + (g->x + (int)c) * scale, y + (top + (int)r) * scale, scale, scale,
                        rgb);
    x += g->xadd * scale;
  }
}

/* ---- writing ------------------------------------------------------------------------- */

int op_image_png_name(const char *file, char *png, size_t len) {
  size_t n = strlen(file);
  if (n > 4 && (strcmp(file + n - 4, ".ppm") == 0 || strcmp(file + n - 4, ".pnm") == 0))
    n -= 4;
  int w = snprintf(png, len, "%.*s.png", (int)n, file);
  return (w < 0 || (size_t)w >= len) ? -1 : 0;
}

/* A picture on its way out through libnetpbm: the row in hand, for pam_write
 * to free when libnetpbm fails part way. */
typedef struct {
  const op_image *im;
  struct pam pam;
  tuple *row;
} pam_writing;

static void write_rows(void *arg) {
  pam_writing *w = arg;
  pnm_writepaminit(&w->pam);
  w->row = pnm_allocpamrow(&w->pam);
  for (int r = 0; r < w->im->height; ++r) {
    const unsigned char *p = w->im->rgb + 3 * (size_t)r * (size_t)w->im->width;
    for (int x = 0; x < w->im->width; ++x) {
      w->row[x][0] = p[3 * x];
      w->row[x][1] = p[3 * x + 1];
      w->row[x][2] = p[3 * x + 2];
    }
    pnm_writepamrow(&w->pam, w->row);
  }
  pnm_freepamrow(w->row);
  w->row = NULL;
}

/* Through libnetpbm; returns 0, or -1 with op_pm_msg set. */
static int pam_write(FILE *fp, const op_image *im) {
  pam_writing w;
  memset(&w, 0, sizeof w);
  w.im = im;
  w.pam.size = sizeof w.pam;
  w.pam.len = PAM_STRUCT_SIZE(tuple_type);
  w.pam.file = fp;
  w.pam.format = PPM_FORMAT;
  w.pam.plainformat = 0; /* raw (binary) PPM: P6 */
  w.pam.width = im->width;
  w.pam.height = im->height;
  w.pam.depth = 3;
  w.pam.maxval = 255;
  snprintf(w.pam.tuple_type, sizeof w.pam.tuple_type, "%s", PAM_PPM_TUPLETYPE);
  if (op_pm_guarded(write_rows, &w) == 0) return 0;
  if (w.row) pnm_freepamrow(w.row);
  return -1;
}

/* What libpng reports goes into the message; errors longjmp out. */
typedef struct {
  char msg[256];
} png_note;

static void png_fail(png_structp png, png_const_charp msg) {
  png_note *n = png_get_error_ptr(png);
  snprintf(n->msg, sizeof n->msg, "%s", msg);
  png_longjmp(png, 1);
}

static void png_warn(png_structp png, png_const_charp msg) { (void)png, (void)msg; }

/* Through libpng; returns 0, or -1 with the reason in note. */
static int png_write(FILE *fp, const op_image *im, png_note *note) {
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, note, png_fail, png_warn);
  if (!png) {
    snprintf(note->msg, sizeof note->msg, "png_create_write_struct failed");
    return -1;
  }
  png_infop info = png_create_info_struct(png);
  if (!info || setjmp(png_jmpbuf(png))) {
    if (!info)
      snprintf(note->msg, sizeof note->msg, "png_create_info_struct failed");
    png_destroy_write_struct(&png, info ? &info : NULL);
    return -1;
  }
  png_init_io(png, fp);
  png_set_IHDR(png, info, (png_uint_32)im->width, (png_uint_32)im->height, 8, PNG_COLOR_TYPE_RGB,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  for (int r = 0; r < im->height; ++r)
    png_write_row(png, im->rgb + 3 * (size_t)r * (size_t)im->width);
  png_write_end(png, NULL);
  png_destroy_write_struct(&png, &info);
  return 0;
}

/* Opens file.tmp, lets write() fill it, closes and renames it over file. */
static int write_via_tmp(const char *kind, const op_image *im, const char *file, char *err,
                         size_t errlen, int png) {
  op_io_ctx c = {err, errlen, kind, file, NULL, NULL};
  if (!file || !file[0])
    return OP_IO_ERR(&c, OP_IO_EARG, "no file name given");
  if (!im || !im->rgb || im->width < 1 || im->height < 1)
    return OP_IO_ERR(&c, OP_IO_EARG, "no picture to write");
  char *tmp = op_io_tmpname(file);
  if (!tmp)
    return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
  int rc = OP_IO_OK;
  FILE *fp = fopen(tmp, "wb");
  if (!fp) {
    rc = OP_IO_ERR(&c, OP_IO_ENOFILE, "cannot create '%s': %s", tmp, strerror(errno));
    free(tmp);
    return rc;
  }
  png_note note = {""};
  if (png) {
    if (png_write(fp, im, &note) != 0)
      rc = OP_IO_ERR(&c, OP_IO_EIO, "libpng: %s", note.msg);
  } else {
    if (pam_write(fp, im) != 0)
      rc = OP_IO_ERR(&c, OP_IO_EIO, "libnetpbm: %s", op_pm_msg);
  }
  if (rc == OP_IO_OK && (fflush(fp) != 0 || ferror(fp)))
    rc = OP_IO_ERR(&c, OP_IO_EIO, "writing '%s' failed: %s", tmp, strerror(errno));
  if (fclose(fp) != 0 && rc == OP_IO_OK)
    rc = OP_IO_ERR(&c, OP_IO_EIO, "closing '%s' failed: %s", tmp, strerror(errno));
  if (rc == OP_IO_OK)
    rc = op_io_commit(&c, tmp, file);
  else
    unlink(tmp);
  free(tmp);
  return rc;
}

int op_image_write_ppm(const op_image *im, const char *file, char *err, size_t errlen) {
  return write_via_tmp("PPM file", im, file, err, errlen, 0);
}

int op_image_write_png(const op_image *im, const char *file, char *err, size_t errlen) {
  return write_via_tmp("PNG file", im, file, err, errlen, 1);
}
