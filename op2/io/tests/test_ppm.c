/*
 * test_ppm.c - PPM images: write a known field, read it back through
 * libnetpbm, check size, corner colours, the vertical flip, NaN colour,
 * upscaling, colour maps, ranges and error messages.
 *   test_ppm <outdir>
 */
#include <math.h>

#include "io_test.h"
#include "op2.h"
#include "op_ppm.h"

static const unsigned char *px(const unsigned char *rgb, int w, int x, int y) {
  return rgb + ((size_t)y * (size_t)w + (size_t)x) * 3;
}

static int same(const unsigned char *a, const unsigned char *b) {
  return a[0] == b[0] && a[1] == b[1] && a[2] == b[2];
}

static void expect_colour(const unsigned char *rgb, int w, int x, int y, const char *map, double t,
                          const char *what) {
  unsigned char c[3];
  CHECK(op_ppm_colormap(map, t, c) == 0);
  const unsigned char *p = px(rgb, w, x, y);
  CHECK(same(p, c), "%s: pixel (%d,%d) = (%d,%d,%d), expected %s(%g) = (%d,%d,%d)", what, x, y,
        p[0], p[1], p[2], map, t, c[0], c[1], c[2]);
}

int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 0);
  if (argc < 2) {
    fprintf(stderr, "usage: %s <outdir>\n", argv[0]);
    return 2;
  }
  const char *dir = argv[1];
  char err[OP_IO_ERRLEN];
  int rc, w = 0, h = 0;
  unsigned char *rgb = NULL;

  /* 4 x 3 field, value = i + 10 j, range [0, 23]; row 0 is the bottom */
  enum { NX = 4, NY = 3 };
  double f[NX * NY];
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i)
      f[j * NX + i] = i + 10.0 * j;

  const char *p1 = io_path(dir, "ppm_basic.ppm");
  double range[2] = {-1, -1};
  rc = op_ppm_write_field(p1, f, NX, NY, NULL, range, err, sizeof err);
  CHECK(rc == OP_IO_OK);
  CHECK(range[0] == 0.0 && range[1] == 23.0);
  CHECK(!io_file_exists(io_tmp_path(dir, "ppm_basic.ppm")));
  char *raw = io_slurp(p1);
  CHECK(raw && raw[0] == 'P' && raw[1] == '6'); /* raw PPM */
  free(raw);
  rc = op_ppm_read(p1, &w, &h, &rgb, err, sizeof err);
  CHECK(rc == OP_IO_OK);
  CHECK(w == NX && h == NY);
  if (rc == OP_IO_OK && w == NX && h == NY) {
    /* image row 0 (top) = field row NY-1 */
    expect_colour(rgb, w, 0, NY - 1, "viridis", 0.0, "bottom-left = min");
    expect_colour(rgb, w, NX - 1, 0, "viridis", 1.0, "top-right = max");
    expect_colour(rgb, w, 0, 0, "viridis", 20.0 / 23.0, "top-left");
    expect_colour(rgb, w, NX - 1, NY - 1, "viridis", 3.0 / 23.0, "bottom-right");
    expect_colour(rgb, w, 1, 1, "viridis", 11.0 / 23.0, "middle");
  }
  free(rgb);
  rgb = NULL;

  /* map end points as documented */
  unsigned char c[3];
  CHECK(op_ppm_colormap("gray", 0.0, c) == 0 && c[0] == 0 && c[1] == 0 && c[2] == 0);
  CHECK(op_ppm_colormap("gray", 1.0, c) == 0 && c[0] == 255 && c[1] == 255 && c[2] == 255);
  CHECK(op_ppm_colormap("gray", 2.0, c) == 0 && c[0] == 255); /* clamped */
  CHECK(op_ppm_colormap("coolwarm", 0.5, c) == 0 && c[0] == 221 && c[1] == 221 && c[2] == 221);
  CHECK(op_ppm_colormap("coolwarm", 0.0, c) == 0 && c[2] > c[0]); /* blue end */
  CHECK(op_ppm_colormap("coolwarm", 1.0, c) == 0 && c[0] > c[2]); /* red end */
  CHECK(op_ppm_colormap("jet", 0.0, c) == 0 && c[0] == 0 && c[1] == 0 && c[2] == 128);
  CHECK(op_ppm_colormap("jet", 0.5, c) == 0 && c[1] == 255);
  CHECK(op_ppm_colormap("jet", 1.0, c) == 0 && c[0] == 128 && c[1] == 0 && c[2] == 0);
  CHECK(op_ppm_colormap("viridis", 0.0, c) == 0 && c[0] == 68 && c[1] == 1 && c[2] == 84);
  CHECK(op_ppm_colormap("nope", 0.0, c) == -1);
  /* viridis gets lighter monotonically (perceptual ordering) */
  double prev = -1;
  for (int k = 0; k <= 20; ++k) {
    CHECK(op_ppm_colormap("viridis", k / 20.0, c) == 0);
    double lum = 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
    CHECK(lum >= prev);
    prev = lum;
  }

  /* upscale 3, gray map, fixed range with clamping, NaN, infinities */
  double g[NX * NY];
  memcpy(g, f, sizeof g);
  g[0] = NAN;            /* cell (0,0): bottom-left */
  g[NX * NY - 1] = 1e9;  /* above vmax: white */
  g[1] = -INFINITY;      /* black */
  op_ppm_options o = op_ppm_default_options();
  o.colormap = "gray";
  o.autorange = 0;
  o.vmin = 0.0;
  o.vmax = 20.0;
  o.scale = 3;
  const char *p2 = io_path(dir, "ppm_scaled.ppm");
  rc = op_ppm_write_field(p2, g, NX, NY, &o, range, err, sizeof err);
  CHECK(rc == OP_IO_OK);
  CHECK(range[0] == 0.0 && range[1] == 20.0);
  rc = op_ppm_read(p2, &w, &h, &rgb, err, sizeof err);
  CHECK(rc == OP_IO_OK && w == NX * 3 && h == NY * 3);
  if (rc == OP_IO_OK && w == NX * 3 && h == NY * 3) {
    const unsigned char magenta[3] = {255, 0, 255};
    for (int y = h - 3; y < h; ++y)
      for (int x = 0; x < 3; ++x)
        CHECK(same(px(rgb, w, x, y), magenta)); /* NaN block, bottom-left 3x3 */
    for (int y = 0; y < 3; ++y)
      for (int x = w - 3; x < w; ++x)
        expect_colour(rgb, w, x, y, "gray", 1.0, "clamped max block");
    expect_colour(rgb, w, 3, h - 1, "gray", 0.0, "-inf");
    expect_colour(rgb, w, 5, h - 3, "gray", 0.0, "-inf block edge");
    expect_colour(rgb, w, 6, 0, "gray", 20.0 / 20.0, "value 22 clamped"); /* cell (2,2) = 22 */
    expect_colour(rgb, w, 3, 3, "gray", 11.0 / 20.0, "cell (1,1)");
  }
  free(rgb);
  rgb = NULL;

  /* custom NaN colour; a constant field: middle colour, no division by zero */
  double k5[6] = {5, 5, 5, 5, 5, NAN};
  o = op_ppm_default_options();
  o.colormap = "coolwarm";
  o.nan_rgb_set = 1;
  o.nan_rgb[0] = 1;
  o.nan_rgb[1] = 2;
  o.nan_rgb[2] = 3;
  const char *p3 = io_path(dir, "ppm_const.ppm");
  rc = op_ppm_write_field(p3, k5, 3, 2, &o, range, err, sizeof err);
  CHECK(rc == OP_IO_OK && range[0] == 5.0 && range[1] == 5.0);
  rc = op_ppm_read(p3, &w, &h, &rgb, err, sizeof err);
  CHECK(rc == OP_IO_OK && w == 3 && h == 2);
  if (rc == OP_IO_OK && w == 3 && h == 2) {
    expect_colour(rgb, w, 0, 1, "coolwarm", 0.5, "constant");
    expect_colour(rgb, w, 1, 0, "coolwarm", 0.5, "constant");
    const unsigned char nanc[3] = {1, 2, 3};
    CHECK(same(px(rgb, w, 2, 0), nanc)); /* cell (2,1) is the top-right */
  }
  free(rgb);
  rgb = NULL;

  /* all-NaN field with autorange */
  double nn[4] = {NAN, NAN, NAN, NAN};
  CHECK(op_ppm_write_field(io_path(dir, "ppm_nan.ppm"), nn, 2, 2, NULL, NULL, err, sizeof err) ==
        OP_IO_OK);

  /* stride: component 1 of a dim-2 field */
  double two[2 * 4] = {0, 10, 0, 20, 0, 30, 0, 40};
  o = op_ppm_default_options();
  o.colormap = "jet";
  o.stride = 2;
  const char *p4 = io_path(dir, "ppm_stride.ppm");
  rc = op_ppm_write_field(p4, two + 1, 2, 2, &o, range, err, sizeof err);
  CHECK(rc == OP_IO_OK && range[0] == 10.0 && range[1] == 40.0);
  rc = op_ppm_read(p4, &w, &h, &rgb, err, sizeof err);
  CHECK(rc == OP_IO_OK && w == 2 && h == 2);
  if (rc == OP_IO_OK && w == 2 && h == 2) {
    expect_colour(rgb, w, 0, 1, "jet", 0.0, "stride min");
    expect_colour(rgb, w, 1, 0, "jet", 1.0, "stride max");
  }
  free(rgb);
  rgb = NULL;

  /* errors name the file */
  o = op_ppm_default_options();
  o.colormap = "rainbow-unicorn";
  rc = op_ppm_write_field(io_path(dir, "ppm_badmap.ppm"), f, NX, NY, &o, NULL, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EARG, err, "ppm_badmap.ppm", "rainbow-unicorn");
  rc = op_ppm_write_field(io_path(dir, "no/such/dir/x.ppm"), f, NX, NY, NULL, NULL, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ENOFILE, err, "no/such/dir/x.ppm", NULL);
  o = op_ppm_default_options();
  o.autorange = 0;
  o.vmin = 2;
  o.vmax = 1;
  rc = op_ppm_write_field(io_path(dir, "ppm_badrange.ppm"), f, NX, NY, &o, NULL, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EARG, err, "ppm_badrange.ppm", "range");
  rc = op_ppm_read(io_path(dir, "ppm_missing.ppm"), &w, &h, &rgb, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ENOFILE, err, "ppm_missing.ppm", NULL);
  /* truncated image */
  const char *p5 = io_path(dir, "ppm_trunc.ppm");
  CHECK(op_ppm_write_field(p5, f, NX, NY, NULL, NULL, err, sizeof err) == OP_IO_OK);
  CHECK(truncate(p5, io_file_size(p5) - 10) == 0);
  rc = op_ppm_read(p5, &w, &h, &rgb, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EFORMAT, err, "ppm_trunc.ppm", NULL);
  CHECK(rgb == NULL);
  /* not an image */
  const char *p6 = io_path(dir, "ppm_text.ppm");
  FILE *t = fopen(p6, "w");
  CHECK(t != NULL);
  if (t) {
    fputs("hello\n", t);
    fclose(t);
  }
  rc = op_ppm_read(p6, &w, &h, &rgb, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EFORMAT, err, "ppm_text.ppm", NULL);

  /* straight from a dat: component 1 of a dim-2 dat on 3 x 2 cells */
  op_set cells = op_decl_set(6, "ppm_cells");
  op_dat q = op_decl_dat_temp(cells, 2, "double", "ppm_q");
  for (int i = 0; i < 6; ++i) {
    ((double *)q->data)[2 * i] = -1;
    ((double *)q->data)[2 * i + 1] = i;
  }
  op_host_data_changed(q);
  const char *p7 = io_path(dir, "ppm_dat.ppm");
  rc = op_ppm_write_dat(p7, q, 1, 3, 2, NULL, range, err, sizeof err);
  CHECK(rc == OP_IO_OK && range[0] == 0.0 && range[1] == 5.0);
  rc = op_ppm_read(p7, &w, &h, &rgb, err, sizeof err);
  CHECK(rc == OP_IO_OK && w == 3 && h == 2);
  if (rc == OP_IO_OK && w == 3 && h == 2) {
    expect_colour(rgb, w, 0, 1, "viridis", 0.0, "dat min");
    expect_colour(rgb, w, 2, 0, "viridis", 1.0, "dat max");
  }
  free(rgb);
  rgb = NULL;
  rc = op_ppm_write_dat(p7, q, 1, 4, 2, NULL, NULL, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ESHAPE, err, "ppm_dat.ppm", "ppm_cells");
  rc = op_ppm_write_dat(p7, q, 2, 3, 2, NULL, NULL, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EARG, err, "ppm_dat.ppm", "'ppm_q'");

  op_exit();
  return check_exit("io.ppm");
}
