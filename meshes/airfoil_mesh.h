/* The standard airfoil C-mesh around NACA0012 (docs/meshes.md, "The recipe") and its
 * ASCII file format (OP2's new_grid.dat). All indices are 0-based. */
#ifndef AIRFOIL_MESH_H
#define AIRFOIL_MESH_H

#include <stddef.h>

typedef struct {
    int nnode, ncell, nedge, nbedge;
    double *x;   /* 2*nnode: x, y of each node */
    int *cell;   /* 4*ncell: nodes of each cell, counter-clockwise */
    int *edge;   /* 2*nedge: nodes n1, n2 of each interior edge */
    int *ecell;  /* 2*nedge: cells c1, c2 of each interior edge; (y1-y2, x2-x1) points out of c1 */
    int *bedge;  /* 2*nbedge: nodes n1, n2 of each boundary edge */
    int *becell; /* nbedge: the cell of each boundary edge; (y1-y2, x2-x1) points out of it */
    int *bound;  /* nbedge: AIRFOIL_MESH_WALL or AIRFOIL_MESH_FARFIELD */
} airfoil_mesh;

enum { AIRFOIL_MESH_WALL = 1, AIRFOIL_MESH_FARFIELD = 2 };

/* Builds the C-mesh with parameters ni = I and nj = J of the recipe (standard: 400, 600), with
 * unrounded coordinates. *m is overwritten (not freed first). Returns 0, or non-zero with a
 * message in err (and *m empty). */
int airfoil_mesh_generate(int ni, int nj, airfoil_mesh *m, char *err, size_t errlen);

/* The smallest parameters the C-mesh is built with: I < 3 leaves at most one node strictly
 * inside the aerofoil surface (cells with coincident or collinear corners); J = 1 is one ring
 * of cells. The solver's deck takes these as the lower ends of mesh_i and mesh_j. */
#define AIRFOIL_MESH_MIN_I 3
#define AIRFOIL_MESH_MIN_J 1

/* The counts of the C-mesh with parameters ni, nj: nodes, cells, edges, boundary edges (the
 * order of the file's header). Returns 0, or -1 with the reason in err (too small, or too
 * large for an int). */
int airfoil_mesh_counts(int ni, int nj, int counts[4], char *err, size_t errlen);

/* Where the generator puts each record, in the file's order: every node, then every cell,
 * interior edge and boundary edge (unrounded coordinates). */
typedef struct {
    void (*node)(void *ctx, double x, double y);
    void (*cell)(void *ctx, const int nodes[4]);
    void (*edge)(void *ctx, int n1, int n2, int c1, int c2);
    void (*bedge)(void *ctx, int n1, int n2, int cell, int flag);
    void *ctx;
} airfoil_mesh_sink;

/* Generates the C-mesh record by record into sink, holding no array of the mesh (only the
 * 3I + 1 surface heights). airfoil_mesh_generate fills arrays this way. Returns 0, or -1 with
 * a message in err. */
int airfoil_mesh_emit(int ni, int nj, const airfoil_mesh_sink *sink, char *err, size_t errlen);

/* Writes the C-mesh's ASCII file as it is generated: the same bytes as airfoil_mesh_generate
 * then airfoil_mesh_write_ascii, with no array of the mesh held (a 1 MiB write buffer). On
 * failure the partial file is removed. */
int airfoil_mesh_write_generated(const char *path, int ni, int nj, char *err, size_t errlen);

/* Replaces each coordinate by the value that printf("%f") followed by strtod gives: the
 * coordinates the solver sees after a write and a read. */
void airfoil_mesh_round_coordinates(airfoil_mesh *m);

/* Writes the ASCII mesh file: header "nnode ncell nedge nbedge", then nodes "x y" (%f),
 * cells "n1 n2 n3 n4", edges "n1 n2 c1 c2", boundary edges "n1 n2 cell flag", one record a
 * line, one space between numbers. On failure the partial file is removed. */
int airfoil_mesh_write_ascii(const char *path, const airfoil_mesh *m, char *err, size_t errlen);

/* The fewest bytes an ASCII mesh file with these counts (nodes, cells, edges, boundary edges)
 * can have: every number takes a digit and a separator. A header promising more than its file
 * holds is refused with this bound by the reader, and not believed by estimates made before it. */
