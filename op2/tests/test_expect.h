/*
 * test_expect.h - what the op2 library's tests share: EXPECT, which prints a
 * failed check and counts it in `failures` (each test's exit status), and,
 * where the test defines TEST_LCG_SEED before including this, lcg(): a small
 * linear congruential generator, so that a test's "random" mesh is the same
 * on every machine and every run.
 */
#ifndef OP2_TEST_EXPECT_H
#define OP2_TEST_EXPECT_H

#include <stdio.h>

static int failures;

#define EXPECT(cond, ...)           \
  do {                              \
    if (!(cond)) {                  \
      printf("FAIL: " __VA_ARGS__); \
      printf("\n");                 \
      failures++;                   \
    }                               \
  } while (0)

#ifdef TEST_LCG_SEED
static unsigned lcg_state = TEST_LCG_SEED;
static unsigned lcg(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state >> 8;
}
#endif

#endif
