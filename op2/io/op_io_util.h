/*
 * op_io_util.h - private helpers of the OP2 I/O library: error reporting,
 * a growable text buffer, atomic file replacement and path helpers.
 * Not installed, not part of the public API.
 */
#ifndef OP_IO_UTIL_H
#define OP_IO_UTIL_H

#include <stdarg.h>
#include <stddef.h>

#include "op2.h"
#include "op_io_common.h"

/* Where an error happened, for the message: "<kind> '<file>', <what> '<object>'". */
typedef struct {
  char *err;          /* message buffer, may be NULL */
  size_t errlen;
  const char *kind;   /* "HDF5 file", "XDMF file", "PPM file"; NULL: "file" */
  const char *file;   /* may be NULL */
  const char *what;   /* "dataset", "attribute", "scalar"...; NULL: no object */
  const char *object; /* may be NULL */
} op_io_ctx;

/* Formats the message into c->err and returns code. When the HDF5 error stack
 * holds records (an HDF5 call just failed) the most specific description is
 * appended and the stack is cleared. */
int op_io_fail(const op_io_ctx *c, int code, const char *src, int line, const char *func,
               const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* The one error macro of the I/O library: adds __FILE__, __LINE__, __func__. */
#define OP_IO_ERR(ctx, code, ...) \
  op_io_fail((ctx), (code), __FILE__, __LINE__, __func__, __VA_ARGS__)

/* Prints msg to stderr and exits with status 2 (OP_EXIT_ERROR: the file
 * could not be read or written as asked; docs/errors.md). */
void op_io_die(const char *msg) __attribute__((noreturn));

/* ---- many processes -------------------------------------------------------- */

/* The writers of shared files are collective on many processes (an MPI
 * build): every process calls them, the data they write is gathered on the
 * root (op_fetch_data_global, op_fetch_map_global), and the root alone writes.
 * op_io_writer() is 1 on the process that writes (always without MPI);
 * op_io_shared(rc, err), called by every process at the end, returns the
 * root's rc (op_root_status): on a failure only the root returns, with the
 * message in its err, and the others wait for it to end the job. */
int op_io_writer(void);
int op_io_shared(int rc, const char *err);

/* ---- element types -------------------------------------------------------- */

/* "double", "float", "int" (and the core's aliases: "r8", "real(8)", ...) ->
 * op_type; returns 0 on success, -1 if unknown. */
int op_io_parse_type(const char *name, op_type *t);
const char *op_io_type_name(op_type t);
size_t op_io_type_size(op_type t);

/* ---- text buffer ------------------------------------------------------------ */

typedef struct {
  char *s;
  size_t len, cap;
  int oom; /* set when an allocation failed; further appends are ignored */
} op_io_buf;

void op_io_buf_printf(op_io_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Appends s with the five XML special characters escaped. */
void op_io_buf_xml(op_io_buf *b, const char *s);
void op_io_buf_free(op_io_buf *b);

/* ---- files --------------------------------------------------------------------- */

/* malloc'd "<file>.<host>-<pid>.tmp" (op_tmp_name: this process's alone), or
 * NULL when out of memory. */
char *op_io_tmpname(const char *file);
/* malloc'd copy of the directory part of path ("." when none). */
char *op_io_dirname(const char *path);
/* fsync(2) the file at path (opened read-write). */
int op_io_fsync_path(const op_io_ctx *c, const char *path);
/* Makes tmp durable (fsync), renames it over file (atomic on POSIX: readers see
 * either the old or the new file) and fsyncs the containing directory so that
 * the rename itself survives a crash. On failure tmp is removed. */
int op_io_commit(const op_io_ctx *c, const char *tmp, const char *file);
/* Writes len bytes to file via file.tmp + op_io_commit. */
int op_io_write_file_atomic(const op_io_ctx *c, const char *file, const char *data, size_t len);
/* Path of target relative to the directory dir, both interpreted relative to
 * the current directory; malloc'd, or NULL when out of memory or when the
 * current directory cannot be determined. */
char *op_io_relpath(const char *target, const char *dir);
/* 1 when path names an existing file system object, 0 when not. */
int op_io_path_exists(const char *path);

#endif /* OP_IO_UTIL_H */