double airfoil_mesh_ascii_min_bytes(const long long counts[4]);

/* Reads and validates an ASCII mesh file: the format (errors name the file and the 1-based
 * line), then the mesh itself (airfoil_mesh_check). *m is overwritten; on failure it is left
 * empty. */
int airfoil_mesh_read_ascii(const char *path, airfoil_mesh *m, char *err, size_t errlen);

/* The format part alone: counts, numbers, fields, indices in range, flags. For tools and
 * tests that want a file's numbers whatever they describe. */
int airfoil_mesh_parse_ascii(const char *path, airfoil_mesh *m, char *err, size_t errlen);

/* One process's part of a mesh file read by nparts processes (each its own part, as OP2's
 * MPI applications declare their slices): of the nodes, cells, edges and boundary edges the
 * balanced slice `part` of nparts (the first count % nparts parts one more). part's counts
 * are the slice's; first[] holds each slice's first record number, total[] the file's counts
 * (order: nodes, cells, edges, boundary edges); indices in the arrays are the file's. */
typedef struct {
    airfoil_mesh part;
    int first[4];
    int total[4];
} airfoil_mesh_slice;

/* Reads a slice of an ASCII mesh file as a stream: no process holds the whole file or mesh.
 * Every record of the file is checked as airfoil_mesh_parse_ascii checks it (format, indices,
 * flags); the geometric checks are made once the mesh is distributed (airfoil_mesh_check_part).
 * Returns 0, or -1 with the message in err (and s empty). Free with airfoil_mesh_free(&s->part). */
int airfoil_mesh_read_ascii_slice(const char *path, int nparts, int part, airfoil_mesh_slice *s,
                                  char *err, size_t errlen);

/* Checks that m is a mesh the scheme can run on, however it was read (ASCII or HDF5): indices
 * and flags, finite coordinates whose products neither overflow nor underflow, every cell a
 * counter-clockwise quadrilateral closed by exactly four edges whose corners match its sides,
 * and every edge oriented against its cells (its normal out of c1 into c2, out of the domain
 * for a boundary edge). source names the file in the message. Returns 0, or -1 with the first
 * fault in err. */
int airfoil_mesh_check(const airfoil_mesh *m, const char *source, char *err, size_t errlen);

/* The first of airfoil_mesh_check's checks, on the counts alone (of the whole mesh: on many
 * processes, the global ones): at least 3 nodes, 1 cell and 3 boundary edges. Returns 0, or -1
 * with "SOURCE: N nodes, ...: not a mesh" in err. */
int airfoil_mesh_check_counts(int nnode, int ncell, int nedge, int nbedge, const char *source,
                              char *err, size_t errlen);

/* One process's part of a mesh distributed over many (docs/mpi.md), for the same checks: m
 * holds the process's cells (those it owns first, then copies of others'), the edges and
 * boundary edges it runs (owned and execute halo: every one that touches an owned cell), the
 * nodes they reach, in local numbers; each local element's global number is in the *_gid arrays
 * (NULL: the local number). The cells' rows of m->cell are needed for the owned cells only. */
typedef struct {
    int ncell_owned; /* cells [0, ncell_owned) are this process's */
    const int *node_gid, *cell_gid, *edge_gid, *bedge_gid;
} airfoil_mesh_part;

/* airfoil_mesh_check on a part: every check of the owned cells and of the edges against their
 * owned cells, with global numbers in the message. Returns 0, or -1 with the message in err and
 * in *key the fault's place in the checker's order (the check, then the element's global
 * number): of the faults the processes find, the one of lowest key is the whole mesh's first,
 * the one airfoil_mesh_check reports on one process. *key is -1 without a fault. */
int airfoil_mesh_check_part(const airfoil_mesh *m, const airfoil_mesh_part *part,
                            const char *source, char *err, size_t errlen, long long *key);

/* Frees the arrays and zeroes *m; safe on an empty mesh. */
/* Shuffles the numbering of nodes, cells, edges and boundary edges at random (SplitMix64 from
 * seed: the same order from the same seed on every machine), keeping every row's contents, so
 * the mesh and its results are the same but for the order. Returns 0, or -1 when out of
 * memory (m then partly shuffled: free it). */
int airfoil_mesh_permute(airfoil_mesh *m, unsigned long long seed);

void airfoil_mesh_free(airfoil_mesh *m);

#endif
