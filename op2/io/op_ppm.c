/*
 * op_ppm.c - colour images of structured scalar fields through libnetpbm
 * (op_ppm.h).
 *
 * Pictures are drawn in memory (op_image.h) and written through libnetpbm
 * (PPM) and libpng (PNG); libnetpbm's errors become error codes
 * (op_netpbm.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "op_ppm.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pam.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "op_image.h"
#include "op_io_util.h"
#include "op_netpbm.h"

/* ---- colour maps ---------------------------------------------------------------- */

typedef struct {
  double t;
  unsigned char rgb[3];
} cstop;

/* Perceptually ordered blue-green-yellow map in the spirit of viridis. */
static const cstop map_viridis[] = {
    {0.000, {68, 1, 84}},    {0.125, {72, 36, 117}},  {0.250, {59, 82, 139}},
    {0.375, {44, 114, 142}}, {0.500, {33, 145, 140}}, {0.625, {39, 173, 129}},
    {0.750, {94, 201, 98}},  {0.875, {170, 220, 50}}, {1.000, {253, 231, 37}}};
static const cstop map_gray[] = {{0.0, {0, 0, 0}}, {1.0, {255, 255, 255}}};
/* Diverging blue - light grey - red. */
static const cstop map_coolwarm[] = {
    {0.0, {59, 76, 192}}, {0.5, {221, 221, 221}}, {1.0, {180, 4, 38}}};
/* Rainbow: dark blue, blue, cyan, yellow, red, dark red. */
static const cstop map_jet[] = {{0.000, {0, 0, 128}},   {0.125, {0, 0, 255}},
                                {0.375, {0, 255, 255}}, {0.625, {255, 255, 0}},
                                {0.875, {255, 0, 0}},   {1.000, {128, 0, 0}}};

typedef struct {
  const char *name;
  const cstop *stops;
  int n;
} cmap;

static const cmap cmaps[] = {
    {"viridis", map_viridis, (int)(sizeof map_viridis / sizeof map_viridis[0])},
    {"gray", map_gray, (int)(sizeof map_gray / sizeof map_gray[0])},
    {"grey", map_gray, (int)(sizeof map_gray / sizeof map_gray[0])},
    {"coolwarm", map_coolwarm, (int)(sizeof map_coolwarm / sizeof map_coolwarm[0])},
    {"jet", map_jet, (int)(sizeof map_jet / sizeof map_jet[0])},
};

static const cmap *find_cmap(const char *name) {
  if (!name)
    name = "viridis";
  for (size_t i = 0; i < sizeof cmaps / sizeof cmaps[0]; ++i)
    if (strcmp(cmaps[i].name, name) == 0)
      return &cmaps[i];
  return NULL;
}

static void cmap_eval(const cmap *m, double t, unsigned char rgb[3]) {
  if (!(t > 0.0)) /* also catches NaN */
    t = 0.0;
  if (t > 1.0)
    t = 1.0;
  int k = 0;
  while (k + 2 < m->n && t > m->stops[k + 1].t)
    ++k;
  const cstop *a = &m->stops[k], *b = &m->stops[k + 1];
  double w = b->t > a->t ? (t - a->t) / (b->t - a->t) : 0.0;
  for (int c = 0; c < 3; ++c) {
    double v = (1.0 - w) * a->rgb[c] + w * b->rgb[c];
    rgb[c] = (unsigned char)floor(v + 0.5);
  }
}

int op_ppm_colormap(const char *name, double t, unsigned char rgb[3]) {
  const cmap *m = find_cmap(name);
  if (!m)
    return -1;
  cmap_eval(m, t, rgb);
  return 0;
}

op_ppm_options op_ppm_default_options(void) {
  op_ppm_options o;
  memset(&o, 0, sizeof o);
  o.colormap = "viridis";
  o.autorange = 1;
  o.scale = 1;
  o.stride = 1;
  return o;
}

/* ---- colouring ------------------------------------------------------------------------ */

typedef struct {
  const cmap *map;
  double vmin, vmax;
  unsigned char nan_rgb[3];
} colouring;

static void colour_of(const colouring *s, double v, unsigned char rgb[3]) {
  if (isnan(v)) {
    memcpy(rgb, s->nan_rgb, 3);
    return;
  }
  double t;
  if (isinf(v))
    t = v > 0 ? 1.0 : 0.0;
  else if (s->vmax > s->vmin) /* halves: no overflow for ranges near DBL_MAX */
    t = (0.5 * v - 0.5 * s->vmin) / (0.5 * s->vmax - 0.5 * s->vmin);
  else
    t = 0.5; /* constant field / empty range */
  cmap_eval(s->map, t, rgb);
}

