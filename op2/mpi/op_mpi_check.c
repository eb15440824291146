/* op_mpi_check.c - fatal errors of the MPI layer: one message, then MPI_Abort. */
#include "op_mpi_check.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int exit_ends_job;

void op_mpi_exit_ends_job(void) { exit_ends_job = 1; }

/* Prints "OP2 error on rank R of P: <text>" and the place, then ends the job. */
static OP_NORETURN void abort_job(int code, const char *file, int line, const char *func,
                                  const char *text) {
  int init = 0, fin = 0, rank = -1, size = 0;
  MPI_Initialized(&init);
  MPI_Finalized(&fin);
  if (init && !fin) {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
  }
  fflush(stdout);
  if (rank >= 0)
    fprintf(stderr, "OP2 error on rank %d of %d: %s\n  (detected in %s at %s:%d)\n", rank, size,
            text, func, file, line);
  else
    fprintf(stderr, "OP2 error: %s\n  (detected in %s at %s:%d)\n", text, func, file, line);
  /* Through exit(3) where its handler ends the job (op_mpi_exit_ends_job):
   * the exit handlers the program registered run first (a solver removes its
   * unfinished outputs), then the handler calls MPI_Abort with the code; a
   * process other than the root leaves its message to the handler, which
   * prints it unless the root reports the same failure first. */
  if (exit_ends_job) exit(code);
  fflush(stderr);
  if (init && !fin) MPI_Abort(MPI_COMM_WORLD, code);
  exit(code);
}

static OP_NORETURN void vabort(int code, const char *file, int line, const char *func,
                               const char *fmt, va_list ap) {
  char text[2048];
  vsnprintf(text, sizeof text, fmt, ap);
  abort_job(code, file, line, func, text);
}

void op_mpi_fatal_at(const char *file, int line, const char *func, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vabort(OP_MPI_ABORT_CODE, file, line, func, fmt, ap);
}

void op_mpi_bad_input_at(const char *file, int line, const char *func, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vabort(OP_EXIT_ERROR, file, line, func, fmt, ap);
}

void op_mpi_fail_mpi(int rc, const char *call, const char *file, int line, const char *func) {
  char es[MPI_MAX_ERROR_STRING + 1];
  int len = 0;
  if (MPI_Error_string(rc, es, &len) != MPI_SUCCESS) len = snprintf(es, sizeof es, "error code %d", rc);
  es[len < MPI_MAX_ERROR_STRING ? len : MPI_MAX_ERROR_STRING] = '\0';
  op_mpi_fatal_at(file, line, func, "MPI call %s failed: %s", call, es);
}

void op_mpi_fail_scotch(int rc, const char *call, const char *file, int line, const char *func) {
  op_mpi_fatal_at(file, line, func,
                  "PT-Scotch call %s failed (returned %d; PT-Scotch's own message, if any, is "
                  "printed above)",
                  call, rc);
}

static size_t checked_bytes(size_t n, size_t size, const char *file, int line, const char *func) {
  if (size && n > SIZE_MAX / size)
    op_mpi_fatal_at(file, line, func, "allocation of %zu x %zu bytes overflows", n, size);
  return n * size;
}

void *op_mpi_malloc_at(size_t n, size_t size, const char *file, int line, const char *func) {
  size_t bytes = checked_bytes(n, size, file, line, func);
  void *p = malloc(bytes ? bytes : 1);
  if (!p) op_mpi_fatal_at(file, line, func, "out of memory allocating %zu bytes", bytes);
  return p;
}

void *op_mpi_calloc_at(size_t n, size_t size, const char *file, int line, const char *func) {
  checked_bytes(n, size, file, line, func);
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) op_mpi_fatal_at(file, line, func, "out of memory allocating %zu x %zu bytes", n, size);
  return p;
}

void *op_mpi_realloc_at(void *p, size_t n, size_t size, const char *file, int line,
                        const char *func) {
  size_t bytes = checked_bytes(n, size, file, line, func);
  void *q = realloc(p, bytes ? bytes : 1);
  if (!q) op_mpi_fatal_at(file, line, func, "out of memory reallocating to %zu bytes", bytes);
  return q;
}
