/*
 * op_parallel.h - work the library does outside loops (plans, declarations,
 * renumbering) spread over the backend's threads, and the memory that big
 * dats and maps live in. Not for applications.
 *
 * The core is compiled without OpenMP: a backend with threads registers its
 * way of running a range in pieces at op_init (op_set_parallel_for); without
 * one, op_parallel_for runs the pieces one after another. Work given to it
 * must not depend on the order of the pieces.
 */
#ifndef OP_PARALLEL_H
#define OP_PARALLEL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* fn(lo, hi, ctx) for consecutive pieces [lo, hi) covering [0, n). */
typedef void (*op_range_fn)(long lo, long hi, void *ctx);
typedef void (*op_parallel_impl)(long n, op_range_fn fn, void *ctx);

void op_parallel_for(long n, op_range_fn fn, void *ctx);
/* The backend's implementation (NULL: one piece after another). */
void op_set_parallel_for(op_parallel_impl impl);

/* Memory for dats and maps: 64-byte aligned; from 4 MiB on, aligned to 2 MiB
 * and, with op_set_huge_pages(1), advised to be backed by huge pages (fewer
 * TLB misses in loops that stream it; first touch may cost more). Not
 * initialised: fill it with op_parallel_copy / op_parallel_zero, so that
 * each thread first touches the part it will work on (NUMA-aware first
 * touch). Freed with free(). */
void *op_alloc_big(size_t bytes);
/* The same, zeroed, and left untouched (calloc: a big block is fresh pages,
 * which take no memory until written), huge pages advised from its first
 * 2 MiB boundary: a zero array that may never be written in full (the MPI
 * layer's slices of temporary dats). Freed with free(). */
void *op_alloc_big_zero(size_t bytes);
/* Whether op_alloc_big asks for huge pages (--op-huge-pages, OP_HUGE_PAGES;
 * default off): where the kernel compacts memory on demand to find them,
 * first touch may cost more than the pages save. */
void op_set_huge_pages(int on);
/* dst[0 .. bytes) = src (or zero when src is NULL), in pieces over the threads. */
void op_parallel_copy(void *dst, const void *src, size_t bytes);

#ifdef __cplusplus
}
#endif

#endif
