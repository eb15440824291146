/*
 * fuzz_util.h - what the libFuzzer harnesses share: the fuzzer's bytes as a
 * file (the readers take a path, as users give them one).
 */
#ifndef FUZZ_UTIL_H
#define FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A file of this process in $TMPDIR (default /tmp), rewritten for every
 * input; removed at exit. */
static char fuzz_path[4096];

static void fuzz_remove_file(void) {
  if (fuzz_path[0]) unlink(fuzz_path);
}

static const char *fuzz_file(const uint8_t *data, size_t size, const char *suffix) {
  if (!fuzz_path[0]) {
    const char *tmp = getenv("TMPDIR");
    snprintf(fuzz_path, sizeof fuzz_path, "%s/op2-fuzz-%ld%s", tmp && *tmp ? tmp : "/tmp",
             (long)getpid(), suffix);
    atexit(fuzz_remove_file);
  }
  FILE *f = fopen(fuzz_path, "wb");
  if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
    perror(fuzz_path);
    abort();
  }
  return fuzz_path;
}

#endif
