/*
 * op_mpi_hdf5.c - slices of OP2-layout HDF5 files in, global-order files out,
 * through parallel HDF5 (see op_mpi_hdf5.h).
 *
 * Every HDF5 call is checked; a failure is described by the I/O library's
 * message builder (OP_IO_ERR: file, dataset, HDF5's own reason, place) and
 * ends the job through op_mpi_fatal.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include "op_mpi_hdf5.h"

#include <errno.h>
#include <hdf5.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "op_hdf5_impl.h" /* op_h5_untimed */
#include "op_io_util.h"
#include "op_text.h"
#include "op_tmpname.h"
#include "op_mpi_check.h"
#include "op_mpi_dist.h"
#include "op_mpi_halo.h" /* op_mpi_local_index */
#include "op_mpi_partition.h" /* op_mpi_block_part: the balanced slices */

#if !defined(H5_HAVE_PARALLEL)
#error "op_mpi_hdf5.c needs the parallel (MPI) build of HDF5"
#endif

/* ---- errors -------------------------------------------------------------------- */

/* A failed HDF5 call (code OP_MPI_ABORT_CODE) or a file that is not what it
 * should be (OP_EXIT_ERROR: bad input, as on one process). */
static OP_NORETURN void h5_fail(int code, const char *file, const char *object, const char *src,
                                int line, const char *func, const char *fmt, ...) OP_PRINTF(7, 8);
static OP_NORETURN void h5_fail(int code, const char *file, const char *object, const char *src,
                                int line, const char *func, const char *fmt, ...) {
  char msg[512], err[OP_IO_ERRLEN];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  op_io_ctx c = {err, sizeof err, "HDF5 file", file, object ? "dataset" : NULL, object};
  op_io_fail(&c, OP_IO_EIO, src, line, func, "%s", msg); /* adds what HDF5 said */
  if (code == OP_EXIT_ERROR) op_mpi_bad_input_at(src, line, func, "%s", err);
  op_mpi_fatal_at(src, line, func, "%s", err);
}

#define H5_FAIL(file, object, ...) \
  h5_fail(OP_MPI_ABORT_CODE, (file), (object), __FILE__, __LINE__, __func__, __VA_ARGS__)
/* The file is not what it should be (missing, not HDF5, a dataset of another
 * shape or type) or cannot be written (disk full): status 2, as on one
 * process (docs/errors.md). */
#define H5_FILE_ERROR(file, object, ...) \
  h5_fail(OP_EXIT_ERROR, (file), (object), __FILE__, __LINE__, __func__, __VA_ARGS__)
/* An HDF5 call that returns a negative value on failure. */
#define H5_CHECK(file, object, call)                          \
  do {                                                        \
    if ((call) < 0) H5_FAIL((file), (object), "%s failed", #call); \
  } while (0)

static void h5_quiet(void) {
  /* Our messages replace HDF5's own stack dump. */
  if (H5Eset_auto2(H5E_DEFAULT, NULL, NULL) < 0) op_mpi_fatal("cannot silence HDF5's error printing");
}

/* ---- files --------------------------------------------------------------------- */

static hid_t file_access(op_mpi_mesh m, const char *file) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (fapl < 0) H5_FAIL(file, NULL, "cannot create a file access property list");
  H5_CHECK(file, NULL, H5Pset_fapl_mpio(fapl, m->comm, MPI_INFO_NULL));
  return fapl;
}

/* Every process checks it can read the file itself before the collective
 * open: the one that cannot names the file and ends the job. */
static hid_t open_read(op_mpi_mesh m, const char *file) {
  h5_quiet();
  if (!file || !file[0]) op_mpi_bad_input("no HDF5 file name given");
  /* The messages of the one-process reader (op_hdf5.c), the same exit status. */
  struct stat st;
  const char *kind;
  if (stat(file, &st) != 0 && errno == ENOENT)
    op_mpi_bad_input("HDF5 file '%s': file does not exist", file);
  if (stat(file, &st) == 0 && (kind = op_text_file_kind(st.st_mode)) != NULL)
    op_mpi_bad_input("HDF5 file '%s': is %s, not a file", file, kind);
  if (access(file, R_OK) != 0)
    op_mpi_bad_input("HDF5 file '%s': cannot read the file: %s", file, strerror(errno));
#if H5_VERSION_GE(1, 12, 0)
  htri_t is = H5Fis_accessible(file, H5P_DEFAULT);
#else
  htri_t is = H5Fis_hdf5(file);
#endif
  if (is <= 0) op_mpi_bad_input("HDF5 file '%s': not an HDF5 file (or truncated)", file);
  hid_t fapl = file_access(m, file);
  hid_t f = H5Fopen(file, H5F_ACC_RDONLY, fapl);
  if (f < 0) H5_FILE_ERROR(file, NULL, "cannot open the file (truncated or corrupt?)");
  H5_CHECK(file, NULL, H5Pclose(fapl));
  return f;
}

