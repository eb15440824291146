/* mgcfd_mesh: writes a multigrid family of channel meshes with a bump, and the input file
 * naming them, in the form MG-CFD (MG-CFD-app-OP2) reads (docs/meshes.md). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "mgcfd_mesh.h"
#include "op_version.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static const char *const USAGE =
    "Usage: mgcfd_mesh -o DIR [--size N | --ni N --nj N --nk N] [--levels L]\n"
    "                  [--base-index 0|1] [--bump-height H] [--hill]\n"
    "\n"
    "Writes the multigrid levels of a 3 x 1 x 1 channel with a bump on its lower wall as\n"
    "DIR/mesh_L0.h5 (finest) ... DIR/mesh_L<L-1>.h5, and MG-CFD's input file DIR/input.dat\n"
    "naming them: run MG-CFD as  euler3d_seq -i input.dat -d DIR\n"
    "\n"
    "  -o DIR           output folder (made when missing); files are written under a\n"
    "                   temporary name, then renamed\n"
    "  --size N         about N nodes on the finest level, cells near cubes; default 100000\n"
    "  --ni/--nj/--nk N nodes along x, y, z on the finest level (all three), instead of --size;\n"
    "                   each N - 1 a multiple of 2^(L-1)\n"
    "  --levels L       multigrid levels, each with every second node of the one above; default 4\n"
    "  --base-index B   0 or 1: the base of the maps' node numbers, written to input.dat as\n"
    "                   base_array_index; default 0\n"
    "  --bump-height H  height of the bump (length 1, centred at x = 1.5); default 0.1,\n"
    "                   0 for a plain box\n"
    "  --hill           a bump of width 0.5 about y = 0.5 instead of one across the channel\n"
    "  -h, --help       this text\n"
    "\n"
    "Exit status 0, or 2 for a bad argument or a file that cannot be written.\n";

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int parse_count(const char *opt, const char *text, long long max, long long *out) {
  char *end;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (end == text || *end != '\0' || errno == ERANGE || v < 1 || v > max) {
    fprintf(stderr, "mgcfd_mesh: %s: '%s' is not an integer in [1, %lld]\n", opt, text, max);
    return -1;
  }
  *out = v;
  return 0;
}

static int parse_number(const char *opt, const char *text, double *out) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (end == text || *end != '\0' || errno == ERANGE || !isfinite(v)) {
    fprintf(stderr, "mgcfd_mesh: %s: '%s' is not a finite number\n", opt, text);
    return -1;
  }
  *out = v;
  return 0;
}

/* Progress of a level of a million nodes or more, a line every 2 s at most. */
typedef struct {
  int big;
  double last;
} progress_state;

static void progress(void *ctx, int level, const char *what, double done) {
  progress_state *p = ctx;
  double t = now();
  if (!p->big || t - p->last < 2.0) return;
  p->last = t;
  fprintf(stderr, "mgcfd_mesh: level %d: %s %.0f%%\n", level, what, 100.0 * done);
}