/* Checks the options common to every picture and fills the colouring (the
 * range comes later). */
static int prepare(const op_io_ctx *c, const op_ppm_options *o, colouring *col) {
  col->map = find_cmap(o->colormap);
  if (!col->map)
    return OP_IO_ERR(c, OP_IO_EARG, "unknown colour map '%s' (viridis, gray, coolwarm, jet)",
                     o->colormap);
  if (o->nan_rgb_set)
    memcpy(col->nan_rgb, o->nan_rgb, 3);
  else {
    col->nan_rgb[0] = 255;
    col->nan_rgb[1] = 0;
    col->nan_rgb[2] = 255;
  }
  if (!o->autorange && (!isfinite(o->vmin) || !isfinite(o->vmax) || o->vmin > o->vmax))
    return OP_IO_ERR(c, OP_IO_EARG, "invalid range [%g, %g]", o->vmin, o->vmax);
  col->vmin = o->vmin;
  col->vmax = o->vmax;
  return OP_IO_OK;
}

/* [min, max] of the finite values passed to it; 0, 0 when there is none. */
typedef struct {
  int any;
  double lo, hi;
} range_acc;

static void range_add(range_acc *r, double v) {
  if (!isfinite(v))
    return;
  if (!r->any || v < r->lo)
    r->lo = v;
  if (!r->any || v > r->hi)
    r->hi = v;
  r->any = 1;
}

/* ---- the annotated picture ------------------------------------------------------------ */

static const unsigned char black[3] = {0, 0, 0};

/* Where the field goes in the picture. */
typedef struct {
  int x, y, w, h;
} plot_box;

/* "%.4g", or more digits when the range is narrow against its values (so
 * that the five labels of a bar differ). */
static void tick_label(char *buf, size_t len, double v, double lo, double hi) {
  int digits = 4;
  const double span = fabs(hi - lo), mag = fmax(fabs(lo), fabs(hi));
  while (digits < 12 && span > 0 && span < mag * pow(10.0, 1 - digits))
    digits++;
  snprintf(buf, len, "%.*g", digits, v);
}

/* Round coordinates between lo and hi for the axes: a step of 1, 2 or 5
 * times a power of ten giving about `want` of them; their count (at most
 * max), the values in v[] and the decimals they need. */
static int axis_ticks(double lo, double hi, int want, double *v, int max, int *decimals) {
  const double span = hi - lo;
  if (!(span > 0.0) || !isfinite(span))
    return 0;
  const double raw = span / want, mag = pow(10.0, floor(log10(raw))), f = raw / mag;
  const double step = (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0) * mag;
  const int d = (int)-floor(log10(step) + 1e-9);
  *decimals = d > 0 ? d : 0;
  int n = 0;
  for (double k = ceil(lo / step - 1e-9); n < max && k * step <= hi + 1e-9 * span; k += 1.0) {
    const double t = k * step;
    v[n++] = fabs(t) < 1e-12 * span ? 0.0 : t; /* no "-0" */
  }
  return n;
}

/* The widest of n tick numbers. */
static int ticks_width(const double *v, int n, int dec, int ts) {
  int w = 0;
  for (int k = 0; k < n; ++k) {
    char label[48];
    snprintf(label, sizeof label, "%.*f", dec, v[k]);
    const int lw = op_image_text_width(label, ts);
    w = lw > w ? lw : w;
  }
  return w;
}

/* The ticks of one axis `pixels` long: about five, fewer where their
 * numbers would touch (a thin strip, such as a 1D problem's few rows, gets
 * one or two), so that every number stays readable. Vertical numbers need
 * two text heights apart, horizontal ones their width and a gap. */
static int axis_ticks_fit(double lo, double hi, int pixels, int vertical, int ts, double *v,
                          int max, int *decimals) {
  int n = 0;
  for (int want = 5; want >= 1; --want) {
    n = axis_ticks(lo, hi, want, v, max, decimals);
    if (n < 2) return n;
    const double gap = (v[1] - v[0]) / (hi - lo) * pixels;
    const int need =
        vertical ? 2 * op_image_text_height(ts) : ticks_width(v, n, *decimals, ts) + 4 * ts;
    if (gap >= need) return n;
  }
  return n < 1 ? n : 1; /* one number, at the first round value */
}

