/*
 * op_hdf5.c - OP2 sets, maps, dats and constants in HDF5 files (op_hdf5.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "op_hdf5_impl.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "op2_renumber.h"
/* op_num_sets/op_set_at, ...: the core's registry (op2/core/op_decl.h). */
#include "op_decl.h"
#include "op_dist.h"
#include "op_text.h"

/* ---- basics ------------------------------------------------------------------- */

void op_h5_quiet(void) {
  /* Our messages replace HDF5's automatic stack dump. Failing to switch it off
   * only means HDF5 also prints its own stack, so the result is not fatal. */
  if (H5Eset_auto2(H5E_DEFAULT, NULL, NULL) < 0)
    fprintf(stderr, "op2-io: warning: cannot silence HDF5 error printing\n");
}

op_io_ctx op_h5_ctx(char *err, size_t errlen, const char *file) {
  op_io_ctx c;
  c.err = err;
  c.errlen = errlen;
  c.kind = "HDF5 file";
  c.file = file;
  c.what = NULL;
  c.object = NULL;
  return c;
}

static op_io_ctx with_object(const op_io_ctx *c, const char *what, const char *object) {
  op_io_ctx d = *c;
  d.what = what;
  d.object = object;
  return d;
}

static hid_t mem_type(op_type t) {
  switch (t) {
  case OP_TYPE_DOUBLE: return H5T_NATIVE_DOUBLE;
  case OP_TYPE_FLOAT: return H5T_NATIVE_FLOAT;
  case OP_TYPE_INT: return H5T_NATIVE_INT;
  }
  return -1;
}

static hid_t file_type(op_type t) {
  switch (t) {
  case OP_TYPE_DOUBLE: return H5T_IEEE_F64LE;
  case OP_TYPE_FLOAT: return H5T_IEEE_F32LE;
  case OP_TYPE_INT: return H5T_STD_I32LE;
  }
  return -1;
}

static int is_hdf5(const char *file) {
#if H5_VERSION_GE(1, 12, 0)
  return (int)H5Fis_accessible(file, H5P_DEFAULT);
#else
  return (int)H5Fis_hdf5(file);
#endif
}

/* ---- files ---------------------------------------------------------------------- */

static int open_existing(const op_io_ctx *c, unsigned flags, hid_t *out) {
  /* A directory or a named pipe is named as such (HDF5 would call it
   * unreadable, or wait for a writer). */
  struct stat st;
  const char *kind;
  if (stat(c->file, &st) == 0 && (kind = op_text_file_kind(st.st_mode)) != NULL)
    return OP_IO_ERR(c, OP_IO_ENOFILE, "is %s, not a file", kind);
  int is = is_hdf5(c->file);
  if (is < 0)
    return OP_IO_ERR(c, OP_IO_ENOFILE, "cannot read the file (permissions?)");
  if (is == 0)
    return OP_IO_ERR(c, OP_IO_EFORMAT, "not an HDF5 file");
  hid_t f = H5Fopen(c->file, flags, H5P_DEFAULT);
  if (f < 0)
    return OP_IO_ERR(c, OP_IO_EFORMAT, "cannot open%s: truncated or corrupt HDF5 file?",
                     flags == H5F_ACC_RDWR ? " for writing" : "");
  *out = f;
  return OP_IO_OK;
}

int op_h5_open_read(const op_io_ctx *c, hid_t *out) {
  op_h5_quiet();
  if (!c->file || !c->file[0])
    return OP_IO_ERR(c, OP_IO_EARG, "no file name given");
  if (!op_io_path_exists(c->file))
    return OP_IO_ERR(c, OP_IO_ENOFILE, "file does not exist");
  return open_existing(c, H5F_ACC_RDONLY, out);
}

int op_h5_open_write(const op_io_ctx *c, hid_t *out) {
  op_h5_quiet();
  if (!c->file || !c->file[0])
    return OP_IO_ERR(c, OP_IO_EARG, "no file name given");
  if (op_io_path_exists(c->file))
    return open_existing(c, H5F_ACC_RDWR, out);
  hid_t f = H5Fcreate(c->file, H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0)
    return OP_IO_ERR(c, OP_IO_ENOFILE, "cannot create the file (missing directory? permissions?)");
  *out = f;
  return OP_IO_OK;
}

int op_h5_create(const op_io_ctx *c, const char *path, hid_t *out) {
  op_h5_quiet();
  hid_t f = H5Fcreate(path, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0)
    return OP_IO_ERR(c, OP_IO_ENOFILE, "cannot create '%s' (missing directory? permissions?)",
                     path);
  *out = f;
  return OP_IO_OK;
}

hid_t op_h5_untimed(hid_t cls) {
  hid_t p = H5Pcreate(cls);
  if (p >= 0 && H5Pset_obj_track_times(p, 0) < 0) {
    H5Pclose(p);
    return -1;
  }
  return p;
}

int op_h5_close(const op_io_ctx *c, hid_t f) {
  if (H5Fclose(f) < 0)
    return OP_IO_ERR(c, OP_IO_EIO, "closing the file failed (data may be incomplete)");
  return OP_IO_OK;
}

/* Keeps the first error of a sequence. */
static int keep(int rc, int rc2) { return rc != OP_IO_OK ? rc : rc2; }

/* Closes an HDF5 object when it is open (id >= 0) with its close call,
 * close_fn (H5Dclose, H5Sclose, ...), keeping the first error of the
 * sequence: rc, else the failed close of what ("a dataspace", "the dataset"). */
static int close_kept(const op_io_ctx *c, int rc, herr_t (*close_fn)(hid_t), hid_t id,
                      const char *what) {
  if (id >= 0 && close_fn(id) < 0) rc = keep(rc, OP_IO_ERR(c, OP_IO_EIO, "cannot close %s", what));
  return rc;
}

/* One call of the API on dataset `name` of a file: c speaks of the file, co of
 * the dataset in it, and f is the file once opened. */
typedef struct {
  op_io_ctx c, co;
  hid_t f;
} h5_call;

static h5_call call_on(op_io_ctx file, const char *name) {
  h5_call k = {file, with_object(&file, "dataset", name), -1};
  return k;
}

/* Opens the file to read. */
static int call_read(h5_call *k) { return op_h5_open_read(&k->co, &k->f); }

/* Checks the dataset's name, then opens the file to write (created when absent). */
static int call_write(h5_call *k) {
  int rc = op_h5_check_name(&k->co, k->co.object);
  return rc != OP_IO_OK ? rc : op_h5_open_write(&k->co, &k->f);
}

