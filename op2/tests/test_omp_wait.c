/*
 * test_omp_wait - the OpenMP backend's rule for how idle threads wait
 * (op_omp_wait_rule): spinning when every thread has a core the load leaves
 * free, passive otherwise; the user's environment wins over auto, and an
 * explicit --op-wait wins over both.
 */
#include "op_omp_wait.h"

#include "test_expect.h"

int main(void) {
  /* auto, nothing in the environment: cores against threads and the load. */
  CHECK(op_omp_wait_rule(2, 2, 0.0, OP_OMP_WAIT_AUTO, 0) == OP_OMP_WAIT_SPIN,
        "idle 2 cores, 2 threads");
  CHECK(op_omp_wait_rule(2, 2, 0.4, OP_OMP_WAIT_AUTO, 0) == OP_OMP_WAIT_SPIN, "load 0.4 is idle");
  CHECK(op_omp_wait_rule(2, 2, 0.6, OP_OMP_WAIT_AUTO, 0) == OP_OMP_WAIT_SET_PASSIVE,
        "load 0.6 leaves 1.4 cores for 2 threads");
  CHECK(op_omp_wait_rule(2, 2, 3.0, OP_OMP_WAIT_AUTO, 0) == OP_OMP_WAIT_SET_PASSIVE, "load 3");
  CHECK(op_omp_wait_rule(2, 1, 1.0, OP_OMP_WAIT_AUTO, 0) == OP_OMP_WAIT_SPIN,
        "one thread, one core left");
  CHECK(op_omp_wait_rule(2, 3, 0.0, OP_OMP_WAIT_AUTO, 0) == OP_OMP_WAIT_SET_PASSIVE,
        "more threads than cores, idle");
  CHECK(op_omp_wait_rule(16, 8, 7.0, OP_OMP_WAIT_AUTO, 0) == OP_OMP_WAIT_SPIN,
        "16 cores, 8 threads, load 7");
  CHECK(op_omp_wait_rule(16, 8, 9.0, OP_OMP_WAIT_AUTO, 0) == OP_OMP_WAIT_SET_PASSIVE,
        "16 cores, 8 threads, load 9");
  CHECK(op_omp_wait_rule(2, 1, 9.0, OP_OMP_WAIT_AUTO, 0) == OP_OMP_WAIT_SPIN,
        "one thread waits for no other: left alone");
  CHECK(op_omp_wait_rule(1, 1, -1.0, OP_OMP_WAIT_AUTO, 0) == OP_OMP_WAIT_SPIN,
        "an unreadable load counts as idle");

  /* The user's environment wins over auto, busy or idle. */
  CHECK(op_omp_wait_rule(2, 2, 3.0, OP_OMP_WAIT_AUTO, 1) == OP_OMP_WAIT_USER, "env, busy");
  CHECK(op_omp_wait_rule(2, 2, 0.0, OP_OMP_WAIT_AUTO, 1) == OP_OMP_WAIT_USER, "env, idle");

  /* --op-wait=active|passive wins over the rule and the environment. */
  CHECK(op_omp_wait_rule(2, 2, 3.0, OP_OMP_WAIT_ACTIVE, 0) == OP_OMP_WAIT_SET_ACTIVE,
        "active, busy");
  CHECK(op_omp_wait_rule(2, 2, 3.0, OP_OMP_WAIT_ACTIVE, 1) == OP_OMP_WAIT_SET_ACTIVE,
        "active over the env");
  CHECK(op_omp_wait_rule(2, 2, 0.0, OP_OMP_WAIT_PASSIVE, 0) == OP_OMP_WAIT_SET_PASSIVE,
        "passive, idle");
  CHECK(op_omp_wait_rule(2, 2, 0.0, OP_OMP_WAIT_PASSIVE, 1) == OP_OMP_WAIT_SET_PASSIVE,
        "passive over the env");

  /* The option's values. */
  op_omp_wait_option o = OP_OMP_WAIT_AUTO;
  CHECK(op_omp_wait_option_parse("--op-wait=passive", &o) && o == OP_OMP_WAIT_PASSIVE, "passive");
  CHECK(op_omp_wait_option_parse("--op-wait=active", &o) && o == OP_OMP_WAIT_ACTIVE, "active");
  CHECK(op_omp_wait_option_parse("--op-wait=auto", &o) && o == OP_OMP_WAIT_AUTO, "auto");
  CHECK(!op_omp_wait_option_parse("--op-threads=2", &o), "another option");
  return check_exit("OpenMP wait rule");
}
