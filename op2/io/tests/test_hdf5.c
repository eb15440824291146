/*
 * test_hdf5.c - op_hdf5 round trips and error reporting.
 *   test_hdf5 roundtrip <outdir>
 *   test_hdf5 errors <outdir>
 *   test_hdf5 h5dump <outdir> <path of h5dump or "">   (exit 77 = skipped)
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "io_test.h"
#include "op2.h"
#include "op_hdf5.h"

#define NN 12 /* nodes */
#define NC 6  /* cells */

static double xs[NN * 2];
static float qs[NC * 3];
static int is[NC];
static int cell_nodes[NC * 4];
static int edge_cells[5 * 2];

static void fill_data(void) {
  for (int i = 0; i < NN * 2; ++i)
    xs[i] = 0.1 * i - 1.0 / 3.0;
  /* special values must survive bitwise */
  xs[0] = -0.0;
  xs[1] = INFINITY;
  xs[2] = NAN;
  xs[3] = 4.9e-324; /* denormal */
  for (int i = 0; i < NC * 3; ++i)
    qs[i] = (float)(i * 1.5 - 7.25);
  qs[0] = -INFINITY;
  for (int i = 0; i < NC; ++i)
    is[i] = i * i - 10;
  is[0] = INT32_MIN;
  is[1] = INT32_MAX;
  for (int c = 0; c < NC; ++c)
    for (int k = 0; k < 4; ++k)
      cell_nodes[c * 4 + k] = (c + k * 3) % NN;
  for (int i = 0; i < 10; ++i)
    edge_cells[i] = (i * 7) % NC;
}

typedef struct {
  op_set nodes, cells, edges, empty;
  op_map pcell, pedge;
  op_dat p_x, p_q, p_i, p_e;
} mesh;

static mesh declare(void) {
  mesh m;
  m.nodes = op_decl_set(NN, "nodes");
  m.cells = op_decl_set(NC, "cells");
  m.edges = op_decl_set(5, "edges");
  m.empty = op_decl_set(0, "empty");
  m.pcell = op_decl_map(m.cells, m.nodes, 4, cell_nodes, "pcell");
  m.pedge = op_decl_map(m.edges, m.cells, 2, edge_cells, "topo/pedge");
  m.p_x = op_decl_dat(m.nodes, 2, "double", xs, "p_x");
  m.p_q = op_decl_dat(m.cells, 3, "float", qs, "flow/p_q");
  m.p_i = op_decl_dat(m.cells, 1, "int", is, "flow/deep/p_i");
  m.p_e = op_decl_dat_temp(m.empty, 2, "double", "p_empty");
  return m;
}

static void check_file(const char *file, const mesh *m) {
  printf("reading back %s\n", file);
  op_set nodes = op_decl_set_hdf5(file, "nodes");
  op_set cells = op_decl_set_hdf5(file, "cells");
  op_set edges = op_decl_set_hdf5(file, "edges");
  op_set empty = op_decl_set_hdf5(file, "empty");
  CHECK(nodes->size == NN && cells->size == NC && edges->size == 5 && empty->size == 0);
  CHECK(strcmp(nodes->name, "nodes") == 0);
  op_map pcell = op_decl_map_hdf5(cells, nodes, 4, file, "pcell");
  op_map pedge = op_decl_map_hdf5(edges, cells, 2, file, "topo/pedge");
  CHECK(memcmp(pcell->map, cell_nodes, sizeof cell_nodes) == 0);
  CHECK(memcmp(pedge->map, edge_cells, sizeof edge_cells) == 0);
  CHECK(pcell->dim == 4 && pcell->from == cells && pcell->to == nodes);
  op_dat x = op_decl_dat_hdf5(nodes, 2, "double", file, "p_x");
  op_dat q = op_decl_dat_hdf5(cells, 3, "float", file, "flow/p_q");
  op_dat i = op_decl_dat_hdf5(cells, 1, "int", file, "flow/deep/p_i");
  op_dat e = op_decl_dat_hdf5(empty, 2, "double", file, "p_empty");
  CHECK(x->type == OP_TYPE_DOUBLE && x->dim == 2 && x->set == nodes);
  CHECK(q->type == OP_TYPE_FLOAT && q->dim == 3);
  CHECK(i->type == OP_TYPE_INT && i->dim == 1);
  CHECK(e->dim == 2 && e->set->size == 0);
  CHECK(memcmp(op_fetch_data_ptr(x), xs, sizeof xs) == 0);
  CHECK(memcmp(op_fetch_data_ptr(q), qs, sizeof qs) == 0);
  CHECK(memcmp(op_fetch_data_ptr(i), is, sizeof is) == 0);
  (void)m;
}

