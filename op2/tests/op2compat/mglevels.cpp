// mglevels - the OP2 semantics a multigrid application (MG-CFD, say) counts
// on: each level's mesh read from a file of its own, the sets sized by a
// dataset's rows (op_decl_set_hdf5_infer_size) and the maps read with
// op_decl_map_hdf5, numbered from 1 (OP2's option OP_MAPS_BASE_INDEX=1, on
// the command line as such applications pass it); every level's sets, maps
// and dats named alike; an "int" temporary dat declared with
// op_decl_dat_temp_char and the element size of a double; a dat written to
// HDF5 under another name by pointing its name elsewhere and back (OP2's
// name fields are const char *). Checks its results exactly; op_dump_to_hdf5
// then warns of the names that a file can hold once.
//
// Usage: mglevels [library options] OP_MAPS_BASE_INDEX=1 files=PREFIX
// (PREFIX_L0.h5, PREFIX_L1.h5, PREFIX_out.h5 and PREFIX_dump.h5 are
// written); exit status 0 when every check passes.
#include <cstdio>
#include <cstring>

#include "op_seq.h"

static inline void neighbours(const double *xa, const double *xb, double *ra, double *rb) {
  *ra += xb[0];
  *rb += xa[0];
}

static inline void check_node(const double *x, const double *r, const int *n, int *bad) {
  const int i = (int)x[0];
  *bad += *r != (double)((i + *n - 1) % *n + (i + 1) % *n);
}

static inline void mark(const double *x, int *s) { *s = 2 * (int)x[0]; }

static inline void add_int(const int *s, int *total) { *total += *s; }

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  const char *prefix = "mglevels";
  for (int a = 1; a < argc; a++)
    if (!strncmp(argv[a], "files=", 6)) prefix = argv[a] + 6;
  const int levels = 2, sizes[2] = {16, 8};
  char files[2][4096], out[4096], dump[4096], err[512];
  int wrong = 0;
  // Each level's file, as a mesh converter would write it: coordinates
  // (x = the node's number) and a ring of edges numbered from 1.
  for (int l = 0; l < levels; l++) {
    const int n = sizes[l];
    double xyz[3 * 16];
    int ring[2 * 16];
    for (int i = 0; i < n; i++) {
      xyz[3 * i] = i, xyz[3 * i + 1] = l, xyz[3 * i + 2] = 0;
      ring[2 * i] = i + 1, ring[2 * i + 1] = (i + 1) % n + 1;
    }
    snprintf(files[l], sizeof files[l], "%s_L%d.h5", prefix, l);
    if (op_hdf5_write_dataset(files[l], "node_coordinates", "double", n, 3, xyz, err, sizeof err) ||
        op_hdf5_write_dataset(files[l], "edge-->node", "int", n, 2, ring, err, sizeof err)) {
      op_printf("mglevels: %s: FAILED\n", err);
      return 2;
    }
  }
  op_set nodes[2], edges[2];
  op_map edge_nodes[2];
  op_dat x[2], r[2], s[2];
  for (int l = 0; l < levels; l++) {
    nodes[l] = op_decl_set_hdf5_infer_size(files[l], "nodes", "node_coordinates");
    edges[l] = op_decl_set_hdf5_infer_size(files[l], "edges", "edge-->node");
    edge_nodes[l] = op_decl_map_hdf5(edges[l], nodes[l], 2, files[l], "edge-->node");
    x[l] = op_decl_dat_hdf5(nodes[l], 3, "double", files[l], "node_coordinates");
    r[l] = op_decl_dat_temp_char(nodes[l], 1, "double", sizeof(double), "neighbour_sum");
    s[l] = op_decl_dat_temp_char(nodes[l], 1, "int", sizeof(double), "scratch");
  }
  for (int l = 0; l < levels; l++) {
    int n = sizes[l], bad = 0, total = 0;
    op_par_loop(neighbours, "neighbours", edges[l],
                op_arg_dat(x[l], 0, edge_nodes[l], 3, "double", OP_READ),
                op_arg_dat(x[l], 1, edge_nodes[l], 3, "double", OP_READ),
                op_arg_dat(r[l], 0, edge_nodes[l], 1, "double", OP_INC),
                op_arg_dat(r[l], 1, edge_nodes[l], 1, "double", OP_INC));
    op_par_loop(check_node, "check_node", nodes[l],
                op_arg_dat(x[l], -1, OP_ID, 3, "double", OP_READ),
                op_arg_dat(r[l], -1, OP_ID, 1, "double", OP_READ),
                op_arg_gbl(&n, 1, "int", OP_READ), op_arg_gbl(&bad, 1, "int", OP_INC));
    op_par_loop(mark, "mark", nodes[l], op_arg_dat(x[l], -1, OP_ID, 3, "double", OP_READ),
                op_arg_dat(s[l], -1, OP_ID, 1, "int", OP_WRITE));
    op_par_loop(add_int, "add_int", nodes[l], op_arg_dat(s[l], -1, OP_ID, 1, "int", OP_READ),
                op_arg_gbl(&total, 1, "int", OP_INC));
    op_printf(
        "mglevels: level %d: %d nodes, %d edges, %d wrong neighbour sums, scratch total %d "
        "(expected %d)\n",
        l, op_get_size(nodes[l]), op_get_size(edges[l]), bad, total, n * (n - 1));
    wrong += bad != 0 || total != n * (n - 1) || op_get_size(nodes[l]) != n;
  }
  // Level 1's coordinates written under a name of their own, as MG-CFD
  // writes each level's solution, then the name given back.
  snprintf(out, sizeof out, "%s_out.h5", prefix);
  const char *old_name = x[1]->name;
  x[1]->name = "coordinates_level1";
  op_fetch_data_hdf5_file(x[1], out);
  x[1]->name = old_name;
  op_hdf5_info info;
  const int found = op_hdf5_query_dataset(out, "coordinates_level1", &info, err, sizeof err) == 0;
  op_printf("mglevels: %s: dataset coordinates_level1 %s\n", out, found ? "written" : "missing");
  wrong += !found || info.rows != sizes[1] || strcmp(x[1]->name, "node_coordinates") != 0;
  snprintf(dump, sizeof dump, "%s_dump.h5", prefix);
  op_dump_to_hdf5(dump);
  op_printf("mglevels: %s\n", wrong ? "FAILED" : "PASSED");
  op_exit();
  return wrong ? 1 : 0;
}
