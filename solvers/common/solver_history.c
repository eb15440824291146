/* solver_history.c - a run's history as CSV (solver_history.h). */
#include "solver_history.h"

#include "op2.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result_json.h"

static void append(solver_history *h, const char *s, size_t n) {
  if (h->failed) return;
  if (h->len + n + 1 > h->cap) {
    size_t cap = h->cap ? h->cap : 4096;
    while (cap < h->len + n + 1) cap *= 2;
    char *p = realloc(h->text, cap);
    if (!p) {
      h->failed = 1;
      return;
    }
    h->text = p;
    h->cap = cap;
  }
  memcpy(h->text + h->len, s, n);
  h->len += n;
  h->text[h->len] = '\0';
}

void solver_history_init(solver_history *h, const char *header) {
  memset(h, 0, sizeof *h);
  append(h, header, strlen(header));
  append(h, "\n", 1);
}

void solver_history_add(solver_history *h, const char *fmt, ...) {
  char row[1024];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(row, sizeof row - 1, fmt, ap);
  va_end(ap);
  if (n < 0 || n >= (int)sizeof row - 1) {
    h->failed = 1; /* a row this long is a programming error */
    return;
  }
  row[n++] = '\n';
  append(h, row, (size_t)n);
}

static void fill(FILE *f, void *ctx) {
  const solver_history *h = ctx;
  fwrite(h->text, 1, h->len, f);
}

/* On many processes the root writes (every process keeps the same rows). */
int solver_history_write(const solver_history *h, const char *path, char *err, size_t errlen) {
  int rc = 0;
  if (h->failed) {
    snprintf(err, errlen, "%s: rows of the history were lost (out of memory)", path);
    rc = -1;
  } else if (op_is_root()) {
    rc = write_file_atomically(path, fill, (void *)h, err, errlen);
  }
  return op_root_status(rc);
}

void solver_history_free(solver_history *h) {
  free(h->text);
  memset(h, 0, sizeof *h);
}
