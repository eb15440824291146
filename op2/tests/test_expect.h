/*
 * test_expect.h - what the op2 library's tests share: the checks of every
 * test (test_check.h: CHECK, check_exit) and, where the test defines
 * TEST_LCG_SEED before including this, lcg(): a small linear congruential
 * generator, so that a test's "random" mesh is the same on every machine and
 * every run.
 */
#ifndef OP2_TEST_EXPECT_H
#define OP2_TEST_EXPECT_H

#include "test_check.h"

#ifdef TEST_LCG_SEED
static unsigned lcg_state = TEST_LCG_SEED;
static unsigned lcg(void) {
  lcg_state = lcg_state * 1664525u + 1013904223u;
  return lcg_state >> 8;
}
#endif

#endif
