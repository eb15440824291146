/*
 * op_checkpoint.h - checkpoint / restart of OP2 dats and named scalars in HDF5.
 *
 * File layout: every dat in the OP2 layout (op_hdf5.h: dataset [set size, dim]
 * named after the dat, attributes "dim", "type", "set"), the sizes of their
 * sets (one-element datasets named after the sets, unless a dat has the same
 * name), and a group /checkpoint with attributes "format" = "op2-checkpoint"
 * and "version" = 1 whose subgroup /checkpoint/scalars carries one double
 * attribute per named scalar ("iteration", "time", ...).
 *
 * Crash safety: the checkpoint is written to "<file>.tmp", flushed to disk
 * (fsync), then renamed over <file> (rename(2) replaces atomically on POSIX)
 * and the directory is synced. A crash at any point leaves either the previous
 * checkpoint or the new one, never a mixture; a stale .tmp is ignored by
 * op_checkpoint_read and overwritten by the next op_checkpoint_write.
 */
#ifndef OP_CHECKPOINT_H
#define OP_CHECKPOINT_H

#include <stddef.h>

#include "op2.h"
#include "op_io_common.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Writes the host-current data of every dat (op_fetch_data_ptr) and the
 * scalars. Dat names and scalar names must be unique. Returns OP_IO_OK or an
 * OP_IO_E* code with a message naming the file and the dataset/scalar. */
int op_checkpoint_write(const char *file, const op_dat *dats, int ndats,
                        const char *const *scalar_names, const double *scalars, int nscalars,
                        char *err, size_t errlen);

/* Restores every dat bitwise (then op_host_data_changed) and the scalars.
 * Everything is validated and read before anything is changed: a missing
 * dataset or scalar, a shape other than [set size, dim], another element
 * type, another set name, "dim" or "type" attributes that disagree with the
 * dat, a count of dats ("ndats") other than ndats, or a file that is not an
 * OP2 checkpoint leaves the dats and scalars untouched. The scalars come back
 * as stored: range-check them (op_checkpoint_int) before use. */
int op_checkpoint_read(const char *file, op_dat *dats, int ndats,
                       const char *const *scalar_names, double *scalars, int nscalars,
                       char *err, size_t errlen);

/* Checks a scalar read back from a checkpoint: an integer in [lo, hi]
 * (NaN, infinities, fractions and values outside are refused). Returns
 * OP_IO_OK with the value in *out, or OP_IO_ERANGE with a message naming the
 * file and the scalar. */
int op_checkpoint_int(const char *file, const char *name, double value, long long lo,
                      long long hi, long long *out, char *err, size_t errlen);

/* 1 when file exists and is an OP2 checkpoint, else 0 (never prints). */
int op_checkpoint_exists(const char *file);

#ifdef __cplusplus
}
#endif

#endif /* OP_CHECKPOINT_H */
