/* op_error.c - fatal errors and checked allocation. */
#include "op2_error.h"
#include "op2.h"
#include "op_dist.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void op_fatal_at(const char *file, int line, const char *func, const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  /* On many processes the message names the process that saw it; the exit
   * then ends the whole job (the MPI layer turns a failing exit into
   * MPI_Abort, so no process is left waiting). */
  if (op_dist && op_dist->nprocs > 0)
    fprintf(stderr, "OP2 error on rank %d of %d: ", op_dist->rank, op_dist->nprocs);
  else
    fprintf(stderr, "OP2 error: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n  (detected in %s at %s:%d)\n", func, file, line);
  exit(OP_EXIT_ERROR);
}

void op_warn_at(const char *file, int line, const char *func, const char *fmt, ...) {
  va_list ap;
  fflush(stdout);
  fprintf(stderr, "OP2 warning: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (%s at %s:%d)\n", func, file, line);
}

void *op_malloc_at(size_t bytes, const char *file, int line, const char *func) {
  void *p = malloc(bytes ? bytes : 1);
  if (!p) op_fatal_at(file, line, func, "out of memory allocating %zu bytes", bytes);
  return p;
}

void *op_calloc_at(size_t n, size_t bytes, const char *file, int line, const char *func) {
  void *p = calloc(n ? n : 1, bytes ? bytes : 1);
  if (!p) op_fatal_at(file, line, func, "out of memory allocating %zu x %zu bytes", n, bytes);
  return p;
}

void *op_realloc_at(void *p, size_t bytes, const char *file, int line, const char *func) {
  void *q = realloc(p, bytes ? bytes : 1);
  if (!q) op_fatal_at(file, line, func, "out of memory reallocating to %zu bytes", bytes);
  return q;
}

char *op_strdup_at(const char *s, const char *file, int line, const char *func) {
  size_t n = strlen(s) + 1;
  char *d = op_malloc_at(n, file, line, func);
  memcpy(d, s, n);
  return d;
}

/* ---- OP2's allocation calls (op2.h) ---- */

void *(op_malloc)(size_t bytes) { return op_malloc_at(bytes, __FILE__, __LINE__, "op_malloc"); }
void *(op_calloc)(size_t n, size_t bytes) {
  return op_calloc_at(n, bytes, __FILE__, __LINE__, "op_calloc");
}
void *(op_realloc)(void *p, size_t bytes) {
  return op_realloc_at(p, bytes, __FILE__, __LINE__, "op_realloc");
}
void (op_free)(void *p) { free(p); }