/* Names are unique from op_init to op_exit: reading objects back under their
 * stored names needs an op_exit and a fresh op_init. */
static void new_session(void) {
  op_exit();
  op_init(0, NULL, 0);
}

/* New values for a dat's data, as an application changes them. */
static void set_dat(op_dat d, const void *values, size_t bytes) {
  memcpy(op_fetch_data_ptr(d), values, bytes);
  op_host_data_changed(d);
}

static int roundtrip(const char *dir) {
  fill_data();
  mesh m = declare();
  const char *fa = io_path(dir, "rt_pieces.h5");
  const char *fb = io_path(dir, "rt_dump.h5");
  unlink(fa);
  char err[OP_IO_ERRLEN];

  /* piece by piece */
  CHECK(op_hdf5_write_set(fa, m.nodes, err, sizeof err) == OP_IO_OK);
  CHECK(op_hdf5_write_set(fa, m.cells, err, sizeof err) == OP_IO_OK);
  CHECK(op_hdf5_write_set(fa, m.edges, err, sizeof err) == OP_IO_OK);
  CHECK(op_hdf5_write_set(fa, m.empty, err, sizeof err) == OP_IO_OK);
  CHECK(op_hdf5_write_map(fa, m.pcell, err, sizeof err) == OP_IO_OK);
  CHECK(op_hdf5_write_map(fa, m.pedge, err, sizeof err) == OP_IO_OK);
  op_fetch_data_hdf5_file(m.p_x, fa);
  op_fetch_data_hdf5_file(m.p_q, fa);
  op_fetch_data_hdf5_file(m.p_i, fa);
  op_fetch_data_hdf5_file(m.p_e, fa);

  /* constants */
  double gam = 1.4, vec[3] = {1.0 / 3.0, -0.0, 1e300};
  int ic[2] = {7, -9};
  float fc = 2.5f;
  op_write_const_hdf5("gam", 1, "double", (char *)&gam, fa);
  op_write_const_hdf5("consts/vec", 3, "double", (char *)vec, fa);
  op_write_const_hdf5("consts/ints", 2, "int", (char *)ic, fa);
  op_write_const_hdf5("fc", 1, "float", (char *)&fc, fa);

  /* a dat under a path of its own (OP2's op_fetch_data_hdf5_file_path):
   * relative and absolute, groups created */
  op_fetch_data_hdf5_file_path(m.p_x, fa, "states_0000100");
  op_fetch_data_hdf5_file_path(m.p_x, fa, "/results/states_0000100");
  double at_path[NN * 2];
  CHECK(op_hdf5_read_dataset(fa, "states_0000100", "double", NN, 2, at_path, err, sizeof err) ==
        OP_IO_OK);
  CHECK(memcmp(at_path, xs, sizeof xs) == 0);
  memset(at_path, 0, sizeof at_path);
  CHECK(op_hdf5_read_dataset(fa, "results/states_0000100", "double", NN, 2, at_path, err,
                             sizeof err) == OP_IO_OK);
  CHECK(memcmp(at_path, xs, sizeof xs) == 0);

  /* everything at once */
  op_dump_to_hdf5(fb);
  CHECK(io_file_exists(fb));
  CHECK(!io_file_exists(io_tmp_path(dir, "rt_dump.h5")));

  /* replace in place: same shape many times, the file must not grow (the
   * library holds its own copy of p_x: change it there) */
  for (int k = 0; k < 3; ++k) {
    xs[5] = k;
    set_dat(m.p_x, xs, sizeof xs);
    op_fetch_data_hdf5_file(m.p_x, fa);
  }
  long long sz1 = io_file_size(fa);
  for (int k = 0; k < 20; ++k) {
    xs[5] = 100 + k;
    set_dat(m.p_x, xs, sizeof xs);
    op_fetch_data_hdf5_file(m.p_x, fa);
  }
  CHECK(io_file_size(fa) == sz1);
  double back[NN * 2];
  CHECK(op_hdf5_read_dataset(fa, "p_x", "double", NN, 2, back, err, sizeof err) == OP_IO_OK);
  CHECK(memcmp(back, xs, sizeof xs) == 0);
  /* the dump still holds the old value: refresh it so both files agree */
  op_dump_to_hdf5(fb);

  /* replace a dataset by one of another shape and type */
  double dd[4] = {1, 2, 3, 4};
  CHECK(op_hdf5_write_dataset(fa, "scratch", "double", 2, 2, dd, err, sizeof err) == OP_IO_OK);
  int other[3 * 5];
  for (int k = 0; k < 15; ++k)
    other[k] = k * 3;
  CHECK(op_hdf5_write_dataset(fa, "scratch", "int", 3, 5, other, err, sizeof err) == OP_IO_OK);
  int oback[15];
  CHECK(op_hdf5_read_dataset(fa, "scratch", "int", 3, 5, oback, err, sizeof err) == OP_IO_OK);
  CHECK(memcmp(oback, other, sizeof other) == 0);

  /* read into an existing dat */
  op_dat tgt = op_decl_dat_temp(m.cells, 3, "float", "target_q");
  CHECK(op_hdf5_read_dat(fb, tgt, "flow/p_q", err, sizeof err) == OP_IO_OK);
  CHECK(memcmp(tgt->data, qs, sizeof qs) == 0);

  /* dataset info */
  op_hdf5_info info;
  CHECK(op_hdf5_query_dataset(fa, "flow/p_q", &info, err, sizeof err) == OP_IO_OK);
  CHECK(info.rank == 2 && info.rows == NC && info.cols == 3 && info.type_known &&
        info.type == OP_TYPE_FLOAT && strcmp(info.type_name, "float") == 0);
  CHECK(op_hdf5_dataset_exists(fa, "flow/deep/p_i", err, sizeof err) == 1);
  CHECK(op_hdf5_dataset_exists(fa, "flow/nothing", err, sizeof err) == 0);
  CHECK(op_hdf5_dataset_exists(fa, "no/such/group/x", err, sizeof err) == 0);

  /* read everything back, each after a fresh op_init */
  new_session();
  check_file(fa, &m);
  double g2 = 0, v2[3] = {0};
  int i2[2] = {0};
  float f2 = 0;
  op_get_const_hdf5("gam", 1, "double", (char *)&g2, fa);
  op_get_const_hdf5("consts/vec", 3, "double", (char *)v2, fa);
  op_get_const_hdf5("consts/ints", 2, "int", (char *)i2, fa);
  op_get_const_hdf5("fc", 1, "real(4)", (char *)&f2, fa);
  CHECK(memcmp(&g2, &gam, sizeof gam) == 0);
  CHECK(memcmp(v2, vec, sizeof vec) == 0);
  CHECK(memcmp(i2, ic, sizeof ic) == 0);
  CHECK(memcmp(&f2, &fc, sizeof fc) == 0);
  new_session();
  check_file(fb, &m);
  return check_exit("io.hdf5_roundtrip");
}

