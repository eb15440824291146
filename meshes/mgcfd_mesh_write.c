/*
 * mgcfd_mesh_write.c - one level of the MG-CFD family as an HDF5 file, and MG-CFD's input file
 * (mgcfd_mesh.h, docs/meshes.md). The datasets are written a slab of planes at a time, so that
 * a level of tens of millions of nodes needs its coordinates and volumes in memory and little
 * else. Every HDF5 call is checked through the I/O library's OP_IO_ERR, which adds HDF5's own
 * message; files are written under a temporary name and renamed (op_io_commit).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "mgcfd_mesh.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_hdf5_impl.h"
#include "op_io_util.h"

/* A [rows, cols] dataset being written a block of rows at a time. */
typedef struct {
  op_io_ctx c; /* names the file and the dataset */
  hid_t d;
  int is_int;
  long long rows;
  int cols;
} rows_out;

static int rows_open(const op_io_ctx *file, hid_t f, const char *name, int is_int, long long rows,
                     int cols, rows_out *w) {
  w->c = *file;
  w->c.what = "dataset";
  w->c.object = name;
  w->d = -1;
  w->is_int = is_int;
  w->rows = rows;
  w->cols = cols;
  hsize_t dims[2] = {(hsize_t)rows, (hsize_t)cols};
  hid_t s = H5Screate_simple(2, dims, NULL);
  if (s < 0) return OP_IO_ERR(&w->c, OP_IO_EIO, "cannot create a dataspace");
  hid_t dcpl = op_h5_untimed(H5P_DATASET_CREATE); /* the same mesh gives the same bytes */
  int rc = OP_IO_OK;
  if (dcpl < 0) {
    rc = OP_IO_ERR(&w->c, OP_IO_EIO, "cannot create a property list");
  } else {
    w->d = H5Dcreate2(f, name, is_int ? H5T_STD_I32LE : H5T_IEEE_F64LE, s, H5P_DEFAULT, dcpl,
                      H5P_DEFAULT);
    if (w->d < 0) rc = OP_IO_ERR(&w->c, OP_IO_EIO, "cannot create the dataset");
    if (H5Pclose(dcpl) < 0 && rc == OP_IO_OK)
      rc = OP_IO_ERR(&w->c, OP_IO_EIO, "cannot close a property list");
  }
  if (H5Sclose(s) < 0 && rc == OP_IO_OK)
    rc = OP_IO_ERR(&w->c, OP_IO_EIO, "cannot close a dataspace");
  return rc;
}

/* Rows [row0, row0 + nrows) from buf. */
static int rows_write(rows_out *w, long long row0, long long nrows, const void *buf) {
  if (nrows <= 0) return OP_IO_OK;
  if (row0 < 0 || row0 + nrows > w->rows)
    return OP_IO_ERR(&w->c, OP_IO_EARG, "rows [%lld, %lld) outside the dataset's %lld", row0,
                     row0 + nrows, w->rows);
  hsize_t start[2] = {(hsize_t)row0, 0}, count[2] = {(hsize_t)nrows, (hsize_t)w->cols};
  int rc = OP_IO_OK;
  hid_t fs = H5Dget_space(w->d);
  hid_t ms = H5Screate_simple(2, count, NULL);
  if (fs < 0 || ms < 0) {
    rc = OP_IO_ERR(&w->c, OP_IO_EIO, "cannot get the dataspaces");
  } else if (H5Sselect_hyperslab(fs, H5S_SELECT_SET, start, NULL, count, NULL) < 0) {
    rc = OP_IO_ERR(&w->c, OP_IO_EIO, "cannot select rows [%lld, %lld)", row0, row0 + nrows);
  } else if (H5Dwrite(w->d, w->is_int ? H5T_NATIVE_INT : H5T_NATIVE_DOUBLE, ms, fs, H5P_DEFAULT,
                      buf) < 0) {
    rc = OP_IO_ERR(&w->c, OP_IO_EIO, "writing rows [%lld, %lld) failed (disk full?)", row0,
                   row0 + nrows);
  }
  if (ms >= 0 && H5Sclose(ms) < 0 && rc == OP_IO_OK)
    rc = OP_IO_ERR(&w->c, OP_IO_EIO, "cannot close a dataspace");
  if (fs >= 0 && H5Sclose(fs) < 0 && rc == OP_IO_OK)
    rc = OP_IO_ERR(&w->c, OP_IO_EIO, "cannot close a dataspace");
  return rc;
}

/* Adds OP2's "dim" and "type" attributes (docs/io.md) and closes; keeps the first error. */
static int rows_close(rows_out *w, int rc, const char *name) {
  if (w->d < 0) return rc;
  if (rc == OP_IO_OK) rc = op_h5_set_attr_int(&w->c, w->d, name, "dim", w->cols);
  if (rc == OP_IO_OK)
    rc = op_h5_set_attr_str(&w->c, w->d, name, "type", w->is_int ? "int" : "double");
  if (H5Dclose(w->d) < 0 && rc == OP_IO_OK)
    rc = OP_IO_ERR(&w->c, OP_IO_EIO, "cannot close the dataset");
  w->d = -1;
  return rc;
}

