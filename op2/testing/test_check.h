/*
 * test_check.h - the checks of every C test in the suite (docs/developing.md,
 * "Tests"):
 *
 *   CHECK(cond)               a failure when cond is false: file, line and cond
 *                             on stderr, counted in check_failures;
 *   CHECK(cond, fmt, ...)     the same with a printf message, to show the
 *                             values that made it fail;
 *   CHECK_HAS(text, s, ...)   text contains every one of the strings s, ...;
 *   check_exit(name)          the test's exit status: 0 when no check failed,
 *                             1 otherwise, with one line saying which.
 *
 * After CHECK_MAX_FAILURES failures the test stops (exit 1): a loop over a
 * mesh gone wrong says enough in its first few lines.
 *
 * Two hooks, defined before this header is included, make the checks of a
 * program on many processes name the process: CHECK_RANK() (the rank, or -1
 * for none) and CHECK_STOP() (how to stop every process). test_check_mpi.h
 * defines both for the tests that use MPI themselves.
 *
 * The counters are static: a test is one source file (with the library's
 * code), and its main calls check_exit.
 */
#ifndef OP2_TEST_CHECK_H
#define OP2_TEST_CHECK_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef CHECK_MAX_FAILURES
#define CHECK_MAX_FAILURES 30
#endif
#ifndef CHECK_RANK
#define CHECK_RANK() (-1)
#endif
#ifndef CHECK_STOP
#define CHECK_STOP() exit(1)
#endif

static int check_failures;
static int check_count;

/* The start of a failure's line: "[rank R: ]FILE:LINE: check failed: COND". */
static inline void check_fail_begin(const char *file, int line, const char *cond) {
  fflush(stdout); /* what the test printed before comes first */
  int rank = CHECK_RANK();
  if (rank >= 0) fprintf(stderr, "rank %d: ", rank);
  fprintf(stderr, "%s:%d: check failed: %s", file, line, cond);
}

/* The end of a failure's line; counts it, and stops the test after too many. */
static inline void check_fail_end(void) {
  fputc('\n', stderr);
  if (++check_failures >= CHECK_MAX_FAILURES) {
    fprintf(stderr, "%d failed checks: stopping here\n", check_failures);
    fflush(stdout);
    CHECK_STOP();
  }
}

#define CHECK_ONE_(cond)                           \
  do {                                             \
    check_count++;                                 \
    if (!(cond)) {                                 \
      check_fail_begin(__FILE__, __LINE__, #cond); \
      check_fail_end();                            \
    }                                              \
  } while (0)

#define CHECK_MSG_(cond, ...)                      \
  do {                                             \
    check_count++;                                 \
    if (!(cond)) {                                 \
      check_fail_begin(__FILE__, __LINE__, #cond); \
      fputs(": ", stderr);                         \
      fprintf(stderr, __VA_ARGS__);                \
      check_fail_end();                            \
    }                                              \
  } while (0)

/* CHECK(cond) or CHECK(cond, fmt, ...): the 33rd argument of the list below
 * is CHECK_ONE_ when CHECK has one argument, CHECK_MSG_ when it has 2 to 32. */
#define CHECK_PICK_(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, \
                    a18, a19, a20, a21, a22, a23, a24, a25, a26, a27, a28, a29, a30, a31, a32,  \
                    name, ...)                                                                  \
  name
#define CHECK(...)                                                                                 \
  CHECK_PICK_(__VA_ARGS__, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, \
              CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_,  \
              CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_,  \
              CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_,  \
              CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_MSG_, CHECK_ONE_, none)                    \
  (__VA_ARGS__)

/* text (NULL counts as empty) must contain every one of the strings that
 * follow; each one missing is a failure. Returns 1 when all are there. */
#define CHECK_HAS(text, ...) \
  check_has(__FILE__, __LINE__, #text, (text), __VA_ARGS__, (const char *)NULL)

static inline int check_has(const char *file, int line, const char *expr, const char *text, ...) {
  va_list ap;
  int ok = 1;
  va_start(ap, text);
  for (const char *s = va_arg(ap, const char *); s != NULL; s = va_arg(ap, const char *)) {
    check_count++;
    if (text == NULL || strstr(text, s) == NULL) {
      check_fail_begin(file, line, expr);
      fprintf(stderr, ": \"%s\" does not contain \"%s\"", text ? text : "(null)", s);
      check_fail_end();
      ok = 0;
    }
  }
  va_end(ap);
  return ok;
}

/* The exit status of a test named name: 0 when every check passed. */
static inline int check_exit(const char *name) {
  if (check_failures) {
    fprintf(stderr, "%s: %d of %d check(s) FAILED\n", name, check_failures, check_count);
    return 1;
  }
  printf("%s: all %d checks passed\n", name, check_count);
  return 0;
}

#endif
