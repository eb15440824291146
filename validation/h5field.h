/*
 * h5field.h - what op2-compare needs from HDF5: the datasets of a file, and
 * each one's type, shape and data, read a block of rows at a time.
 *
 * Every function that can fail prints "op2-compare: FILE: DATASET: what"
 * (with the source line of the failing call) to stderr and returns -1.
 */
#ifndef OP2_VALIDATION_H5FIELD_H
#define OP2_VALIDATION_H5FIELD_H

#include <hdf5.h>
#include <stddef.h>

/* How the elements of a dataset are compared. */
typedef enum {
  FIELD_REAL,        /* floating point: read as float (4 bytes) or double */
  FIELD_INT,         /* signed integers: read as long long */
  FIELD_UINT,        /* unsigned integers: read as unsigned long long */
  FIELD_STRING,      /* fixed-length strings: compared byte for byte */
  FIELD_VSTRING,     /* variable-length strings: compared as C strings */
  FIELD_BYTES,       /* anything else without pointers: compared byte for byte */
  FIELD_UNSUPPORTED  /* variable-length or reference data */
} field_kind;

typedef struct {
  char **names;      /* "/group/name", sorted with strcmp */
  int n;
} dataset_list;

/* The datasets of an open file, found by following hard links from "/". */
int list_datasets(hid_t file, const char *filename, dataset_list *out);
void free_dataset_list(dataset_list *l);

typedef struct {
  const char *filename;
  const char *name;
  hid_t dset, ftype, mtype;
  field_kind kind;
  size_t msize;          /* bytes of one element in memory */
  int rank;
  hsize_t dims[H5S_MAX_RANK];
  hsize_t nelem;         /* all elements */
  hsize_t rows;          /* dims[0], or 1 for a scalar */
  hsize_t row_elems;     /* elements per row: the product of dims[1..] */
  char type_name[64];    /* "double", "float", "int32", "uint8", "string(12)", ... */
} field;

/* Opens dataset name of an open file. Returns 0 or -1. */
int field_open(hid_t file, const char *filename, const char *name, field *f);
/* Reads rows [row0, row0 + nrows) into buf (nrows * row_elems * msize bytes).
 * For FIELD_VSTRING the buffer holds char pointers: free them with
 * field_reclaim before the next read. */
int field_read_rows(field *f, hsize_t row0, hsize_t nrows, void *buf);
void field_reclaim(field *f, hsize_t nelem, void *buf);
void field_close(field *f);

/* "[721801 x 4]", or "[]" for a scalar. */
void field_shape_text(const field *f, char *buf, size_t len);

#endif /* OP2_VALIDATION_H5FIELD_H */
