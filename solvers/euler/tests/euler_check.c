/*
 * euler_check.c - the Euler solver's test driver (ctest euler.*).
 *
 *   euler_check scheme
 *       unit checks of euler_scheme.h and the flux kernels: the limiters
 *       against the formulas of docs/euler.md, consistency of the
 *       face flux (uniform data gives the physical flux), and the y-sweep
 *       kernel against the x-sweep kernel on transposed data (bitwise).
 *   euler_check transpose A.h5 B.h5
 *       A is a run along x (nx x ny), B the same run along y (ny x nx): cell
 *       (i, j) of A must equal cell (j, i) of B bitwise, with the momentum
 *       components swapped.
 *   euler_check order MIN KEY R1.json R2.json ...
 *       exact_error.KEY of successive runs (result.json, finer grids later,
 *       the exact solution valid in each): the observed order
 *       log(e_k / e_k+1) / log(nx_k+1 / nx_k) between successive runs must
 *       be at least MIN.
 *   euler_check order_band MIN MAX KEY R1.json R2.json R3.json ...
 *       the observed order over all the runs (the least-squares slope of
 *       -log e against log nx; for three grids refined by 2 each time,
 *       log(e_1 / e_3) / log 4) must lie in [MIN, MAX], and the error must
 *       fall from each run to the next.
 *   euler_check ppm FILE WIDTH HEIGHT
 *       FILE is a readable image of that size.
 * Exit status: 0 pass, 1 fail, 2 usage or unreadable input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_hdf5.h"
#include "op_ppm.h"

/* The kernels' constants (the program declares them with op_decl_const). */
double euler_gamma = 1.4;
double euler_gas[16]; /* riemann_core_gas_init(euler_gamma), made in main */
int euler_limiter = 2;

#include "euler_flux_x.h"
#include "euler_flux_y.h"
#include "euler_fix_x.h"
#include "test_check.h"

/* ---- scheme --------------------------------------------------------------------- */

/* xi(r) straight from the formulas (docs/euler.md), for r = dm/dp with dp != 0. */
static double spec_xi(double r, int limiter) {
  const double xr = 2.0 / (1.0 + r);
  switch (limiter) {
    case EULER_LIMITER_FIRSTORDER: return 0.0;
    case EULER_LIMITER_NONE: return 1.0;
    case EULER_LIMITER_MINBEE:
      if (r <= 0.0) return 0.0;
      if (r <= 1.0) return r;
      return fmin(1.0, xr);
    case EULER_LIMITER_VANLEER:
      if (r <= 0.0) return 0.0;
      return fmin(2.0 * r / (1.0 + r), xr);
    case EULER_LIMITER_SUPERBEE:
      if (r <= 0.0) return 0.0;
      if (r <= 0.5) return 2.0 * r;
      if (r <= 1.0) return 1.0;
      return fmin(fmin(r, xr), 2.0);
  }
  return NAN;
}