/* A whole dataset from one buffer. */
static int write_all(const op_io_ctx *file, hid_t f, const char *name, int is_int, long long rows,
                     int cols, const void *buf) {
  rows_out w;
  int rc = rows_open(file, f, name, is_int, rows, cols, &w);
  if (rc == OP_IO_OK) rc = rows_write(&w, 0, rows, buf);
  return rows_close(&w, rc, name);
}

/* The names MG-CFD's legacy mode (-l) reads, as hard links to the datasets of today's names. */
static int link_legacy(const op_io_ctx *file, hid_t f, int has_mg_map) {
  static const char *const links[][2] = {{"node_coordinates", "node_coordinates.renumbered"},
                                         {"edge-->node", "edge-->node.renumbered"},
                                         {"bnd_node-->node", "bnd_node-->node.renumbered"},
                                         {"edge_weights", "edge_weights.recalculated"},
                                         {"node-->mg_node", "node-->mg_node.renumbered"}};
  const int n = has_mg_map ? 5 : 4;
  for (int i = 0; i < n; i++)
    if (H5Lcreate_hard(f, links[i][0], f, links[i][1], H5P_DEFAULT, H5P_DEFAULT) < 0) {
      op_io_ctx c = *file;
      c.what = "link";
      c.object = links[i][1];
      return OP_IO_ERR(&c, OP_IO_EIO, "cannot link it to '%s'", links[i][0]);
    }
  return OP_IO_OK;
}

/* Planes a block: about a million nodes, at least one plane. */
static int planes_a_block(mgcfd_grid n) {
  long long plane = (long long)n.ni * n.nj;
  long long p = (1LL << 20) / plane;
  return p < 1 ? 1 : p > n.nk ? n.nk : (int)p;
}

static void report(mgcfd_progress_fn progress, void *ctx, int level, const char *what,
                   double done) {
  if (progress) progress(ctx, level, what, done);
}

/* The datasets of one level into the open file f. */
static int write_datasets(const op_io_ctx *c, hid_t f, const mgcfd_geometry *g, mgcfd_grid n,
                          int level, int coarser, int base, mgcfd_progress_fn progress, void *ctx,
                          double *xyz, double *vol) {
  const long long nodes = mgcfd_node_count(n), edges = mgcfd_edge_count(n),
                  bnd = mgcfd_bnd_count(n);
  const int block = planes_a_block(n);
  int rc = OP_IO_OK;

  for (int k0 = 0; k0 < n.nk; k0 += block) {
    int k1 = k0 + block < n.nk ? k0 + block : n.nk;
    mgcfd_coords(g, n, k0, k1, xyz + 3 * (size_t)k0 * n.ni * n.nj);
  }
  rc = write_all(c, f, "node_coordinates", 0, nodes, 3, xyz);
  report(progress, ctx, level, "coordinates", 1.0);

  /* Edges: nodes, weights and their volume shares, a block of planes at a time. */
  const long long block_edges = mgcfd_edges_before_plane(n, block);
  int *edge_node = malloc(sizeof(int) * 2 * (size_t)block_edges + 1);
  double *weight = malloc(sizeof(double) * 3 * (size_t)block_edges + 1);
  rows_out we = {.d = -1}, ww = {.d = -1};
  if (rc == OP_IO_OK && (!edge_node || !weight))
    rc = OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory for %lld edges", block_edges);
  if (rc == OP_IO_OK) rc = rows_open(c, f, "edge-->node", 1, edges, 2, &we);
  if (rc == OP_IO_OK) rc = rows_open(c, f, "edge_weights", 0, edges, 3, &ww);
  for (int k0 = 0; rc == OP_IO_OK && k0 < n.nk; k0 += block) {
    int k1 = k0 + block < n.nk ? k0 + block : n.nk;
    long long e0 = mgcfd_edges_before_plane(n, k0), e1 = mgcfd_edges_before_plane(n, k1);
    mgcfd_edges(n, xyz, k0, k1, base, edge_node, weight, vol);
    rc = rows_write(&we, e0, e1 - e0, edge_node);
    if (rc == OP_IO_OK) rc = rows_write(&ww, e0, e1 - e0, weight);
    report(progress, ctx, level, "edges", (double)e1 / (double)edges);
  }
  rc = rows_close(&we, rc, "edge-->node");
  rc = rows_close(&ww, rc, "edge_weights");
  free(edge_node);
  free(weight);

  /* The boundary: small (the surface of the grid), held whole. */
  int *bnode = malloc(sizeof(int) * (size_t)bnd + 1),
      *bgroup = malloc(sizeof(int) * (size_t)bnd + 1);
  double *bweight = malloc(sizeof(double) * 3 * (size_t)bnd + 1);
  if (rc == OP_IO_OK && (!bnode || !bgroup || !bweight))
    rc = OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory for %lld boundary nodes", bnd);
  if (rc == OP_IO_OK) {
    mgcfd_boundary(n, xyz, base, bnode, bgroup, bweight, vol);
    rc = write_all(c, f, "bnd_node-->node", 1, bnd, 1, bnode);
  }
  if (rc == OP_IO_OK) rc = write_all(c, f, "bnd_node-->group", 1, bnd, 1, bgroup);
  if (rc == OP_IO_OK) rc = write_all(c, f, "bnd_node_weights", 0, bnd, 3, bweight);
  free(bnode);
  free(bgroup);
  free(bweight);
  /* MG-CFD computes its own volumes unless in legacy mode, which reads them as "areas". */
  if (rc == OP_IO_OK) rc = write_all(c, f, "areas", 0, nodes, 1, vol);
  report(progress, ctx, level, "boundary and volumes", 1.0);

  if (rc == OP_IO_OK && coarser) {
    int *map = malloc(sizeof(int) * (size_t)block * n.ni * n.nj + 1);
    rows_out wm = {.d = -1};
    if (!map) rc = OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory for the map to the coarser level");
    if (rc == OP_IO_OK) rc = rows_open(c, f, "node-->mg_node", 1, nodes, 1, &wm);
    for (int k0 = 0; rc == OP_IO_OK && k0 < n.nk; k0 += block) {
      int k1 = k0 + block < n.nk ? k0 + block : n.nk;
      mgcfd_coarse_map(n, xyz, k0, k1, base, map);
      rc = rows_write(&wm, (long long)k0 * n.ni * n.nj, (long long)(k1 - k0) * n.ni * n.nj, map);
      report(progress, ctx, level, "map to the coarser level", (double)k1 / n.nk);
    }
    rc = rows_close(&wm, rc, "node-->mg_node");
    free(map);
  }
  if (rc == OP_IO_OK) rc = link_legacy(c, f, coarser);
  return rc;
}

