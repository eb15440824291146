/*
 * op_hdf5.h - OP2 sets, maps, dats and constants in HDF5 files.
 *
 * File layout (the "OP2 layout", with OP2-Common's attributes: docs/io.md):
 *   set    one-element integer dataset named after the set, holding its size
 *   map    2D int dataset [from size, dim] named after the map,
 *          attributes "size" (from size), "dim", "type" ("int"), and the
 *          suite's "from"/"to" (set names)
 *   dat    2D dataset [set size, dim] named after the dat, element type
 *          double / float / int (stored little-endian IEEE / 32-bit signed),
 *          attributes "size" (bytes per element), "dim", "type"
 *          ("double","float","int"), and the suite's "set"
 *   const  1D dataset [dim], attributes "dim" and "type"
 *   Numeric attributes are ints in a dataspace of one element, strings
 *   fixed-length in a scalar one, as OP2-Common writes them.
 * A name containing '/' lives in groups ("flow/p_q" is dataset p_q in group
 * flow); missing groups are created on write.
 *
 * Two layers:
 *  - OP2-style functions (op_decl_set_hdf5 ...) that print a message naming
 *    the file and the dataset and exit(1) on any error;
 *  - lower-level functions returning OP_IO_OK or a negative OP_IO_E* code
 *    (op_io_common.h) with the message in (err, errlen), for callers that
 *    handle errors themselves.
 * HDF5's automatic error-stack printing is switched off by every function here
 * (H5Eset_auto2(H5E_DEFAULT, NULL, NULL)); its most specific message is
 * appended to ours instead.
 */
#ifndef OP_HDF5_H
#define OP_HDF5_H

#include <stddef.h>

#include "op2.h"
#include "op_io_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- OP2 API: print a message and exit(1) on error --------------------------- */

/* A set, map or dat whose dataset the file does not have is not an error, as
 * in OP2: the call says so (on the root) and returns NULL, and the
 * application decides (OP2's airfoil_hdf5 asks for one that is not there). */
op_set op_decl_set_hdf5(const char *file, const char *name);
/* OP2's op_decl_set_hdf5_infer_size: a set named `name` with as many elements
 * as dataset `dataset` of the file has rows (its first dimension), for files
 * that hold no dataset of the set's size (a mesh's node coordinates give the
 * nodes). On many processes each declares its slice. */
op_set op_decl_set_hdf5_infer_size(const char *file, const char *name, const char *dataset);
/* Entries are checked to lie in [0, to->size). */
op_map op_decl_map_hdf5(op_set from, op_set to, int dim, const char *file, const char *name);
/* The data is read into library-owned memory (op_decl_dat_temp). */
op_dat op_decl_dat_hdf5(op_set set, int dim, const char *type, const char *file,
                        const char *name);
/* Reads dim values of the given type into const_data (does not call
 * op_decl_const: do that afterwards). */
void op_get_const_hdf5(const char *name, int dim, const char *type, char *const_data,
                       const char *file);
/* Writes (creating the file if needed, replacing an existing dataset). */
void op_write_const_hdf5(const char *name, int dim, const char *type, char *const_data,
                         const char *file);
/* Writes every set, map and dat declared so far to a new file (replacing any
 * existing one atomically: written to file.tmp, then renamed). */
void op_dump_to_hdf5(const char *file);
/* Writes one dat (its current host data); creates the file if missing, else
 * replaces the dataset of that name in it. */
void op_fetch_data_hdf5_file(op_dat dat, const char *file);
/* The same as dataset `path` ("states_0000100", "/results/states_0000100":
 * missing groups are created) instead of the dat's name. */
void op_fetch_data_hdf5_file_path(op_dat dat, const char *file, const char *path);

/* ---- lower level: return OP_IO_OK or an OP_IO_E* code -------------------------- */

/* Description of a stored dataset. */
typedef struct {
  int rank;          /* 0 (scalar), 1, 2 (or more) */
  long long rows;    /* dims[0]; 1 for a scalar */
  long long cols;    /* dims[1]; 1 for rank 0 and 1; product of dims[1..] above 2 */
  int type_known;    /* 1 when the element type is one of double, float, int */
  op_type type;      /* valid when type_known */
  char type_name[32];/* "double", "float", "int" or e.g. "integer(8 bytes)" */
} op_hdf5_info;

/* 1 if a dataset of that name exists, 0 if not, < 0 on error (file missing,
 * not HDF5, truncated, or the name exists but is not a dataset). */
int op_hdf5_dataset_exists(const char *file, const char *name, char *err, size_t errlen);

int op_hdf5_query_dataset(const char *file, const char *name, op_hdf5_info *info, char *err,
                          size_t errlen);

/* Reads dataset name, which must hold rows x cols elements of the given type
 * ("double", "float", "int"): shape [rows, cols], or [rows] when cols == 1, or
 * a scalar when rows == cols == 1. buf receives rows*cols elements, row major. */
int op_hdf5_read_dataset(const char *file, const char *name, const char *type, long long rows,
                         int cols, void *buf, char *err, size_t errlen);

/* Writes a [rows, cols] dataset with attributes "dim" (= cols) and "type".
 * Creates the file when it does not exist (an existing file that is not HDF5
 * is an error, never overwritten); replaces an existing dataset of that name
 * (in place when type and shape agree). Groups in name are created. */
int op_hdf5_write_dataset(const char *file, const char *name, const char *type, long long rows,
                          int cols, const void *buf, char *err, size_t errlen);

/* Set size stored as a one-element integer dataset. */
int op_hdf5_read_set_size(const char *file, const char *name, int *size, char *err,
                          size_t errlen);
int op_hdf5_write_set(const char *file, op_set set, char *err, size_t errlen);

/* Reads map `name` [from_size, dim] into buf and checks every entry lies in
 * [0, to_size). */
int op_hdf5_read_map(const char *file, const char *name, int from_size, int dim, int to_size,
                     int *buf, char *err, size_t errlen);
int op_hdf5_write_map(const char *file, op_map map, char *err, size_t errlen);

/* Reads dataset `name` (NULL: dat->name) into an existing dat after checking
 * shape [set size, dim] and type; then calls op_host_data_changed(dat). */
int op_hdf5_read_dat(const char *file, op_dat dat, const char *name, char *err, size_t errlen);
/* Writes a dat (after op_fetch_data_ptr) under its own name, or under name. */
int op_hdf5_write_dat(const char *file, op_dat dat, char *err, size_t errlen);
int op_hdf5_write_dat_as(const char *file, op_dat dat, const char *name, char *err,
                         size_t errlen);

/* Constants: 1D dataset [dim]. */
int op_hdf5_read_const(const char *file, const char *name, int dim, const char *type,
                       void *data, char *err, size_t errlen);
int op_hdf5_write_const(const char *file, const char *name, int dim, const char *type,
                        const void *data, char *err, size_t errlen);

/* For op_decl_*_hdf5 (func names the caller): 1, with OP2's message, when the
 * file has no dataset `name`; 0 when it has; exits naming the file on any
 * other failure (no file, not HDF5, a group where the dataset should be). */
int op_hdf5_decl_missing(const char *func, const char *file, const char *name);

/* op_dump_to_hdf5 with an error code instead of exit. */
int op_hdf5_dump(const char *file, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* OP_HDF5_H */