int main(int argc, char **argv) {
  if (op_asks_version(argc, argv)) {
    op_print_version("mgcfd_mesh");
    return 0;
  }
  mgcfd_geometry g = mgcfd_geometry_default();
  long long size = 100000, ni = 0, nj = 0, nk = 0, levels = 4, base = 0;
  int size_given = 0;
  const char *dir = NULL;
  for (int a = 1; a < argc; a++) {
    const char *arg = argv[a];
    if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
      fputs(USAGE, stdout);
      return 0;
    }
    if (!strcmp(arg, "--hill")) {
      g.bump_width = 0.5;
      continue;
    }
    static const char *const valued[] = {"-o",   "--size",   "--ni",         "--nj",
                                         "--nk", "--levels", "--base-index", "--bump-height"};
    int known = 0;
    for (size_t v = 0; v < sizeof valued / sizeof *valued; v++) known |= !strcmp(arg, valued[v]);
    if (!known) {
      fprintf(stderr, "mgcfd_mesh: unknown argument '%s' (see --help)\n", arg);
      return 2;
    }
    if (a + 1 >= argc) {
      fprintf(stderr, "mgcfd_mesh: %s needs a value (see --help)\n", arg);
      return 2;
    }
    const char *val = argv[++a];
    int bad = 0;
    if (!strcmp(arg, "-o")) {
      if (!val[0]) {
        fprintf(stderr, "mgcfd_mesh: -o: the folder name is empty\n");
        return 2;
      }
      dir = val;
    } else if (!strcmp(arg, "--size")) {
      bad = parse_count(arg, val, INT_MAX, &size);
      size_given = 1;
    } else if (!strcmp(arg, "--ni")) {
      bad = parse_count(arg, val, INT_MAX, &ni);
    } else if (!strcmp(arg, "--nj")) {
      bad = parse_count(arg, val, INT_MAX, &nj);
    } else if (!strcmp(arg, "--nk")) {
      bad = parse_count(arg, val, INT_MAX, &nk);
    } else if (!strcmp(arg, "--levels")) {
      bad = parse_count(arg, val, 20, &levels);
    } else if (!strcmp(arg, "--base-index")) {
      if (strcmp(val, "0") && strcmp(val, "1")) {
        fprintf(stderr, "mgcfd_mesh: --base-index: '%s' is neither 0 nor 1\n", val);
        return 2;
      }
      base = val[0] - '0';
    } else {
      bad = parse_number(arg, val, &g.bump_height);
    }
    if (bad) return 2;
  }
  if (!dir) {
    fprintf(stderr, "mgcfd_mesh: no output folder: give -o DIR (see --help)\n");
    return 2;
  }
  const int axes_given = (ni > 0) + (nj > 0) + (nk > 0);
  if (axes_given != 0 && (axes_given != 3 || size_given)) {
    fprintf(stderr, "mgcfd_mesh: give either --size or all three of --ni, --nj, --nk\n");
    return 2;
  }
  mgcfd_grid fine = axes_given ? (mgcfd_grid){(int)ni, (int)nj, (int)nk}
                               : mgcfd_grid_for_size(&g, size, (int)levels);
  char err[1024];
  if (mgcfd_check(&g, fine, (int)levels, err, sizeof err) != 0) {
    fprintf(stderr, "mgcfd_mesh: %s\n", err);
    return 2;
  }
  struct stat st;
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "mgcfd_mesh: cannot make the folder '%s': %s\n", dir, strerror(errno));
    return 2;
  }
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
    fprintf(stderr, "mgcfd_mesh: -o: '%s' is not a folder\n", dir);
    return 2;
  }

  const double t0 = now();
  char *names[20] = {0};
  int status = 0;
  size_t dlen = strlen(dir);
  char *path = malloc(dlen + 32);
  if (!path) {
    fprintf(stderr, "mgcfd_mesh: out of memory\n");
    return 2;
  }
  for (int l = 0; l < levels && status == 0; l++) {
    mgcfd_grid n = mgcfd_level_grid(fine, l);
    names[l] = malloc(32);
    if (!names[l]) {
      fprintf(stderr, "mgcfd_mesh: out of memory\n");
      status = 2;
      break;
    }
    snprintf(names[l], 32, "mesh_L%d.h5", l);
    snprintf(path, dlen + 32, "%s/%s", dir, names[l]);
    progress_state ps = {mgcfd_node_count(n) >= 1000000, now()};
    double t = now();
    if (mgcfd_write_level(path, &g, fine, l, (int)levels, (int)base, progress, &ps, err,
                          sizeof err) != 0) {
      fprintf(stderr, "mgcfd_mesh: %s\n", err);
      status = 2;
      break;
    }
    fprintf(stderr,
            "mgcfd_mesh: level %d: %d x %d x %d = %lld nodes, %lld edges, %lld boundary nodes "
            "-> %s (%.2f s)\n",
            l, n.ni, n.nj, n.nk, mgcfd_node_count(n), mgcfd_edge_count(n), mgcfd_bnd_count(n), path,
            now() - t);
  }
  if (status == 0) {
    snprintf(path, dlen + 32, "%s/input.dat", dir);
    if (mgcfd_write_input(path, mgcfd_node_count(fine), (int)levels, (int)base,
                          (const char *const *)names, err, sizeof err) != 0) {
      fprintf(stderr, "mgcfd_mesh: %s\n", err);
      status = 2;
    } else {
      fprintf(stderr, "mgcfd_mesh: %s names the %lld levels (%.2f s in all)\n", path, levels,
              now() - t0);
    }
  }
  for (int l = 0; l < 20; l++) free(names[l]);
  free(path);
  return status;
}