/* Closes the file: rc, or the close's error when rc is none. */
static int call_end(h5_call *k, int rc) { return keep(rc, op_h5_close(&k->co, k->f)); }

/* The element type the caller names, or the error that names it. */
static int call_type(const h5_call *k, const char *type, op_type *t) {
  if (op_io_parse_type(type, t) != 0)
    return OP_IO_ERR(&k->co, OP_IO_EARG, "unknown type '%s' (double, float or int)",
                     type ? type : "(null)");
  return OP_IO_OK;
}

/* ---- names ---------------------------------------------------------------------------- */

int op_h5_check_name(const op_io_ctx *c, const char *name) {
  if (!name || !name[0])
    return OP_IO_ERR(c, OP_IO_EARG, "empty dataset name");
  const char *p = name[0] == '/' ? name + 1 : name;
  size_t n = strlen(p);
  if (n == 0 || p[n - 1] == '/' || strstr(p, "//") || p[0] == '/')
    return OP_IO_ERR(c, OP_IO_EARG, "invalid dataset name (empty component or trailing '/')");
  return OP_IO_OK;
}

static int object_kind(const op_io_ctx *c, hid_t f, const char *path, H5I_type_t *kind) {
  hid_t o = H5Oopen(f, path, H5P_DEFAULT);
  if (o < 0)
    return OP_IO_ERR(c, OP_IO_EFORMAT, "cannot open object '%s'", path);
  H5I_type_t k = H5Iget_type(o);
  if (H5Oclose(o) < 0)
    return OP_IO_ERR(c, OP_IO_EIO, "cannot close object '%s'", path);
  if (k == H5I_BADID)
    return OP_IO_ERR(c, OP_IO_EFORMAT, "cannot determine the kind of object '%s'", path);
  *kind = k;
  return OP_IO_OK;
}

int op_h5_dataset_exists(const op_io_ctx *c, hid_t f, const char *name) {
  int rc = op_h5_check_name(c, name);
  if (rc != OP_IO_OK)
    return rc;
  size_t n = strlen(name);
  char *path = malloc(n + 1);
  if (!path)
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
  memcpy(path, name, n + 1);
  /* Walk the intermediate groups: H5Lexists needs every parent to exist. */
  for (size_t i = 1; i <= n; ++i) {
    if (i < n && path[i] != '/')
      continue;
    char saved = path[i];
    path[i] = '\0';
    htri_t e = H5Lexists(f, path, H5P_DEFAULT);
    if (e < 0) {
      rc = OP_IO_ERR(c, OP_IO_EFORMAT, "cannot look up '%s'", path);
      free(path);
      return rc;
    }
    if (e == 0) {
      free(path);
      return 0;
    }
    H5I_type_t kind = H5I_BADID;
    rc = object_kind(c, f, path, &kind);
    if (rc != OP_IO_OK) {
      free(path);
      return rc;
    }
    if (i < n && kind != H5I_GROUP) {
      rc = OP_IO_ERR(c, OP_IO_EFORMAT, "'%s' exists but is not a group", path);
      free(path);
      return rc;
    }
    if (i == n && kind != H5I_DATASET) {
      rc = OP_IO_ERR(c, OP_IO_EFORMAT, "exists but is not a dataset");
      free(path);
      return rc;
    }
    path[i] = saved;
  }
  free(path);
  return 1;
}

/* ---- datasets --------------------------------------------------------------------------- */

static void describe_type(hid_t t, op_hdf5_info *info) {
  info->type_known = 0;
  info->type = OP_TYPE_DOUBLE;
  H5T_class_t cl = H5Tget_class(t);
  size_t sz = H5Tget_size(t);
  if (cl == H5T_FLOAT && sz == 8) {
    info->type_known = 1;
    info->type = OP_TYPE_DOUBLE;
  } else if (cl == H5T_FLOAT && sz == 4) {
    info->type_known = 1;
    info->type = OP_TYPE_FLOAT;
  } else if (cl == H5T_INTEGER && sz == 4 && H5Tget_sign(t) == H5T_SGN_2) {
    info->type_known = 1;
    info->type = OP_TYPE_INT;
  }
  if (info->type_known) {
    snprintf(info->type_name, sizeof info->type_name, "%s", op_io_type_name(info->type));
    return;
  }
  const char *cls = cl == H5T_INTEGER ? "integer"
                    : cl == H5T_FLOAT ? "float"
                    : cl == H5T_STRING ? "string"
                    : cl == H5T_COMPOUND ? "compound"
                    : cl == H5T_ENUM ? "enum"
                    : cl == H5T_ARRAY ? "array"
                                       : "other";
  if (cl == H5T_INTEGER && H5Tget_sign(t) == H5T_SGN_NONE)
    snprintf(info->type_name, sizeof info->type_name, "unsigned integer(%zu bytes)", sz);
  else
    snprintf(info->type_name, sizeof info->type_name, "%s(%zu bytes)", cls, sz);
}

int op_h5_query(const op_io_ctx *c0, hid_t f, const char *name, op_hdf5_info *info) {
  op_io_ctx c = with_object(c0, "dataset", name);
  int e = op_h5_dataset_exists(&c, f, name);
  if (e < 0)
    return e;
  if (e == 0)
    return OP_IO_ERR(&c, OP_IO_ENOENT, "dataset does not exist");
  int rc = OP_IO_OK;
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0)
    return OP_IO_ERR(&c, OP_IO_EFORMAT, "cannot open the dataset");
  hid_t s = H5Dget_space(d);
  hid_t t = s < 0 ? -1 : H5Dget_type(d);
  if (s < 0 || t < 0) {
    rc = OP_IO_ERR(&c, OP_IO_EFORMAT, "cannot read the dataset's %s", s < 0 ? "shape" : "type");
  } else {
    hsize_t dims[H5S_MAX_RANK];
    int rank = H5Sget_simple_extent_ndims(s);
    if (rank < 0 || rank > H5S_MAX_RANK || H5Sget_simple_extent_dims(s, dims, NULL) < 0) {
      rc = OP_IO_ERR(&c, OP_IO_EFORMAT, "cannot read the dataset's shape");
    } else {
      /* Sizes come from the file: an OP2 set, and a row of a dat or map,
       * hold at most INT_MAX elements. Checked before any product is formed. */
      info->rank = rank;
      info->rows = 1;
      info->cols = 1;
      for (int i = 0; i < rank && rc == OP_IO_OK; ++i) {
        long long cap = i == 0 || info->cols == 0 ? INT_MAX : INT_MAX / info->cols;
        if (dims[i] > (hsize_t)cap)
          rc = OP_IO_ERR(&c, OP_IO_ESHAPE,
                         "dimension %d of the dataset is %llu: more than OP2 can hold (%d "
                         "elements per set, %d values per element)",
                         i, (unsigned long long)dims[i], INT_MAX, INT_MAX);
        else if (i == 0)
          info->rows = (long long)dims[0];
        else
          info->cols *= (long long)dims[i];
      }
      describe_type(t, info);
    }
  }
  rc = close_kept(&c, rc, H5Tclose, t, "a datatype");
  rc = close_kept(&c, rc, H5Sclose, s, "a dataspace");
  rc = close_kept(&c, rc, H5Dclose, d, "the dataset");
  return rc;
}

