/*
 * check.h - the few assertion macros the common unit tests use.
 */
#ifndef SOLVER_COMMON_TESTS_CHECK_H
#define SOLVER_COMMON_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

extern int check_failures;

#define CHECK(cond)                                                                         \
  do {                                                                                      \
    if (!(cond)) {                                                                          \
      fprintf(stderr, "%s:%d: %s: check failed: %s\n", __FILE__, __LINE__, __func__, #cond); \
      check_failures++;                                                                     \
    }                                                                                       \
  } while (0)

/* text must contain every one of the strings that follow (NULL-terminated). */
#define CHECK_HAS(text, ...) check_has(__FILE__, __LINE__, __func__, (text), __VA_ARGS__, (const char *)NULL)

int check_has(const char *file, int line, const char *func, const char *text, ...);

#endif
