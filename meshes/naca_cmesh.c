/* naca_cmesh: writes the airfoil C-mesh around NACA0012 as an ASCII mesh file (new_grid.dat). */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "airfoil_mesh.h"
#include "op_version.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

static const char *const USAGE =
    "Usage: naca_cmesh [-I N] [-J N] -o FILE\n"
    "\n"
    "Writes the C-mesh around the NACA0012 aerofoil of the airfoil benchmark\n"
    "(docs/meshes.md, 'The recipe, step by step') as an ASCII mesh file in OP2's new_grid.dat\n"
    "format.\n"
    "\n"
    "  -I N      cells along the aerofoil surface (the C has 3N cells around); default 400\n"
    "  -J N      cells from the surface out to the far field; default 600\n"
    "  -o FILE   output file; written as FILE.tmp, then renamed\n"
    "  -h, --help  this text\n"
    "\n"
    "The standard mesh is I=400, J=600 (721801 nodes, 720000 cells); the large one I=800, J=1200.\n"
    "Coordinates are written with printf %f; that rounding is part of the standard mesh.\n";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int parse_count(const char *opt, const char *text, int *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || errno == ERANGE || v < 1 || v > INT_MAX) {
        fprintf(stderr, "naca_cmesh: %s: '%s' is not a positive integer\n", opt, text);
        return -1;
    }
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    if (op_asks_version(argc, argv)) {
        op_print_version("naca_cmesh");
        return 0;
    }
    int ni = 400, nj = 600;
    const char *out = NULL;
    for (int a = 1; a < argc; a++) {
        const char *arg = argv[a];
        if (!strcmp(arg, "-h") || !strcmp(arg, "--help")) {
            fputs(USAGE, stdout);
            return 0;
        }
        if (!strcmp(arg, "-I") || !strcmp(arg, "-J") || !strcmp(arg, "-o")) {
            if (a + 1 >= argc) {
                fprintf(stderr, "naca_cmesh: %s needs a value (see --help)\n", arg);
                return 2;
            }
            const char *val = argv[++a];
            if (arg[1] == 'o') {
                if (val[0] == '\0') {
                    fprintf(stderr, "naca_cmesh: -o: the file name is empty\n");
                    return 2;
                }
                out = val;
            } else if (parse_count(arg, val, arg[1] == 'I' ? &ni : &nj) != 0) {
                return 2;
            }
            continue;
        }
        fprintf(stderr, "naca_cmesh: unknown argument '%s' (see --help)\n", arg);
        return 2;
    }
    if (!out) {
        fprintf(stderr, "naca_cmesh: no output file: give -o FILE (see --help)\n");
        return 2;
    }

    char err[1024];
    int counts[4];
    double t0 = now();
    if (airfoil_mesh_counts(ni, nj, counts, err, sizeof err) != 0) {
        fprintf(stderr, "naca_cmesh: %s\n", err);
        return 2; /* docs/errors.md: 1 is for failed validation */
    }

    size_t len = strlen(out);
    char *tmp = malloc(len + 5);
    if (!tmp) {
        fprintf(stderr, "naca_cmesh: %s:%d: out of memory\n", __FILE__, __LINE__);
        return 2;
    }
    memcpy(tmp, out, len);
    memcpy(tmp + len, ".tmp", 5);
    /* Written as it is generated: no array of the mesh is held. */
    fprintf(stderr, "naca_cmesh: generating the C-mesh with I=%d, J=%d into %s\n", ni, nj, out);
    int rc = airfoil_mesh_write_generated(tmp, ni, nj, err, sizeof err);
    if (rc != 0) {
        fprintf(stderr, "naca_cmesh: %s\n", err);
        free(tmp);
        return 2;
    }
    if (rename(tmp, out) != 0) {
        fprintf(stderr, "naca_cmesh: cannot rename '%s' to '%s': %s\n", tmp, out,
                strerror(errno));
        remove(tmp);
        free(tmp);
        return 2;
    }
    free(tmp);
    struct stat st;
    long long bytes = stat(out, &st) == 0 ? (long long)st.st_size : -1;
    fprintf(stderr, "naca_cmesh: wrote %d nodes, %d cells, %d edges, %d boundary edges to %s "
            "(%lld bytes) in %.2f s\n", counts[0], counts[1], counts[2], counts[3], out, bytes,
            now() - t0);
    return 0;
}
