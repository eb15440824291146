/*
 * airfoil_convert - the airfoil mesh between OP2's ASCII format and HDF5 in
 * OP2's layout (sets nodes, edges, bedges, cells; maps pedge, pecell, pbedge,
 * pbecell, pcell; dats p_x, p_bound: the names airfoil declares).
 *
 *   airfoil_convert IN.dat OUT.h5     ASCII to HDF5
 *   airfoil_convert IN.h5 OUT.dat     HDF5 to ASCII
 *   airfoil_convert --permute SEED IN.dat OUT.dat
 *                                     the same mesh, its sets in a random order (a renumbering's
 *                                     worst case: docs/performance.md)
 *
 * The coordinates stored in HDF5 are the ones read from the ASCII file, so a
 * solver gives the same result bitwise from either file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "airfoil_mesh.h"
#include "op2.h"
#include "op_hdf5.h"
#include "op_version.h"

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int ascii_to_hdf5(const char *in, const char *out) {
  airfoil_mesh m;
  char err[1024];
  if (airfoil_mesh_read_ascii(in, &m, err, sizeof err) != 0) {
    fprintf(stderr, "airfoil_convert: %s\n", err);
    return 2;
  }
  op_init(0, NULL, 0);
  op_set nodes = op_decl_set(m.nnode, "nodes");
  op_set edges = op_decl_set(m.nedge, "edges");
  op_set bedges = op_decl_set(m.nbedge, "bedges");
  op_set cells = op_decl_set(m.ncell, "cells");
  op_decl_map(edges, nodes, 2, m.edge, "pedge");
  op_decl_map(edges, cells, 2, m.ecell, "pecell");
  op_decl_map(bedges, nodes, 2, m.bedge, "pbedge");
  op_decl_map(bedges, cells, 1, m.becell, "pbecell");
  op_decl_map(cells, nodes, 4, m.cell, "pcell");
  op_decl_dat(bedges, 1, "int", m.bound, "p_bound");
  op_decl_dat(nodes, 2, "double", m.x, "p_x");
  int rc = op_hdf5_dump(out, err, sizeof err);
  if (rc != 0) fprintf(stderr, "airfoil_convert: %s\n", err);
  op_exit();
  airfoil_mesh_free(&m);
  return rc != 0 ? 2 : 0;
}

static void copy_ints(int *dst, const op_map map) {
  memcpy(dst, map->map, sizeof(int) * (size_t)map->from->size * (size_t)map->dim);
}

static int hdf5_to_ascii(const char *in, const char *out) {
  op_init(0, NULL, 0);
  op_set nodes = op_decl_set_hdf5(in, "nodes");
  op_set edges = op_decl_set_hdf5(in, "edges");
  op_set bedges = op_decl_set_hdf5(in, "bedges");
  op_set cells = op_decl_set_hdf5(in, "cells");
  op_map pedge = op_decl_map_hdf5(edges, nodes, 2, in, "pedge");
  op_map pecell = op_decl_map_hdf5(edges, cells, 2, in, "pecell");
  op_map pbedge = op_decl_map_hdf5(bedges, nodes, 2, in, "pbedge");
  op_map pbecell = op_decl_map_hdf5(bedges, cells, 1, in, "pbecell");
  op_map pcell = op_decl_map_hdf5(cells, nodes, 4, in, "pcell");
  op_dat p_bound = op_decl_dat_hdf5(bedges, 1, "int", in, "p_bound");
  op_dat p_x = op_decl_dat_hdf5(nodes, 2, "double", in, "p_x");
  char err[1024];
  airfoil_mesh view = {nodes->size,  cells->size,  edges->size,   bedges->size,
                       (double *)p_x->data, pcell->map, pedge->map, pecell->map,
                       pbedge->map, pbecell->map, (int *)p_bound->data};
  if (airfoil_mesh_check(&view, in, err, sizeof err) != 0) {
    fprintf(stderr, "airfoil_convert: %s\n", err);
    op_exit();
    return 2;
  }

  airfoil_mesh m;
  m.nnode = nodes->size;
  m.ncell = cells->size;
  m.nedge = edges->size;
  m.nbedge = bedges->size;
  m.x = malloc(sizeof(double) * 2 * (size_t)m.nnode);
  m.cell = malloc(sizeof(int) * 4 * (size_t)m.ncell);
  m.edge = malloc(sizeof(int) * 2 * (size_t)m.nedge);
  m.ecell = malloc(sizeof(int) * 2 * (size_t)m.nedge);
  m.bedge = malloc(sizeof(int) * 2 * (size_t)m.nbedge);
  m.becell = malloc(sizeof(int) * (size_t)m.nbedge);
  m.bound = malloc(sizeof(int) * (size_t)m.nbedge);
  if (!m.x || !m.cell || !m.edge || !m.ecell || !m.bedge || !m.becell || !m.bound) {
    fprintf(stderr, "airfoil_convert: out of memory\n");
    return 2;
  }
  op_fetch_data(p_x, m.x);
  op_fetch_data(p_bound, m.bound);
  copy_ints(m.cell, pcell);
  copy_ints(m.edge, pedge);
  copy_ints(m.ecell, pecell);
  copy_ints(m.bedge, pbedge);
  copy_ints(m.becell, pbecell);
  int rc = airfoil_mesh_write_ascii(out, &m, err, sizeof err);
  if (rc != 0) fprintf(stderr, "airfoil_convert: %s\n", err);
  airfoil_mesh_free(&m);
  op_exit();
  return rc != 0 ? 2 : 0;
}

/* IN.dat's mesh in the order airfoil_mesh_permute gives it for seed. */
static int permute_ascii(const char *seed_text, const char *in, const char *out) {
  char *end;
  const unsigned long long seed = strtoull(seed_text, &end, 10);
  if (!*seed_text || *end || seed_text[0] == '-') {
    fprintf(stderr, "airfoil_convert: --permute: the seed '%s' is not a whole number >= 0\n",
            seed_text);
    return 2;
  }
  airfoil_mesh m;
  char err[1024];
  if (airfoil_mesh_read_ascii(in, &m, err, sizeof err) != 0) {
    fprintf(stderr, "airfoil_convert: %s\n", err);
    return 2;
  }
  int rc = 0;
  if (airfoil_mesh_permute(&m, seed) != 0) {
    fprintf(stderr, "airfoil_convert: out of memory permuting %s\n", in);
    rc = 2;
  } else if (airfoil_mesh_write_ascii(out, &m, err, sizeof err) != 0) {
    fprintf(stderr, "airfoil_convert: %s\n", err);
    rc = 2;
  }
  airfoil_mesh_free(&m);
  return rc;
}