static unsigned long long rng = 0x2545F4914F6CDD1DULL;
static double uniform(void) {
  rng ^= rng >> 12;
  rng ^= rng << 25;
  rng ^= rng >> 27;
  return (double)((rng * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static void random_state(double q[4]) {
  const double rho = 0.1 + 2.0 * uniform(), u = 2.0 * uniform() - 1.0, v = 2.0 * uniform() - 1.0;
  const double p = 0.05 + 2.0 * uniform();
  q[0] = rho;
  q[1] = rho * u;
  q[2] = rho * v;
  q[3] = p / (euler_gamma - 1.0) + 0.5 * rho * (u * u + v * v);
}

static void check_scheme(void) {
  static const char *names[5] = {"firstorder", "minbee", "vanleer", "superbee", "none"};
  /* Limiters: the slope xi(r) D for r over (-3, 5) against the formulas. */
  for (int lim = 0; lim < 5; lim++) {
    for (int k = 0; k <= 160; k++) {
      const double r = -3.0 + 0.05 * k;
      const double dp = 0.3, dm = r * dp;
      const double want = spec_xi(dm / dp, lim) * 0.5 * (dm + dp);
      const double got = euler_limited_slope(dm, dp, lim);
      CHECK(fabs(got - want) <= 1e-15 * (1.0 + fabs(want)), "%s: r = %g: slope %.17g, want %.17g",
            names[lim], r, got, want);
      /* The same with the signs of both differences flipped. */
      CHECK(euler_limited_slope(-dm, -dp, lim) == -got, "%s: r = %g: not odd", names[lim], r);
    }
    /* dp = 0: the limit r -> +-inf (xi -> 0) for the limiters. */
    const double z = euler_limited_slope(1.0, 0.0, lim);
    CHECK(z == (lim == EULER_LIMITER_NONE ? 0.5 : 0.0), "%s: dp = 0 gives %g", names[lim], z);
    CHECK(euler_limited_slope(0.0, 0.0, lim) == 0.0, "%s: flat data gives a slope", names[lim]);
  }
  /* TVD region: for the limiters, 0 <= xi(r) <= min(2r, xi_R) ... via the
   * slope: |slope| <= 2 min(|dm|, |dp|) and the sign of the differences. */
  for (int lim = 1; lim <= 3; lim++)
    for (int k = 0; k < 1000; k++) {
      const double dm = 2.0 * uniform() - 1.0, dp = 2.0 * uniform() - 1.0;
      const double s = euler_limited_slope(dm, dp, lim);
      CHECK(fabs(s) <= 2.0 * fmin(fabs(dm), fabs(dp)) * (1.0 + 1e-15) && s * dm >= 0.0,
            "%s: slope %g outside the TVD region for dm %g, dp %g", names[lim], s, dm, dp);
    }

  /* Consistency: four equal cells give the physical flux, for every limiter. */
  for (int k = 0; k < 200; k++) {
    double q[4], f[4], w[4], fx[4];
    random_state(q);
    euler_limiter = k % 5;
    int fall = 0;
    euler_flux_x(q, q, q, q, &(double){0.3}, &(int){0}, f, &fall);
    w[0] = q[0];
    w[1] = q[1] / q[0];
    w[2] = q[2] / q[0];
    w[3] = euler_pressure(q, euler_gamma);
    riemann_core_physical_flux_2d(w, euler_gamma, fx);
    for (int c = 0; c < 4; c++)
      CHECK(fabs(f[c] - fx[c]) <= 1e-12 * (1.0 + fabs(fx[c])),
            "uniform state: flux[%d] = %.17g, physical %.17g", c, f[c], fx[c]);
    CHECK(fall == 0, "uniform state fell back to first order");
  }

  /* The y-sweep kernel on transposed data equals the x-sweep kernel bitwise. */
  for (int k = 0; k < 2000; k++) {
    double a[4][4], b[4][4], fxk[4], fyk[4];
    for (int c = 0; c < 4; c++) {
      random_state(a[c]);
      b[c][0] = a[c][0];
      b[c][1] = a[c][2];
      b[c][2] = a[c][1];
      b[c][3] = a[c][3];
    }
    euler_limiter = k % 5;
    const int wall = k % 3;
    const double dtdx = 0.4 * uniform();
    int f1 = 0, f2 = 0;
    euler_flux_x(a[0], a[1], a[2], a[3], &dtdx, &wall, fxk, &f1);
    euler_flux_y(b[0], b[1], b[2], b[3], &dtdx, &wall, fyk, &f2);
    CHECK(memcmp(&fxk[0], &fyk[0], sizeof(double)) == 0 &&
              memcmp(&fxk[1], &fyk[2], sizeof(double)) == 0 &&
              memcmp(&fxk[2], &fyk[1], sizeof(double)) == 0 &&
              memcmp(&fxk[3], &fyk[3], sizeof(double)) == 0 && f1 == f2,
          "case %d: the y kernel differs from the x kernel on transposed data", k);
  }

  /* Mirror symmetry: the mirror image of a row (reversed, normal momentum
   * negated) gives the flux with mass, tangential momentum and energy
   * negated and the normal momentum flux unchanged, to rounding. This needs
   * xi(1/r) = xi(r): true of first order, van Leer and none, but not of the
   * Toro's minbee and superbee, whose xi(r) for r < 1 is not
   * xi(1/r) (minbee: r against 2r/(1+r)); those two are left out. */
  static const int symmetric[3] = {EULER_LIMITER_FIRSTORDER, EULER_LIMITER_VANLEER,
                                   EULER_LIMITER_NONE};
  for (int k = 0; k < 2000; k++) {
    double a[4][4], m[4][4], f[4], g[4];
    for (int c = 0; c < 4; c++) random_state(a[c]);
    for (int c = 0; c < 4; c++) {
      m[3 - c][0] = a[c][0];
      m[3 - c][1] = -a[c][1];
      m[3 - c][2] = a[c][2];
      m[3 - c][3] = a[c][3];
    }
    euler_limiter = symmetric[k % 3];
    const double dtdx = 0.3 * uniform();
    int f1 = 0, f2 = 0;
    euler_flux_x(a[0], a[1], a[2], a[3], &dtdx, &(int){0}, f, &f1);
    euler_flux_x(m[0], m[1], m[2], m[3], &dtdx, &(int){0}, g, &f2);
    const double scale = 1.0 + fabs(f[0]) + fabs(f[1]) + fabs(f[2]) + fabs(f[3]);
    CHECK(fabs(f[0] + g[0]) <= 1e-12 * scale && fabs(f[1] - g[1]) <= 1e-12 * scale &&
              fabs(f[2] + g[2]) <= 1e-12 * scale && fabs(f[3] + g[3]) <= 1e-12 * scale,
          "case %d: the mirrored row's flux is not the mirrored flux", k);
  }

  /* A reflective wall lets nothing through, exactly, with every limiter:
   * zero mass, tangential momentum and energy flux, and a positive normal
   * momentum flux (the wall pressure p*; 0 where the flow leaves the wall
   * so fast that a vacuum opens there), whatever the ghost cells hold. */
  for (int k = 0; k < 3000; k++) {
    double a[4][4], f[4];
    for (int c = 0; c < 4; c++) random_state(a[c]);
    euler_limiter = k % 5;
    const int wall = 1 + k % 2;
    const double dtdx = 0.3 * uniform();
    int fall = 0;
    euler_flux_x(a[0], a[1], a[2], a[3], &dtdx, &wall, f, &fall);
    CHECK(f[0] == 0.0 && f[2] == 0.0 && f[3] == 0.0 && f[1] >= 0.0,
          "case %d: wall %d flux (%g, %g, %g, %g): not exactly (0, p*, 0, 0)", k, wall, f[0], f[1],
          f[2], f[3]);
    int fa = 1, fb = 0, nfix = 0;
    euler_fix_x(a[1], a[2], &fa, &fb, &wall, f, &nfix);
    CHECK(f[0] == 0.0 && f[2] == 0.0 && f[3] == 0.0 && f[1] >= 0.0 && nfix == 1,
          "case %d: first-order wall %d flux (%g, %g, %g, %g)", k, wall, f[0], f[1], f[2], f[3]);
  }
  euler_limiter = EULER_LIMITER_VANLEER;
}

/* ---- transposed runs ---------------------------------------------------------------- */

static double *read_field(const char *file, const char *name, long long rows, int cols) {
  char err[OP_IO_ERRLEN];
  double *buf = malloc(sizeof(double) * (size_t)(rows * cols));
  if (!buf || op_hdf5_read_dataset(file, name, "double", rows, cols, buf, err, sizeof err) != 0) {
    fprintf(stderr, "euler_check: %s\n", buf ? err : "out of memory");
    exit(2);
  }
  return buf;
}

static void read_size(const char *file, int n[2]) {
  char err[OP_IO_ERRLEN];
  if (op_hdf5_read_dataset(file, "grid_size", "int", 2, 1, n, err, sizeof err) != 0) {
    fprintf(stderr, "euler_check: %s\n", err);
    exit(2);
  }
}

static void check_transpose(const char *fa, const char *fb) {
  int na[2], nb[2];
  read_size(fa, na);
  read_size(fb, nb);
  const int transposed = na[0] == nb[1] && na[1] == nb[0];
  CHECK(transposed, "%s is %d x %d but %s is %d x %d", fa, na[0], na[1], fb, nb[0], nb[1]);
  if (!transposed) return;
  const int nx = na[0], ny = na[1];
  const long long n = (long long)nx * ny;
  double *qa = read_field(fa, "q", n, 4), *qb = read_field(fb, "q", n, 4);
  double ta, tb;
  char err[OP_IO_ERRLEN];
  if (op_hdf5_read_dataset(fa, "time", "double", 1, 1, &ta, err, sizeof err) != 0 ||
      op_hdf5_read_dataset(fb, "time", "double", 1, 1, &tb, err, sizeof err) != 0) {
    fprintf(stderr, "euler_check: %s\n", err);
    exit(2);
  }
  CHECK(ta == tb, "final times differ: %.17g and %.17g", ta, tb);
  static const int perm[4] = {0, 2, 1, 3};
  long long differ = 0;
  double worst = 0.0;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++)
      for (int c = 0; c < 4; c++) {
        const double a = qa[4 * ((long long)j * nx + i) + c];
        const double b = qb[4 * ((long long)i * ny + j) + perm[c]];
        if (memcmp(&a, &b, sizeof a) != 0) {
          if (differ < 5)
            printf("  cell (%d, %d) component %d: %.17g along x, %.17g along y\n", i, j, c, a, b);
          differ++;
          if (fabs(a - b) > worst) worst = fabs(a - b);
        }
      }
  printf("%s (%d x %d) against %s transposed: %lld of %lld values differ (largest %.3g)\n", fa, nx,
         ny, fb, differ, 4 * n, worst);
  CHECK(differ == 0, "the runs along x and along y differ");
  free(qa);
  free(qb);
}

/* ---- refinement studies --------------------------------------------------------------- */

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "euler_check: cannot open %s\n", path);
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *s = malloc((size_t)n + 1);
  if (!s || fread(s, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "euler_check: cannot read %s\n", path);
    exit(2);
  }
  s[n] = '\0';
  fclose(f);
  return s;
}

