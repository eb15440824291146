/*
 * h5field.c - listing and reading the datasets of an HDF5 file (h5field.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "h5field.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRC_FILE (strrchr(__FILE__, '/') ? strrchr(__FILE__, '/') + 1 : __FILE__)

static void report(const char *filename, const char *name, int line, const char *func,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void report(const char *filename, const char *name, int line, const char *func,
                   const char *fmt, ...)
{
  va_list ap;
  fprintf(stderr, "op2-compare: %s: ", filename);
  if (name)
    fprintf(stderr, "%s: ", name);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (%s:%d, %s)\n", SRC_FILE, line, func);
}

#define FAIL(filename, name, ...) report((filename), (name), __LINE__, __func__, __VA_ARGS__)

/* ---- listing ---------------------------------------------------------- */

typedef struct {
  dataset_list *list;
  int cap;
  const char *filename;
  int failed;
} visit_state;

static herr_t visit_link(hid_t group, const char *name, const H5L_info_t *info, void *data)
{
  visit_state *st = data;
  if (info->type != H5L_TYPE_HARD)
    return 0; /* soft and external links would count a dataset twice, or leave the file */
  hid_t obj = H5Oopen(group, name, H5P_DEFAULT);
  if (obj < 0) {
    FAIL(st->filename, name, "cannot open the object (H5Oopen failed)");
    st->failed = 1;
    return -1;
  }
  H5I_type_t type = H5Iget_type(obj);
  if (H5Oclose(obj) < 0) {
    FAIL(st->filename, name, "H5Oclose failed");
    st->failed = 1;
    return -1;
  }
  if (type != H5I_DATASET)
    return 0;
  dataset_list *l = st->list;
  if (l->n == st->cap) {
    int cap = st->cap ? 2 * st->cap : 16;
    char **names = realloc(l->names, (size_t)cap * sizeof *names);
    if (names == NULL) {
      FAIL(st->filename, name, "out of memory");
      st->failed = 1;
      return -1;
    }
    l->names = names;
    st->cap = cap;
  }
  size_t len = strlen(name);
  char *full = malloc(len + 2);
  if (full == NULL) {
    FAIL(st->filename, name, "out of memory");
    st->failed = 1;
    return -1;
  }
  full[0] = '/';
  memcpy(full + 1, name, len + 1);
  l->names[l->n++] = full;
  return 0;
}

static int by_name(const void *a, const void *b)
{
  return strcmp(*(char *const *)a, *(char *const *)b);
}

int list_datasets(hid_t file, const char *filename, dataset_list *out)
{
  visit_state st = {out, 0, filename, 0};
  out->names = NULL;
  out->n = 0;
  if (H5Lvisit(file, H5_INDEX_NAME, H5_ITER_INC, visit_link, &st) < 0) {
    if (!st.failed)
      FAIL(filename, NULL, "cannot list the datasets (H5Lvisit failed)");
    free_dataset_list(out);
    return -1;
  }
  if (out->n > 1)
    qsort(out->names, (size_t)out->n, sizeof *out->names, by_name);
  return 0;
}

void free_dataset_list(dataset_list *l)
{
  for (int i = 0; i < l->n; i++)
    free(l->names[i]);
  free(l->names);
  l->names = NULL;
  l->n = 0;
}

/* ---- one dataset ------------------------------------------------------ */

