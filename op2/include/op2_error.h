/*
 * op2_error.h - one way to report a failure: a message with the file, line and
 * function where it was detected, then exit. Library misuse is a fatal error
 * (as in OP2) because a parallel loop with a wrong argument cannot run safely.
 */
#ifndef OP2_ERROR_H
#define OP2_ERROR_H

#include <stddef.h>

#if defined(__GNUC__)
#define OP_NORETURN __attribute__((noreturn))
#define OP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define OP_NORETURN
#define OP_PRINTF(a, b)
#endif

/* Exit statuses (docs/errors.md): 1 is kept for a run whose validation
 * failed; anything that stops a run before it has results (bad input, a bad
 * option, a file that cannot be read or written, out of memory, misuse of the
 * library) exits with 2. */
#define OP_EXIT_ERROR 2

#ifdef __cplusplus
extern "C" {
#endif

OP_NORETURN void op_fatal_at(const char *file, int line, const char *func, const char *fmt, ...)
    OP_PRINTF(4, 5);
void op_warn_at(const char *file, int line, const char *func, const char *fmt, ...) OP_PRINTF(4, 5);

/* Allocation that never returns NULL (fatal error naming the caller instead). */
void *op_malloc_at(size_t bytes, const char *file, int line, const char *func);
void *op_calloc_at(size_t n, size_t bytes, const char *file, int line, const char *func);
void *op_realloc_at(void *p, size_t bytes, const char *file, int line, const char *func);
char *op_strdup_at(const char *s, const char *file, int line, const char *func);

#ifdef __cplusplus
}
#endif

#define op_fatal(...) op_fatal_at(__FILE__, __LINE__, __func__, __VA_ARGS__)
#define op_warn(...) op_warn_at(__FILE__, __LINE__, __func__, __VA_ARGS__)
#define OP_CHECK(cond, ...)      \
  do {                           \
    if (!(cond)) op_fatal(__VA_ARGS__); \
  } while (0)
#define op_malloc(b) op_malloc_at((b), __FILE__, __LINE__, __func__)
#define op_calloc(n, b) op_calloc_at((n), (b), __FILE__, __LINE__, __func__)
#define op_realloc(p, b) op_realloc_at((p), (b), __FILE__, __LINE__, __func__)
#define op_strdup(s) op_strdup_at((s), __FILE__, __LINE__, __func__)

#endif
