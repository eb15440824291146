/*
 * fuzz_checkpoint - the checkpoint reader (op2/io/op_checkpoint.c) and the
 * range check of its scalars, on checkpoints built from the fuzzer's bytes:
 * the iteration, version and ndats attributes, the dat's dim, type and set
 * attributes, the dataset's rank, shape and element type, the format string.
 * The HDF5 file itself is always well formed (HDF5's own parser is not ours
 * to fuzz); what varies is every value our reader must range-check.
 */
#include <hdf5.h>
#include <math.h>

#include "fuzz_util.h"
#include "op2.h"
#include "op_checkpoint.h"

typedef struct {
  const uint8_t *p;
  size_t n;
} bytes;

static uint64_t take(bytes *b, size_t k) {
  uint64_t v = 0;
  for (size_t i = 0; i < k; i++) v = v << 8 | (b->n ? (b->n--, *b->p++) : 0);
  return v;
}

static double take_double(bytes *b) {
  uint64_t bits = take(b, 8);
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

static void take_string(bytes *b, char *out, size_t len) {
  size_t k = (size_t)take(b, 1) % len;
  for (size_t i = 0; i < k; i++) out[i] = (char)(take(b, 1) % 95 + 32);
  out[k] = '\0';
}

static void attr(hid_t obj, const char *name, hid_t ftype, hid_t mtype, const void *v) {
  hid_t s = H5Screate(H5S_SCALAR);
  hid_t a = H5Acreate2(obj, name, ftype, s, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(a, mtype, v);
  H5Aclose(a);
  H5Sclose(s);
}

static void attr_str(hid_t obj, const char *name, const char *v) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, strlen(v) + 1);
  attr(obj, name, t, t, v);
  H5Tclose(t);
}

enum { CELLS = 16, DIM = 4 };

/* Writes a checkpoint of dat "p_q" (CELLS x DIM doubles, when the bytes say
 * so) whose every attribute comes from the bytes. */
static void build(const char *path, bytes *b) {
  unsigned flags = (unsigned)take(b, 2);
  double iteration = take_double(b), version = (flags & 1) ? take_double(b) : 1.0;
  int ndats = (flags & 2) ? (int)take(b, 4) : 1;
  int dim = (flags & 4) ? (int)take(b, 4) : DIM;
  static const char *const types[] = {"double", "float", "int", "double "};
  char type[16], set[16], format[32];
  snprintf(type, sizeof type, "%s", types[take(b, 1) % 4]);
  if (flags & 8) take_string(b, type, sizeof type);
  snprintf(set, sizeof set, "cells");
  if (flags & 16) take_string(b, set, sizeof set);
  snprintf(format, sizeof format, "op2-checkpoint");
  if (flags & 32) take_string(b, format, sizeof format);
  int rank = (flags & 64) ? (int)(take(b, 1) % 4) : 2;
  hsize_t dims[3] = {CELLS, DIM, 1};
  if (flags & 128) {
    dims[0] = take(b, 1) % 40;
    dims[1] = take(b, 1) % 9;
    dims[2] = take(b, 1) % 3;
  }
  hid_t etype = (flags & 256) ? (take(b, 1) % 2 ? H5T_STD_I64LE : H5T_IEEE_F32LE) : H5T_IEEE_F64LE;

  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (!(flags & 512)) {
    hid_t s = H5Screate_simple(rank, dims, NULL);
    if (rank == 0) {
      H5Sclose(s);
      s = H5Screate(H5S_SCALAR);
    }
    hid_t d = H5Dcreate2(f, "p_q", etype, s, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    hssize_t n = H5Sget_simple_extent_npoints(s);
    double *zeros = calloc((size_t)(n > 0 ? n : 1), sizeof(double));
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, zeros);
    free(zeros);
    if (!(flags & 1024)) attr(d, "dim", H5T_STD_I32LE, H5T_NATIVE_INT, &dim);
    if (!(flags & 2048)) attr_str(d, "type", type);
    attr_str(d, "set", set);
    H5Dclose(d);
    H5Sclose(s);
  }
  hid_t g = H5Gcreate2(f, "checkpoint", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  attr_str(g, "format", format);
  attr(g, "version", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &version);
  if (!(flags & 4096)) attr(g, "ndats", H5T_STD_I32LE, H5T_NATIVE_INT, &ndats);
  hid_t sg = H5Gcreate2(f, "checkpoint/scalars", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (!(flags & 8192)) attr(sg, "iteration", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &iteration);
  H5Gclose(sg);
  H5Gclose(g);
  H5Fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static op_dat q;
  if (!q) {
    op_init(NULL, NULL, 0);
    op_set cells = op_decl_set(CELLS, "cells");
    q = op_decl_dat_temp(cells, DIM, "double", "p_q");
  }
  const char *path = fuzz_file(NULL, 0, ".h5");
  bytes b = {data, size};
  build(path, &b);
  char err[1024];
  const char *names[1] = {"iteration"};
  double v[1] = {-7.0};
  memset(q->data, 0x5a, (size_t)CELLS * (size_t)q->size);
  if (op_checkpoint_read(path, &q, 1, names, v, 1, err, sizeof err) == OP_IO_OK) {
    long long it;
    if (op_checkpoint_int(path, "iteration", v[0], 0, 999, &it, err, sizeof err) == OP_IO_OK &&
        (it < 0 || it > 999 || (double)it != v[0]))
      abort();
  } else {
    /* A refused checkpoint changes nothing. */
    const unsigned char *p = (const unsigned char *)q->data;
    for (size_t k = 0; k < (size_t)CELLS * (size_t)q->size; k++)
      if (p[k] != 0x5a) abort();
    if (v[0] != -7.0) abort();
  }
  return 0;
}
