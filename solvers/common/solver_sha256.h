/*
 * solver_sha256.h - SHA-256 (FIPS 180-4) of a file, for result.json's list
 * of the files of a run: `sha256sum FILE` prints the same digest, so a set of
 * results can be checked with the tools every system has.
 */
#ifndef SOLVER_SHA256_H
#define SOLVER_SHA256_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  uint32_t h[8];
  uint64_t bytes;
  unsigned char block[64];
  size_t used;
} solver_sha256;

void solver_sha256_init(solver_sha256 *s);
void solver_sha256_update(solver_sha256 *s, const void *data, size_t n);
/* The digest as 64 lowercase hex digits and a NUL. */
void solver_sha256_hex(solver_sha256 *s, char hex[65]);

/* The digest of the file at path into hex, its size into *bytes. Returns 0,
 * or -1 (errno set) when it cannot be read. */
int solver_sha256_file(const char *path, char hex[65], long long *bytes);

#endif
