/*
 * test_picture.c - annotated pictures (title, colour bar), PNG beside the PPM,
 * and pictures of the cells of an unstructured mesh:
 *   test_picture <outdir>
 * The layout checked here is the one op_ppm.c draws: margins of 10 pixels
 * (text scale 1), the title line, the field in a frame, the colour bar 20
 * pixels to its right with five labels.
 */
#include <math.h>
#include <png.h>

#include "io_test.h"
#include "op2.h"
#include "op_image.h"
#include "op_ppm.h"

static const unsigned char *px(const unsigned char *rgb, int w, int x, int y) {
  return rgb + ((size_t)y * (size_t)w + (size_t)x) * 3;
}

static int is(const unsigned char *p, int r, int g, int b) { return p[0] == r && p[1] == g && p[2] == b; }

static int is_colour(const unsigned char *p, const char *map, double t) {
  unsigned char c[3];
  return op_ppm_colormap(map, t, c) == 0 && is(p, c[0], c[1], c[2]);
}

/* Black pixels in the rectangle [x0, x1) x [y0, y1). */
static int black_in(const unsigned char *rgb, int w, int x0, int y0, int x1, int y1) {
  int n = 0;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x)
      n += is(px(rgb, w, x, y), 0, 0, 0);
  return n;
}

/* The PNG read back through libpng's simplified API (8-bit RGB). */
static unsigned char *read_png(const char *file, int *w, int *h) {
  png_image im;
  memset(&im, 0, sizeof im);
  im.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&im, file))
    return NULL;
  im.format = PNG_FORMAT_RGB;
  unsigned char *buf = malloc(PNG_IMAGE_SIZE(im));
  if (!buf || !png_image_finish_read(&im, NULL, buf, 0, NULL)) {
    free(buf);
    png_image_free(&im);
    return NULL;
  }
  *w = (int)im.width;
  *h = (int)im.height;
  return buf;
}

static void annotated_field(const char *dir) {
  enum { NX = 4, NY = 3 };
  double f[NX * NY];
  for (int j = 0; j < NY; ++j)
    for (int i = 0; i < NX; ++i)
      f[j * NX + i] = i + 10.0 * j; /* range [0, 23]; row 0 is the bottom */
  op_ppm_options o = op_ppm_default_options();
  o.title = "T";
  o.show_time = 1;
  o.time = 0.25;
  o.colorbar = 1;
  o.png = 1;
  char err[OP_IO_ERRLEN];
  const char *ppm = io_path(dir, "picture_field.ppm");
  double range[2];
  CHECK(op_ppm_write_field(ppm, f, NX, NY, &o, range, err, sizeof err) == OP_IO_OK);
  CHECK(range[0] == 0.0 && range[1] == 23.0);
  int w = 0, h = 0;
  unsigned char *rgb = NULL;
  CHECK(op_ppm_read(ppm, &w, &h, &rgb, err, sizeof err) == OP_IO_OK);
  if (!rgb)
    return;
  /* The field is scaled up to 240 pixels on its longer side: 60 per cell. */
  const int m = 10, th = op_image_text_height(1), bx = m, by = m + th + m;
  const int pw = NX * 60, ph = NY * 60, barx = bx + pw + 2 * m, bar_h = ph > 160 ? ph : 160;
  CHECK(w > barx + 16 && h >= by + bar_h);
  CHECK(is_colour(px(rgb, w, bx, by), "viridis", 20.0 / 23.0));          /* top left: j = 2 */
  CHECK(is_colour(px(rgb, w, bx + pw - 1, by + ph - 1), "viridis", 3.0 / 23.0)); /* bottom right */
  CHECK(is_colour(px(rgb, w, bx + 59, by + 60), "viridis", 10.0 / 23.0)); /* cell (0, 1) */
  CHECK(is(px(rgb, w, bx - 1, by + 5), 0, 0, 0));                         /* the frame */
  CHECK(black_in(rgb, w, 0, m, w, m + th) > 20);                          /* the title */
  CHECK(is_colour(px(rgb, w, barx + 8, by), "viridis", 1.0));             /* bar: vmax on top */
  CHECK(is_colour(px(rgb, w, barx + 8, by + bar_h - 1), "viridis", 0.0));
  CHECK(black_in(rgb, w, barx + 17, by - th, w, by + bar_h + th) > 40);   /* five labels */
  /* The PNG beside it holds the same picture. */
  int pw2 = 0, ph2 = 0;
  unsigned char *png = read_png(io_path(dir, "picture_field.png"), &pw2, &ph2);
  CHECK(png && pw2 == w && ph2 == h && memcmp(png, rgb, (size_t)w * h * 3) == 0);
  CHECK(!io_file_exists(io_tmp_path(dir, "picture_field.png")));
  free(png);
  /* Another range draws other labels beside the same bar, the same field elsewhere. */
  o.autorange = 0;
  o.vmin = -100;
  o.vmax = 100;
  o.png = 0;
  const char *ppm2 = io_path(dir, "picture_field_fixed.ppm");
  CHECK(op_ppm_write_field(ppm2, f, NX, NY, &o, NULL, err, sizeof err) == OP_IO_OK);
  int w2 = 0, h2 = 0;
  unsigned char *rgb2 = NULL;
  CHECK(op_ppm_read(ppm2, &w2, &h2, &rgb2, err, sizeof err) == OP_IO_OK);
  if (rgb2 && h2 == h) {
    CHECK(is_colour(px(rgb2, w2, bx, by), "viridis", 120.0 / 200.0));
    CHECK(is_colour(px(rgb2, w2, barx + 8, by), "viridis", 1.0)); /* the same bar */
    int differ = w2 != w; /* the labels say the range (and may be wider) */
    for (int y = by - th; !differ && y < by + bar_h + th; ++y)
      differ |= memcmp(px(rgb, w, barx + 17, y), px(rgb2, w, barx + 17, y), (size_t)(w - barx - 17) * 3);
    CHECK(differ);
  } else {
    CHECK(!"the fixed-range picture has another height");
  }
  free(rgb);
  free(rgb2);
}