static void shape_str(const op_hdf5_info *i, char *buf, size_t n) {
  if (i->rank == 0)
    snprintf(buf, n, "scalar");
  else if (i->rank == 1)
    snprintf(buf, n, "[%lld]", i->rows);
  else if (i->rank == 2)
    snprintf(buf, n, "[%lld x %lld]", i->rows, i->cols);
  else
    snprintf(buf, n, "rank %d ([%lld x ...])", i->rank, i->rows);
}

int op_h5_read(const op_io_ctx *c0, hid_t f, const char *name, op_type type, long long rows,
               long long cols, int shape_rule, void *buf) {
  op_io_ctx c = with_object(c0, "dataset", name);
  op_hdf5_info info;
  int rc = op_h5_query(c0, f, name, &info);
  if (rc != OP_IO_OK)
    return rc;
  if (!info.type_known || info.type != type)
    return OP_IO_ERR(&c, OP_IO_ETYPE, "stored type is '%s', requested '%s'", info.type_name,
                     op_io_type_name(type));
  int ok;
  if (shape_rule == OP_H5_SHAPE_FLAT)
    ok = info.rows * info.cols == rows * cols;
  else
    ok = (info.rank == 2 && info.rows == rows && info.cols == cols) ||
         (info.rank == 1 && cols == 1 && info.rows == rows) ||
         (info.rank == 0 && rows == 1 && cols == 1);
  if (!ok) {
    char s[64];
    shape_str(&info, s, sizeof s);
    if (shape_rule == OP_H5_SHAPE_FLAT)
      return OP_IO_ERR(&c, OP_IO_ESHAPE, "shape is %s, expected %lld element(s)", s, rows * cols);
    return OP_IO_ERR(&c, OP_IO_ESHAPE, "shape is %s, expected [%lld x %lld]", s, rows, cols);
  }
  if (rows * cols == 0)
    return OP_IO_OK;
  if (!buf)
    return OP_IO_ERR(&c, OP_IO_EARG, "no buffer to read into");
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0)
    return OP_IO_ERR(&c, OP_IO_EFORMAT, "cannot open the dataset");
  if (H5Dread(d, mem_type(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
    rc = OP_IO_ERR(&c, OP_IO_EIO, "reading the data failed (truncated or corrupt file?)");
  rc = close_kept(&c, rc, H5Dclose, d, "the dataset");
  return rc;
}

/* ---- attributes ------------------------------------------------------------------------ */

static int drop_attr(const op_io_ctx *c, hid_t obj, const char *attr) {
  htri_t e = H5Aexists(obj, attr);
  if (e < 0)
    return OP_IO_ERR(c, OP_IO_EFORMAT, "cannot look up attribute '%s'", attr);
  if (e > 0 && H5Adelete(obj, attr) < 0)
    return OP_IO_ERR(c, OP_IO_EIO, "cannot replace attribute '%s'", attr);
  return OP_IO_OK;
}

static int write_attr(const op_io_ctx *c, hid_t obj, const char *attr, hid_t ftype, hid_t mtype,
                      const void *value) {
  int rc = drop_attr(c, obj, attr);
  if (rc != OP_IO_OK)
    return rc;
  /* OP2's shapes: a string in a scalar dataspace, a number in an array of
   * one (OP2-Common's readers of "dim" and "size" expect both). */
  const hsize_t one = 1;
  hid_t s =
      H5Tget_class(ftype) == H5T_STRING ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &one, NULL);
  if (s < 0)
    return OP_IO_ERR(c, OP_IO_EIO, "cannot create a dataspace for attribute '%s'", attr);
  hid_t a = H5Acreate2(obj, attr, ftype, s, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0) {
    rc = OP_IO_ERR(c, OP_IO_EIO, "cannot create attribute '%s'", attr);
  } else {
    if (H5Awrite(a, mtype, value) < 0)
      rc = OP_IO_ERR(c, OP_IO_EIO, "cannot write attribute '%s'", attr);
    if (H5Aclose(a) < 0)
      rc = keep(rc, OP_IO_ERR(c, OP_IO_EIO, "cannot close attribute '%s'", attr));
  }
  rc = close_kept(c, rc, H5Sclose, s, "a dataspace");
  return rc;
}

int op_h5_set_attr_str(const op_io_ctx *c0, hid_t obj, const char *objname, const char *attr,
                       const char *value) {
  op_io_ctx c = with_object(c0, "object", objname);
  hid_t t = H5Tcopy(H5T_C_S1);
  if (t < 0)
    return OP_IO_ERR(&c, OP_IO_EIO, "cannot create a string type");
  int rc = OP_IO_OK;
  if (H5Tset_size(t, strlen(value) + 1) < 0 || H5Tset_strpad(t, H5T_STR_NULLTERM) < 0)
    rc = OP_IO_ERR(&c, OP_IO_EIO, "cannot set up a string type");
  else
    rc = write_attr(&c, obj, attr, t, t, value);
  rc = close_kept(&c, rc, H5Tclose, t, "a string type");
  return rc;
}

int op_h5_set_attr_int(const op_io_ctx *c0, hid_t obj, const char *objname, const char *attr,
                       int value) {
  op_io_ctx c = with_object(c0, "object", objname);
  return write_attr(&c, obj, attr, H5T_STD_I32LE, H5T_NATIVE_INT, &value);
}

int op_h5_set_attr_double(const op_io_ctx *c0, hid_t obj, const char *objname, const char *attr,
                          double value) {
  op_io_ctx c = with_object(c0, "object", objname);
  return write_attr(&c, obj, attr, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, &value);
}

/* Opens attribute attr of obj (objname in messages; c names the attribute):
 * 1 with *a open, 0 when obj has no such attribute, or the error. */
static int open_attr(const op_io_ctx *c, hid_t obj, const char *objname, const char *attr,
                     hid_t *a) {
  htri_t e = H5Aexists(obj, attr);
  if (e < 0) return OP_IO_ERR(c, OP_IO_EFORMAT, "cannot look up the attribute on '%s'", objname);
  if (e == 0) return 0;
  *a = H5Aopen(obj, attr, H5P_DEFAULT);
  if (*a < 0) return OP_IO_ERR(c, OP_IO_EFORMAT, "cannot open the attribute on '%s'", objname);
  return 1;
}

int op_h5_get_attr_double(const op_io_ctx *c0, hid_t obj, const char *objname, const char *attr,
                          double *value) {
  op_io_ctx c = with_object(c0, "attribute", attr);
  hid_t a = -1;
  int rc = open_attr(&c, obj, objname, attr, &a);
  if (rc < 0) return rc;
  if (rc == 0) return OP_IO_ERR(&c, OP_IO_ENOENT, "attribute missing on '%s'", objname);
  rc = OP_IO_OK;
  hid_t s = H5Aget_space(a);
  hid_t t = s < 0 ? -1 : H5Aget_type(a);
  if (s < 0 || t < 0) {
    rc = OP_IO_ERR(&c, OP_IO_EFORMAT, "cannot inspect the attribute");
  } else {
    hssize_t n = H5Sget_simple_extent_npoints(s);
    H5T_class_t cl = H5Tget_class(t);
    if (n != 1)
      rc = OP_IO_ERR(&c, OP_IO_ESHAPE, "attribute holds %lld values, expected 1", (long long)n);
    else if (cl != H5T_FLOAT && cl != H5T_INTEGER)
      rc = OP_IO_ERR(&c, OP_IO_ETYPE, "attribute is not numeric");
    else if (H5Aread(a, H5T_NATIVE_DOUBLE, value) < 0)
      rc = OP_IO_ERR(&c, OP_IO_EIO, "cannot read the attribute");
  }
  rc = close_kept(&c, rc, H5Tclose, t, "a datatype");
  rc = close_kept(&c, rc, H5Sclose, s, "a dataspace");
  rc = close_kept(&c, rc, H5Aclose, a, "the attribute");
  return rc;
}

int op_h5_get_attr_str(const op_io_ctx *c0, hid_t obj, const char *objname, const char *attr,
                       char *buf, size_t len, int *found) {
  op_io_ctx c = with_object(c0, "attribute", attr);
  *found = 0;
  if (len == 0)
    return OP_IO_ERR(&c, OP_IO_EARG, "no room for the attribute value");
  buf[0] = '\0';
  hid_t a = -1;
  int rc = open_attr(&c, obj, objname, attr, &a);
  if (rc <= 0) return rc; /* an error, or no such attribute: OP_IO_OK, *found 0 */
  rc = OP_IO_OK;
  hid_t t = H5Aget_type(a);
  if (t < 0 || H5Tget_class(t) != H5T_STRING) {
    rc = OP_IO_ERR(&c, OP_IO_ETYPE, "attribute on '%s' is not a string", objname);
  } else {
    htri_t vl = H5Tis_variable_str(t);
    hid_t mt = H5Tcopy(H5T_C_S1);
    if (vl < 0 || mt < 0) {
      rc = OP_IO_ERR(&c, OP_IO_EIO, "cannot inspect the attribute's string type");
    } else if (vl > 0) {
      char *s = NULL;
      if (H5Tset_size(mt, H5T_VARIABLE) < 0 || H5Aread(a, mt, &s) < 0) {
        rc = OP_IO_ERR(&c, OP_IO_EIO, "cannot read the attribute");
      } else {
        snprintf(buf, len, "%s", s ? s : "");
        *found = 1;
        if (s && H5free_memory(s) < 0)
          rc = OP_IO_ERR(&c, OP_IO_EIO, "cannot free an HDF5 string");
      }
    } else {
      size_t sz = H5Tget_size(t);
      char *s = malloc(sz + 1);
      if (!s) {
        rc = OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
      } else {
        if (sz == 0 || H5Tset_size(mt, sz) < 0 || H5Aread(a, mt, s) < 0) {
          rc = OP_IO_ERR(&c, OP_IO_EIO, "cannot read the attribute");
        } else {
          s[sz] = '\0';
          snprintf(buf, len, "%s", s);
          *found = 1;
        }
        free(s);
      }
    }
    rc = close_kept(&c, rc, H5Tclose, mt, "a datatype");
  }
  rc = close_kept(&c, rc, H5Tclose, t, "a datatype");
  rc = close_kept(&c, rc, H5Aclose, a, "the attribute");
  return rc;
}

/* ---- writing ---------------------------------------------------------------------------- */

/* Attributes as OP2 writes them: size (size_attr >= 0: a map's from-set
 * size, a dat's bytes per element), dim (dim_attr >= 0) and type, and the
 * suite's own strings (which OP2's readers ignore). */
static int write_impl(const op_io_ctx *c0, hid_t f, const char *name, op_type type, int rank,
                      long long rows, long long cols, const void *buf, int size_attr, int dim_attr,
                      int replace, int nattr, const char *const *attr_names,
                      const char *const *attr_values) {
  op_io_ctx c = with_object(c0, "dataset", name);
  if (rank < 1 || rank > 2 || rows < 0 || cols < 0 || (rank == 1 && cols != 1))
    return OP_IO_ERR(&c, OP_IO_EARG, "invalid shape (rank %d, %lld x %lld)", rank, rows, cols);
  if (rows * cols > 0 && !buf)
    return OP_IO_ERR(&c, OP_IO_EARG, "no data to write");
  int e = op_h5_dataset_exists(&c, f, name);
  if (e < 0)
    return e;
  hid_t d = -1;
  int rc = OP_IO_OK;
  if (e > 0) {
    if (!replace)
      return OP_IO_ERR(&c, OP_IO_EARG, "name already used in this file (two objects named alike?)");
    op_hdf5_info info;
    rc = op_h5_query(c0, f, name, &info);
    if (rc != OP_IO_OK)
      return rc;
    if (info.type_known && info.type == type && info.rank == rank && info.rows == rows &&
        info.cols == cols) {
      d = H5Dopen2(f, name, H5P_DEFAULT); /* same type and shape: overwrite in place */
      if (d < 0)
        return OP_IO_ERR(&c, OP_IO_EFORMAT, "cannot open the dataset to overwrite it");
    } else if (H5Ldelete(f, name, H5P_DEFAULT) < 0) {
      return OP_IO_ERR(&c, OP_IO_EIO, "cannot remove the old dataset to replace it");
    }
  }
  if (d < 0) {
    hsize_t dims[2] = {(hsize_t)rows, (hsize_t)cols};
    hid_t s = H5Screate_simple(rank, dims, NULL);
    if (s < 0)
      return OP_IO_ERR(&c, OP_IO_EIO, "cannot create a dataspace");
    hid_t lcpl = H5Pcreate(H5P_LINK_CREATE), dcpl = op_h5_untimed(H5P_DATASET_CREATE);
    if (lcpl < 0 || dcpl < 0 || H5Pset_create_intermediate_group(lcpl, 1) < 0) {
      rc = OP_IO_ERR(&c, OP_IO_EIO, "cannot set up group creation");
    } else {
      d = H5Dcreate2(f, name, file_type(type), s, lcpl, dcpl, H5P_DEFAULT);
      if (d < 0)
        rc = OP_IO_ERR(&c, OP_IO_EIO, "cannot create the dataset");
    }
    rc = close_kept(&c, rc, H5Pclose, lcpl, "a property list");
    rc = close_kept(&c, rc, H5Pclose, dcpl, "a property list");
    rc = close_kept(&c, rc, H5Sclose, s, "a dataspace");
    if (rc != OP_IO_OK) {
      if (d >= 0)
        H5Dclose(d); /* already failing: the first error is the one reported */
      return rc;
    }
  }
  if (rows * cols > 0 && H5Dwrite(d, mem_type(type), H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0)
    rc = OP_IO_ERR(&c, OP_IO_EIO, "writing the data failed (disk full?)");
  if (rc == OP_IO_OK && size_attr >= 0) rc = op_h5_set_attr_int(&c, d, name, "size", size_attr);
  if (rc == OP_IO_OK && dim_attr >= 0)
    rc = op_h5_set_attr_int(&c, d, name, "dim", dim_attr);
  if (rc == OP_IO_OK)
    rc = op_h5_set_attr_str(&c, d, name, "type", op_io_type_name(type));
  for (int i = 0; rc == OP_IO_OK && i < nattr; ++i)
    rc = op_h5_set_attr_str(&c, d, name, attr_names[i], attr_values[i]);
  rc = close_kept(&c, rc, H5Dclose, d, "the dataset");
  return rc;
}

int op_h5_write(const op_io_ctx *c, hid_t f, const char *name, op_type type, int rank,
                long long rows, long long cols, const void *buf, int dim_attr, int replace) {
  return write_impl(c, f, name, type, rank, rows, cols, buf, -1, dim_attr, replace, 0, NULL, NULL);
}

int op_h5_write_set(const op_io_ctx *c, hid_t f, op_set set, int replace) {
  if (!set || !set->name)
    return OP_IO_ERR(c, OP_IO_EARG, "invalid set");
  int size = op_get_size(set);
  return write_impl(c, f, set->name, OP_TYPE_INT, 1, 1, 1, &size, -1, -1, replace, 0, NULL, NULL);
}

int op_h5_write_map(const op_io_ctx *c, hid_t f, op_map map, const int *entries, int replace) {
  if (!map || !map->name || !map->from || !map->to || map->dim < 1)
    return OP_IO_ERR(c, OP_IO_EARG, "invalid map");
  const char *names[2] = {"from", "to"};
  const char *vals[2] = {map->from->name ? map->from->name : "",
                         map->to->name ? map->to->name : ""};
  /* Rows and entries in the user's numbering: after op_renumber (one
   * process only) converted here; on many processes entries are global. */
  int *user = NULL;
  if (op_set_storage_ids(map->from) || op_set_user_ids(map->to)) {
    user = malloc(sizeof(int) * (size_t)map->from->size * (size_t)map->dim + 1);
    if (!user) return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory for map '%s'", map->name);
    op_map_to_user_order(map, user);
    entries = user;
  }
  const int rows = op_get_size(map->from);
  const int rc = write_impl(c, f, map->name, OP_TYPE_INT, 2, rows, map->dim, entries, rows,
                            map->dim, replace, 2, names, vals);
  free(user);
  return rc;
}

const void *op_h5_user_rows(op_dat dat, void **owned) {
  *owned = NULL;
  if (!op_set_storage_ids(dat->set)) return op_fetch_data_ptr(dat); /* host copy current */
  *owned = malloc((size_t)dat->set->size * (size_t)dat->size + 1);
  if (*owned) op_dat_to_user_order(dat, *owned);
  return *owned;
}

int op_h5_write_dat(const op_io_ctx *c, hid_t f, op_dat dat, const void *data, int replace) {
  return op_h5_write_dat_as(c, f, dat, data, dat ? dat->name : NULL, replace);
}

int op_h5_write_dat_as(const op_io_ctx *c, hid_t f, op_dat dat, const void *data,
                       const char *name, int replace) {
  if (!dat || !name || !dat->set || dat->dim < 1)
    return OP_IO_ERR(c, OP_IO_EARG, "invalid dat");
  /* In the user's order after op_renumber (one process only). */
  void *owned = NULL;
  if (op_set_storage_ids(dat->set)) {
    data = op_h5_user_rows(dat, &owned);
    if (!data) return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory for dat '%s'", dat->name);
  }
  const char *names[1] = {"set"};
  const char *vals[1] = {dat->set->name ? dat->set->name : ""};
  const int rc = write_impl(c, f, name, dat->type, 2, op_get_size(dat->set), dat->dim, data,
                            dat->size, dat->dim, replace, 1, names, vals);
  free(owned);
  return rc;
}

/* ---- reading dats ---------------------------------------------------------------------- */

static int check_dat_info(const op_io_ctx *c, const op_hdf5_info *info, op_set set, int dim,
                          op_type type) {
  if (!info->type_known || info->type != type)
    return OP_IO_ERR(c, OP_IO_ETYPE, "stored type is '%s', requested '%s'", info->type_name,
                     op_io_type_name(type));
  const int size = op_get_size(set);
  if (info->rank > 2 || (info->rank < 2 && dim != 1))
    return OP_IO_ERR(c, OP_IO_ESHAPE, "dataset has rank %d, expected [%d x %d]", info->rank,
                     size, dim);
  if (info->rows != size)
    return OP_IO_ERR(c, OP_IO_ESHAPE, "dataset has %lld rows, set '%s' has size %d", info->rows,
                     set->name ? set->name : "?", size);
  if (info->cols != dim)
    return OP_IO_ERR(c, OP_IO_ESHAPE, "dataset has %lld columns, expected dim %d", info->cols, dim);
  return OP_IO_OK;
}

int op_h5_check_dat(const op_io_ctx *c0, hid_t f, op_dat dat, const char *name) {
  op_io_ctx c = with_object(c0, "dataset", name);
  op_hdf5_info info;
  int rc = op_h5_query(c0, f, name, &info);
  if (rc == OP_IO_OK)
    rc = check_dat_info(&c, &info, dat->set, dat->dim, dat->type);
  return rc;
}

int op_h5_read_dat_rows(const op_io_ctx *c0, const char *file, op_dat dat, const char *name,
                        void *buf) {
  h5_call k = call_on(*c0, name);
  int rc = call_read(&k);
  if (rc != OP_IO_OK)
    return rc;
  rc = op_h5_check_dat(&k.c, k.f, dat, name);
  if (rc == OP_IO_OK && !op_dist)
    rc = op_h5_read(&k.c, k.f, name, dat->type, dat->set->size, dat->dim, OP_H5_SHAPE_2D, buf);
  rc = call_end(&k, rc);
  /* Many processes: the file checked here by each, then read collectively. */
  if (rc == OP_IO_OK && op_dist)
    rc = op_dist->read_dat_rows(file, name, dat, buf, k.co.err, k.co.errlen);
  return rc;
}

/* ---- public lower-level API ---------------------------------------------------------- */

int op_hdf5_dataset_exists(const char *file, const char *name, char *err, size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), name);
  int rc = call_read(&k);
  if (rc != OP_IO_OK)
    return rc;
  rc = op_h5_dataset_exists(&k.co, k.f, name); /* 1, 0, or an error */
  int rc2 = op_h5_close(&k.co, k.f);
  return rc < 0 ? rc : (rc2 != OP_IO_OK ? rc2 : rc);
}

