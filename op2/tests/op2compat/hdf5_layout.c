/*
 * hdf5_layout - the HDF5 files the library writes hold OP2-Common's
 * attributes, of OP2-Common's shapes, so that OP2-Common reads them (and
 * updates their dats in place); and the library reads files OP2-Common
 * writes (docs/io.md, "HDF5 file layout").
 *
 *   hdf5_layout write DIR   declares a small mesh, writes DIR/layout_dump.h5
 *                           (op_dump_to_hdf5, op_write_const_hdf5) and
 *                           DIR/layout_fetch.h5 (op_fetch_data_hdf5_file),
 *                           then checks, with HDF5's API, every dataset's
 *                           shape and attributes against OP2-Common's writer:
 *                           a set is one int; a map's and a dat's "size" and
 *                           "dim" are ints in a dataspace of one element (a
 *                           map's size its from-set's size, a dat's the bytes
 *                           of one element), "type" a string; a constant's
 *                           "dim" and "type" likewise; and reads the dump back.
 *   hdf5_layout read FILE   declares the mesh from FILE (op_decl_set_hdf5,
 *                           op_decl_map_hdf5, op_decl_dat_hdf5,
 *                           op_get_const_hdf5), as written by this program or
 *                           by OP2-Common's op_dump_to_hdf5 and
 *                           op_write_const_hdf5, and checks every value.
 *
 * Library options (--op-...) may come anywhere. On many processes each
 * process declares its slice of the mesh; the root checks the files. Exit
 * status 0 when every check passes, 1 when one fails, 2 for bad arguments.
 */
#include <stdio.h>
#include <string.h>

#include "hdf5.h"
#include "op_seq.h"

#define NODES 7
#define CELLS 5
#define NODE_DIM 2

static int failures;

static void fail(const char *what, const char *name, const char *detail) {
  fprintf(stderr, "hdf5_layout: %s '%s': %s\n", what, name, detail);
  failures++;
}

/* The mesh's values, by global number: node n at (n, 10 n + 0.5), cell c
 * joins nodes c, c+1, c+2 and has the flag 3c - 4; the constant alpha. */
static double node_x(int n, int k) { return k == 0 ? n : 10.0 * n + 0.5; }
static int cell_node(int c, int k) { return c + k; }
static int cell_flag(int c) { return 3 * c - 4; }
static const double alpha[2] = {1.5, -2.25};

typedef struct {
  op_set nodes, cells;
  op_map pcell;
  op_dat p_x, p_flag;
} mesh;

static mesh declare(void) {
  int nfirst, ncount, cfirst, ccount;
  op_slice(NODES, &nfirst, &ncount);
  op_slice(CELLS, &cfirst, &ccount);
  double x[NODES * NODE_DIM];
  int map[CELLS * 3], flag[CELLS];
  for (int i = 0; i < ncount; i++)
    for (int k = 0; k < NODE_DIM; k++) x[i * NODE_DIM + k] = node_x(nfirst + i, k);
  for (int i = 0; i < ccount; i++) {
    for (int k = 0; k < 3; k++) map[i * 3 + k] = cell_node(cfirst + i, k);
    flag[i] = cell_flag(cfirst + i);
  }
  mesh m;
  m.nodes = op_decl_set(ncount, "nodes");
  m.cells = op_decl_set(ccount, "cells");
  m.pcell = op_decl_map(m.cells, m.nodes, 3, map, "pcell");
  m.p_x = op_decl_dat(m.nodes, NODE_DIM, "double", x, "p_x");
  m.p_flag = op_decl_dat(m.cells, 1, "int", flag, "p_flag");
  return m;
}

/* ---- the attributes, as OP2-Common writes them ---------------------------------- */

/* Integer attribute attr of dataset name in f: in a dataspace of one element
 * (OP2-Common's H5Screate_simple(1, {1})), holding want. */