/* Runs fn in a child with stdout and stderr captured to errfile; returns the exit status. */
static int run_child(void (*fn)(const char *), const char *arg, const char *errfile) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0) {
    perror("fork");
    exit(2);
  }
  if (pid == 0) {
    int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
      _exit(3);
    fn(arg);
    _exit(0);
  }
  int st = 0;
  if (waitpid(pid, &st, 0) < 0) {
    perror("waitpid");
    exit(2);
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A dataset the file does not have is OP2's NULL (set, map, dat) with a
 * message, and the run goes on (exit 5 tells it went on); a file that does
 * not exist is still an error (exit 2). */
static void child_decl_missing(const char *file) {
  op_set s = op_decl_set(4, "cells");
  if (op_decl_set_hdf5(file, "no_such_set") || op_decl_map_hdf5(s, s, 2, file, "no_such_map") ||
      op_decl_dat_hdf5(s, 2, "double", file, "no_such_dat") ||
      op_decl_dat_hdf5(s, 2, "double", file, "grp/no_such_dat"))
    _exit(4);
  fflush(stdout);
  _exit(5);
}

static void child_decl_no_file(const char *file) {
  op_set s = op_decl_set(4, "cells");
  op_decl_dat_hdf5(s, 2, "double", file, "vel");
}

static void child_decl_map_range(const char *file) {
  op_set from = op_decl_set(4, "bad_from");
  op_set to = op_decl_set(3, "bad_to");
  op_decl_map_hdf5(from, to, 2, file, "badmap");
}

static int errors(const char *dir) {
  char err[OP_IO_ERRLEN];
  int rc;
  const char *good = io_path(dir, "err_good.h5");
  unlink(good);
  double d[40 * 3];
  for (int i = 0; i < 120; ++i)
    d[i] = i;
  CHECK(op_hdf5_write_dataset(good, "vel", "double", 40, 3, d, err, sizeof err) == OP_IO_OK);
  CHECK(op_hdf5_write_dataset(good, "grp/vel", "double", 40, 3, d, err, sizeof err) == OP_IO_OK);

  /* HDF5 must not print its own error stack: capture fd 2 around failing calls */
  fflush(stderr);
  int saved = dup(2);
  const char *cap = io_path(dir, "err_stderr.txt");
  int fd = open(cap, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  CHECK(saved >= 0 && fd >= 0 && dup2(fd, 2) >= 0);

  /* missing file */
  rc = op_hdf5_read_dataset(io_path(dir, "nonexistent.h5"), "vel", "double", 40, 3, d, err, sizeof err);
  int rc_missing = rc;
  char err_missing[OP_IO_ERRLEN];
  memcpy(err_missing, err, sizeof err);

  /* missing dataset, also below missing groups */
  int rc_nods = op_hdf5_read_dataset(good, "pressure", "double", 40, 3, d, err, sizeof err);
  char err_nods[OP_IO_ERRLEN];
  memcpy(err_nods, err, sizeof err);
  int rc_nogrp = op_hdf5_read_dataset(good, "a/b/pressure", "double", 40, 3, d, err, sizeof err);
  char err_nogrp[OP_IO_ERRLEN];
  memcpy(err_nogrp, err, sizeof err);

  fflush(stderr);
  CHECK(dup2(saved, 2) >= 0);
  close(fd);
  close(saved);
  char *captured = io_slurp(cap);
  CHECK(captured && captured[0] == '\0'); /* nothing printed by HDF5 */
  if (captured && captured[0])
    fprintf(stderr, "unexpected stderr output:\n%s\n", captured);
  free(captured);

  CHECK_ERR(rc_missing, OP_IO_ENOFILE, err_missing, "nonexistent.h5", "'vel'");
  CHECK_ERR(rc_nods, OP_IO_ENOENT, err_nods, "err_good.h5", "'pressure'");
  CHECK_ERR(rc_nogrp, OP_IO_ENOENT, err_nogrp, "err_good.h5", "'a/b/pressure'");

  /* wrong type */
  float fbuf[120];
  rc = op_hdf5_read_dataset(good, "grp/vel", "float", 40, 3, fbuf, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ETYPE, err, "err_good.h5", "'grp/vel'");
  CHECK(strstr(err, "double") && strstr(err, "float"));

  /* wrong shape: rows and cols */
  rc = op_hdf5_read_dataset(good, "vel", "double", 41, 3, d, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ESHAPE, err, "err_good.h5", "'vel'");
  rc = op_hdf5_read_dataset(good, "vel", "double", 40, 2, d, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ESHAPE, err, "err_good.h5", "'vel'");
  op_set s39 = op_decl_set(39, "s39");
  op_dat d39 = op_decl_dat_temp(s39, 3, "double", "vel39");
  rc = op_hdf5_read_dat(good, d39, "vel", err, sizeof err);
  CHECK_ERR(rc, OP_IO_ESHAPE, err, "err_good.h5", "s39");
  op_set s40 = op_decl_set(40, "s40");
  op_dat d40 = op_decl_dat_temp(s40, 4, "double", "vel40");
  rc = op_hdf5_read_dat(good, d40, "vel", err, sizeof err);
  CHECK_ERR(rc, OP_IO_ESHAPE, err, "err_good.h5", "'vel'");
  op_dat d40i = op_decl_dat_temp(s40, 3, "int", "vel40i");
  rc = op_hdf5_read_dat(good, d40i, "vel", err, sizeof err);
  CHECK_ERR(rc, OP_IO_ETYPE, err, "err_good.h5", "'vel'");

  /* set: not one element */
  int sz;
  rc = op_hdf5_read_set_size(good, "vel", &sz, err, sizeof err);
  CHECK(rc == OP_IO_ETYPE || rc == OP_IO_ESHAPE);
  CHECK(strstr(err, "err_good.h5") && strstr(err, "'vel'"));

  /* not an HDF5 file */
  const char *txt = io_path(dir, "err_text.h5");
  FILE *f = fopen(txt, "w");
  CHECK(f != NULL);
  if (f) {
    fputs("this is not HDF5\n", f);
    fclose(f);
  }
  rc = op_hdf5_read_dataset(txt, "vel", "double", 40, 3, d, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EFORMAT, err, "err_text.h5", "'vel'");
  /* ...and it is never overwritten */
  rc = op_hdf5_write_dataset(txt, "vel", "double", 40, 3, d, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EFORMAT, err, "err_text.h5", "'vel'");
  char *t = io_slurp(txt);
  CHECK(t && strcmp(t, "this is not HDF5\n") == 0);
  free(t);

  /* truncated file */
  const char *tr = io_path(dir, "err_truncated.h5");
  unlink(tr);
  double big[2000];
  for (int i = 0; i < 2000; ++i)
    big[i] = i * 0.5;
  CHECK(op_hdf5_write_dataset(tr, "big", "double", 1000, 2, big, err, sizeof err) == OP_IO_OK);
  long long full = io_file_size(tr);
  CHECK(full > 16000);
  CHECK(truncate(tr, (off_t)(full / 2)) == 0);
  rc = op_hdf5_read_dataset(tr, "big", "double", 1000, 2, big, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EFORMAT, err, "err_truncated.h5", "'big'");

  /* map entries out of range */
  const char *mf = io_path(dir, "err_map.h5");
  unlink(mf);
  int bad[8] = {0, 1, 2, 0, 1, 3, 2, 2}; /* 3 is outside [0,3) */
  CHECK(op_hdf5_write_dataset(mf, "badmap", "int", 4, 2, bad, err, sizeof err) == OP_IO_OK);
  int mb[8];
  rc = op_hdf5_read_map(mf, "badmap", 4, 2, 3, mb, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ERANGE, err, "err_map.h5", "'badmap'");
  bad[5] = -1;
  CHECK(op_hdf5_write_dataset(mf, "badmap", "int", 4, 2, bad, err, sizeof err) == OP_IO_OK);
  rc = op_hdf5_read_map(mf, "badmap", 4, 2, 3, mb, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ERANGE, err, "err_map.h5", "-1");

  /* bad names and types */
  rc = op_hdf5_write_dataset(good, "a//b", "double", 1, 1, d, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EARG, err, "err_good.h5", "a//b");
  rc = op_hdf5_write_dataset(good, "x", "complex", 1, 1, d, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EARG, err, "err_good.h5", "complex");
  /* a path through a dataset */
  rc = op_hdf5_read_dataset(good, "vel/inner", "double", 1, 1, d, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EFORMAT, err, "err_good.h5", "vel/inner");

  /* the OP2-style functions: a missing dataset is NULL with a message naming
   * the file and the dataset, as in OP2 */
  const char *ef = io_path(dir, "err_child_stderr.txt");
  int st = run_child(child_decl_missing, good, ef);
  CHECK(st == 5);
  char *msg = io_slurp(ef);
  CHECK(msg && strstr(msg, "err_good.h5") && strstr(msg, "'no_such_set'") &&
        strstr(msg, "'no_such_map'") && strstr(msg, "'no_such_dat'") &&
        strstr(msg, "'grp/no_such_dat'") && strstr(msg, "op_decl_dat_hdf5") &&
        strstr(msg, "NULL"));
  if (msg)
    printf("  child said: %s", msg);
  free(msg);
  /* ...and exit(2) (bad input: docs/errors.md) on what is an error */
  st = run_child(child_decl_no_file, io_path(dir, "nonexistent.h5"), ef);
  CHECK(st == 2);
  msg = io_slurp(ef);
  CHECK(msg && strstr(msg, "nonexistent.h5") && strstr(msg, "op_decl_dat_hdf5"));
  if (msg)
    printf("  child said: %s", msg);
  free(msg);
  st = run_child(child_decl_map_range, mf, ef);
  CHECK(st == 2);
  msg = io_slurp(ef);
  CHECK(msg && strstr(msg, "err_map.h5") && strstr(msg, "badmap"));
  if (msg)
    printf("  child said: %s", msg);
  free(msg);

  return check_exit("io.hdf5_errors");
}

static int h5dump(const char *dir, const char *tool) {
  if (!tool || !tool[0]) {
    printf("h5dump not found: skipped\n");
    return 77;
  }
  fill_data();
  mesh m = declare();
  (void)m;
  const char *file = io_path(dir, "h5dump_check.h5");
  op_dump_to_hdf5(file);
  double c = 1.4;
  op_write_const_hdf5("consts/gam", 1, "double", (char *)&c, file);
  const char *out = io_path(dir, "h5dump_out.txt");
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0 || dup2(fd, 1) < 0)
      _exit(3);
    execl(tool, tool, "-H", file, (char *)NULL);
    _exit(4);
  }
  int st = 0;
  CHECK(pid > 0 && waitpid(pid, &st, 0) == pid);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  char *txt = io_slurp(out);
  CHECK(txt != NULL);
  if (txt) {
    CHECK(strstr(txt, "DATASET \"p_x\""));
    CHECK(strstr(txt, "GROUP \"flow\""));
    CHECK(strstr(txt, "DATASET \"p_q\""));
    CHECK(strstr(txt, "GROUP \"topo\""));
    CHECK(strstr(txt, "ATTRIBUTE \"dim\""));
    CHECK(strstr(txt, "ATTRIBUTE \"type\""));
    CHECK(strstr(txt, "H5T_IEEE_F64LE"));
    CHECK(strstr(txt, "( 12, 2 )")); /* p_x: [12, 2] */
  }
  free(txt);
  return check_exit("io.hdf5_h5dump");
}

int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 0);
  if (argc < 3) {
    fprintf(stderr, "usage: %s roundtrip|errors|h5dump <outdir> [h5dump]\n", argv[0]);
    return 2;
  }
  int rc;
  if (strcmp(argv[1], "roundtrip") == 0)
    rc = roundtrip(argv[2]);
  else if (strcmp(argv[1], "errors") == 0)
    rc = errors(argv[2]);
  else if (strcmp(argv[1], "h5dump") == 0)
    rc = h5dump(argv[2], argc > 3 ? argv[3] : "");
  else
    rc = 2;
  op_exit();
  return rc;
}