int op_hdf5_query_dataset(const char *file, const char *name, op_hdf5_info *info, char *err,
                          size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), name);
  if (!info) return OP_IO_ERR(&k.co, OP_IO_EARG, "no info structure");
  int rc = call_read(&k);
  return rc != OP_IO_OK ? rc : call_end(&k, op_h5_query(&k.c, k.f, name, info));
}

int op_hdf5_read_dataset(const char *file, const char *name, const char *type, long long rows,
                         int cols, void *buf, char *err, size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), name);
  op_type t;
  int rc = call_type(&k, type, &t);
  if (rc != OP_IO_OK)
    return rc;
  if (rows < 0 || cols < 1)
    return OP_IO_ERR(&k.co, OP_IO_EARG, "invalid shape [%lld x %d]", rows, cols);
  rc = call_read(&k);
  return rc != OP_IO_OK
             ? rc
             : call_end(&k, op_h5_read(&k.c, k.f, name, t, rows, cols, OP_H5_SHAPE_2D, buf));
}

static int write_dataset(const char *file, const char *name, const char *type, long long rows,
                         int cols, const void *buf, char *err, size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), name);
  op_type t;
  int rc = call_type(&k, type, &t);
  if (rc == OP_IO_OK) rc = call_write(&k);
  return rc != OP_IO_OK
             ? rc
             : call_end(&k, op_h5_write(&k.c, k.f, name, t, 2, rows, cols, buf, cols, 1));
}

