/*
 * op_io_common.h - error codes shared by the OP2 I/O modules (op_hdf5.h,
 * op_xdmf.h, op_ppm.h, op_checkpoint.h).
 *
 * Every lower-level I/O function returns OP_IO_OK (0) on success or one of
 * the negative codes below, and, when given a buffer (err, errlen), writes a
 * one-line message into it that names the file and the object (dataset,
 * attribute, ...) involved and the source location that detected the error.
 * err may be NULL (errlen is then ignored).
 */
#ifndef OP_IO_COMMON_H
#define OP_IO_COMMON_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
  OP_IO_OK = 0,
  OP_IO_EARG = -1,    /* invalid argument (NULL pointer, bad name, bad dim...) */
  OP_IO_ENOFILE = -2, /* file missing, or cannot be opened / created */
  OP_IO_EFORMAT = -3, /* not an HDF5 / PPM file, truncated or corrupt */
  OP_IO_ENOENT = -4,  /* dataset, attribute or scalar missing in the file */
  OP_IO_ESHAPE = -5,  /* stored shape differs from the expected one */
  OP_IO_ETYPE = -6,   /* stored element type differs from the requested one */
  OP_IO_ERANGE = -7,  /* map entry outside [0, to->size) */
  OP_IO_EIO = -8,     /* a read, write, flush, sync or rename failed */
  OP_IO_ENOMEM = -9   /* out of memory */
};

/* Short text for an error code ("dataset missing", ...). */
const char *op_io_strerror(int code);

/* Recommended size of an error buffer. */
#define OP_IO_ERRLEN 1024

#ifdef __cplusplus
}
#endif

#endif /* OP_IO_COMMON_H */
