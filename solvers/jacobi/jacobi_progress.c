/*
 * jacobi_progress.c - the progress a long set-up reports: the builders
 * (jacobi_system.c) and the Matrix Market reader (jacobi_mtx.c) both call
 * jacobi_progress, so it lives below them both (jacobi_system.h).
 */
#include "jacobi_system.h"

static void (*progress_fn)(double, void *);
static void *progress_ctx;

void jacobi_set_progress(void (*fn)(double fraction, void *ctx), void *ctx) {
  progress_fn = fn;
  progress_ctx = ctx;
}

void jacobi_progress(double fraction) {
  if (progress_fn) progress_fn(fraction, progress_ctx);
}