/* The root writes: buf is the same on every process (a constant, a table). */
int op_hdf5_write_dataset(const char *file, const char *name, const char *type, long long rows,
                          int cols, const void *buf, char *err, size_t errlen) {
  int rc = op_io_writer() ? write_dataset(file, name, type, rows, cols, buf, err, errlen) : OP_IO_OK;
  return op_io_shared(rc, err);
}

int op_hdf5_read_set_size(const char *file, const char *name, int *size, char *err,
                          size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), name);
  int rc = call_read(&k);
  if (rc != OP_IO_OK)
    return rc;
  int v = -1;
  rc = op_h5_read(&k.c, k.f, name, OP_TYPE_INT, 1, 1, OP_H5_SHAPE_FLAT, &v);
  if (rc == OP_IO_OK && v < 0) rc = OP_IO_ERR(&k.co, OP_IO_EFORMAT, "negative set size %d", v);
  if (rc == OP_IO_OK)
    *size = v;
  return call_end(&k, rc);
}

static int write_set(const char *file, op_set set, char *err, size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), set ? set->name : NULL);
  int rc = call_write(&k);
  return rc != OP_IO_OK ? rc : call_end(&k, op_h5_write_set(&k.c, k.f, set, 1));
}

int op_hdf5_write_set(const char *file, op_set set, char *err, size_t errlen) {
  int rc = op_io_writer() ? write_set(file, set, err, errlen) : OP_IO_OK;
  return op_io_shared(rc, err);
}

