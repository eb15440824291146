/*
 * op_parallel.c - the library's own work over the backend's threads, and
 * memory for big arrays (op_parallel.h).
 */
/* madvise's MADV_HUGEPAGE is not POSIX. */
#define _DEFAULT_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "op2_error.h"
#include "op_parallel.h"

static op_parallel_impl parallel_impl;

void op_set_parallel_for(op_parallel_impl impl) { parallel_impl = impl; }

void op_parallel_for(long n, op_range_fn fn, void *ctx) {
  if (n <= 0) return;
  if (parallel_impl)
    parallel_impl(n, fn, ctx);
  else
    fn(0, n, ctx);
}

#define HUGE_PAGE ((size_t)2 << 20)
#define BIG_ARRAY ((size_t)4 << 20)

/* Off by default: with the kernel's THP defrag set to "madvise" (Debian's and
 * this suite's test guests'), advised memory is compacted on demand at first
 * touch, which cost 1.9-2.5 s of system time a GB there against 0.4 s for
 * normal pages (docs/performance.md, "Set-up and plans"), for loops 1-3%
 * faster. Long runs over big meshes may turn it on. */
static int huge_pages = 0;

void op_set_huge_pages(int on) { huge_pages = on; }

void *op_alloc_big(size_t bytes) {
  const size_t align = bytes >= BIG_ARRAY ? HUGE_PAGE : 64;
  /* Rounded up to the alignment, so that the last huge page is whole. */
  const size_t rounded = bytes ? (bytes + align - 1) / align * align : align;
  void *p = NULL;
  const int err = posix_memalign(&p, align, rounded);
  if (err || !p) op_fatal("out of memory allocating %zu bytes", bytes);
#ifdef MADV_HUGEPAGE
  /* Advice only: where transparent huge pages are off, nothing changes. */
  if (align == HUGE_PAGE && huge_pages) (void)madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

void *op_alloc_big_zero(size_t bytes) {
  char *p = calloc(bytes ? bytes : 1, 1);
  if (!p) op_fatal("out of memory allocating %zu bytes", bytes);
#ifdef MADV_HUGEPAGE
  const uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) / HUGE_PAGE * HUGE_PAGE;
  const uintptr_t hi = ((uintptr_t)p + bytes) / HUGE_PAGE * HUGE_PAGE;
  if (bytes >= BIG_ARRAY && huge_pages && hi > lo) (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#endif
  return p;
}

typedef struct {
  char *dst;
  const char *src;
} copy_job;

/* Pieces of 64 KiB: a thread's pieces are contiguous under a static schedule. */
#define COPY_PIECE ((long)1 << 16)

static void copy_pieces(long lo, long hi, void *ctx) {
  const copy_job *j = ctx;
  const size_t a = (size_t)lo * COPY_PIECE, b = (size_t)hi * COPY_PIECE;
  if (j->src)
    memcpy(j->dst + a, j->src + a, b - a);
  else
    memset(j->dst + a, 0, b - a);
}

void op_parallel_copy(void *dst, const void *src, size_t bytes) {
  const size_t whole = bytes / (size_t)COPY_PIECE * (size_t)COPY_PIECE;
  copy_job j = {dst, src};
  op_parallel_for((long)(whole / (size_t)COPY_PIECE), copy_pieces, &j);
  if (bytes > whole) {
    if (src)
      memcpy((char *)dst + whole, (const char *)src + whole, bytes - whole);
    else
      memset((char *)dst + whole, 0, bytes - whole);
  }
}