#define USAGE \
  "usage: airfoil_convert IN.dat OUT.h5 | IN.h5 OUT.dat | --permute SEED IN.dat OUT.dat\n"

int main(int argc, char **argv) {
  if (op_asks_version(argc, argv)) {
    op_print_version("airfoil_convert");
    return 0;
  }
  if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
    printf(USAGE
           "  converts the airfoil mesh between OP2's ASCII format and HDF5 (OP2 layout);\n"
           "  --permute writes the same ASCII mesh with its nodes, cells, edges and boundary\n"
           "  edges in a random order drawn from SEED (the same order for the same seed)\n");
    return 0;
  }
  if (argc == 5 && !strcmp(argv[1], "--permute")) {
    if (ends_with(argv[3], ".h5") || ends_with(argv[4], ".h5")) {
      fprintf(stderr, "airfoil_convert: --permute reads and writes ASCII meshes, not .h5\n");
      return 2;
    }
    return permute_ascii(argv[2], argv[3], argv[4]);
  }
  if (argc != 3) {
    fprintf(stderr, USAGE);
    return 2;
  }
  if (ends_with(argv[1], ".h5") && !ends_with(argv[2], ".h5")) return hdf5_to_ascii(argv[1], argv[2]);
  if (!ends_with(argv[1], ".h5") && ends_with(argv[2], ".h5")) return ascii_to_hdf5(argv[1], argv[2]);
  fprintf(stderr, "airfoil_convert: exactly one of %s and %s must end in .h5\n", argv[1], argv[2]);
  return 2;
}