/* The text after "key": inside the object that follows "object": in s. */
static const char *find_value(const char *s, const char *object, const char *key,
                              const char *path) {
  char pat[128];
  snprintf(pat, sizeof pat, "\"%s\":", object);
  const char *o = strstr(s, pat);
  snprintf(pat, sizeof pat, "\"%s\":", key);
  const char *v = o ? strstr(o, pat) : NULL;
  if (!v) {
    fprintf(stderr, "euler_check: %s: no %s.%s\n", path, object, key);
    exit(2);
  }
  v += strlen(pat);
  while (*v == ' ') v++;
  return v;
}

typedef struct {
  int nx;
  double err;
} run_result;

static run_result read_run(const char *path, const char *key) {
  char *s = slurp(path);
  run_result r;
  r.nx = atoi(find_value(s, "grid", "nx", path));
  r.err = strtod(find_value(s, "exact_error", key, path), NULL);
  if (r.nx < 1 || !(r.err > 0.0) || !isfinite(r.err)) {
    fprintf(stderr, "euler_check: %s: grid.nx %d or exact_error.%s %g out of range\n", path, r.nx,
            key, r.err);
    exit(2);
  }
  const char *valid = find_value(s, "exact_error", "valid", path);
  CHECK(strncmp(valid, "true", 4) == 0, "%s: the exact solution is not valid at the final time",
        path);
  free(s);
  return r;
}