/* The axes of an annotated picture around its plot box: ticks outside the
 * frame and their numbers, x below and y to the left. */
static void draw_axes(op_image *im, const plot_box *box, const double ext[4], int ts) {
  double v[16];
  int dec, th = op_image_text_height(ts);
  char label[48];
  int n = axis_ticks_fit(ext[0], ext[1], box->w, 0, ts, v, 16, &dec);
  for (int k = 0; k < n; ++k) {
    const int x = box->x + (int)lround((v[k] - ext[0]) / (ext[1] - ext[0]) * (box->w - 1));
    op_image_rect(im, x, box->y + box->h + 1, ts, 4 * ts, black);
    snprintf(label, sizeof label, "%.*f", dec, v[k]);
    op_image_text(im, x - op_image_text_width(label, ts) / 2, box->y + box->h + 6 * ts, label, ts,
                  black);
  }
  n = axis_ticks_fit(ext[2], ext[3], box->h, 1, ts, v, 16, &dec);
  for (int k = 0; k < n; ++k) {
    const int y = box->y + (int)lround((ext[3] - v[k]) / (ext[3] - ext[2]) * (box->h - 1));
    op_image_rect(im, box->x - 1 - 4 * ts, y, 4 * ts, ts, black);
    snprintf(label, sizeof label, "%.*f", dec, v[k]);
    op_image_text(im, box->x - 6 * ts - op_image_text_width(label, ts), y - th / 2, label, ts,
                  black);
  }
}

/* The widest y number of the axes (0 without axes) of a plot plot_h high. */
static int axes_label_width(const op_ppm_options *o, int plot_h, int ts) {
  if (!o->axes)
    return 0;
  double v[16];
  int dec;
  const int n = axis_ticks_fit(o->extent[2], o->extent[3], plot_h, 1, ts, v, 16, &dec);
  return ticks_width(v, n, dec, ts);
}

/* Allocates the picture for a plot_w x plot_h field: bare (the field alone)
 * or annotated (title line, frame, colour bar with five values, the axes'
 * coordinates when asked). */
static int layout(const op_io_ctx *c, op_image *im, int plot_w, int plot_h,
                  const op_ppm_options *o, const colouring *col, plot_box *box) {
  const int annotated = o->title || o->colorbar;
  if (!annotated) {
    box->x = box->y = 0;
    box->w = plot_w;
    box->h = plot_h;
    return op_image_alloc(im, plot_w, plot_h, c->file, c->err, c->errlen);
  }
  const int ts = (plot_w > 900 || plot_h > 900) ? 2 : 1; /* text scale */
  const int m = 10 * ts, th = op_image_text_height(ts), bw = 16 * ts;
  char title[512], labels[5][48];
  int n = snprintf(title, sizeof title, "%s", o->title ? o->title : "");
  if (o->show_time)
    snprintf(title + n, sizeof title - (size_t)n, "%st = %.6g", n ? "    " : "", o->time);
  int lw = 0;
  for (int k = 0; k < 5; ++k) {
    tick_label(labels[k], sizeof labels[k], col->vmin + (col->vmax - col->vmin) * k / 4.0,
               col->vmin, col->vmax);
    const int w = op_image_text_width(labels[k], ts);
    lw = w > lw ? w : lw;
  }
  const int bar_h = plot_h > 160 * ts ? plot_h : 160 * ts;
  /* The axes: their y numbers left of the field, the x numbers below it. */
  const int ax_w = o->axes ? axes_label_width(o, plot_h, ts) + 6 * ts : 0;
  const int ax_h = o->axes ? 6 * ts + th : 0;
  box->x = m + ax_w;
  box->y = m + th + m;
  box->w = plot_w;
  box->h = plot_h;
  int width = box->x + plot_w + 2 * m + (o->colorbar ? bw + 6 * ts + lw + m : 0);
  const int tw = m + op_image_text_width(title, ts) + m;
  width = tw > width ? tw : width;
  const int below = plot_h + ax_h, tallest = o->colorbar && bar_h > below ? bar_h : below;
  const int height = box->y + tallest + th / 2 + m;
  int rc = op_image_alloc(im, width, height, c->file, c->err, c->errlen);
  if (rc != OP_IO_OK)
    return rc;
  op_image_text(im, m, m, title, ts, black);
  /* A frame just outside the field. */
  op_image_rect(im, box->x - 1, box->y - 1, plot_w + 2, 1, black);
  op_image_rect(im, box->x - 1, box->y + plot_h, plot_w + 2, 1, black);
  op_image_rect(im, box->x - 1, box->y - 1, 1, plot_h + 2, black);
  op_image_rect(im, box->x + plot_w, box->y - 1, 1, plot_h + 2, black);
  if (o->axes)
    draw_axes(im, box, o->extent, ts);
  if (!o->colorbar)
    return OP_IO_OK;
  const int bx = box->x + plot_w + 2 * m, by = box->y;
  for (int r = 0; r < bar_h; ++r) { /* top row: vmax */
    unsigned char rgb[3];
    cmap_eval(col->map, bar_h > 1 ? 1.0 - (double)r / (bar_h - 1) : 0.5, rgb);
    op_image_rect(im, bx, by + r, bw, 1, rgb);
  }
  op_image_rect(im, bx - 1, by - 1, bw + 2, 1, black);
  op_image_rect(im, bx - 1, by + bar_h, bw + 2, 1, black);
  op_image_rect(im, bx - 1, by - 1, 1, bar_h + 2, black);
  op_image_rect(im, bx + bw, by - 1, 1, bar_h + 2, black);
  for (int k = 0; k < 5; ++k) {
    const int ty = by + (int)lround((bar_h - 1) * (1.0 - k / 4.0));
    op_image_rect(im, bx + bw, ty, 4 * ts, ts, black);
    op_image_text(im, bx + bw + 6 * ts, ty - th / 2, labels[k], ts, black);
  }
  return OP_IO_OK;
}