int mgcfd_write_level(const char *path, const mgcfd_geometry *g, mgcfd_grid fine, int level,
                      int levels, int base, mgcfd_progress_fn progress, void *ctx, char *err,
                      size_t errlen) {
  op_io_ctx c = op_h5_ctx(err, errlen, path);
  if (mgcfd_check(g, fine, levels, err, errlen) != 0) return OP_IO_EARG;
  if (level < 0 || level >= levels || (base != 0 && base != 1))
    return OP_IO_ERR(&c, OP_IO_EARG, "level %d of %d or base index %d out of range", level, levels,
                     base);
  const mgcfd_grid n = mgcfd_level_grid(fine, level);
  const size_t nodes = (size_t)mgcfd_node_count(n);
  double *xyz = malloc(sizeof(double) * 3 * nodes);
  double *vol = calloc(nodes, sizeof(double));
  char *tmp = op_io_tmpname(path);
  if (!xyz || !vol || !tmp) {
    free(xyz);
    free(vol);
    free(tmp);
    return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory for %zu nodes", nodes);
  }
  hid_t f = -1;
  int rc = op_h5_create(&c, tmp, &f);
  if (rc == OP_IO_OK) {
    rc = write_datasets(&c, f, g, n, level, level + 1 < levels, base, progress, ctx, xyz, vol);
    int rc2 = op_h5_close(&c, f);
    if (rc == OP_IO_OK) rc = rc2;
  }
  if (rc == OP_IO_OK)
    rc = op_io_commit(&c, tmp, path); /* removes tmp when it fails */
  else
    remove(tmp);
  free(tmp);
  free(xyz);
  free(vol);
  return rc;
}

int mgcfd_write_input(const char *path, long long size, int levels, int base,
                      const char *const *level_files, char *err, size_t errlen) {
  op_io_ctx c = {err, errlen, "input file", path, NULL, NULL};
  op_io_buf b = {0};
  /* MG-CFD's reader: '#' comments, key=value lines, then "[levels]" followed at once by one
   * "index=file" line a level. mesh_name must be one it knows; it changes nothing in the
   * computation. base_array_index must be written: MG-CFD takes 1 when it is missing. */
  op_io_buf_printf(&b, "# MG-CFD input: a channel with a bump, written by mgcfd_mesh\n");
  op_io_buf_printf(&b, "size=%lld\nnum_levels=%d\nmesh_name=fvcorr\nbase_array_index=%d\n", size,
                   levels, base);
  op_io_buf_printf(&b, "[levels]\n");
  for (int l = 0; l < levels; l++) op_io_buf_printf(&b, "%d=%s\n", l, level_files[l]);
  int rc = b.oom ? OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory")
                 : op_io_write_file_atomic(&c, path, b.s, b.len);
  op_io_buf_free(&b);
  return rc;
}
