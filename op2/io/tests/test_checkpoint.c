/*
 * test_checkpoint.c - checkpoint/restart.
 *   test_checkpoint roundtrip <outdir>   bitwise restore, validation errors
 *   test_checkpoint mesh <outdir>        the mesh's fingerprint, restored onto that mesh only
 *   test_checkpoint crash <outdir>       a stale temporary and killed writers never
 *                                        clobber the previous checkpoint
 */
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <time.h>

#include "io_test.h"
#include "op2.h"
#include "op_checkpoint.h"
#include "op_hdf5.h"

static const char *const snames[2] = {"iteration", "time"};

static int roundtrip(const char *dir) {
  char err[OP_IO_ERRLEN];
  int rc;
  enum { N = 100 };
  op_set cells = op_decl_set(N, "cells");
  op_dat q = op_decl_dat_temp(cells, 4, "double", "q");
  op_dat fl = op_decl_dat_temp(cells, 1, "float", "state/res");
  op_dat ii = op_decl_dat_temp(cells, 2, "int", "flags");
  double *qd = (double *)q->data;
  float *fd = (float *)fl->data;
  int *id = (int *)ii->data;
  for (int i = 0; i < N * 4; ++i)
    qd[i] = sin(i * 0.37) * 1e-3 + i;
  qd[0] = -0.0;
  qd[1] = NAN;
  qd[2] = 5e-324;
  for (int i = 0; i < N; ++i)
    fd[i] = (float)(i / 7.0);
  for (int i = 0; i < N * 2; ++i)
    id[i] = i * 31 - 1000;
  id[0] = INT32_MIN;
  op_host_data_changed(q);
  op_host_data_changed(fl);
  op_host_data_changed(ii);
  double sv[2] = {42, 0.1 + 0.2};

  double qsave[N * 4];
  float fsave[N];
  int isave[N * 2];
  memcpy(qsave, qd, sizeof qsave);
  memcpy(fsave, fd, sizeof fsave);
  memcpy(isave, id, sizeof isave);

  const char *file = io_path(dir, "ckpt_rt.h5");
  unlink(file);
  op_dat dats[3] = {q, fl, ii};
  rc = op_checkpoint_write(file, dats, 3, snames, sv, 2, err, sizeof err);
  CHECK(rc == OP_IO_OK);
  if (rc)
    fprintf(stderr, "%s\n", err);
  CHECK(!io_file_exists(io_tmp_path(dir, "ckpt_rt.h5")));
  CHECK(op_checkpoint_exists(file) == 1);

  /* the file is also a plain OP2-layout file */
  op_hdf5_info info;
  CHECK(op_hdf5_query_dataset(file, "q", &info, err, sizeof err) == OP_IO_OK && info.rows == N &&
        info.cols == 4);
  int csize = -1;
  CHECK(op_hdf5_read_set_size(file, "cells", &csize, err, sizeof err) == OP_IO_OK && csize == N);

  /* wipe, restore, compare bitwise */
  memset(qd, 0, sizeof qsave);
  memset(fd, 0, sizeof fsave);
  memset(id, 0, sizeof isave);
  double back[2] = {0, 0};
  rc = op_checkpoint_read(file, dats, 3, snames, back, 2, err, sizeof err);
  CHECK(rc == OP_IO_OK);
  if (rc)
    fprintf(stderr, "%s\n", err);
  CHECK(memcmp(op_fetch_data_ptr(q), qsave, sizeof qsave) == 0);
  CHECK(memcmp(op_fetch_data_ptr(fl), fsave, sizeof fsave) == 0);
  CHECK(memcmp(op_fetch_data_ptr(ii), isave, sizeof isave) == 0);
  CHECK(memcmp(back, sv, sizeof sv) == 0);

  /* validation failures leave everything untouched (each case between its own
   * op_init and op_exit: dat names are unique between them) */
  struct {
    int set_size;
    const char *set_name, *name, *type;
    int dim, expect;
    const char *word;
  } cases[] = {
      {50, "cells50", "q", "double", 4, OP_IO_ESHAPE, "cells50"},  /* rows != set size */
      {N, "cells", "q", "double", 3, OP_IO_ESHAPE, "dim 3"},       /* cols != dim */
      {N, "cells", "q", "float", 4, OP_IO_ETYPE, "float"},         /* type */
      {N, "cells", "not_there", "double", 1, OP_IO_ENOENT, "exist"}, /* missing */
      {N, "other_cells", "q", "double", 4, OP_IO_ESHAPE, "other_cells"}, /* other set */
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; ++k) {
    op_exit();
    op_init(0, NULL, 0);
    op_set good_set = op_decl_set(N, "cells");
    op_dat res = op_decl_dat_temp(good_set, 1, "float", "state/res"); /* valid on its own */
    op_set set = strcmp(cases[k].set_name, "cells") == 0
                     ? good_set
                     : op_decl_set(cases[k].set_size, cases[k].set_name);
    op_dat flags = op_decl_dat_temp(good_set, 2, "int", "flags"); /* valid on its own */
    op_dat bad = op_decl_dat_temp(set, cases[k].dim, cases[k].type, cases[k].name);
    memset(res->data, 0x5a, (size_t)N * sizeof(float));
    memset(bad->data, 0x5a, (size_t)set->size * (size_t)bad->size);
    double keep[2] = {-1, -1};
    op_dat list[3] = {res, flags, bad};
    char want[64];
    snprintf(want, sizeof want, "'%s'", cases[k].name);
    rc = op_checkpoint_read(file, list, 3, snames, keep, 2, err, sizeof err);
    CHECK_ERR(rc, cases[k].expect, err, "ckpt_rt.h5", want);
    CHECK(strstr(err, cases[k].word) != NULL);
    unsigned char pat[N * sizeof(float)];
    memset(pat, 0x5a, sizeof pat);
    CHECK(memcmp(res->data, pat, sizeof pat) == 0); /* untouched */
    CHECK(keep[0] == -1 && keep[1] == -1);
  }

  /* fewer dats than the checkpoint holds: another program's checkpoint */
  op_exit();
  op_init(0, NULL, 0);
  cells = op_decl_set(N, "cells");
  q = op_decl_dat_temp(cells, 4, "double", "q");
  fl = op_decl_dat_temp(cells, 1, "float", "state/res");
  op_dat two[2] = {q, fl};
  double keep2[2] = {-1, -1};
  rc = op_checkpoint_read(file, two, 2, snames, keep2, 2, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EFORMAT, err, "ndats", "holds 3 dat(s), this run restores 2");
  CHECK(keep2[0] == -1);

  /* scalars are range-checked by the caller: integers in [lo, hi] only */
  long long v = -1;
  CHECK(op_checkpoint_int(file, "iteration", 41.0, 0, 99, &v, err, sizeof err) == OP_IO_OK &&
        v == 41);
  const double bad_values[] = {NAN, INFINITY, -INFINITY, 1e300, 2147483647.0, -5.0, 5.7, 100.0};
  for (size_t k = 0; k < sizeof bad_values / sizeof bad_values[0]; ++k) {
    rc = op_checkpoint_int(file, "iteration", bad_values[k], 0, 99, &v, err, sizeof err);
    CHECK_ERR(rc, OP_IO_ERANGE, err, "scalar 'iteration'", "is not an integer in [0, 99]");
  }

  /* a missing scalar */
  op_exit();
  op_init(0, NULL, 0);
  cells = op_decl_set(N, "cells");
  q = op_decl_dat_temp(cells, 4, "double", "q");
  fl = op_decl_dat_temp(cells, 1, "float", "state/res");
  ii = op_decl_dat_temp(cells, 2, "int", "flags");
  dats[0] = q;
  dats[1] = fl;
  dats[2] = ii;
  const char *const bad_names[2] = {"iteration", "dt"};
  double keep[2] = {-1, -1};
  rc = op_checkpoint_read(file, dats, 3, bad_names, keep, 2, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ENOENT, err, "ckpt_rt.h5", "'dt'");
  CHECK(keep[0] == -1 && keep[1] == -1);
  rc = op_checkpoint_read(file, dats, 3, snames, keep, 2, err, sizeof err);
  CHECK(rc == OP_IO_OK);
  CHECK(memcmp(q->data, qsave, sizeof qsave) == 0);

  /* duplicate names, not a checkpoint, missing, truncated */
  op_dat dup[2] = {q, q}; /* the same dat twice */
  rc = op_checkpoint_write(io_path(dir, "ckpt_dup.h5"), dup, 2, NULL, NULL, 0, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EARG, err, "ckpt_dup.h5", "'q'");
  CHECK(!io_file_exists(io_path(dir, "ckpt_dup.h5")));
  CHECK(!io_file_exists(io_tmp_path(dir, "ckpt_dup.h5")));
  const char *plain = io_path(dir, "ckpt_plain.h5");
  unlink(plain);
  CHECK(op_hdf5_write_dat(plain, q, err, sizeof err) == OP_IO_OK);
  CHECK(op_checkpoint_exists(plain) == 0);
  op_dat l6[1] = {q};
  rc = op_checkpoint_read(plain, l6, 1, NULL, NULL, 0, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EFORMAT, err, "ckpt_plain.h5", "checkpoint");
  rc = op_checkpoint_read(io_path(dir, "ckpt_none.h5"), l6, 1, NULL, NULL, 0, err, sizeof err);
  CHECK_ERR(rc, OP_IO_ENOFILE, err, "ckpt_none.h5", NULL);
  CHECK(op_checkpoint_exists(io_path(dir, "ckpt_none.h5")) == 0);
  const char *tr = io_path(dir, "ckpt_trunc.h5");
  CHECK(op_checkpoint_write(tr, dats, 3, snames, sv, 2, err, sizeof err) == OP_IO_OK);
  CHECK(truncate(tr, (off_t)(io_file_size(tr) / 2)) == 0);
  rc = op_checkpoint_read(tr, dats, 3, snames, keep, 2, err, sizeof err);
  CHECK_ERR(rc, OP_IO_EFORMAT, err, "ckpt_trunc.h5", NULL);
  CHECK(op_checkpoint_exists(tr) == 0);
  return check_exit("io.checkpoint");
}