static void check_int_attr(hid_t d, const char *name, const char *attr, int want) {
  char what[128];
  snprintf(what, sizeof what, "attribute '%s' of dataset", attr);
  if (H5Aexists(d, attr) <= 0) {
    fail(what, name, "missing");
    return;
  }
  hid_t a = H5Aopen(d, attr, H5P_DEFAULT), s = H5Aget_space(a), t = H5Aget_type(a);
  hsize_t dims[1] = {0};
  const int rank = H5Sget_simple_extent_ndims(s);
  if (rank != 1 || H5Sget_simple_extent_dims(s, dims, NULL) != 1 || dims[0] != 1)
    fail(what, name, rank == 0 ? "a scalar, not an array of one" : "not an array of one");
  if (H5Tget_class(t) != H5T_INTEGER) fail(what, name, "not an integer");
  int v = -1;
  if (H5Aread(a, H5T_NATIVE_INT, &v) < 0 || v != want) {
    char detail[64];
    snprintf(detail, sizeof detail, "holds %d, expected %d", v, want);
    fail(what, name, detail);
  }
  H5Tclose(t);
  H5Sclose(s);
  H5Aclose(a);
}

static void check_type_attr(hid_t d, const char *name, const char *want) {
  if (H5Aexists(d, "type") <= 0) {
    fail("attribute 'type' of dataset", name, "missing");
    return;
  }
  hid_t a = H5Aopen(d, "type", H5P_DEFAULT), t = H5Aget_type(a);
  char v[64] = "";
  hid_t mt = H5Tcopy(H5T_C_S1);
  if (H5Tget_class(t) != H5T_STRING || H5Tis_variable_str(t) != 0)
    fail("attribute 'type' of dataset", name, "not a fixed-length string");
  else if (H5Tset_size(mt, sizeof v - 1) < 0 || H5Aread(a, mt, v) < 0 || strcmp(v, want) != 0)
    fail("attribute 'type' of dataset", name, "not the expected type name");
  H5Tclose(mt);
  H5Tclose(t);
  H5Aclose(a);
}

/* Dataset name of f: its shape rows x cols (cols 0: rank 1). */
static hid_t open_shaped(hid_t f, const char *name, hsize_t rows, hsize_t cols) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) {
    fail("dataset", name, "missing");
    return d;
  }
  hid_t s = H5Dget_space(d);
  hsize_t dims[2] = {0, 0};
  const int rank = H5Sget_simple_extent_ndims(s);
  H5Sget_simple_extent_dims(s, dims, NULL);
  if (rank != (cols ? 2 : 1) || dims[0] != rows || (cols && dims[1] != cols))
    fail("dataset", name, "not of the expected shape");
  H5Sclose(s);
  return d;
}

static void check_set(hid_t f, const char *name, int size) {
  hid_t d = open_shaped(f, name, 1, 0);
  if (d < 0) return;
  int v = -1;
  if (H5Dread(d, H5T_NATIVE_INT, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v) < 0 || v != size)
    fail("set", name, "does not hold its size");
  H5Dclose(d);
}

/* A map or dat: "size" (a map's from-set size, a dat's element bytes),
 * "dim", "type". */
static void check_rows(hid_t f, const char *name, int rows, int dim, int size, const char *type) {
  hid_t d = open_shaped(f, name, (hsize_t)rows, (hsize_t)dim);
  if (d < 0) return;
  check_int_attr(d, name, "size", size);
  check_int_attr(d, name, "dim", dim);
  check_type_attr(d, name, type);
  H5Dclose(d);
}

static void check_const(hid_t f, const char *name, int dim, const char *type) {
  hid_t d = open_shaped(f, name, (hsize_t)dim, 0);
  if (d < 0) return;
  check_int_attr(d, name, "dim", dim);
  check_type_attr(d, name, type);
  H5Dclose(d);
}