/* Reads the runs of a refinement study (coarse to fine), prints the table
 * with the order between successive runs, checks that nx grows and the error
 * falls, and returns the least-squares order over all of them; the
 * successive orders go to pair_order[1..nrun-1]. */
static double refinement_table(const char *key, int nrun, char **paths, double *pair_order) {
  double sx = 0.0, sy = 0.0, sxx = 0.0, sxy = 0.0;
  run_result prev = {0, 0.0};
  printf("%-8s %-16s %s\n", "nx", key, "order");
  for (int k = 0; k < nrun; k++) {
    run_result r = read_run(paths[k], key);
    const double x = log((double)r.nx), y = -log(r.err);
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
    if (k == 0) {
      printf("%-8d %-16.6e\n", r.nx, r.err);
    } else {
      pair_order[k] = log(prev.err / r.err) / log((double)r.nx / prev.nx);
      printf("%-8d %-16.6e %.3f\n", r.nx, r.err, pair_order[k]);
      CHECK(r.nx > prev.nx, "%s: the runs must be given from coarse to fine", paths[k]);
      CHECK(r.err < prev.err, "the error did not fall from nx = %d to %d", prev.nx, r.nx);
    }
    prev = r;
  }
  return (nrun * sxy - sx * sy) / (nrun * sxx - sx * sx);
}

static void check_order(double min_order, const char *key, int nrun, char **paths) {
  double pair[64];
  refinement_table(key, nrun, paths, pair);
  for (int k = 1; k < nrun; k++)
    CHECK(pair[k] >= min_order, "order %.3f between runs %d and %d is below %.2f", pair[k], k,
          k + 1, min_order);
}

