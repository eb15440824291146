/*
 * op_ppm.c - colour images of structured scalar fields through libnetpbm
 * (op_ppm.h).
 *
 * libnetpbm reports errors with pm_error(), which exits the program unless a
 * jmp_buf is registered: every call into libnetpbm here runs with our own
 * jmp_buf (pm_setjmpbufsave) and a message hook (pm_setusererrormsgfn) so a
 * failure becomes an error code and a message naming the file.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "op_ppm.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pam.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "op_io_util.h"

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

/* ---- libnetpbm plumbing ------------------------------------------------------------ */

static char pm_msg[512];

static void pm_capture(const char *msg) { snprintf(pm_msg, sizeof pm_msg, "%s", msg); }

static void pm_setup(void) {
  static int done = 0;
  if (!done) {
    pm_init("op2-io", 0); /* libnetpbm 10.x/11 wants pm_init before any other call */
    done = 1;
  }
  pm_msg[0] = '\0';
}

/* What fills image rows. */
typedef struct {
  const double *field;
  size_t stride;
  int nx, ny, scale;
  const cmap *map;
  double vmin, vmax;
  unsigned char nan_rgb[3];
  unsigned char *cell_rgb; /* nx * 3: colours of one field row */
} row_src;

static void colour_of(const row_src *s, double v, unsigned char rgb[3]) {
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

static void fill_cells(const row_src *s, int j) {
  for (int i = 0; i < s->nx; ++i)
    colour_of(s, s->field[((size_t)j * (size_t)s->nx + (size_t)i) * s->stride], s->cell_rgb + 3 * i);
}

/* Writes the image through libnetpbm; returns 0, or -1 with pm_msg set. */
static int pam_write(FILE *fp, const row_src *s) {
  struct pam pam;
  memset(&pam, 0, sizeof pam);
  pam.size = sizeof pam;
  pam.len = PAM_STRUCT_SIZE(tuple_type);
  pam.file = fp;
  pam.format = PPM_FORMAT;
  pam.plainformat = 0; /* raw (binary) PPM: P6 */
  pam.width = s->nx * s->scale;
  pam.height = s->ny * s->scale;
  pam.depth = 3;
  pam.maxval = 255;
  snprintf(pam.tuple_type, sizeof pam.tuple_type, "%s", PAM_PPM_TUPLETYPE);

  tuple *volatile row = NULL;
  jmp_buf jb;
  jmp_buf *old = NULL;
  pm_setjmpbufsave(&jb, &old);
  pm_setusererrormsgfn(pm_capture);
  if (setjmp(jb) != 0) {
    pm_setjmpbuf(old);
    pm_setusererrormsgfn(NULL);
    if (row)
      pnm_freepamrow(row);
    if (!pm_msg[0])
      snprintf(pm_msg, sizeof pm_msg, "libnetpbm failed");
    return -1;
  }
  pnm_writepaminit(&pam);
  row = pnm_allocpamrow(&pam);
  for (int r = 0; r < pam.height; ++r) {
    if (r % s->scale == 0)
      fill_cells(s, s->ny - 1 - r / s->scale); /* top image row = last field row */
    for (int x = 0; x < pam.width; ++x) {
      const unsigned char *c = s->cell_rgb + 3 * (x / s->scale);
      row[x][0] = c[0];
      row[x][1] = c[1];
      row[x][2] = c[2];
    }
    pnm_writepamrow(&pam, row);
  }
  pnm_freepamrow(row);
  row = NULL;
  pm_setjmpbuf(old);
  pm_setusererrormsgfn(NULL);
  return 0;
}

int op_ppm_write_field(const char *file, const double *field, int nx, int ny,
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
  if ((long long)nx * o.scale > INT_MAX / 4 || (long long)ny * o.scale > INT_MAX / 4)
    return OP_IO_ERR(&c, OP_IO_EARG, "image too large (%d x %d cells, scale %d)", nx, ny,
                     o.scale);
  const cmap *m = find_cmap(o.colormap);
  if (!m)
    return OP_IO_ERR(&c, OP_IO_EARG, "unknown colour map '%s' (viridis, gray, coolwarm, jet)",
                     o.colormap);

  double vmin = o.vmin, vmax = o.vmax;
  size_t n = (size_t)nx * (size_t)ny;
  if (o.autorange) {
    int any = 0;
    vmin = vmax = 0.0;
    for (size_t k = 0; k < n; ++k) {
      double v = field[k * o.stride];
      if (!isfinite(v))
        continue;
      if (!any || v < vmin)
        vmin = v;
      if (!any || v > vmax)
        vmax = v;
      any = 1;
    }
  } else if (!isfinite(vmin) || !isfinite(vmax) || vmin > vmax) {
    return OP_IO_ERR(&c, OP_IO_EARG, "invalid range [%g, %g]", vmin, vmax);
  }
  if (range_out) {
    range_out[0] = vmin;
    range_out[1] = vmax;
  }

  row_src s;
  s.field = field;
  s.stride = o.stride;
  s.nx = nx;
  s.ny = ny;
  s.scale = o.scale;
  s.map = m;
  s.vmin = vmin;
  s.vmax = vmax;
  if (o.nan_rgb_set)
    memcpy(s.nan_rgb, o.nan_rgb, 3);
  else {
    s.nan_rgb[0] = 255;
    s.nan_rgb[1] = 0;
    s.nan_rgb[2] = 255;
  }
  s.cell_rgb = malloc((size_t)nx * 3);
  char *tmp = op_io_tmpname(file);
  if (!s.cell_rgb || !tmp) {
    free(s.cell_rgb);
    free(tmp);
    return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
  }

  int rc = OP_IO_OK;
  FILE *fp = fopen(tmp, "wb");
  if (!fp) {
    rc = OP_IO_ERR(&c, OP_IO_ENOFILE, "cannot create '%s': %s", tmp, strerror(errno));
    goto out;
  }
  pm_setup();
  if (pam_write(fp, &s) != 0) {
    rc = OP_IO_ERR(&c, OP_IO_EIO, "libnetpbm: %s", pm_msg);
    fclose(fp); /* already failing */
    unlink(tmp);
    goto out;
  }
  if (fflush(fp) != 0 || ferror(fp)) {
    rc = OP_IO_ERR(&c, OP_IO_EIO, "writing '%s' failed: %s", tmp, strerror(errno));
    fclose(fp);
    unlink(tmp);
    goto out;
  }
  if (fclose(fp) != 0) {
    rc = OP_IO_ERR(&c, OP_IO_EIO, "closing '%s' failed: %s", tmp, strerror(errno));
    unlink(tmp);
    goto out;
  }
  rc = op_io_commit(&c, tmp, file);
out:
  free(s.cell_rgb);
  free(tmp);
  return rc;
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
  if (nx < 1 || ny < 1 || (long long)nx * ny != dat->set->size)
    return OP_IO_ERR(&c, OP_IO_ESHAPE, "%d x %d cells but set '%s' has %d elements", nx, ny,
                     dat->set->name ? dat->set->name : "?", dat->set->size);
  op_ppm_options o = opt ? *opt : op_ppm_default_options();
  o.stride = (size_t)dat->dim;
  const double *data = (const double *)op_fetch_data_ptr(dat);
  return op_ppm_write_field(file, data + component, nx, ny, &o, range_out, err, errlen);
}

/* ---- reading -------------------------------------------------------------------------- */

/* Reads the image from fp; returns 0, or -1 with pm_msg set (*out freed). */
static int pam_read(FILE *fp, int *w, int *h, unsigned char **out, const char **why) {
  struct pam pam;
  memset(&pam, 0, sizeof pam);
  tuple *volatile row = NULL;
  unsigned char *volatile buf = NULL;
  jmp_buf jb;
  jmp_buf *old = NULL;
  *why = NULL;
  pm_setjmpbufsave(&jb, &old);
  pm_setusererrormsgfn(pm_capture);
  if (setjmp(jb) != 0) {
    pm_setjmpbuf(old);
    pm_setusererrormsgfn(NULL);
    if (row)
      pnm_freepamrow(row);
    free(buf);
    if (!pm_msg[0])
      snprintf(pm_msg, sizeof pm_msg, "libnetpbm failed");
    return -1;
  }
  pnm_readpaminit(fp, &pam, PAM_STRUCT_SIZE(tuple_type));
  if (pam.width < 1 || pam.height < 1 || pam.depth < 1 || pam.maxval < 1 ||
      (size_t)pam.width * (size_t)pam.height > ((size_t)1 << 40) / 3) {
    *why = "unsupported image size or depth";
  } else {
    buf = malloc((size_t)pam.width * (size_t)pam.height * 3);
    if (!buf)
      *why = "out of memory";
  }
  if (*why) {
    pm_setjmpbuf(old);
    pm_setusererrormsgfn(NULL);
    return -1;
  }
  row = pnm_allocpamrow(&pam);
  for (int r = 0; r < pam.height; ++r) {
    pnm_readpamrow(&pam, row);
    for (int x = 0; x < pam.width; ++x)
      for (int k = 0; k < 3; ++k) {
        sample v = row[x][pam.depth >= 3 ? (unsigned)k : 0];
        buf[((size_t)r * (size_t)pam.width + (size_t)x) * 3 + (size_t)k] =
            (unsigned char)((v * 255u + pam.maxval / 2) / pam.maxval);
      }
  }
  pnm_freepamrow(row);
  row = NULL;
  pm_setjmpbuf(old);
  pm_setusererrormsgfn(NULL);
  *w = pam.width;
  *h = pam.height;
  *out = buf;
  return 0;
}

int op_ppm_read(const char *file, int *width, int *height, unsigned char **rgb, char *err,
                size_t errlen) {
  op_io_ctx c = {err, errlen, "PPM file", file, NULL, NULL};
  if (!file || !width || !height || !rgb)
    return OP_IO_ERR(&c, OP_IO_EARG, "invalid arguments");
  *rgb = NULL;
  FILE *fp = fopen(file, "rb");
  if (!fp)
    return OP_IO_ERR(&c, OP_IO_ENOFILE, "cannot open: %s", strerror(errno));
  pm_setup();
  const char *why = NULL;
  int rc = OP_IO_OK;
  if (pam_read(fp, width, height, rgb, &why) != 0)
    rc = why ? OP_IO_ERR(&c, OP_IO_EFORMAT, "%s", why)
             : OP_IO_ERR(&c, OP_IO_EFORMAT, "libnetpbm: %s", pm_msg);
  if (fclose(fp) != 0 && rc == OP_IO_OK) {
    free(*rgb);
    *rgb = NULL;
    rc = OP_IO_ERR(&c, OP_IO_EIO, "closing failed: %s", strerror(errno));
  }
  return rc;
}