/* Chooses how to read and compare elements of file type t. */
static int classify(field *f)
{
  hid_t t = f->ftype;
  H5T_class_t cls = H5Tget_class(t);
  size_t size = H5Tget_size(t);
  if (cls == H5T_NO_CLASS || size == 0) {
    FAIL(f->filename, f->name, "cannot query the element type");
    return -1;
  }
  f->mtype = H5I_INVALID_HID;
  switch (cls) {
  case H5T_FLOAT:
    f->kind = FIELD_REAL;
    if (size == 4) {
      f->mtype = H5Tcopy(H5T_NATIVE_FLOAT);
      snprintf(f->type_name, sizeof f->type_name, "float");
    } else {
      /* Doubles, and the rarer sizes (half, long double) converted to double. */
      f->mtype = H5Tcopy(H5T_NATIVE_DOUBLE);
      if (size == 8)
        snprintf(f->type_name, sizeof f->type_name, "double");
      else
        snprintf(f->type_name, sizeof f->type_name, "float%zu", 8 * size);
    }
    break;
  case H5T_INTEGER: {
    H5T_sign_t sign = H5Tget_sign(t);
    if (sign == H5T_SGN_ERROR) {
      FAIL(f->filename, f->name, "cannot query the integer sign (H5Tget_sign failed)");
      return -1;
    }
    f->kind = sign == H5T_SGN_NONE ? FIELD_UINT : FIELD_INT;
    f->mtype = H5Tcopy(sign == H5T_SGN_NONE ? H5T_NATIVE_ULLONG : H5T_NATIVE_LLONG);
    snprintf(f->type_name, sizeof f->type_name, "%sint%zu", sign == H5T_SGN_NONE ? "u" : "",
             8 * size);
    break;
  }
  case H5T_STRING: {
    htri_t var = H5Tis_variable_str(t);
    if (var < 0) {
      FAIL(f->filename, f->name, "H5Tis_variable_str failed");
      return -1;
    }
    f->mtype = H5Tcopy(t);
    if (var) {
      f->kind = FIELD_VSTRING;
      snprintf(f->type_name, sizeof f->type_name, "string(variable)");
    } else {
      f->kind = FIELD_STRING;
      snprintf(f->type_name, sizeof f->type_name, "string(%zu)", size);
    }
    break;
  }
  default: {
    static const char *const names[] = {"integer", "float", "time", "string", "bitfield",
                                        "opaque", "compound", "reference", "enum", "vlen",
                                        "array"};
    const char *cname = cls >= 0 && cls < 11 ? names[cls] : "unknown";
    snprintf(f->type_name, sizeof f->type_name, "%s(%zu bytes)", cname, size);
    /* Pointers inside the data cannot be compared as bytes. */
    if (cls == H5T_VLEN || cls == H5T_REFERENCE || H5Tdetect_class(t, H5T_VLEN) > 0 ||
        H5Tdetect_class(t, H5T_REFERENCE) > 0 || H5Tdetect_class(t, H5T_STRING) > 0) {
      f->kind = FIELD_UNSUPPORTED;
      return 0;
    }
    f->kind = FIELD_BYTES;
    f->mtype = H5Tget_native_type(t, H5T_DIR_ASCEND);
    break;
  }
  }
  if (f->mtype < 0) {
    FAIL(f->filename, f->name, "cannot make the memory type for %s", f->type_name);
    return -1;
  }
  f->msize = H5Tget_size(f->mtype);
  if (f->msize == 0) {
    FAIL(f->filename, f->name, "H5Tget_size failed");
    return -1;
  }
  return 0;
}

int field_open(hid_t file, const char *filename, const char *name, field *f)
{
  memset(f, 0, sizeof *f);
  f->filename = filename;
  f->name = name;
  f->dset = f->ftype = f->mtype = H5I_INVALID_HID;
  f->dset = H5Dopen2(file, name, H5P_DEFAULT);
  if (f->dset < 0) {
    FAIL(filename, name, "cannot open the dataset (H5Dopen2 failed)");
    return -1;
  }
  f->ftype = H5Dget_type(f->dset);
  if (f->ftype < 0) {
    FAIL(filename, name, "cannot read the element type (H5Dget_type failed)");
    field_close(f);
    return -1;
  }
  hid_t space = H5Dget_space(f->dset);
  if (space < 0) {
    FAIL(filename, name, "cannot read the shape (H5Dget_space failed)");
    field_close(f);
    return -1;
  }
  H5S_class_t sclass = H5Sget_simple_extent_type(space);
  int rank = H5Sget_simple_extent_ndims(space);
  if (sclass == H5S_NO_CLASS || rank < 0 || H5Sget_simple_extent_dims(space, f->dims, NULL) < 0) {
    FAIL(filename, name, "cannot read the shape");
    H5Sclose(space);
    field_close(f);
    return -1;
  }
  if (H5Sclose(space) < 0) {
    FAIL(filename, name, "H5Sclose failed");
    field_close(f);
    return -1;
  }
  f->rank = rank;
  f->rows = rank > 0 ? f->dims[0] : (sclass == H5S_NULL ? 0 : 1);
  f->row_elems = 1;
  for (int i = 1; i < rank; i++)
    f->row_elems *= f->dims[i];
  f->nelem = f->rows * f->row_elems;
  if (classify(f) != 0) {
    field_close(f);
    return -1;
  }
  return 0;
}