int op_hdf5_read_map(const char *file, const char *name, int from_size, int dim, int to_size,
                     int *buf, char *err, size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), name);
  if (from_size < 0 || dim < 1 || to_size < 0)
    return OP_IO_ERR(&k.co, OP_IO_EARG, "invalid map shape (from size %d, dim %d, to size %d)",
                     from_size, dim, to_size);
  int rc = call_read(&k);
  if (rc != OP_IO_OK)
    return rc;
  rc = call_end(&k, op_h5_read(&k.c, k.f, name, OP_TYPE_INT, from_size, dim, OP_H5_SHAPE_2D, buf));
  if (rc != OP_IO_OK)
    return rc;
  size_t n = (size_t)from_size * (size_t)dim;
  for (size_t i = 0; i < n; ++i)
    if (buf[i] < 0 || buf[i] >= to_size)
      return OP_IO_ERR(&k.co, OP_IO_ERANGE,
                       "map entry [%zu][%zu] = %d is outside [0, %d) (the target set size)",
                       i / (size_t)dim, i % (size_t)dim, buf[i], to_size);
  return OP_IO_OK;
}

static int write_map(const char *file, op_map map, const int *entries, char *err,
                     size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), map ? map->name : NULL);
  int rc = call_write(&k);
  return rc != OP_IO_OK ? rc : call_end(&k, op_h5_write_map(&k.c, k.f, map, entries, 1));
}

int op_hdf5_write_map(const char *file, op_map map, char *err, size_t errlen) {
  const int *entries = map ? op_fetch_map_global(map) : NULL; /* collective */
  int rc = op_io_writer() ? write_map(file, map, entries, err, errlen) : OP_IO_OK;
  return op_io_shared(rc, err);
}

