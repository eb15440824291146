/*
 * op_hdf5_impl.h - private hid_t-level helpers behind op_hdf5.h, shared with
 * op_checkpoint.c and op_xdmf.c. Every function reports failures through
 * OP_IO_ERR with the context's file name and the dataset/attribute name.
 */
#ifndef OP_HDF5_IMPL_H
#define OP_HDF5_IMPL_H

#include <hdf5.h>

#include "op_hdf5.h"
#include "op_io_util.h"

/* Switches off HDF5's automatic error printing (idempotent, cheap). */
void op_h5_quiet(void);

/* Context for file `file` (kind "HDF5 file"). */
op_io_ctx op_h5_ctx(char *err, size_t errlen, const char *file);

/* Opens c->file read-only. Distinguishes a missing file, a file that is not
 * HDF5 and one HDF5 cannot open (truncated/corrupt). Returns OP_IO_OK or an error code. */
int op_h5_open_read(const op_io_ctx *c, hid_t *f);
/* Opens c->file read-write, creating it when it does not exist. */
int op_h5_open_write(const op_io_ctx *c, hid_t *f);
/* Creates (truncating) the HDF5 file `path`; messages name c->file. */
int op_h5_create(const op_io_ctx *c, const char *path, hid_t *f);
/* Flushes and closes; returns OP_IO_OK or an error code. */
int op_h5_close(const op_io_ctx *c, hid_t f);
/* A creation property list of class cls (H5P_DATASET_CREATE,
 * H5P_GROUP_CREATE) that records no times in the object's header, so that
 * the same data written twice gives the same bytes; negative on failure. */
hid_t op_h5_untimed(hid_t cls);

/* Checks an object name: non-empty, no empty components, no trailing '/'. */
int op_h5_check_name(const op_io_ctx *c, const char *name);
/* 1 if `name` exists in f as a dataset, 0 if no object of that name exists
 * (intermediate groups may be missing), error when it exists but is not a
 * dataset (what says what the caller wanted, for the message). */
int op_h5_dataset_exists(const op_io_ctx *c, hid_t f, const char *name);

int op_h5_query(const op_io_ctx *c, hid_t f, const char *name, op_hdf5_info *info);

/* Shape rule for op_h5_read. */
enum {
  OP_H5_SHAPE_2D = 0, /* [rows, cols]; [rows] accepted when cols == 1; scalar when 1x1 */
  OP_H5_SHAPE_FLAT = 1 /* any shape holding rows*cols elements */
};
int op_h5_read(const op_io_ctx *c, hid_t f, const char *name, op_type type, long long rows,
               long long cols, int shape_rule, void *buf);

/* Writes a dataset of rank 1 ([rows]) or 2 ([rows, cols]); attrs "dim" = dim_attr
 * (when >= 0) and "type". replace: 1 replaces an existing object of that name,
 * 0 reports it as an error (a name used twice). */
int op_h5_write(const op_io_ctx *c, hid_t f, const char *name, op_type type, int rank,
                long long rows, long long cols, const void *buf, int dim_attr, int replace);

int op_h5_set_attr_str(const op_io_ctx *c, hid_t obj, const char *objname, const char *attr,
                       const char *value);
int op_h5_set_attr_int(const op_io_ctx *c, hid_t obj, const char *objname, const char *attr,
                       int value);
int op_h5_set_attr_double(const op_io_ctx *c, hid_t obj, const char *objname, const char *attr,
                          double value);
/* Reads a numeric attribute of one value (a scalar or an array of one) as
 * double (bitwise for a stored double). */
int op_h5_get_attr_double(const op_io_ctx *c, hid_t obj, const char *objname, const char *attr,
                          double *value);
/* Reads a string attribute into buf (truncated to len-1); 0 if missing: *found = 0. */
int op_h5_get_attr_str(const op_io_ctx *c, hid_t obj, const char *objname, const char *attr,
                       char *buf, size_t len, int *found);

/* Object-level helpers (OP2 layout, attributes included), with the sizes over
 * all processes (op_get_size). entries and data hold every row in the user's
 * numbering: op_fetch_map_global / op_fetch_data_global, called by every
 * process before the root writes (op_io_util.h, "many processes"). */
int op_h5_write_set(const op_io_ctx *c, hid_t f, op_set set, int replace);
int op_h5_write_map(const op_io_ctx *c, hid_t f, op_map map, const int *entries, int replace);
int op_h5_write_dat(const op_io_ctx *c, hid_t f, op_dat dat, const void *data, int replace);
/* The same under another dataset name (a path: groups are created). */
int op_h5_write_dat_as(const op_io_ctx *c, hid_t f, op_dat dat, const void *data,
                       const char *name, int replace);
/* Validates [global size, dim] and type of dataset `name` for dat. */
int op_h5_check_dat(const op_io_ctx *c, hid_t f, op_dat dat, const char *name);
/* Reads dataset `name` (validated first) into buf: a row for each element of
 * dat's set held by this process as owner (set->size rows), in its local
 * order. Opens file itself. On many processes collective: each reads a slice
 * and sends every row to its owner. */
int op_h5_read_dat_rows(const op_io_ctx *c, const char *file, op_dat dat, const char *name,
                        void *buf);

/* A dat's rows in the user's numbering (files keep it whatever order the
 * library stores the set in, op2_renumber.h): the host copy itself, or a
 * copy in *owned (NULL when none) that the caller frees; NULL when out of
 * memory. */
const void *op_h5_user_rows(op_dat dat, void **owned);

#endif /* OP_HDF5_IMPL_H */
