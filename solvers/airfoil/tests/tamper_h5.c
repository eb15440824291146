/*
 * tamper_h5 - rewrites one attribute of an HDF5 file, or one element of an
 * integer dataset, as a hostile or damaged file would have it (tests of the
 * range checks of the readers).
 *
 *   tamper_h5 FILE attr OBJECT NAME double VALUE    e.g. /checkpoint/scalars iteration double nan
 *   tamper_h5 FILE attr OBJECT NAME int VALUE       e.g. /p_q dim int 3
 *   tamper_h5 FILE attr OBJECT NAME string VALUE    e.g. /p_q type string float
 *   tamper_h5 FILE delattr OBJECT NAME              e.g. /checkpoint mesh
 *   tamper_h5 FILE int DATASET INDEX VALUE          e.g. p_bound 5 7 (flat index)
 *   tamper_h5 FILE double DATASET INDEX VALUE       e.g. p_q 402 nan (flat index)
 *   tamper_h5 FILE swap DATASET INDEX1 INDEX2       swaps two elements of an int dataset
 *   tamper_h5 FILE empty DATASET                    the dataset with no rows (its columns, type
 *                                                   and attributes kept), as for an empty set
 *
 * Exit 0, or 1 with a message on any failure.
 */
#include <hdf5.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int die(const char *what) {
  fprintf(stderr, "tamper_h5: %s\n", what);
  return 1;
}