int op_hdf5_read_dat(const char *file, op_dat dat, const char *name, char *err, size_t errlen) {
  if (!name)
    name = dat ? dat->name : NULL;
  h5_call k = call_on(op_h5_ctx(err, errlen, file), name);
  if (!dat || !dat->set) return OP_IO_ERR(&k.co, OP_IO_EARG, "invalid dat");
  int rc = op_h5_check_name(&k.co, name);
  if (rc != OP_IO_OK)
    return rc;
  /* Validated before the dat is touched, then read straight into its host
   * copy (the rows this process owns). */
  op_fetch_data_ptr(dat);
  rc = op_h5_read_dat_rows(&k.c, file, dat, name, dat->data);
  if (rc == OP_IO_OK)
    op_dat_user_rows_arrived(dat); /* the file's rows are in the user's numbering */
  return rc;
}

static int write_dat(const char *file, op_dat dat, const char *name, const void *data, char *err,
                     size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), name);
  int rc = call_write(&k);
  return rc != OP_IO_OK ? rc : call_end(&k, op_h5_write_dat_as(&k.c, k.f, dat, data, name, 1));
}

int op_hdf5_write_dat(const char *file, op_dat dat, char *err, size_t errlen) {
  return op_hdf5_write_dat_as(file, dat, dat ? dat->name : NULL, err, errlen);
}

int op_hdf5_write_dat_as(const char *file, op_dat dat, const char *name, char *err,
                         size_t errlen) {
  const void *data = dat ? op_fetch_data_global(dat) : NULL; /* collective */
  int rc = op_io_writer() ? write_dat(file, dat, name, data, err, errlen) : OP_IO_OK;
  return op_io_shared(rc, err);
}

/* A constant's type and dim as the caller gives them, and its buffer (what
 * the message calls it when NULL: "destination", "data"). */
static int const_args(const h5_call *k, const char *type, int dim, const void *data,
                      const char *buffer, op_type *t) {
  int rc = call_type(k, type, t);
  if (rc == OP_IO_OK && (dim < 1 || !data))
    rc = OP_IO_ERR(&k->co, OP_IO_EARG, "invalid dim %d or no %s", dim, buffer);
  return rc;
}

int op_hdf5_read_const(const char *file, const char *name, int dim, const char *type, void *data,
                       char *err, size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), name);
  op_type t;
  int rc = const_args(&k, type, dim, data, "destination", &t);
  if (rc == OP_IO_OK) rc = call_read(&k);
  return rc != OP_IO_OK
             ? rc
             : call_end(&k, op_h5_read(&k.c, k.f, name, t, dim, 1, OP_H5_SHAPE_FLAT, data));
}

static int write_const(const char *file, const char *name, int dim, const char *type,
                       const void *data, char *err, size_t errlen) {
  h5_call k = call_on(op_h5_ctx(err, errlen, file), name);
  op_type t;
  int rc = const_args(&k, type, dim, data, "data", &t);
  if (rc == OP_IO_OK) rc = call_write(&k);
  return rc != OP_IO_OK ? rc
                        : call_end(&k, op_h5_write(&k.c, k.f, name, t, 1, dim, 1, data, dim, 1));
}

int op_hdf5_write_const(const char *file, const char *name, int dim, const char *type,
                        const void *data, char *err, size_t errlen) {
  int rc = op_io_writer() ? write_const(file, name, dim, type, data, err, errlen) : OP_IO_OK;
  return op_io_shared(rc, err);
}

/* Every process takes part in each gathering; the root writes. */
/* The names of the objects a dump writes, each kind by its index. */
static const char *set_name_at(int i) { return op_set_at(i) ? op_set_at(i)->name : NULL; }
static const char *map_name_at(int i) { return op_map_at(i) ? op_map_at(i)->name : NULL; }
static const char *dat_name_at(int i) { return op_dat_at(i) ? op_dat_at(i)->name : NULL; }

/* OP2 lets two sets (maps, dats) share a name, but a file holds one dataset
 * of a name: the first is written, and the warning names both. */
static int named_before(const char *file, const char *kind, int i, const char *(*name_at)(int)) {
  const char *name = name_at(i);
  for (int j = 0; name && j < i; j++) {
    const char *other = name_at(j);
    if (!other || strcmp(other, name)) continue;
    if (op_io_writer())
      op_warn(
          "op_dump_to_hdf5(\"%s\"): %ss %d and %d (in the order declared) are both named "
          "\"%s\": the file holds the first, %s %d is not written",
          file, kind, j, i, name, kind, i);
    return 1;
  }
  return 0;
}

int op_hdf5_dump(const char *file, char *err, size_t errlen) {
  op_io_ctx c = op_h5_ctx(err, errlen, file);
  const int writer = op_io_writer();
  if (!file || !file[0])
    return OP_IO_ERR(&c, OP_IO_EARG, "no file name given");
  char *tmp = op_io_tmpname(file);
  if (!tmp)
    return OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory");
  hid_t f = -1;
  int rc = writer ? op_h5_create(&c, tmp, &f) : OP_IO_OK;
  const int created = writer && rc == OP_IO_OK;
  for (int i = 0, n = op_num_sets(); writer && rc == OP_IO_OK && i < n; ++i) {
    op_set s = op_set_at(i);
    if (s && !named_before(file, "set", i, set_name_at)) rc = op_h5_write_set(&c, f, s, 0);
  }
  for (int i = 0, n = op_num_maps(); i < n; ++i) {
    op_map m = op_map_at(i);
    const int *entries = m ? op_fetch_map_global(m) : NULL;
    if (m && writer && rc == OP_IO_OK && !named_before(file, "map", i, map_name_at))
      rc = op_h5_write_map(&c, f, m, entries, 0);
  }
  for (int i = 0, n = op_num_dats(); i < n; ++i) {
    op_dat d = op_dat_at(i);
    const void *data = d ? op_fetch_data_global(d) : NULL;
    if (d && writer && rc == OP_IO_OK && !named_before(file, "dat", i, dat_name_at))
      rc = op_h5_write_dat(&c, f, d, data, 0);
  }
  if (created)
    rc = keep(rc, op_h5_close(&c, f));
  if (writer && rc == OP_IO_OK)
    rc = op_io_commit(&c, tmp, file);
  else if (created && unlink(tmp) != 0)
    fprintf(stderr, "op2-io: warning: cannot remove '%s'\n", tmp);
  free(tmp);
  return op_io_shared(rc, err);
}

/* ---- OP2 API ------------------------------------------------------------------------ */

static void die(const char *func, const char *err) {
  char msg[OP_IO_ERRLEN + 64];
  snprintf(msg, sizeof msg, "%s: %s", func, err);
  op_io_die(msg);
}