static void check_order_band(double lo, double hi, const char *key, int nrun, char **paths) {
  double pair[64];
  const double order = refinement_table(key, nrun, paths, pair);
  printf("observed order over the %d runs: %.3f (band [%.2f, %.2f])\n", nrun, order, lo, hi);
  CHECK(order >= lo && order <= hi, "observed order %.3f outside [%.2f, %.2f]", order, lo, hi);
}

/* ---- images -------------------------------------------------------------------------- */

static int black(const unsigned char *rgb, int gw, int x, int y) {
  const unsigned char *p = rgb + 3 * ((size_t)y * gw + x);
  return p[0] == 0 && p[1] == 0 && p[2] == 0;
}

/* The annotated picture holds the field in a one-pixel black frame: finds a
 * frame whose inside is w x h pixels (the field at the requested scale), and
 * checks that the field uses more than one colour (it varies). */
static void check_ppm(const char *file, int w, int h) {
  int gw, gh;
  unsigned char *rgb = NULL;
  char err[OP_IO_ERRLEN];
  const int readable = op_ppm_read(file, &gw, &gh, &rgb, err, sizeof err) == 0;
  CHECK(readable, "%s", err);
  if (!readable) return;
  int fx = -1, fy = -1;
  for (int y = 0; fx < 0 && y + h + 1 < gh; y++)
    for (int x = 0; fx < 0 && x + w + 1 < gw; x++) {
      int frame = 1;
      for (int k = 0; frame && k < w + 2; k++)
        frame = black(rgb, gw, x + k, y) && black(rgb, gw, x + k, y + h + 1);
      for (int k = 0; frame && k < h + 2; k++)
        frame = black(rgb, gw, x, y + k) && black(rgb, gw, x + w + 1, y + k);
      if (frame) fx = x + 1, fy = y + 1;
    }
  printf("%s: %d x %d, field %s\n", file, gw, gh, fx < 0 ? "not found" : "found");
  CHECK(fx >= 0, "%s has no framed field of %d x %d pixels", file, w, h);
  if (fx >= 0) {
    int colours = 0;
    for (int y = fy; !colours && y < fy + h; y++)
      for (int x = fx; !colours && x < fx + w; x++)
        colours = memcmp(rgb + 3 * ((size_t)y * gw + x), rgb + 3 * ((size_t)fy * gw + fx), 3) != 0;
    CHECK(colours, "%s: the field has a single colour", file);
  }
  free(rgb);
}

/* A number on the command line, or exit 2. */
static double arg_number(const char *text) {
  char *end;
  const double v = strtod(text, &end);
  if (end == text || *end != '\0' || !isfinite(v)) {
    fprintf(stderr, "euler_check: '%s' is not a number\n", text);
    exit(2);
  }
  return v;
}

static int usage(void) {
  fprintf(stderr,
          "usage: euler_check scheme\n"
          "       euler_check transpose ALONG_X.h5 ALONG_Y.h5\n"
          "       euler_check order MIN KEY RESULT.json...\n"
          "       euler_check order_band MIN MAX KEY RESULT.json...\n"
          "       euler_check ppm FILE WIDTH HEIGHT\n");
  return 2;
}

int main(int argc, char **argv) {
  {
    riemann_gas gas;
    riemann_core_gas_init(&gas, euler_gamma);
    memcpy(euler_gas, &gas, sizeof gas);
  }
  if (argc < 2) return usage();
  const char *cmd = argv[1];
  if (!strcmp(cmd, "scheme") && argc == 2) {
    check_scheme();
  } else if (!strcmp(cmd, "transpose") && argc == 4) {
    check_transpose(argv[2], argv[3]);
  } else if (!strcmp(cmd, "order") && argc >= 6 && argc - 4 <= 64) {
    check_order(arg_number(argv[2]), argv[3], argc - 4, argv + 4);
  } else if (!strcmp(cmd, "order_band") && argc >= 8 && argc - 5 <= 64) {
    check_order_band(arg_number(argv[2]), arg_number(argv[3]), argv[4], argc - 5, argv + 5);
  } else if (!strcmp(cmd, "ppm") && argc == 5) {
    check_ppm(argv[2], atoi(argv[3]), atoi(argv[4]));
  } else {
    return usage();
  }
  return check_exit(cmd);
}