/* ---- the mesh a checkpoint is written on ------------------------------------------------ */

static int mesh(const char *dir) {
  char err[OP_IO_ERRLEN], fp[OP_MESH_FINGERPRINT_LEN], fp2[OP_MESH_FINGERPRINT_LEN];
  /* Two rows of two cells: 6 nodes, 2 cells. */
  op_set nodes = op_decl_set(6, "nodes"), cells = op_decl_set(2, "cells");
  int cn[8] = {0, 1, 4, 3, 1, 2, 5, 4};
  double xy[12] = {0, 0, 1, 0, 2, 0, 0, 1, 1, 1, 2, 1};
  op_map pcell = op_decl_map(cells, nodes, 4, cn, "pcell");
  op_dat x = op_decl_dat(nodes, 2, "double", xy, "x");
  op_dat q = op_decl_dat_temp(cells, 4, "double", "q");
  op_map maps[1] = {pcell};
  op_dat dats[1] = {x};
  CHECK(op_mesh_fingerprint(maps, 1, dats, 1, fp, sizeof fp, err, sizeof err) == OP_IO_OK);
  printf("fingerprint: %s\n", fp);
  CHECK(strncmp(fp, "cells 2, nodes 6; hash ", 23) == 0 && strlen(fp) == 23 + 16);
  /* Another numbering of the same cells, another coordinate: another fingerprint. */
  int *m = pcell->map;
  for (int k = 0; k < 4; ++k) {
    int t = m[k];
    m[k] = m[4 + k];
    m[4 + k] = t;
  }
  CHECK(op_mesh_fingerprint(maps, 1, dats, 1, fp2, sizeof fp2, err, sizeof err) == OP_IO_OK &&
        strcmp(fp, fp2) != 0);
  for (int k = 0; k < 4; ++k) {
    int t = m[k];
    m[k] = m[4 + k];
    m[4 + k] = t;
  }
  double *xd = op_fetch_data_ptr(x);
  xd[5] += 1e-12;
  op_host_data_changed(x);
  CHECK(op_mesh_fingerprint(maps, 1, dats, 1, fp2, sizeof fp2, err, sizeof err) == OP_IO_OK &&
        strcmp(fp, fp2) != 0);
  xd[5] -= 1e-12;
  op_host_data_changed(x);
  CHECK(op_mesh_fingerprint(maps, 1, dats, 1, fp2, sizeof fp2, err, sizeof err) == OP_IO_OK &&
        strcmp(fp, fp2) == 0);

  /* Restored onto its own mesh only. */
  const char *file = io_path(dir, "ckpt_mesh.h5");
  unlink(file);
  double sv[2] = {3, 0.5}, back[2];
  CHECK(op_checkpoint_write_for_mesh(file, fp, &q, 1, snames, sv, 2, err, sizeof err) == OP_IO_OK);
  CHECK(op_checkpoint_read_for_mesh(file, fp, &q, 1, snames, back, 2, err, sizeof err) ==
            OP_IO_OK &&
        back[0] == 3);
  CHECK(op_checkpoint_read(file, &q, 1, snames, back, 2, err, sizeof err) == OP_IO_OK);
  back[0] = -1;
  int rc = op_checkpoint_read_for_mesh(file, "cells 2, nodes 6; hash 0000000000000000", &q, 1,
                                       snames, back, 2, err, sizeof err);
  CHECK(rc == OP_IO_EFORMAT && back[0] == -1 && strstr(err, "written on another mesh") &&
        strstr(err, fp) && strstr(err, "hash 0000000000000000"));
  printf("  %s\n", err);
  CHECK(op_checkpoint_write(file, &q, 1, snames, sv, 2, err, sizeof err) == OP_IO_OK);
  rc = op_checkpoint_read_for_mesh(file, fp, &q, 1, snames, back, 2, err, sizeof err);
  CHECK(rc == OP_IO_EFORMAT && strstr(err, "does not name the mesh it was written on"));

  /* Renumbered for locality, the mesh keeps its fingerprint (the user's numbering). */
  op_renumber(pcell);
  CHECK(op_mesh_fingerprint(maps, 1, dats, 1, fp2, sizeof fp2, err, sizeof err) == OP_IO_OK &&
        strcmp(fp, fp2) == 0);
  if (strcmp(fp, fp2) != 0)
    printf("  after op_renumber: %s\n", fp2);
  return check_exit("io.checkpoint_mesh");
}

