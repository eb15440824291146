/*
 * make_compare_files.c - writes the HDF5 files the compare.* tests feed to
 * op2-compare, each a small variation of base.h5 with a known difference.
 *
 * usage: make_compare_files DIR
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <hdf5.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *dir;

#define CHECK_H5(call)                                                                      \
  do {                                                                                      \
    if ((call) < 0) {                                                                       \
      fprintf(stderr, "%s:%d: %s: %s failed\n", __FILE__, __LINE__, __func__, #call);       \
      exit(1);                                                                              \
    }                                                                                       \
  } while (0)

static hid_t create(const char *name)
{
  char path[4096];
  snprintf(path, sizeof path, "%s/%s", dir, name);
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) {
    fprintf(stderr, "%s:%d: %s: cannot create %s\n", __FILE__, __LINE__, __func__, path);
    exit(1);
  }
  return f;
}

/* Writes a dataset of rank 0 (rows == 0 and cols == 0), 1 (cols == 0) or 2,
 * creating its groups. */
static void put(hid_t file, const char *name, hid_t type, hsize_t rows, hsize_t cols,
                const void *data)
{
  hsize_t dims[2] = {rows, cols};
  int rank = rows == 0 && cols == 0 ? 0 : cols == 0 ? 1 : 2;
  hid_t space = rank == 0 ? H5Screate(H5S_SCALAR) : H5Screate_simple(rank, dims, NULL);
  CHECK_H5(space);
  hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
  CHECK_H5(lcpl);
  CHECK_H5(H5Pset_create_intermediate_group(lcpl, 1));
  hid_t d = H5Dcreate2(file, name, type, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
  CHECK_H5(d);
  if (data != NULL)
    CHECK_H5(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
  CHECK_H5(H5Dclose(d));
  CHECK_H5(H5Pclose(lcpl));
  CHECK_H5(H5Sclose(space));
}

/* An empty [0 x 4] dataset: rank 2 with no rows. */
static void put_empty(hid_t file, const char *name)
{
  hsize_t dims[2] = {0, 4};
  hid_t space = H5Screate_simple(2, dims, NULL);
  CHECK_H5(space);
  hid_t d = H5Dcreate2(file, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT,
                       H5P_DEFAULT);
  CHECK_H5(d);
  CHECK_H5(H5Dclose(d));
  CHECK_H5(H5Sclose(space));
}

static void put_strings(hid_t file, const char *name, const char *a, const char *b)
{
  hid_t t = H5Tcopy(H5T_C_S1);
  CHECK_H5(t);
  CHECK_H5(H5Tset_size(t, 8));
  char data[2][8];
  memset(data, 0, sizeof data);
  size_t la = strlen(a), lb = strlen(b);
  memcpy(data[0], a, la < 8 ? la : 8);
  memcpy(data[1], b, lb < 8 ? lb : 8);
  put(file, name, t, 2, 0, data);
  CHECK_H5(H5Tclose(t));
}

/* The content of base.h5; the variations change one thing each. */
typedef struct {
  double q[5][4];
  float adt[5][1];
  int32_t cell[5][4];
  int32_t nodes[1];
  double res[5][2];
  double x[3][2];
  double time;
  const char *label0;
} content;

static void base_content(content *c)
{
  for (int i = 0; i < 5; i++) {
    for (int j = 0; j < 4; j++) {
      c->q[i][j] = 0.1 * i + 0.7 * (j == 1) + 0.25 * j;
      c->cell[i][j] = 4 * i + j;
    }
    c->adt[i][0] = 0.3f * (float)(i + 1);
    c->res[i][0] = -1.0 / (i + 3);
    c->res[i][1] = 1e-300 * i;
  }
  c->q[0][0] = 0.0;
  c->q[2][1] = 0.7; /* the element ulp.h5 moves by one ULP */
  c->nodes[0] = 5;
  for (int i = 0; i < 3; i++) {
    c->x[i][0] = i;
    c->x[i][1] = i * 0.5;
  }
  c->time = 1.5;
  c->label0 = "airfoil";
}

enum { SKIP_RES = 1, EXTRA = 2, Q_SHAPE = 4, ADT_DOUBLE = 8 };

static void write_content(const char *name, const content *c, int flags)
{
  hid_t f = create(name);
  if (flags & Q_SHAPE)
    put(f, "p_q", H5T_NATIVE_DOUBLE, 4, 5, c->q);
  else
    put(f, "p_q", H5T_NATIVE_DOUBLE, 5, 4, c->q);
  if (flags & ADT_DOUBLE) {
    double adt[5];
    for (int i = 0; i < 5; i++)
      adt[i] = c->adt[i][0];
    put(f, "p_adt", H5T_NATIVE_DOUBLE, 5, 1, adt);
  } else {
    put(f, "p_adt", H5T_NATIVE_FLOAT, 5, 1, c->adt);
  }
  put(f, "pcell", H5T_NATIVE_INT32, 5, 4, c->cell);
  put(f, "cells", H5T_NATIVE_INT32, 1, 0, c->nodes);
  if (!(flags & SKIP_RES))
    put(f, "group/p_res", H5T_NATIVE_DOUBLE, 5, 2, c->res);
  put(f, "group/sub/p_x", H5T_NATIVE_DOUBLE, 3, 2, c->x);
  put(f, "time", H5T_NATIVE_DOUBLE, 0, 0, &c->time);
  put_strings(f, "label", c->label0, "mesh");
  put_empty(f, "empty");
  if (flags & EXTRA)
    put(f, "p_new", H5T_NATIVE_DOUBLE, 3, 2, c->x);
  CHECK_H5(H5Fclose(f));
}

static void write_nan(const char *name, uint64_t nan_bits)
{
  double v[4] = {1.0, 0.0, 2.0, 3.0};
  memcpy(&v[1], &nan_bits, sizeof v[1]);
  hid_t f = create(name);
  put(f, "x", H5T_NATIVE_DOUBLE, 4, 0, v);
  CHECK_H5(H5Fclose(f));
}

static void write_big(const char *name, int change_last)
{
  enum { ROWS = 1000, COLS = 3 };
  static double v[ROWS][COLS];
  for (int i = 0; i < ROWS; i++)
    for (int j = 0; j < COLS; j++)
      v[i][j] = sin(0.01 * i + j);
  if (change_last)
    v[ROWS - 1][COLS - 1] += 0.5;
  hid_t f = create(name);
  put(f, "big", H5T_NATIVE_DOUBLE, ROWS, COLS, v);
  CHECK_H5(H5Fclose(f));
}

int main(int argc, char **argv)
{
  if (argc != 2) {
    fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  dir = argv[1];
  content c, v;
  base_content(&c);
  write_content("base.h5", &c, 0);
  write_content("same.h5", &c, 0);

  v = c;
  v.q[2][1] = nextafter(v.q[2][1], 2.0);
  write_content("ulp.h5", &v, 0);
  v = c;
  v.q[0][0] = -0.0;
  write_content("negzero.h5", &v, 0);
  v = c;
  v.adt[3][0] = nextafterf(v.adt[3][0], 2.0f);
  write_content("float_ulp.h5", &v, 0);
  v = c;
  v.cell[4][3] += 1;
  write_content("int_diff.h5", &v, 0);
  v = c;
  v.x[2][1] += 1e-3;
  write_content("group_diff.h5", &v, 0);
  v = c;
  v.label0 = "airfoi1";
  write_content("string_diff.h5", &v, 0);
  write_content("missing.h5", &c, SKIP_RES);
  write_content("extra.h5", &c, EXTRA);
  write_content("shape.h5", &c, Q_SHAPE);
  write_content("type.h5", &c, ADT_DOUBLE);

  write_nan("nan_a.h5", 0x7ff8000000000000ull);
  write_nan("nan_b.h5", 0x7ff8000000000000ull);
  write_nan("nan_c.h5", 0x7ff8000000000001ull);
  write_big("big_a.h5", 0);
  write_big("big_b.h5", 1);

  char path[4096];
  snprintf(path, sizeof path, "%s/notes.txt", dir);
  FILE *f = fopen(path, "w");
  if (f == NULL || fputs("this is not an HDF5 file\n", f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "%s:%d: %s: cannot write %s\n", __FILE__, __LINE__, __func__, path);
    return 1;
  }
  return 0;
}