static hid_t collective_transfer(const char *file) {
  hid_t dxpl = H5Pcreate(H5P_DATASET_XFER);
  if (dxpl < 0) H5_FAIL(file, NULL, "cannot create a transfer property list");
  H5_CHECK(file, NULL, H5Pset_dxpl_mpio(dxpl, H5FD_MPIO_COLLECTIVE));
  return dxpl;
}

/* ---- reading -------------------------------------------------------------------- */

static hid_t mem_type(op_type t) {
  return t == OP_TYPE_DOUBLE ? H5T_NATIVE_DOUBLE : t == OP_TYPE_FLOAT ? H5T_NATIVE_FLOAT : H5T_NATIVE_INT;
}

static hid_t file_type(op_type t) {
  return t == OP_TYPE_DOUBLE ? H5T_IEEE_F64LE : t == OP_TYPE_FLOAT ? H5T_IEEE_F32LE : H5T_STD_I32LE;
}

/* 1 when the stored type is exactly op_type t (as op2/io reads: no conversions). */
static int type_matches(hid_t ft, op_type t) {
  H5T_class_t cl = H5Tget_class(ft);
  size_t sz = H5Tget_size(ft);
  if (t == OP_TYPE_INT) return cl == H5T_INTEGER && sz == 4 && H5Tget_sign(ft) == H5T_SGN_2;
  return cl == H5T_FLOAT && sz == (t == OP_TYPE_DOUBLE ? 8u : 4u);
}

/* Selects rows [start, start + count) of the file dataspace fs (of rank 0,
 * 1 or 2, cols values a row) and returns the matching memory dataspace; a
 * process with no rows selects nothing but still takes part (collective I/O). */
static hid_t select_rows(const char *file, const char *name, int rank, hid_t fs, int start, int count, int cols) {
  hid_t ms;
  if (rank == 0) {
    ms = H5Screate(H5S_SCALAR);
  } else {
    hsize_t mdims[2] = {(hsize_t)(count ? count : 1), (hsize_t)cols};
    ms = H5Screate_simple(rank, mdims, NULL);
  }
  if (ms < 0) H5_FAIL(file, name, "cannot create a memory dataspace");
  if (count == 0) {
    H5_CHECK(file, name, H5Sselect_none(fs));
    H5_CHECK(file, name, H5Sselect_none(ms));
  } else if (rank > 0) {
    hsize_t off[2] = {(hsize_t)start, 0}, cnt[2] = {(hsize_t)count, (hsize_t)cols};
    H5_CHECK(file, name, H5Sselect_hyperslab(fs, H5S_SELECT_SET, off, NULL, cnt, NULL));
  }
  return ms;
}

/* Reads rows [start, start + count) of dataset name, checked to be of type t
 * with rows x cols elements ([rows] allowed when cols is 1, a single element
 * when rows and cols are 1), into buf. */