int field_read_rows(field *f, hsize_t row0, hsize_t nrows, void *buf)
{
  hid_t fspace = H5I_INVALID_HID, mspace = H5I_INVALID_HID;
  int rc = -1;
  if (f->rank == 0) {
    /* A scalar (or empty) dataset is read whole. */
    if (H5Dread(f->dset, f->mtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf) < 0) {
      FAIL(f->filename, f->name, "cannot read the data (H5Dread failed)");
      return -1;
    }
    return 0;
  }
  hsize_t start[H5S_MAX_RANK] = {0}, count[H5S_MAX_RANK];
  start[0] = row0;
  count[0] = nrows;
  for (int i = 1; i < f->rank; i++)
    count[i] = f->dims[i];
  hsize_t n = nrows * f->row_elems;
  fspace = H5Dget_space(f->dset);
  if (fspace < 0) {
    FAIL(f->filename, f->name, "H5Dget_space failed");
    goto done;
  }
  if (H5Sselect_hyperslab(fspace, H5S_SELECT_SET, start, NULL, count, NULL) < 0) {
    FAIL(f->filename, f->name, "cannot select rows %llu..%llu (H5Sselect_hyperslab failed)",
         (unsigned long long)row0, (unsigned long long)(row0 + nrows - 1));
    goto done;
  }
  mspace = H5Screate_simple(1, &n, NULL);
  if (mspace < 0) {
    FAIL(f->filename, f->name, "H5Screate_simple failed");
    goto done;
  }
  if (H5Dread(f->dset, f->mtype, mspace, fspace, H5P_DEFAULT, buf) < 0) {
    FAIL(f->filename, f->name, "cannot read rows %llu..%llu (H5Dread failed)",
         (unsigned long long)row0, (unsigned long long)(row0 + nrows - 1));
    goto done;
  }
  rc = 0;
done:
  if (mspace >= 0 && H5Sclose(mspace) < 0) {
    FAIL(f->filename, f->name, "H5Sclose failed");
    rc = -1;
  }
  if (fspace >= 0 && H5Sclose(fspace) < 0) {
    FAIL(f->filename, f->name, "H5Sclose failed");
    rc = -1;
  }
  return rc;
}

void field_reclaim(field *f, hsize_t nelem, void *buf)
{
  if (f->kind != FIELD_VSTRING || nelem == 0)
    return;
  hsize_t n = nelem;
  hid_t space = H5Screate_simple(1, &n, NULL);
  if (space < 0) {
    FAIL(f->filename, f->name, "H5Screate_simple failed; strings not freed");
    return;
  }
#if H5_VERSION_GE(1, 12, 0)
  herr_t rc = H5Treclaim(f->mtype, space, H5P_DEFAULT, buf);
#else
  herr_t rc = H5Dvlen_reclaim(f->mtype, space, H5P_DEFAULT, buf);
#endif
  if (rc < 0)
    FAIL(f->filename, f->name, "cannot free the strings read");
  if (H5Sclose(space) < 0)
    FAIL(f->filename, f->name, "H5Sclose failed");
}

void field_close(field *f)
{
  /* Errors closing read-only handles change no result: report and go on. */
  if (f->mtype >= 0 && H5Tclose(f->mtype) < 0)
    FAIL(f->filename, f->name, "H5Tclose failed");
  if (f->ftype >= 0 && H5Tclose(f->ftype) < 0)
    FAIL(f->filename, f->name, "H5Tclose failed");
  if (f->dset >= 0 && H5Dclose(f->dset) < 0)
    FAIL(f->filename, f->name, "H5Dclose failed");
  f->mtype = f->ftype = f->dset = H5I_INVALID_HID;
}

void field_shape_text(const field *f, char *buf, size_t len)
{
  size_t used = 0;
  buf[0] = '\0';
  used += (size_t)snprintf(buf, len, "[");
  for (int i = 0; i < f->rank && used < len; i++)
    used += (size_t)snprintf(buf + used, len - used, "%s%llu", i ? " x " : "",
                             (unsigned long long)f->dims[i]);
  if (used < len)
    snprintf(buf + used, len - used, "]");
}