static int set_attr(hid_t f, const char *obj, const char *name, const char *kind,
                    const char *value) {
  hid_t o = H5Oopen(f, obj, H5P_DEFAULT);
  if (o < 0) return die("cannot open the object");
  if (H5Aexists(o, name) > 0 && H5Adelete(o, name) < 0) return die("cannot delete the attribute");
  hid_t s = H5Screate(H5S_SCALAR), t, a;
  herr_t w;
  if (!strcmp(kind, "double")) {
    double v = strtod(value, NULL);
    a = H5Acreate2(o, name, H5T_IEEE_F64LE, s, H5P_DEFAULT, H5P_DEFAULT);
    w = H5Awrite(a, H5T_NATIVE_DOUBLE, &v);
  } else if (!strcmp(kind, "int")) {
    int v = atoi(value);
    a = H5Acreate2(o, name, H5T_STD_I32LE, s, H5P_DEFAULT, H5P_DEFAULT);
    w = H5Awrite(a, H5T_NATIVE_INT, &v);
  } else {
    t = H5Tcopy(H5T_C_S1);
    H5Tset_size(t, strlen(value) + 1);
    a = H5Acreate2(o, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
    w = H5Awrite(a, t, value);
    H5Tclose(t);
  }
  if (a < 0 || w < 0) return die("cannot write the attribute");
  H5Aclose(a);
  H5Sclose(s);
  H5Oclose(o);
  return 0;
}

static int delete_attr(hid_t f, const char *obj, const char *name) {
  hid_t o = H5Oopen(f, obj, H5P_DEFAULT);
  if (o < 0) return die("cannot open the object");
  if (H5Adelete(o, name) < 0) return die("cannot delete the attribute");
  H5Oclose(o);
  return 0;
}

/* Sets element i of an int or double dataset to value, or swaps elements i
 * and j (swap). */
static int edit(hid_t f, const char *name, int is_double, long i, long j, double value, int swap) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return die("cannot open the dataset");
  hid_t s = H5Dget_space(d), t = is_double ? H5T_NATIVE_DOUBLE : H5T_NATIVE_INT;
  hssize_t n = H5Sget_simple_extent_npoints(s);
  if (n <= 0 || i < 0 || i >= n || (swap && (j < 0 || j >= n))) return die("index out of range");
  const size_t size = is_double ? sizeof(double) : sizeof(int);
  char *buf = malloc(size * (size_t)n), tmp[sizeof(double)];
  if (!buf || H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
    return die("cannot read the dataset");
  if (swap) {
    memcpy(tmp, buf + size * (size_t)i, size);
    memcpy(buf + size * (size_t)i, buf + size * (size_t)j, size);
    memcpy(buf + size * (size_t)j, tmp, size);
  } else if (is_double) {
    memcpy(buf + size * (size_t)i, &value, size);
  } else {
    const int v = (int)value;
    memcpy(buf + size * (size_t)i, &v, size);
  }
  if (H5Dwrite(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
    return die("cannot write the dataset");
  free(buf);
  H5Sclose(s);
  H5Dclose(d);
  return 0;
}

/* Copies attribute name of src onto the object dst (H5Aiterate2's callback). */
static herr_t copy_attr(hid_t src, const char *name, const H5A_info_t *info, void *dst) {
  (void)info;
  hid_t a = H5Aopen(src, name, H5P_DEFAULT);
  hid_t t = H5Aget_type(a), s = H5Aget_space(a);
  size_t n = (size_t)H5Sget_simple_extent_npoints(s) * H5Tget_size(t);
  char *buf = malloc(n ? n : 1);
  hid_t b = H5Acreate2(*(hid_t *)dst, name, t, s, H5P_DEFAULT, H5P_DEFAULT);
  herr_t rc =
      buf && a >= 0 && b >= 0 && H5Aread(a, t, buf) >= 0 && H5Awrite(b, t, buf) >= 0 ? 0 : -1;
  free(buf);
  H5Aclose(b);
  H5Sclose(s);
  H5Tclose(t);
  H5Aclose(a);
  return rc;
}

/* Replaces dataset name by one of 0 rows, with its columns, type and attributes. */
static int empty(hid_t f, const char *name) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) return die("cannot open the dataset");
  hid_t s = H5Dget_space(d), t = H5Dget_type(d);
  hsize_t dims[2] = {0, 1};
  int rank = H5Sget_simple_extent_ndims(s);
  if (rank < 1 || rank > 2 || H5Sget_simple_extent_dims(s, dims, NULL) < 0)
    return die("not a dataset of rows");
  dims[0] = 0;
  hid_t s0 = H5Screate_simple(rank, dims, NULL);
  hid_t e = H5Dcreate2(f, "tamper_h5_empty", t, s0, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (e < 0 || H5Aiterate2(d, H5_INDEX_NAME, H5_ITER_INC, NULL, copy_attr, &e) < 0)
    return die("cannot make the empty dataset");
  H5Dclose(e);
  H5Sclose(s0);
  H5Tclose(t);
  H5Sclose(s);
  H5Dclose(d);
  if (H5Ldelete(f, name, H5P_DEFAULT) < 0 ||
      H5Lmove(f, "tamper_h5_empty", f, name, H5P_DEFAULT, H5P_DEFAULT) < 0)
    return die("cannot put the empty dataset in place");
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 4) return die("usage: see the source");
  hid_t f = H5Fopen(argv[1], H5F_ACC_RDWR, H5P_DEFAULT);
  if (f < 0) return die("cannot open the file");
  int rc;
  if (!strcmp(argv[2], "attr") && argc == 7)
    rc = set_attr(f, argv[3], argv[4], argv[5], argv[6]);
  else if (!strcmp(argv[2], "delattr") && argc == 5)
    rc = delete_attr(f, argv[3], argv[4]);
  else if (!strcmp(argv[2], "double") && argc == 6)
    rc = edit(f, argv[3], 1, atol(argv[4]), 0, strtod(argv[5], NULL), 0);
  else if (!strcmp(argv[2], "int") && argc == 6)
    rc = edit(f, argv[3], 0, atol(argv[4]), 0, atoi(argv[5]), 0);
  else if (!strcmp(argv[2], "swap") && argc == 6)
    rc = edit(f, argv[3], 0, atol(argv[4]), atol(argv[5]), 0, 1);
  else if (!strcmp(argv[2], "empty") && argc == 4)
    rc = empty(f, argv[3]);
  else
    rc = die("usage: see the source");
  if (H5Fclose(f) < 0) return die("cannot close the file");
  return rc;
}