static void read_rows(const char *file, hid_t f, const char *name, op_type t, long long rows, int cols,
                      int start, int count, void *buf) {
  hid_t d = H5Dopen2(f, name, H5P_DEFAULT);
  if (d < 0) H5_FILE_ERROR(file, name, "dataset missing (or not a dataset)");
  hid_t ft = H5Dget_type(d), fs = H5Dget_space(d);
  if (ft < 0 || fs < 0) H5_FILE_ERROR(file, name, "cannot read the dataset's type or shape");
  if (!type_matches(ft, t)) H5_FILE_ERROR(file, name, "stored type is not '%s'", op_io_type_name(t));
  int rank = H5Sget_simple_extent_ndims(fs);
  hsize_t dims[2] = {1, 1};
  if (rank < 0 || rank > 2 || H5Sget_simple_extent_dims(fs, dims, NULL) < 0)
    H5_FILE_ERROR(file, name, "dataset has rank %d, expected [%lld x %d]", rank, rows, cols);
  long long got_rows = rank == 0 ? 1 : (long long)dims[0], got_cols = rank == 2 ? (long long)dims[1] : 1;
  if (rank == 0 ? (rows != 1 || cols != 1) : (got_rows != rows || got_cols != cols))
    H5_FILE_ERROR(file, name, "dataset is [%lld x %lld], expected [%lld x %d]", got_rows, got_cols, rows, cols);
  /* A dataset of no rows (an empty set) has no storage: a read of nothing
   * from its undefined address fails in the MPI-IO driver ("addr overflow").
   * rows is global, so every process skips the collective read alike. */
  if (rows > 0) {
    hid_t dxpl = collective_transfer(file);
    hid_t ms = select_rows(file, name, rank, fs, start, count, (int)got_cols);
    char dummy[16];
    H5_CHECK(file, name, H5Dread(d, mem_type(t), ms, fs, dxpl, count ? buf : (void *)dummy));
    H5_CHECK(file, name, H5Pclose(dxpl));
    H5_CHECK(file, name, H5Sclose(ms));
  }
  H5_CHECK(file, name, H5Sclose(fs));
  H5_CHECK(file, name, H5Tclose(ft));
  H5_CHECK(file, name, H5Dclose(d));
}

static void close_file(const char *file, hid_t f) {
  if (H5Fclose(f) < 0) H5_FAIL(file, NULL, "closing the file failed");
}

op_mpi_set op_mpi_decl_set_hdf5(op_mpi_mesh m, const char *file, const char *name) {
  hid_t f = open_read(m, file);
  int size = -1;
  read_rows(file, f, name, OP_TYPE_INT, 1, 1, 0, 1, &size);
  close_file(file, f);
  if (size < 0) op_mpi_bad_input("HDF5 file '%s', set '%s': negative size %d", file, name, size);
  int start, count;
  op_mpi_slice(size, m->nprocs, m->rank, &start, &count);
  return op_mpi_decl_set(m, count, name);
}

op_mpi_map op_mpi_decl_map_hdf5(op_mpi_mesh m, op_mpi_set from, op_mpi_set to, int dim,
                                const char *file, const char *name) {
  if (!from || !to || dim < 1)
    op_mpi_fatal("HDF5 file '%s', map '%s': invalid from/to set or dim %d", file, name, dim);
  hid_t f = open_read(m, file);
  int *rows = op_mpi_alloc(int, (size_t)from->slice_size * dim);
  read_rows(file, f, name, OP_TYPE_INT, from->global_size, dim, from->slice_start, from->slice_size, rows);
  close_file(file, f);
  /* OP2's OP_MAPS_BASE_INDEX=1: the file numbers elements from 1. */
  const int base = op_maps_base_index();
  for (size_t i = 0; base && i < (size_t)from->slice_size * dim; i++) rows[i] -= base;
  for (size_t i = 0; i < (size_t)from->slice_size * dim; i++)
    if (rows[i] < 0 || rows[i] >= to->global_size)
      op_mpi_bad_input("HDF5 file '%s', map '%s': entry [%zu][%zu] = %d is outside [0, %d) (the size of "
                   "set '%s')",
                   file, name, (size_t)from->slice_start + i / (size_t)dim, i % (size_t)dim, rows[i],
                   to->global_size, to->name);
  op_mpi_map p = op_mpi_decl_map(m, from, to, dim, rows, name);
  free(rows);
  return p;
}

op_mpi_dat op_mpi_decl_dat_hdf5(op_mpi_mesh m, op_mpi_set set, int dim, const char *type,
                                const char *file, const char *name) {
  op_type t;
  if (op_io_parse_type(type, &t) != 0)
    op_mpi_fatal("HDF5 file '%s', dat '%s': unknown type '%s' (double, float or int)", file, name,
                 type ? type : "(null)");
  if (!set || dim < 1) op_mpi_fatal("HDF5 file '%s', dat '%s': invalid set or dim %d", file, name, dim);
  hid_t f = open_read(m, file);
  char *rows = op_mpi_alloc(char, (size_t)set->slice_size * dim * op_io_type_size(t));
  read_rows(file, f, name, t, set->global_size, dim, set->slice_start, set->slice_size, rows);
  close_file(file, f);
  op_mpi_dat d = op_mpi_decl_dat(m, set, dim, t, rows, name);
  free(rows);
  return d;
}