static void mesh_cells(const char *dir) {
  /* Two unit squares side by side, values 0 and 1, and a third far outside
   * the window with value 5 (not in the range). */
  static double xy[] = {0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1, 10, 0, 11, 0, 11, 1, 10, 1};
  static int c2n[] = {0, 1, 4, 3, 1, 2, 5, 4, 6, 7, 8, 9};
  const double values[3] = {0.0, 1.0, 5.0};
  op_set nodes = op_decl_set(10, "picture_nodes");
  op_set cells = op_decl_set(3, "picture_cells");
  op_map pcell = op_decl_map(cells, nodes, 4, c2n, "picture_pcell");
  op_dat x = op_decl_dat(nodes, 2, "double", xy, "picture_x");
  const double window[4] = {-1, 3, -0.5, 1.5}; /* 100 pixels per unit, 400 x 200 */
  const double lines[4] = {0, -0.25, 2, -0.25};
  op_ppm_options o = op_ppm_default_options();
  o.lines = lines;
  o.nlines = 1;
  o.png = 1;
  char err[OP_IO_ERRLEN];
  double range[2];
  const char *ppm = io_path(dir, "picture_cells.ppm");
  CHECK(op_ppm_write_cells(ppm, pcell, x, values, window, 400, &o, range, err, sizeof err) ==
        OP_IO_OK);
  CHECK(range[0] == 0.0 && range[1] == 1.0);
  int w = 0, h = 0;
  unsigned char *rgb = NULL;
  CHECK(op_ppm_read(ppm, &w, &h, &rgb, err, sizeof err) == OP_IO_OK);
  CHECK(w == 400 && h == 200);
  if (rgb && w == 400 && h == 200) {
    CHECK(is_colour(px(rgb, w, 150, 100), "viridis", 0.0)); /* (0.5, 0.5) */
    CHECK(is_colour(px(rgb, w, 250, 100), "viridis", 1.0)); /* (1.5, 0.5) */
    CHECK(is_colour(px(rgb, w, 101, 51), "viridis", 0.0));  /* just inside a corner */
    CHECK(is(px(rgb, w, 50, 100), 220, 220, 220));          /* no cell there */
    CHECK(is(px(rgb, w, 150, 175), 0, 0, 0));               /* the line, y = -0.25 */
    CHECK(is(px(rgb, w, 350, 175), 220, 220, 220));         /* beyond its end */
  }
  free(rgb);
  CHECK(io_file_exists(io_path(dir, "picture_cells.png")));
  /* Mistakes are errors naming the file. */
  CHECK_ERR(op_ppm_write_cells(ppm, pcell, x, values, (const double[4]){1, 1, 0, 1}, 400, &o, NULL,
                               err, sizeof err),
            OP_IO_EARG, err, "picture_cells.ppm", "window");
  CHECK_ERR(op_ppm_write_cells(ppm, pcell, x, values, window, 2, &o, NULL, err, sizeof err),
            OP_IO_EARG, err, "picture_cells.ppm", "width 2");
  op_dat wrong = op_decl_dat_temp(cells, 2, "double", "picture_wrong");
  CHECK_ERR(op_ppm_write_cells(ppm, pcell, wrong, values, window, 400, &o, NULL, err, sizeof err),
            OP_IO_EARG, err, "picture_cells.ppm", "coords");
  /* Annotated with axes: the field moves right of the y numbers, ticks stand
   * outside the frame at round coordinates (x: -1, 0, ..., 3; y: -0.5, 0,
   * ..., 1.5), and the cells are where the window says. */
  o.title = "with axes";
  o.colorbar = 1;
  o.axes = 1;
  const char *ppm3 = io_path(dir, "picture_cells_axes.ppm");
  CHECK(op_ppm_write_cells(ppm3, pcell, x, values, window, 400, &o, NULL, err, sizeof err) ==
        OP_IO_OK);
  w = h = 0;
  rgb = NULL;
  CHECK(op_ppm_read(ppm3, &w, &h, &rgb, err, sizeof err) == OP_IO_OK);
  int fx = -1, fy = -1; /* the frame's left column and top row (one pixel outside the field) */
  for (int xx = 0; rgb && xx < w / 2 && fx < 0; ++xx)
    if (is(px(rgb, w, xx, h / 2), 0, 0, 0) && is(px(rgb, w, xx, h / 2 + 20), 0, 0, 0))
      fx = xx;
  for (int yy = 0; rgb && fx >= 0 && yy < h / 2 && fy < 0; ++yy)
    if (is(px(rgb, w, fx + 200, yy), 0, 0, 0) && is(px(rgb, w, fx + 220, yy), 0, 0, 0))
      fy = yy;
  CHECK(fx > 10 + 20); /* past the margin, the y numbers ("-0.5") and the ticks */
  if (rgb && fx > 0 && fy > 0) {
    const int bx = fx + 1, by = fy + 1; /* the field's corner: window (-1, 1.5) */
    CHECK(is_colour(px(rgb, w, bx + 150, by + 100), "viridis", 0.0)); /* (0.5, 0.5) */
    CHECK(is_colour(px(rgb, w, bx + 250, by + 100), "viridis", 1.0)); /* (1.5, 0.5) */
    CHECK(is(px(rgb, w, bx + 50, by + 100), 220, 220, 220));          /* no cell there */
    for (int k = 0; k <= 4; ++k) /* x ticks below the frame at -1, 0, 1, 2, 3 */
      CHECK(is(px(rgb, w, bx + (int)lround(k * 399 / 4.0), by + 200 + 2), 0, 0, 0));
    CHECK(!is(px(rgb, w, bx + 50, by + 200 + 2), 0, 0, 0)); /* none at -0.5 */
    for (int k = 0; k <= 4; ++k) /* y ticks left of the frame at 1.5, 1, 0.5, 0, -0.5 */
      CHECK(is(px(rgb, w, bx - 3, by + (int)lround(k * 199 / 4.0)), 0, 0, 0));
    int numbers = 0; /* dark pixels of the x numbers under the ticks */
    for (int yy = by + 206; yy < by + 220 && yy < h; ++yy)
      for (int xx = bx - 10; xx < bx + 410 && xx < w; ++xx)
        numbers += px(rgb, w, xx, yy)[0] < 100;
    CHECK(numbers > 20);
  }
  free(rgb);
  o.axes = 0;
  o.title = NULL;
  o.colorbar = 0;
  /* A field's axes need its extent. */
  const double field4[4] = {0, 1, 2, 3};
  op_ppm_options ao = op_ppm_default_options();
  ao.colorbar = 1;
  ao.axes = 1;
  CHECK_ERR(op_ppm_write_field(io_path(dir, "picture_axes_noextent.ppm"), field4, 2, 2, &ao, NULL,
                               err, sizeof err),
            OP_IO_EARG, err, "picture_axes_noextent.ppm", "extent");
  op_image im;
  CHECK(op_image_alloc(&im, 4, 4, "x.png", err, sizeof err) == OP_IO_OK);
  CHECK_ERR(op_image_write_png(&im, io_path(dir, "no/such/dir/x.png"), err, sizeof err),
            OP_IO_ENOFILE, err, "x.png", "cannot create");
  op_image_free(&im);
}

int main(int argc, char **argv) {
  op_init(argc, argv, 0);
  if (argc < 2) {
    fprintf(stderr, "usage: %s <outdir>\n", argv[0]);
    return 2;
  }
  annotated_field(argv[1]);
  mesh_cells(argv[1]);
  op_exit();
  return check_exit("io.picture");
}
