/*
 * op_tmpname.h - the temporary names files are written under before they are
 * renamed into place, unique to the process that writes them.
 *
 * A file written as "<file>.tmp" by two runs at once (two runs on one output
 * folder, two runs generating one mesh, two runs saving one tune file) is
 * written into by both, and one run's rename fails or moves the other's half
 * file into place. "<file>.<host>-<pid>.tmp" is one process's alone; a process
 * killed while writing leaves its temporary behind, and op_tmp_sweep removes
 * those of processes of this host that are gone.
 * Plain C, no dependencies (linked with op_text into op2_text).
 */
#ifndef OP_TMPNAME_H
#define OP_TMPNAME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* This host's name as a part of a file name: letters, digits, '-' and '_'
 * kept, any other byte made '_' ("host" when it has none). */
const char *op_tmp_host(void);

/* "<path>.<host>-<pid>.tmp" into buf; NULL when it does not fit in len. */
char *op_tmp_name(const char *path, char *buf, size_t len);

/* 1 when name (a file name, without its directory) is a temporary of
 * op_tmp_name whose process was of this host and is gone, else 0. */
int op_tmp_is_stale(const char *name);

/* Removes from dir the stale temporaries (op_tmp_is_stale) whose name starts
 * with prefix ("" for any), calling removed(path, ctx) for each one removed
 * (may be NULL). Returns how many were removed. */
int op_tmp_sweep(const char *dir, const char *prefix, void (*removed)(const char *path, void *ctx),
                 void *ctx);

#ifdef __cplusplus
}
#endif

#endif /* OP_TMPNAME_H */