void op_mpi_read_dat_rows(op_mpi_mesh m, op_mpi_dat d, const char *file, const char *name,
                          void *owned) {
  op_mpi_set s = d->set;
  if (m->stage != OP_MPI_DISTRIBUTED || !s->part)
    op_mpi_fatal("reading '%s' from '%s': the mesh is not distributed yet", name, file);
  /* The declaration slices: s->part says who owns each of their elements. */
  hid_t f = open_read(m, file);
  char *rows = op_mpi_alloc(char, (size_t)s->slice_size * d->size);
  read_rows(file, f, name, d->type, s->global_size, d->dim, s->slice_start, s->slice_size, rows);
  close_file(file, f);
  int n = s->slice_size;
  int *order = op_mpi_alloc(int, n), *counts = op_mpi_alloc(int, m->nprocs);
  op_mpi_group_by_dest(n, s->part, m->nprocs, order, counts);
  size_t rec = sizeof(int) + d->size;
  char *buf = op_mpi_alloc(char, (size_t)n * rec);
  for (int k = 0; k < n; k++) {
    int g = s->slice_start + order[k];
    memcpy(buf + (size_t)k * rec, &g, sizeof(int));
    memcpy(buf + (size_t)k * rec + sizeof(int), rows + (size_t)order[k] * d->size, d->size);
  }
  char *got = NULL;
  int ngot = op_mpi_alltoallv_rows(m->comm, buf, counts, rec, (void **)&got, NULL);
  if (ngot != s->size)
    op_mpi_fatal("internal error: reading '%s': %d rows arrived for %d owned elements of set '%s'",
                 name, ngot, s->size, s->name);
  char *seen = op_mpi_zalloc(char, s->size);
  for (int k = 0; k < ngot; k++) {
    int g;
    memcpy(&g, got + (size_t)k * rec, sizeof(int));
    int e = op_mpi_local_index(s, g);
    if (e < 0 || e >= s->size || seen[e])
      op_mpi_fatal("internal error: reading '%s': row %d of set '%s' arrived %s", name, g, s->name,
                   e < 0 || e >= s->size ? "at a process that does not own it" : "twice");
    seen[e] = 1;
    memcpy((char *)owned + (size_t)e * d->size, got + (size_t)k * rec + sizeof(int), d->size);
  }
  free(rows);
  free(order);
  free(counts);
  free(buf);
  free(got);
  free(seen);
}

/* ---- writing --------------------------------------------------------------------------- */

/* Owned rows of s (local order) to the balanced slices in global order:
 * returns this process's slice rows (malloc'd), its first row and count. */
static char *to_slices(op_mpi_mesh m, op_mpi_set s, const char *rows, size_t rb, int *start, int *count) {
  int n = s->size, N = s->global_size;
  op_mpi_slice(N, m->nprocs, m->rank, start, count);
  int *dest = op_mpi_alloc(int, n), *order = op_mpi_alloc(int, n), *counts = op_mpi_alloc(int, m->nprocs);
  for (int e = 0; e < n; e++) dest[e] = op_mpi_block_part(s->gid[e], N, m->nprocs);
  op_mpi_group_by_dest(n, dest, m->nprocs, order, counts);
  size_t rec = sizeof(int) + rb;
  char *buf = op_mpi_alloc(char, (size_t)n * rec);
  for (int k = 0; k < n; k++) {
    memcpy(buf + (size_t)k * rec, &s->gid[order[k]], sizeof(int));
    memcpy(buf + (size_t)k * rec + sizeof(int), rows + (size_t)order[k] * rb, rb);
  }
  char *got = NULL;
  int ngot = op_mpi_alltoallv_rows(m->comm, buf, counts, rec, (void **)&got, NULL);
  if (ngot != *count)
    op_mpi_fatal("internal error: set '%s': %d rows arrived for a slice of %d", s->name, ngot, *count);
  char *out = op_mpi_alloc(char, (size_t)*count * rb);
  char *seen = op_mpi_zalloc(char, *count);
  for (int k = 0; k < ngot; k++) {
    int g;
    memcpy(&g, got + (size_t)k * rec, sizeof(int));
    int i = g - *start;
    if (i < 0 || i >= *count || seen[i])
      op_mpi_fatal("internal error: set '%s': row %d arrived %s", s->name, g, i < 0 || i >= *count ? "at the wrong process" : "twice");
    seen[i] = 1;
    memcpy(out + (size_t)i * rb, got + (size_t)k * rec + sizeof(int), rb);
  }
  free(dest);
  free(order);
  free(counts);
  free(buf);
  free(got);
  free(seen);
  return out;
}