/* Writes the picture as PPM, and as PNG beside it when asked. */
static int write_picture(const op_image *im, const char *file, const op_ppm_options *o,
                         char *err, size_t errlen) {
  int rc = op_image_write_ppm(im, file, err, errlen);
  if (rc == OP_IO_OK && o->png) {
    char png[4200];
    op_io_ctx c = {err, errlen, "PNG file", file, NULL, NULL};
    if (op_image_png_name(file, png, sizeof png) != 0)
      return OP_IO_ERR(&c, OP_IO_EARG, "file name too long");
    rc = op_image_write_png(im, png, err, errlen);
  }
  return rc;
}

/* ---- structured fields -------------------------------------------------------------------- */

static int write_field(const char *file, const double *field, int nx, int ny,
                       const op_ppm_options *opt, double range_out[2], char *err,
                       size_t errlen) {
  op_io_ctx c = {err, errlen, "PPM file", file, NULL, NULL};
  op_ppm_options o = opt ? *opt : op_ppm_default_options();
  if (!file || !file[0])
    return OP_IO_ERR(&c, OP_IO_EARG, "no file name given");
  if (!field || nx < 1 || ny < 1)
    return OP_IO_ERR(&c, OP_IO_EARG, "invalid field (%d x %d cells)", nx, ny);
  if (o.scale == 0)
    o.scale = 1;
  if (o.stride == 0)
    o.stride = 1;
  if (o.scale < 1 || o.scale > 1024)
    return OP_IO_ERR(&c, OP_IO_EARG, "invalid scale factor %d (1..1024)", o.scale);
  if (o.axes && !(o.extent[1] > o.extent[0] && o.extent[3] > o.extent[2] &&
                  isfinite(o.extent[1] - o.extent[0]) && isfinite(o.extent[3] - o.extent[2])))
    return OP_IO_ERR(&c, OP_IO_EARG, "axes asked for, but the extent %g %g %g %g is not x0 < x1, "
                     "y0 < y1", o.extent[0], o.extent[1], o.extent[2], o.extent[3]);
  if ((o.title || o.colorbar) && o.min_size >= 0) { /* annotated: big enough to read */
    const int want = o.min_size ? o.min_size : 240, side = nx > ny ? nx : ny;
    while ((long long)side * o.scale < want && o.scale < 1024)
      o.scale++;
  }
  if ((long long)nx * o.scale > INT_MAX / 4 || (long long)ny * o.scale > INT_MAX / 4)
    return OP_IO_ERR(&c, OP_IO_EARG, "image too large (%d x %d cells, scale %d)", nx, ny,
                     o.scale);
  colouring col;
  int rc = prepare(&c, &o, &col);
  if (rc != OP_IO_OK)
    return rc;
  const size_t n = (size_t)nx * (size_t)ny;
  if (o.autorange) {
    range_acc r = {0, 0.0, 0.0};
    for (size_t k = 0; k < n; ++k)
      range_add(&r, field[k * o.stride]);
    col.vmin = r.lo;
    col.vmax = r.hi;
  }
  if (range_out) {
    range_out[0] = col.vmin;
    range_out[1] = col.vmax;
  }
  op_image im;
  plot_box box;
  rc = layout(&c, &im, nx * o.scale, ny * o.scale, &o, &col, &box);
  if (rc != OP_IO_OK)
    return rc;
  for (int j = 0; j < ny; ++j) /* field row j: image rows from the bottom of the box */
    for (int i = 0; i < nx; ++i) {
      unsigned char rgb[3];
      colour_of(&col, field[((size_t)j * (size_t)nx + (size_t)i) * o.stride], rgb);
      op_image_rect(&im, box.x + i * o.scale, box.y + (ny - 1 - j) * o.scale, o.scale, o.scale,
                    rgb);
    }
  rc = write_picture(&im, file, &o, err, errlen);
  op_image_free(&im);
  return rc;
}