static void check_layout(const char *dump, const char *fetch) {
  hid_t f = H5Fopen(dump, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    fail("file", dump, "cannot be opened");
    return;
  }
  check_set(f, "nodes", NODES);
  check_set(f, "cells", CELLS);
  check_rows(f, "pcell", CELLS, 3, CELLS, "int");
  check_rows(f, "p_x", NODES, NODE_DIM, NODE_DIM * (int)sizeof(double), "double");
  check_rows(f, "p_flag", CELLS, 1, (int)sizeof(int), "int");
  check_const(f, "alpha", 2, "double");
  H5Fclose(f);
  f = H5Fopen(fetch, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    fail("file", fetch, "cannot be opened");
    return;
  }
  check_rows(f, "p_x", NODES, NODE_DIM, NODE_DIM * (int)sizeof(double), "double");
  H5Fclose(f);
}

/* ---- reading a file back ------------------------------------------------------------- */

static void read_mesh(const char *file) {
  op_set nodes = op_decl_set_hdf5(file, "nodes");
  op_set cells = op_decl_set_hdf5(file, "cells");
  if (!nodes || !cells) {
    fail("file", file, "has no set nodes or cells");
    return;
  }
  op_map pcell = op_decl_map_hdf5(cells, nodes, 3, file, "pcell");
  op_dat p_x = op_decl_dat_hdf5(nodes, NODE_DIM, "double", file, "p_x");
  op_dat p_flag = op_decl_dat_hdf5(cells, 1, "int", file, "p_flag");
  double a[2] = {0, 0};
  op_get_const_hdf5("alpha", 2, "double", (char *)a, file);
  if (!pcell || !p_x || !p_flag) {
    fail("file", file, "lacks pcell, p_x or p_flag");
    return;
  }
  if (op_get_size(nodes) != NODES || op_get_size(cells) != CELLS)
    fail("file", file, "sets of other sizes");
  const int *map = op_fetch_map_global(pcell);
  const double *x = op_fetch_data_global(p_x);
  const int *flag = op_fetch_data_global(p_flag);
  if (op_is_root()) {
    for (int c = 0; c < CELLS; c++) {
      for (int k = 0; k < 3; k++)
        if (map[c * 3 + k] != cell_node(c, k)) fail("map", "pcell", "an entry differs");
      if (flag[c] != cell_flag(c)) fail("dat", "p_flag", "a value differs");
    }
    for (int n = 0; n < NODES; n++)
      for (int k = 0; k < NODE_DIM; k++)
        if (x[n * NODE_DIM + k] != node_x(n, k)) fail("dat", "p_x", "a value differs");
  }
  if (a[0] != alpha[0] || a[1] != alpha[1]) fail("constant", "alpha", "differs");
}

int main(int argc, char **argv) {
  op_init(argc, argv, 0);
  const char *args[2] = {NULL, NULL};
  int nargs = 0;
  for (int i = 1; i < argc; i++)
    if (strncmp(argv[i], "--op-", 5) != 0 && nargs < 2) args[nargs++] = argv[i];
  if (nargs != 2 || (strcmp(args[0], "write") && strcmp(args[0], "read"))) {
    fprintf(stderr, "usage: hdf5_layout write DIR | hdf5_layout read FILE [--op-...]\n");
    op_exit();
    return 2;
  }
  if (!strcmp(args[0], "write")) {
    char dump[4096], fetch[4096];
    snprintf(dump, sizeof dump, "%s/layout_dump.h5", args[1]);
    snprintf(fetch, sizeof fetch, "%s/layout_fetch.h5", args[1]);
    mesh m = declare();
    op_dump_to_hdf5(dump);
    op_write_const_hdf5("alpha", 2, "double", (char *)alpha, dump);
    if (op_is_root()) remove(fetch); /* a new file, not an update of the last run's */
    op_fetch_data_hdf5_file(m.p_x, fetch);
    if (op_is_root()) check_layout(dump, fetch);
  } else {
    read_mesh(args[1]);
  }
  const int ok = failures == 0;
  op_printf("hdf5_layout %s %s: %s\n", args[0], args[1], ok ? "PASSED" : "FAILED");
  op_exit();
  return ok ? 0 : 1;
}
