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
 * A checkpoint may name the mesh it was written on (op_checkpoint_write_for_mesh: the
 * attribute "mesh" of /checkpoint holds op_mesh_fingerprint's text); read with
 * op_checkpoint_read_for_mesh, it restores only onto a mesh of the same fingerprint.
 *
 * Crash safety: the checkpoint is written to "<file>.<host>-<pid>.tmp" (the
 * writing process's own, op_tmpname.h), flushed to disk (fsync), then renamed
 * over <file> (rename(2) replaces atomically on POSIX) and the directory is
 * synced. A crash at any point leaves either the previous checkpoint or the
 * new one, never a mixture; a stale temporary is ignored by
 * op_checkpoint_read (and removed by op_tmp_sweep).
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

/* The room op_mesh_fingerprint's text needs (with its NUL). */
#define OP_MESH_FINGERPRINT_LEN 256

/* A fingerprint of a mesh: the size of every set the maps and dats are
 * declared on or map into (in order of first appearance, by name), and a
 * 64-bit hash (FNV-1a) of the maps' entries and the dats' values in the
 * user's numbering, in the order a file holds them, as little-endian bytes:
 * the same on any number of processes and with or without op_renumber. Two
 * meshes of the same counts whose elements are numbered otherwise, or whose
 * coordinates differ, have different fingerprints. Text of the form
 * "nodes 793, cells 720, edges 1388, bedges 104; hash 9f2c04d1a3b5e677",
 * written into fp (OP_MESH_FINGERPRINT_LEN bytes at least) on every process.
 * Collective: the root hashes the gathered maps and dats. Returns OP_IO_OK,
 * or an error code with the message in err. */
int op_mesh_fingerprint(const op_map *maps, int nmaps, const op_dat *dats, int ndats, char *fp,
                        size_t fplen, char *err, size_t errlen);

/* op_checkpoint_write, and the fingerprint of the mesh (op_mesh_fingerprint)
 * stored beside the state. */
int op_checkpoint_write_for_mesh(const char *file, const char *mesh, const op_dat *dats,
                                 int ndats, const char *const *scalar_names,
                                 const double *scalars, int nscalars, char *err, size_t errlen);

/* op_checkpoint_read onto the mesh of fingerprint `mesh`: a checkpoint
 * written on another mesh ("the checkpoint was written on another mesh: its
 * mesh is '...', this run's is '...'") or naming none is refused
 * (OP_IO_EFORMAT), and nothing is changed. */
int op_checkpoint_read_for_mesh(const char *file, const char *mesh, op_dat *dats, int ndats,
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