/* On many processes the root draws (field: what it holds, typically from
 * op_fetch_data_global); the others may pass NULL. */
int op_ppm_write_field(const char *file, const double *field, int nx, int ny,
                       const op_ppm_options *opt, double range_out[2], char *err,
                       size_t errlen) {
  int rc = op_io_writer() ? write_field(file, field, nx, ny, opt, range_out, err, errlen)
                          : OP_IO_OK;
  return op_io_shared(rc, err);
}

/* ---- unstructured cells ----------------------------------------------------------------- */

/* map and xy: every cell's nodes and every node's coordinates, in the user's
 * numbering; ncell cells. */
static int write_cells(const char *file, op_map cell_nodes, op_dat coords, const int *map,
                       const double *xy, int ncell, const double *values, const double window[4],
                       int width, const op_ppm_options *opt, double range_out[2], char *err,
                       size_t errlen) {
  op_io_ctx c = {err, errlen, "PPM file", file, NULL, NULL};
  op_ppm_options o = opt ? *opt : op_ppm_default_options();
  if (!file || !file[0])
    return OP_IO_ERR(&c, OP_IO_EARG, "no file name given");
  if (!cell_nodes || !cell_nodes->map || !cell_nodes->from || (cell_nodes->dim != 3 && cell_nodes->dim != 4))
    return OP_IO_ERR(&c, OP_IO_EARG, "cell_nodes must map cells to 3 or 4 nodes");
  if (!coords || coords->dim != 2 || coords->type != OP_TYPE_DOUBLE || coords->set != cell_nodes->to)
    return OP_IO_ERR(&c, OP_IO_EARG, "coords must be 2 doubles on the nodes of '%s'",
                     cell_nodes->name ? cell_nodes->name : "?");
  if (!values || !window || !(window[1] > window[0]) || !(window[3] > window[2]) ||
      !isfinite(window[1] - window[0]) || !isfinite(window[3] - window[2]))
    return OP_IO_ERR(&c, OP_IO_EARG, "no values or an empty window");
  if (width < 8 || width > 16384)
    return OP_IO_ERR(&c, OP_IO_EARG, "width %d pixels outside 8..16384", width);
  const double sx = width / (window[1] - window[0]);
  const double hh = (window[3] - window[2]) * sx;
  if (!(hh >= 1.0 && hh <= 16384.0))
    return OP_IO_ERR(&c, OP_IO_EARG, "the window's height would be %g pixels (1..16384)", hh);
  const int height = (int)lround(hh);
  memcpy(o.extent, window, sizeof o.extent); /* the axes are the window's */
  colouring col;
  int rc = prepare(&c, &o, &col);
  if (rc != OP_IO_OK)
    return rc;
  const int nv = cell_nodes->dim;
  /* Cells reaching into the window, for the range and the drawing. */
  unsigned char *in = malloc(ncell > 0 ? (size_t)ncell : 1);
  if (!in)
    return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
  range_acc r = {0, 0.0, 0.0};
  for (int e = 0; e < ncell; ++e) {
    double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    for (int k = 0; k < nv; ++k) {
      const double *p = xy + 2 * (size_t)map[(size_t)e * nv + k];
      x0 = fmin(x0, p[0]), x1 = fmax(x1, p[0]), y0 = fmin(y0, p[1]), y1 = fmax(y1, p[1]);
    }
    in[e] = x1 >= window[0] && x0 <= window[1] && y1 >= window[2] && y0 <= window[3];
    if (in[e] && o.autorange)
      range_add(&r, values[e]);
  }
  if (o.autorange) {
    col.vmin = r.lo;
    col.vmax = r.hi;
  }
  if (range_out) {
    range_out[0] = col.vmin;
    range_out[1] = col.vmax;
  }
  op_image im;
  plot_box box;
  rc = layout(&c, &im, width, height, &o, &col, &box);
  if (rc != OP_IO_OK) {
    free(in);
    return rc;
  }
  static const unsigned char empty[3] = {220, 220, 220};
  op_image_rect(&im, box.x, box.y, box.w, box.h, empty);
  /* Draw into a picture of the box alone, then copy it in: polygons and lines
   * clip to the box that way. */
  op_image plot;
  rc = op_image_alloc(&plot, box.w, box.h, file, err, errlen);
  if (rc == OP_IO_OK) {
    memset(plot.rgb, 220, (size_t)box.w * (size_t)box.h * 3);
    for (int e = 0; e < ncell; ++e) {
      if (!in[e])
        continue;
      double px[4], py[4];
      for (int k = 0; k < nv; ++k) {
        const double *p = xy + 2 * (size_t)map[(size_t)e * nv + k];
        px[k] = (p[0] - window[0]) * sx;
        py[k] = (window[3] - p[1]) * sx;
      }
      unsigned char rgb[3];
      colour_of(&col, values[e], rgb);
      op_image_polygon(&plot, px, py, nv, rgb);
    }
    for (int k = 0; k < o.nlines && o.lines; ++k) {
      const double *l = o.lines + 4 * (size_t)k;
      op_image_line(&plot, (int)lround((l[0] - window[0]) * sx - 0.5),
                    (int)lround((window[3] - l[1]) * sx - 0.5),
                    (int)lround((l[2] - window[0]) * sx - 0.5),
                    (int)lround((window[3] - l[3]) * sx - 0.5), black);
    }
    for (int j = 0; j < box.h; ++j)
      memcpy(im.rgb + 3 * ((size_t)(box.y + j) * (size_t)im.width + (size_t)box.x),
             plot.rgb + 3 * (size_t)j * (size_t)box.w, 3 * (size_t)box.w);
    op_image_free(&plot);
    rc = write_picture(&im, file, &o, err, errlen);
  }
  op_image_free(&im);
  free(in);
  return rc;
}