/* ---- crash safety -------------------------------------------------------------------- */

enum { BIG = 1 << 20 }; /* doubles per checkpoint: 8 MiB */

static void fill(op_dat d, double v) {
  double *p = (double *)d->data;
  for (int i = 0; i < BIG; ++i)
    p[i] = v;
  op_host_data_changed(d);
}

/* The checkpoint holds generation g: every value == g and iteration == g. */
static int read_generation(const char *file, op_dat d, double *gen) {
  char err[OP_IO_ERRLEN];
  double s[2];
  int rc = op_checkpoint_read(file, &d, 1, snames, s, 2, err, sizeof err);
  if (rc != OP_IO_OK) {
    fprintf(stderr, "read failed: %s\n", err);
    return -1;
  }
  const double *p = (const double *)op_fetch_data_ptr(d);
  for (int i = 0; i < BIG; ++i)
    if (p[i] != s[0]) {
      fprintf(stderr, "mixed checkpoint: value %g at %d, iteration %g\n", p[i], i, s[0]);
      return -1;
    }
  *gen = s[0];
  return 0;
}

static int crash(const char *dir) {
  char err[OP_IO_ERRLEN];
  op_set s = op_decl_set(BIG, "big_set");
  op_dat d = op_decl_dat_temp(s, 1, "double", "u");
  const char *file = io_path(dir, "ckpt_crash.h5");
  char tmp[4400];
  snprintf(tmp, sizeof tmp, "%s", io_tmp_path(dir, "ckpt_crash.h5")); /* this process's */
  unlink(file);
  unlink(tmp);

  /* generation 1 */
  fill(d, 1.0);
  double sv[2] = {1.0, 0.5};
  CHECK(op_checkpoint_write(file, &d, 1, snames, sv, 2, err, sizeof err) == OP_IO_OK);
  long long size1 = io_file_size(file);

  /* 1. a stale, half-written .tmp (what a crash mid-write leaves) */
  FILE *f = fopen(tmp, "wb");
  CHECK(f != NULL);
  if (f) {
    char *src = io_slurp(file);
    CHECK(src != NULL);
    if (src)
      CHECK(fwrite(src, 1, (size_t)(size1 / 2), f) == (size_t)(size1 / 2));
    free(src);
    fclose(f);
  }
  double gen = 0;
  fill(d, -7.0);
  CHECK(read_generation(file, d, &gen) == 0 && gen == 1.0);
  CHECK(op_checkpoint_exists(file) == 1);
  /* the next write simply replaces the stale .tmp */
  fill(d, 2.0);
  sv[0] = 2.0;
  CHECK(op_checkpoint_write(file, &d, 1, snames, sv, 2, err, sizeof err) == OP_IO_OK);
  CHECK(!io_file_exists(tmp));
  CHECK(read_generation(file, d, &gen) == 0 && gen == 2.0);

  /* 2. writers killed (SIGKILL) at arbitrary moments */
  double last = 2.0;
  for (int round = 0; round < 4; ++round) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
      perror("fork");
      return 2;
    }
    if (pid == 0) {
      for (int g = 0;; ++g) {
        double v = 1000.0 * (round + 1) + g;
        fill(d, v);
        double s2[2] = {v, 0.0};
        if (op_checkpoint_write(file, &d, 1, snames, s2, 2, err, sizeof err) != OP_IO_OK) {
          fprintf(stderr, "child: %s\n", err);
          _exit(5);
        }
      }
    }
    struct timespec ts = {0, (long)(30 + 45 * round) * 1000000L};
    nanosleep(&ts, NULL);
    CHECK(kill(pid, SIGKILL) == 0);
    int st = 0;
    CHECK(waitpid(pid, &st, 0) == pid);
    CHECK(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL);
    gen = -1;
    CHECK(read_generation(file, d, &gen) == 0);
    int plausible = gen == last || (gen >= 1000.0 * (round + 1) && gen < 1000.0 * (round + 2));
    CHECK(plausible);
    printf("round %d: killed writer, checkpoint holds generation %g, stale tmp %s\n", round, gen,
           io_file_exists(tmp) ? "present" : "absent");
    last = gen;
  }
  return check_exit("io.checkpoint_crash");
}

int main(int argc, char **argv) {
  op_init_strip_options(&argc, argv, 0);
  if (argc < 3) {
    fprintf(stderr, "usage: %s roundtrip|crash <outdir>\n", argv[0]);
    return 2;
  }
  int rc = strcmp(argv[1], "roundtrip") == 0 ? roundtrip(argv[2])
           : strcmp(argv[1], "mesh") == 0    ? mesh(argv[2])
           : strcmp(argv[1], "crash") == 0   ? crash(argv[2])
                                             : 2;
  op_exit();
  return rc;
}