static void write_attr(const char *file, const char *obj, hid_t d, const char *attr, hid_t ftype, hid_t mtype,
                       const void *value) {
  /* OP2's shapes: a string in a scalar dataspace, a number in an array of one. */
  const hsize_t one = 1;
  hid_t s =
      H5Tget_class(ftype) == H5T_STRING ? H5Screate(H5S_SCALAR) : H5Screate_simple(1, &one, NULL);
  if (s < 0) H5_FAIL(file, obj, "cannot create a dataspace for attribute '%s'", attr);
  hid_t a = H5Acreate2(d, attr, ftype, s, H5P_DEFAULT, H5P_DEFAULT);
  if (a < 0) H5_FAIL(file, obj, "cannot create attribute '%s'", attr);
  if (H5Awrite(a, mtype, value) < 0) H5_FAIL(file, obj, "cannot write attribute '%s'", attr);
  H5_CHECK(file, obj, H5Aclose(a));
  H5_CHECK(file, obj, H5Sclose(s));
}

static void write_attr_str(const char *file, const char *obj, hid_t d, const char *attr, const char *value) {
  hid_t t = H5Tcopy(H5T_C_S1);
  if (t < 0) H5_FAIL(file, obj, "cannot create a string type");
  H5_CHECK(file, obj, H5Tset_size(t, strlen(value) + 1));
  H5_CHECK(file, obj, H5Tset_strpad(t, H5T_STR_NULLTERM));
  write_attr(file, obj, d, attr, t, t, value);
  H5_CHECK(file, obj, H5Tclose(t));
}

/* Creates dataset name ([rows] when rank 1, else [rows, cols]) and writes
 * this process's rows [start, start + count) collectively; attributes as OP2
 * writes them: size (when size_attr >= 0: a map's from-set size, a dat's
 * bytes per element), dim (when dim_attr >= 0), type, then the named strings. */
static void write_dataset(const char *file, hid_t f, const char *name, op_type t, int rank,
                          long long rows, int cols, int start, int count, const void *buf,
                          int size_attr, int dim_attr, int nattr, const char *const *attr,
                          const char *const *value) {
  hsize_t dims[2] = {(hsize_t)rows, (hsize_t)cols};
  hid_t fs = H5Screate_simple(rank, dims, NULL), lcpl = H5Pcreate(H5P_LINK_CREATE);
  hid_t dcpl = op_h5_untimed(H5P_DATASET_CREATE); /* the same bytes on any process count */
  if (fs < 0 || lcpl < 0 || dcpl < 0) H5_FAIL(file, name, "cannot create a dataspace or property list");
  H5_CHECK(file, name, H5Pset_create_intermediate_group(lcpl, 1));
  hid_t d = H5Dcreate2(f, name, file_type(t), fs, lcpl, dcpl, H5P_DEFAULT);
  H5_CHECK(file, name, H5Pclose(dcpl));
  if (d < 0) H5_FAIL(file, name, "cannot create the dataset (name used twice?)");
  hid_t ms = select_rows(file, name, rank, fs, start, count, cols);
  hid_t dxpl = collective_transfer(file);
  char dummy[16] = {0};
  if (H5Dwrite(d, mem_type(t), ms, fs, dxpl, count ? buf : (const void *)dummy) < 0)
    H5_FILE_ERROR(file, name, "writing the data failed (disk full?)");
  if (size_attr >= 0) write_attr(file, name, d, "size", H5T_STD_I32LE, H5T_NATIVE_INT, &size_attr);
  if (dim_attr >= 0) write_attr(file, name, d, "dim", H5T_STD_I32LE, H5T_NATIVE_INT, &dim_attr);
  write_attr_str(file, name, d, "type", op_io_type_name(t));
  for (int i = 0; i < nattr; i++) write_attr_str(file, name, d, attr[i], value[i]);
  H5_CHECK(file, name, H5Pclose(dxpl));
  H5_CHECK(file, name, H5Sclose(ms));
  H5_CHECK(file, name, H5Pclose(lcpl));
  H5_CHECK(file, name, H5Sclose(fs));
  H5_CHECK(file, name, H5Dclose(d));
}