/* Every process calls it: the mesh and coordinates are gathered on the root,
 * which draws (values: every cell's, on the root). */
int op_ppm_write_cells(const char *file, op_map cell_nodes, op_dat coords, const double *values,
                       const double window[4], int width, const op_ppm_options *opt,
                       double range_out[2], char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "PPM file", file, NULL, NULL};
  int rc = OP_IO_OK;
  if (!cell_nodes || !cell_nodes->map || !cell_nodes->from || (cell_nodes->dim != 3 && cell_nodes->dim != 4))
    rc = OP_IO_ERR(&c, OP_IO_EARG, "cell_nodes must map cells to 3 or 4 nodes");
  else if (!coords || coords->dim != 2 || coords->type != OP_TYPE_DOUBLE || coords->set != cell_nodes->to)
    rc = OP_IO_ERR(&c, OP_IO_EARG, "coords must be 2 doubles on the nodes of '%s'",
                   cell_nodes->name ? cell_nodes->name : "?");
  if (rc != OP_IO_OK)
    return rc; /* the same on every process */
  const int *map = op_fetch_map_global(cell_nodes); /* collective */
  const double *xy = op_fetch_data_global(coords);
  if (op_io_writer())
    rc = write_cells(file, cell_nodes, coords, map, xy, op_get_size(cell_nodes->from), values,
                     window, width, opt, range_out, err, errlen);
  return op_io_shared(rc, err);
}

