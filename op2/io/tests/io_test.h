/*
 * io_test.h - what the op2_io tests share besides the checks of test_check.h:
 * error codes and their messages, paths in the test folder, whole files.
 */
#ifndef IO_TEST_H
#define IO_TEST_H

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "op_tmpname.h"
#include "test_check.h"

/* rc must equal expect and err must contain each non-NULL word. */
#define CHECK_ERR(rc, expect, err, w1, w2) \
  io_check_err((rc), (expect), (err), (w1), (w2), __FILE__, __LINE__)

static inline void io_check_err(int rc, int expect, const char *err, const char *w1,
                                const char *w2, const char *file, int line) {
  check_count++;
  if (rc != expect) {
    check_fail_begin(file, line, "the return code");
    fprintf(stderr, ": expected %d, got %d (%s)", expect, rc, err);
    check_fail_end();
    return;
  }
  const char *words[2] = {w1, w2};
  for (int i = 0; i < 2; i++)
    if (words[i] && !strstr(err, words[i])) {
      check_fail_begin(file, line, "the message");
      fprintf(stderr, ": lacks '%s': %s", words[i], err);
      check_fail_end();
    }
  if (expect != 0)
    printf("  ok (expected error): %s\n", err);
}

/* dir/name in one of a few rotating static buffers. */
static inline const char *io_path(const char *dir, const char *name) {
  static char bufs[32][4096];
  static int k = 0;
  char *b = bufs[k++ % 32];
  snprintf(b, sizeof bufs[0], "%s/%s", dir, name);
  return b;
}

/* The temporary dir/name is written under by this process (op_tmpname.h), in
 * a rotating static buffer too. */
static inline const char *io_tmp_path(const char *dir, const char *name) {
  static char bufs[8][4352];
  static int k = 0;
  char *b = bufs[k++ % 8];
  if (!op_tmp_name(io_path(dir, name), b, sizeof bufs[0]))
    b[0] = '\0';
  return b;
}

static inline int io_file_exists(const char *p) {
  struct stat st;
  return stat(p, &st) == 0;
}

static inline long long io_file_size(const char *p) {
  struct stat st;
  return stat(p, &st) == 0 ? (long long)st.st_size : -1;
}

/* mkdir -p for one level (parents must exist). */
static inline void io_mkdir(const char *p) {
  if (mkdir(p, 0777) != 0 && !io_file_exists(p)) {
    perror(p);
    exit(2);
  }
}

/* Reads a whole file into a malloc'd NUL-terminated string (NULL on error). */
static inline char *io_slurp(const char *p) {
  FILE *f = fopen(p, "rb");
  if (!f)
    return NULL;
  char *s = NULL;
  size_t n = 0, cap = 0;
  int c;
  while ((c = fgetc(f)) != EOF) {
    if (n + 2 > cap) {
      cap = cap ? 2 * cap : 4096;
      char *t = realloc(s, cap);
      if (!t) {
        free(s);
        fclose(f);
        return NULL;
      }
      s = t;
    }
    s[n++] = (char)c;
  }
  fclose(f);
  if (!s)
    s = calloc(1, 1);
  else
    s[n] = '\0';
  return s;
}

#endif /* IO_TEST_H */