static void write_set(op_mpi_mesh m, const char *file, hid_t f, op_mpi_set s) {
  int n = s->global_size;
  write_dataset(file, f, s->name, OP_TYPE_INT, 1, 1, 1, 0, m->rank == 0 ? 1 : 0, &n, -1, -1, 0,
                NULL, NULL);
}

static void write_map(op_mpi_mesh m, const char *file, hid_t f, op_mpi_map p) {
  int n = p->from->size, dim = p->dim;
  int *rows = op_mpi_alloc(int, (size_t)n * dim);
  for (size_t q = 0; q < (size_t)n * dim; q++) rows[q] = p->to->gid[p->map[q]];
  int start, count;
  char *slice = to_slices(m, p->from, (const char *)rows, (size_t)dim * sizeof(int), &start, &count);
  const char *attr[2] = {"from", "to"}, *value[2] = {p->from->name, p->to->name};
  write_dataset(file, f, p->name, OP_TYPE_INT, 2, p->from->global_size, dim, start, count, slice,
                p->from->global_size, dim, 2, attr, value);
  free(rows);
  free(slice);
}

static void write_dat(op_mpi_mesh m, const char *file, hid_t f, op_mpi_dat d) {
  int start, count;
  char *slice = to_slices(m, d->set, d->data, d->size, &start, &count);
  const char *attr[1] = {"set"}, *value[1] = {d->set->name};
  write_dataset(file, f, d->name, d->type, 2, d->set->global_size, d->dim, start, count, slice,
                (int)d->size, d->dim, 1, attr, value);
  free(slice);
}

void op_mpi_write_hdf5(op_mpi_mesh m, const char *file, int nmaps, const op_mpi_map *maps, int ndats,
                       const op_mpi_dat *dats) {
  if (m->stage != OP_MPI_DISTRIBUTED) op_mpi_fatal("writing '%s': the mesh is not distributed yet", file);
  if (!file || !file[0]) op_mpi_fatal("no HDF5 file name given");
  h5_quiet();
  /* One name on every process (the create is collective): the root's own
   * temporary (op_tmpname.h). */
  static char tmp[8192];
  if (m->rank == 0 && !op_tmp_name(file, tmp, sizeof tmp))
    op_mpi_bad_input("HDF5 file name too long: '%s'", file);
  OP_MPI_CHECK(MPI_Bcast(tmp, (int)sizeof tmp, MPI_CHAR, 0, m->comm));
  hid_t fapl = file_access(m, file);
  hid_t f = H5Fcreate(tmp, H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  if (f < 0) H5_FILE_ERROR(file, NULL, "cannot create '%s' (missing directory? permissions?)", tmp);
  H5_CHECK(file, NULL, H5Pclose(fapl));
  /* The sets first, each once, in declaration order. */
  char *want = op_mpi_zalloc(char, m->nsets);
  for (int i = 0; i < nmaps; i++) want[maps[i]->from->index] = want[maps[i]->to->index] = 1;
  for (int i = 0; i < ndats; i++) want[dats[i]->set->index] = 1;
  for (int i = 0; i < m->nsets; i++)
    if (want[i]) write_set(m, file, f, m->sets[i]);
  free(want);
  for (int i = 0; i < nmaps; i++) write_map(m, file, f, maps[i]);
  for (int i = 0; i < ndats; i++) write_dat(m, file, f, dats[i]);
  close_file(file, f);
  /* Every process has finished writing: the file replaces the old one at once. */
  OP_MPI_CHECK(MPI_Barrier(m->comm));
  if (m->rank == 0) {
    char err[OP_IO_ERRLEN];
    op_io_ctx c = {err, sizeof err, "HDF5 file", file, NULL, NULL};
    if (op_io_commit(&c, tmp, file) != OP_IO_OK) op_mpi_fatal("%s", err);
  }
  OP_MPI_CHECK(MPI_Barrier(m->comm));
}

void op_mpi_dump_hdf5(op_mpi_mesh m, const char *file) {
  /* The dats there are (a freed temporary leaves a NULL). */
  op_mpi_dat *dats = op_mpi_alloc(op_mpi_dat, m->ndats);
  int n = 0;
  for (int i = 0; i < m->ndats; i++)
    if (m->dats[i]) dats[n++] = m->dats[i];
  op_mpi_write_hdf5(m, file, m->nmaps, (const op_mpi_map *)m->maps, n, (const op_mpi_dat *)dats);
  free(dats);
}