int op_ppm_write_dat(const char *file, op_dat dat, int component, int nx, int ny,
                     const op_ppm_options *opt, double range_out[2], char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "PPM file", file, "dat", dat ? dat->name : NULL};
  if (!dat || !dat->set)
    return OP_IO_ERR(&c, OP_IO_EARG, "no dat given");
  if (dat->type != OP_TYPE_DOUBLE)
    return OP_IO_ERR(&c, OP_IO_ETYPE, "dat holds '%s', images need 'double'",
                     dat->type_name ? dat->type_name : "?");
  if (component < 0 || component >= dat->dim)
    return OP_IO_ERR(&c, OP_IO_EARG, "component %d outside [0, %d)", component, dat->dim);
  const int size = op_get_size(dat->set);
  if (nx < 1 || ny < 1 || (long long)nx * ny != size)
    return OP_IO_ERR(&c, OP_IO_ESHAPE, "%d x %d cells but set '%s' has %d elements", nx, ny,
                     dat->set->name ? dat->set->name : "?", size);
  op_ppm_options o = opt ? *opt : op_ppm_default_options();
  o.stride = (size_t)dat->dim;
  const double *data = (const double *)op_fetch_data_global(dat); /* collective */
  int rc = op_io_writer() ? write_field(file, data + component, nx, ny, &o, range_out, err, errlen)
                          : OP_IO_OK;
  return op_io_shared(rc, err);
}

/* ---- reading -------------------------------------------------------------------------- */

/* An image on its way in through libnetpbm: what is allocated so far, for
 * pam_read to free when libnetpbm fails part way, and why it was refused
 * when it is one this reader does not take. */
typedef struct {
  FILE *fp;
  struct pam pam;
  tuple *row;
  unsigned char *buf;
  const char *why;
} pam_reading;

static void read_rows(void *arg) {
  pam_reading *in = arg;
  struct pam *pam = &in->pam;
  pnm_readpaminit(in->fp, pam, PAM_STRUCT_SIZE(tuple_type));
  if (pam->width < 1 || pam->height < 1 || pam->depth < 1 || pam->maxval < 1 ||
      (size_t)pam->width * (size_t)pam->height > ((size_t)1 << 40) / 3) {
    in->why = "unsupported image size or depth";
    return;
  }
  in->buf = malloc((size_t)pam->width * (size_t)pam->height * 3);
  if (!in->buf) {
    in->why = "out of memory";
    return;
  }
  in->row = pnm_allocpamrow(pam);
  for (int r = 0; r < pam->height; ++r) {
    pnm_readpamrow(pam, in->row);
    for (int x = 0; x < pam->width; ++x)
      for (int k = 0; k < 3; ++k) {
        sample v = in->row[x][pam->depth >= 3 ? (unsigned)k : 0];
        in->buf[((size_t)r * (size_t)pam->width + (size_t)x) * 3 + (size_t)k] =
            (unsigned char)((v * 255u + pam->maxval / 2) / pam->maxval);
      }
  }
  pnm_freepamrow(in->row);
  in->row = NULL;
}

/* Reads the image from fp; returns 0, or -1 with op_pm_msg set, or *why when
 * the image is one this reader refuses (nothing left allocated). */
static int pam_read(FILE *fp, int *w, int *h, unsigned char **out, const char **why) {
  pam_reading in;
  memset(&in, 0, sizeof in);
  in.fp = fp;
  *why = NULL;
  if (op_pm_guarded(read_rows, &in) != 0) {
    if (in.row) pnm_freepamrow(in.row);
    free(in.buf);
    return -1;
  }
  if (in.why) {
    *why = in.why;
    return -1;
  }
  *w = in.pam.width;
  *h = in.pam.height;
  *out = in.buf;
  return 0;
}

int op_ppm_read(const char *file, int *width, int *height, unsigned char **rgb, char *err,
                size_t errlen) {
  op_io_ctx c = {err, errlen, "PPM file", file, NULL, NULL};
  if (!file || !width || !height || !rgb)
    return OP_IO_ERR(&c, OP_IO_EARG, "invalid arguments");
  *rgb = NULL;
  FILE *fp = fopen(file, "rb");
  if (!fp) return OP_IO_ERR(&c, OP_IO_ENOFILE, "cannot open: %s", strerror(errno));
  const char *why = NULL;
  int rc = OP_IO_OK;
  if (pam_read(fp, width, height, rgb, &why) != 0)
    rc = why ? OP_IO_ERR(&c, OP_IO_EFORMAT, "%s", why)
             : OP_IO_ERR(&c, OP_IO_EFORMAT, "libnetpbm: %s", op_pm_msg);
  if (fclose(fp) != 0 && rc == OP_IO_OK) {
    free(*rgb);
    *rgb = NULL;
    rc = OP_IO_ERR(&c, OP_IO_EIO, "closing failed: %s", strerror(errno));
  }
  return rc;
}