int op_hdf5_decl_missing(const char *func, const char *file, const char *name) {
  char err[OP_IO_ERRLEN];
  const int e = op_hdf5_dataset_exists(file, name, err, sizeof err);
  /* On many processes the layer's reader reports a file it cannot read
   * (naming the rank, ending the job with the status of bad input). */
  if (e < 0 && op_dist) return 0;
  if (e < 0) die(func, err);
  if (e == 0)
    op_printf("%s: HDF5 file '%s' has no dataset '%s': nothing declared (NULL returned, as OP2 "
              "does)\n",
              func, file, name);
  return e == 0;
}

op_set op_decl_set_hdf5(const char *file, const char *name) {
  if (op_hdf5_decl_missing(__func__, file, name)) return NULL;
  /* Many processes: each reads its slice (op2/mpi). */
  if (op_dist) return op_dist->decl_set_hdf5(file, name);
  char err[OP_IO_ERRLEN];
  int size = 0;
  if (op_hdf5_read_set_size(file, name, &size, err, sizeof err) != OP_IO_OK)
    die(__func__, err);
  op_set s = op_decl_set(size, name);
  if (!s) {
    h5_call k = call_on(op_h5_ctx(err, sizeof err, file), name);
    OP_IO_ERR(&k.co, OP_IO_EARG, "op_decl_set failed");
    die(__func__, err);
  }
  return s;
}

op_set op_decl_set_hdf5_infer_size(const char *file, const char *name, const char *dataset) {
  if (op_hdf5_decl_missing(__func__, file, dataset)) return NULL;
  char err[OP_IO_ERRLEN];
  op_hdf5_info info;
  if (op_hdf5_query_dataset(file, dataset, &info, err, sizeof err) != OP_IO_OK) die(__func__, err);
  /* The rows of the dataset: the query refuses more than INT_MAX. */
  if (op_dist) return op_dist->decl_set_sliced((int)info.rows, name);
  op_set s = op_decl_set((int)info.rows, name);
  if (!s) {
    h5_call k = call_on(op_h5_ctx(err, sizeof err, file), dataset);
    OP_IO_ERR(&k.co, OP_IO_EARG, "op_decl_set failed");
    die(__func__, err);
  }
  return s;
}

op_map op_decl_map_hdf5(op_set from, op_set to, int dim, const char *file, const char *name) {
  if (op_hdf5_decl_missing(__func__, file, name)) return NULL;
  if (op_dist) return op_dist->decl_map_hdf5(from, to, dim, file, name);
  char err[OP_IO_ERRLEN];
  const op_io_ctx c = call_on(op_h5_ctx(err, sizeof err, file), name).co;
  if (!from || !to || dim < 1) {
    OP_IO_ERR(&c, OP_IO_EARG, "invalid from/to set or dim %d", dim);
    die(__func__, err);
  }
  size_t n = (size_t)from->size * (size_t)dim;
  int *buf = malloc((n ? n : 1) * sizeof(int));
  if (!buf) {
    OP_IO_ERR(&c, OP_IO_ENOMEM, "out of memory for %zu map entries", n);
    die(__func__, err);
  }
  /* With OP2's OP_MAPS_BASE_INDEX=1 the file numbers from 1: op_decl_map
   * shifts the entries and checks them again. */
  if (op_hdf5_read_map(file, name, from->size, dim, to->size + op_maps_base_index(), buf, err,
                       sizeof err) != OP_IO_OK)
    die(__func__, err);
  op_map m = op_decl_map(from, to, dim, buf, name);
  if (!m) {
    OP_IO_ERR(&c, OP_IO_EARG, "op_decl_map failed");
    die(__func__, err);
  }
  /* The entries were malloc'd here: hand them to the library, which frees
   * maps that are not user-owned at op_exit. If the core kept a copy instead,
   * ours is not needed any more. */
  if (m->map == buf)
    m->user_owned = 0;
  else
    free(buf);
  return m;
}

op_dat op_decl_dat_hdf5(op_set set, int dim, const char *type, const char *file,
                        const char *name) {
  if (op_hdf5_decl_missing(__func__, file, name)) return NULL;
  if (op_dist) return op_dist->decl_dat_hdf5(set, dim, type, file, name);
  char err[OP_IO_ERRLEN];
  h5_call k = call_on(op_h5_ctx(err, sizeof err, file), name);
  op_type t;
  if (!set || dim < 1) {
    OP_IO_ERR(&k.co, OP_IO_EARG, "invalid set or dim %d", dim);
    die(__func__, err);
  }
  if (call_type(&k, type, &t) != OP_IO_OK || op_h5_check_name(&k.co, name) != OP_IO_OK ||
      call_read(&k) != OP_IO_OK)
    die(__func__, err);
  /* Validate shape and type before declaring anything. */
  op_hdf5_info info;
  if (op_h5_query(&k.c, k.f, name, &info) != OP_IO_OK ||
      check_dat_info(&k.co, &info, set, dim, t) != OP_IO_OK)
    die(__func__, err);
  op_dat d = op_decl_dat_temp(set, dim, op_io_type_name(t), name);
  if (!d) {
    OP_IO_ERR(&k.co, OP_IO_EARG, "op_decl_dat_temp failed");
    die(__func__, err);
  }
  if (op_h5_read(&k.c, k.f, name, t, set->size, dim, OP_H5_SHAPE_2D, d->data) != OP_IO_OK ||
      call_end(&k, OP_IO_OK) != OP_IO_OK)
    die(__func__, err);
  op_dat_user_rows_arrived(d);
  return d;
}

void op_get_const_hdf5(const char *name, int dim, const char *type, char *const_data,
                       const char *file) {
  char err[OP_IO_ERRLEN];
  if (op_hdf5_read_const(file, name, dim, type, const_data, err, sizeof err) != OP_IO_OK)
    die(__func__, err);
}

void op_write_const_hdf5(const char *name, int dim, const char *type, char *const_data,
                         const char *file) {
  char err[OP_IO_ERRLEN];
  if (op_hdf5_write_const(file, name, dim, type, const_data, err, sizeof err) != OP_IO_OK)
    die(__func__, err);
}

void op_dump_to_hdf5(const char *file) {
  char err[OP_IO_ERRLEN];
  if (op_hdf5_dump(file, err, sizeof err) != OP_IO_OK)
    die(__func__, err);
}

void op_fetch_data_hdf5_file(op_dat dat, const char *file) {
  char err[OP_IO_ERRLEN];
  if (op_hdf5_write_dat(file, dat, err, sizeof err) != OP_IO_OK)
    die(__func__, err);
}

void op_fetch_data_hdf5_file_path(op_dat dat, const char *file, const char *path) {
  char err[OP_IO_ERRLEN];
  if (op_hdf5_write_dat_as(file, dat, path, err, sizeof err) != OP_IO_OK)
    die(__func__, err);
}
