/*
 * test_xdmf.c - writes XDMF files next to HDF5 results (checked afterwards by
 * xdmf_check) and checks the writer's own validation.
 *   test_xdmf <outdir>
 * Files written: xdmf_quad.{h5,xmf}, xdmf_tri.{h5,xmf}, xdmf_series.xmf +
 * xdmf_series/step_*.h5, xdmf_series_mesh.xmf (+ mesh file), xdmf_grid.{h5,xmf},
 * xdmf_grid_series.xmf, and the deliberately broken xdmf_bad_missing.xmf and
 * xdmf_bad_xml.xmf.
 */
#include "io_test.h"
#include "op2.h"
#include "op_hdf5.h"
#include "op_xdmf.h"

static int contains(const char *file, const char *what) {
  char *s = io_slurp(file);
  int ok = s && strstr(s, what);
  if (!ok)
    fprintf(stderr, "%s does not contain: %s\n", file, what);
  free(s);
  return ok;
}

static void write_text(const char *file, const char *text) {
  FILE *f = fopen(file, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    CHECK(fclose(f) == 0);
  }
}

int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 0);
  if (argc < 2) {
    fprintf(stderr, "usage: %s <outdir>\n", argv[0]);
    return 2;
  }
  const char *dir = argv[1];
  char err[OP_IO_ERRLEN];
  int rc;

  /* ---- a 3 x 2 quad mesh on 4 x 3 nodes ---- */
  enum { QX = 3, QY = 2, NNX = QX + 1, NNY = QY + 1 };
  static double xy[NNX * NNY * 2];
  static int c2n[QX * QY * 4];
  for (int j = 0; j < NNY; ++j)
    for (int i = 0; i < NNX; ++i) {
      xy[2 * (j * NNX + i)] = i * 0.5;
      xy[2 * (j * NNX + i) + 1] = j * 0.25;
    }
  for (int j = 0; j < QY; ++j)
    for (int i = 0; i < QX; ++i) {
      int *c = &c2n[4 * (j * QX + i)];
      c[0] = j * NNX + i;
      c[1] = j * NNX + i + 1;
      c[2] = (j + 1) * NNX + i + 1;
      c[3] = (j + 1) * NNX + i;
    }
  op_set nodes = op_decl_set(NNX * NNY, "nodes");
  op_set cells = op_decl_set(QX * QY, "cells");
  op_map pcell = op_decl_map(cells, nodes, 4, c2n, "pcell");
  op_dat p_x = op_decl_dat(nodes, 2, "double", xy, "p_x");
  op_dat q = op_decl_dat_temp(cells, 4, "double", "p_q");
  op_dat pr = op_decl_dat_temp(cells, 1, "double", "flow/pressure");
  op_dat vel = op_decl_dat_temp(cells, 2, "float", "vel");
  op_dat u = op_decl_dat_temp(nodes, 1, "float", "u_node");
  op_dat disp = op_decl_dat_temp(nodes, 3, "double", "disp");
  for (int i = 0; i < QX * QY; ++i) {
    for (int k = 0; k < 4; ++k)
      ((double *)q->data)[4 * i + k] = i + 0.1 * k;
    ((double *)pr->data)[i] = 100 + i;
  }
  op_dat cd[3] = {q, pr, vel};
  op_dat nd[3] = {u, disp, p_x};
  op_xdmf_mesh mesh = {pcell, p_x, cd, 3, nd, 3, NULL};
  char quad_h5[4096];
  snprintf(quad_h5, sizeof quad_h5, "%s/%s", dir, "xdmf_quad.h5");
  char quad_xmf[4096];
  snprintf(quad_xmf, sizeof quad_xmf, "%s/%s", dir, "xdmf_quad.xmf");
  unlink(quad_h5);
  rc = op_xdmf_save(quad_h5, &mesh, err, sizeof err);
  CHECK(rc == OP_IO_OK);
  if (rc)
    fprintf(stderr, "%s\n", err);
  CHECK(!io_file_exists(io_tmp_path(dir, "xdmf_quad.xmf")));
  CHECK(contains(quad_xmf, "TopologyType=\"Quadrilateral\" NumberOfElements=\"6\""));
  CHECK(contains(quad_xmf, "GeometryType=\"XY\""));
  CHECK(contains(quad_xmf, ">xdmf_quad.h5:/pcell<"));
  CHECK(contains(quad_xmf, ">xdmf_quad.h5:/flow/pressure<"));
  /* more than 3 components: one dataset per component, no HyperSlab (which
   * ParaView's default reader cannot read) */
  CHECK(contains(quad_xmf, "Name=\"p_q_3\" AttributeType=\"Scalar\" Center=\"Cell\""));
  CHECK(contains(quad_xmf, "<DataItem Dimensions=\"6 1\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">xdmf_quad.h5:/p_q_3<"));
  CHECK(!contains(quad_xmf, "HyperSlab"));
  {
    double col[QX * QY];
    CHECK(op_hdf5_read_dataset(quad_h5, "p_q_2", "double", QX * QY, 1, col, err, sizeof err) == OP_IO_OK);
    CHECK(col[0] == 0.2 && col[5] == 5.2);
  }
  CHECK(contains(quad_xmf, "<DataItem Dimensions=\"6 2\" NumberType=\"Float\" Precision=\"4\" Format=\"HDF\">xdmf_quad.h5:/vel<"));
  CHECK(contains(quad_xmf, "Name=\"vel\" AttributeType=\"Vector\" Center=\"Cell\""));
  CHECK(contains(quad_xmf, "Name=\"disp\" AttributeType=\"Vector\" Center=\"Node\""));
  CHECK(contains(quad_xmf, "Name=\"u_node\" AttributeType=\"Scalar\" Center=\"Node\""));
  /* writing only the .xmf for an existing file works too */
  CHECK(op_xdmf_write(quad_h5, &mesh, err, sizeof err) == OP_IO_OK);

  /* ---- triangles: each quad split in two ---- */
  static int t2n[QX * QY * 2 * 3];
  for (int c = 0; c < QX * QY; ++c) {
    const int *k = &c2n[4 * c];
    int *t = &t2n[6 * c];
    t[0] = k[0], t[1] = k[1], t[2] = k[2];
    t[3] = k[0], t[4] = k[2], t[5] = k[3];
  }
  op_set tris = op_decl_set(QX * QY * 2, "tris");
  op_map ptri = op_decl_map(tris, nodes, 3, t2n, "mesh/ptri");
  op_dat area = op_decl_dat_temp(tris, 1, "double", "area");
  op_dat tri_list[1] = {area};
  op_xdmf_mesh tmesh = {ptri, p_x, tri_list, 1, NULL, 0, NULL};
  char tri_h5[4096];
  snprintf(tri_h5, sizeof tri_h5, "%s/%s", dir, "xdmf_tri.h5");
  unlink(tri_h5);
  CHECK(op_xdmf_save(tri_h5, &tmesh, err, sizeof err) == OP_IO_OK);
  CHECK(contains(io_path(dir, "xdmf_tri.xmf"), "TopologyType=\"Triangle\" NumberOfElements=\"12\""));
  CHECK(contains(io_path(dir, "xdmf_tri.xmf"), "xdmf_tri.h5:/mesh/ptri"));

  /* ---- time series in a sub-directory, data per step ---- */
  io_mkdir(io_path(dir, "xdmf_series"));
  char series_xmf[4096];
  snprintf(series_xmf, sizeof series_xmf, "%s/%s", dir, "xdmf_series.xmf");
  op_xdmf_series *s = op_xdmf_series_create(series_xmf, &mesh, err, sizeof err);
  CHECK(s != NULL);
  for (int step = 0; s && step < 3; ++step) {
    ((double *)pr->data)[0] = step;
    op_host_data_changed(pr);
    char name[64];
    snprintf(name, sizeof name, "xdmf_series/step_%03d.h5", step);
    const char *h5 = io_path(dir, name);
    unlink(h5);
    rc = op_xdmf_series_save(s, 0.5 * step, h5, err, sizeof err);
    CHECK(rc == OP_IO_OK);
    if (rc)
      fprintf(stderr, "%s\n", err);
    CHECK(op_xdmf_series_steps(s) == step + 1);
    CHECK(contains(series_xmf, "CollectionType=\"Temporal\""));
  }
  CHECK(contains(series_xmf, "<Time Value=\"1\"/>"));
  CHECK(contains(series_xmf, ">xdmf_series/step_002.h5:/flow/pressure<"));
  /* an append naming a file without the data fails and leaves the .xmf as it was */
  char *before = io_slurp(series_xmf);
  rc = op_xdmf_series_append(s, 9.0, tri_h5, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ENOENT, err, "xdmf_tri.h5", "'p_q'");
  char *after = io_slurp(series_xmf);
  CHECK(before && after && strcmp(before, after) == 0);
  free(before);
  free(after);
  CHECK(op_xdmf_series_steps(s) == 3);
  op_xdmf_series_free(s);

  /* ---- series sharing one mesh file; .xmf in a sub-directory ---- */
  io_mkdir(io_path(dir, "xdmf_sm"));
  char mesh_h5[4096];
  snprintf(mesh_h5, sizeof mesh_h5, "%s/%s", dir, "xdmf_sm_mesh.h5");
  unlink(mesh_h5);
  CHECK(op_hdf5_write_map(mesh_h5, pcell, err, sizeof err) == OP_IO_OK);
  CHECK(op_hdf5_write_dat(mesh_h5, p_x, err, sizeof err) == OP_IO_OK);
  op_xdmf_mesh smesh = {pcell, p_x, cd, 2, NULL, 0, mesh_h5};
  s = op_xdmf_series_create(io_path(dir, "xdmf_sm/series.xmf"), &smesh, err, sizeof err);
  CHECK(s != NULL);
  for (int step = 0; s && step < 2; ++step) {
    char name[64];
    snprintf(name, sizeof name, "xdmf_sm_%d.h5", step);
    unlink(io_path(dir, name));
    CHECK(op_xdmf_series_save(s, step, io_path(dir, name), err, sizeof err) == OP_IO_OK);
  }
  CHECK(contains(io_path(dir, "xdmf_sm/series.xmf"), ">../xdmf_sm_mesh.h5:/pcell<"));
  CHECK(contains(io_path(dir, "xdmf_sm/series.xmf"), ">../xdmf_sm_1.h5:/p_q_0<"));
  op_xdmf_series_free(s);

  /* ---- structured grid: 5 x 3 cells ---- */
  enum { GX = 5, GY = 3 };
  op_set gcells = op_decl_set(GX * GY, "grid_cells");
  op_dat T = op_decl_dat_temp(gcells, 1, "double", "T");
  op_dat U = op_decl_dat_temp(gcells, 2, "double", "U");
  op_dat Q = op_decl_dat_temp(gcells, 4, "double", "Q");
  for (int j = 0; j < GY; ++j)
    for (int i = 0; i < GX; ++i)
      ((double *)T->data)[j * GX + i] = i + 10 * j;
  op_dat gd[3] = {T, U, Q};
  op_xdmf_grid grid = {GX, GY, -1.0, 2.0, 0.5, 0.25, gd, 3, NULL};
  char grid_h5[4096];
  snprintf(grid_h5, sizeof grid_h5, "%s/%s", dir, "xdmf_grid.h5");
  unlink(grid_h5);
  CHECK(op_xdmf_save_grid(grid_h5, &grid, err, sizeof err) == OP_IO_OK);
  char grid_xmf[4096];
  snprintf(grid_xmf, sizeof grid_xmf, "%s/%s", dir, "xdmf_grid.xmf");
  /* quadrilaterals in the X-Y plane, their nodes and corners in the data file */
  CHECK(contains(grid_xmf, "TopologyType=\"Quadrilateral\" NumberOfElements=\"15\""));
  CHECK(contains(grid_xmf, "Dimensions=\"15 4\" NumberType=\"Int\" Precision=\"4\" Format=\"HDF\">xdmf_grid.h5:/xdmf_grid_quads<"));
  CHECK(contains(grid_xmf, "GeometryType=\"XY\""));
  CHECK(contains(grid_xmf, "Dimensions=\"24 2\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">xdmf_grid.h5:/xdmf_grid_nodes<"));
  CHECK(contains(grid_xmf, "Dimensions=\"15 1\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">xdmf_grid.h5:/T<"));
  CHECK(contains(grid_xmf, "Dimensions=\"15 2\""));
  CHECK(contains(grid_xmf, "Name=\"Q_2\""));
  CHECK(contains(grid_xmf, "Dimensions=\"15 1\" NumberType=\"Float\" Precision=\"8\" Format=\"HDF\">xdmf_grid.h5:/Q_2<"));
  {
    /* node (i, j) at (x0 + i dx, y0 + j dy), row j (nx + 1) + i; cell (i, j)'s
     * corners counter-clockwise from its lower left */
    double nxy[24 * 2];
    int quads[15 * 4];
    CHECK(op_hdf5_read_dataset(grid_h5, OP_XDMF_GRID_NODES, "double", 24, 2, nxy, err,
                               sizeof err) == OP_IO_OK);
    CHECK(op_hdf5_read_dataset(grid_h5, OP_XDMF_GRID_QUADS, "int", 15, 4, quads, err,
                               sizeof err) == OP_IO_OK);
    CHECK(nxy[0] == -1.0 && nxy[1] == 2.0);
    CHECK(nxy[2 * 23] == 1.5 && nxy[2 * 23 + 1] == 2.75); /* node (5, 3) */
    CHECK(nxy[2 * 7] == -0.5 && nxy[2 * 7 + 1] == 2.25);  /* node (1, 1) */
    const int c = 2 * GX + 4;                            /* cell (4, 2) */
    CHECK(quads[4 * c] == 16 && quads[4 * c + 1] == 17 && quads[4 * c + 2] == 23 &&
          quads[4 * c + 3] == 22);
  }
  /* the nodes and corners in a mesh file of their own, shared: the .xmf names it */
  char gmesh_h5[4096], gshared_h5[4096];
  snprintf(gmesh_h5, sizeof gmesh_h5, "%s/%s", dir, "xdmf_grid_mesh.h5");
  snprintf(gshared_h5, sizeof gshared_h5, "%s/%s", dir, "xdmf_grid_shared.h5");
  unlink(gmesh_h5);
  unlink(gshared_h5);
  op_xdmf_grid shared = grid;
  shared.mesh_file = gmesh_h5;
  rc = op_xdmf_save_grid(gshared_h5, &shared, err, sizeof err); /* no mesh file yet */
  CHECK_ERR(rc, OP_IO_ENOFILE, err, "xdmf_grid_mesh.h5", "does not exist");
  CHECK(op_xdmf_write_grid_mesh(gmesh_h5, &shared, err, sizeof err) == OP_IO_OK);
  CHECK(op_xdmf_save_grid(gshared_h5, &shared, err, sizeof err) == OP_IO_OK);
  CHECK(contains(io_path(dir, "xdmf_grid_shared.xmf"), ">xdmf_grid_mesh.h5:/xdmf_grid_quads<"));
  CHECK(op_hdf5_dataset_exists(gshared_h5, OP_XDMF_GRID_NODES, err, sizeof err) == 0);
  s = op_xdmf_series_create_grid(io_path(dir, "xdmf_grid_series.xmf"), &grid, err, sizeof err);
  CHECK(s != NULL);
  for (int step = 0; s && step < 2; ++step) {
    char name[64];
    snprintf(name, sizeof name, "xdmf_grid_%d.h5", step);
    unlink(io_path(dir, name));
    CHECK(op_xdmf_series_save(s, 0.1 * step, io_path(dir, name), err, sizeof err) == OP_IO_OK);
  }
  op_xdmf_series_free(s);

  /* ---- the writer's own checks ---- */
  op_xdmf_grid badgrid = {4, 4, 0, 0, 1, 1, gd, 1, NULL}; /* 16 cells, T has 15 */
  rc = op_xdmf_write_grid(grid_h5, &badgrid, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EARG, err, "'T'", "grid_cells");
  op_xdmf_mesh nodata = mesh;
  rc = op_xdmf_write(tri_h5, &nodata, err, sizeof err); /* tri file lacks p_q, pcell */
  CHECK_ERR(rc, OP_IO_ENOENT, err, "xdmf_tri.h5", "'p_q'");
  /* a file holding p_q but not its component datasets: op_xdmf_write says what is missing */
  char nocomp_h5[4096];
  snprintf(nocomp_h5, sizeof nocomp_h5, "%s/%s", dir, "xdmf_nocomp.h5");
  unlink(nocomp_h5);
  CHECK(op_hdf5_write_map(nocomp_h5, pcell, err, sizeof err) == OP_IO_OK);
  CHECK(op_hdf5_write_dat(nocomp_h5, p_x, err, sizeof err) == OP_IO_OK);
  CHECK(op_hdf5_write_dat(nocomp_h5, q, err, sizeof err) == OP_IO_OK);
  op_dat qonly[1] = {q};
  op_xdmf_mesh qmesh = {pcell, p_x, qonly, 1, NULL, 0, NULL};
  rc = op_xdmf_write(nocomp_h5, &qmesh, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ENOENT, err, "'p_q_0'", "op_xdmf_save");
  op_map bad2 = op_decl_map(cells, nodes, 2, c2n, "two");
  op_xdmf_mesh badmesh = {bad2, p_x, NULL, 0, NULL, 0, NULL};
  rc = op_xdmf_write(quad_h5, &badmesh, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EARG, err, "two", "dim 2");
  op_dat wrong_set[1] = {u};
  op_xdmf_mesh badcell = {pcell, p_x, wrong_set, 1, NULL, 0, NULL};
  rc = op_xdmf_write(quad_h5, &badcell, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EARG, err, "u_node", "cells");

  /* ---- deliberately broken files for the negative xdmf_check tests ---- */
  char *good = io_slurp(quad_xmf);
  CHECK(good != NULL);
  if (good) {
    char *p = strstr(good, "xdmf_quad.h5:/flow/pressure");
    CHECK(p != NULL);
    if (p)
      memcpy(p, "xdmf_quad.h5:/flow/pressurX", strlen("xdmf_quad.h5:/flow/pressurX"));
    write_text(io_path(dir, "xdmf_bad_missing.xmf"), good);
    free(good);
  }
  write_text(io_path(dir, "xdmf_bad_xml.xmf"),
             "<?xml version=\"1.0\"?>\n<Xdmf Version=\"3.0\"><Domain><Grid>\n"
             "<DataItem Dimensions=\"6 4\" Format=\"HDF\">xdmf_quad.h5:/pcell</DataItem>\n"
             "</Domain></Xdmf>\n");

  op_exit();
  return check_exit("io.xdmf_write");
}
