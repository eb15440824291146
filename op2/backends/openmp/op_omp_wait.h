/*
 * op_omp_wait.h - how the OpenMP backend's idle threads wait at the end of a
 * colour: spinning (libgomp's default, fastest when every thread has a core
 * of its own) or asleep (OMP_WAIT_POLICY=passive: a thread that spins while
 * the thread it waits for has lost its core wastes that core's time slice).
 *
 * libgomp reads OMP_WAIT_POLICY and GOMP_SPINCOUNT once, when the program is
 * loaded, and offers no call to change them afterwards (GCC's libgomp manual,
 * "OMP_WAIT_POLICY", "GOMP_SPINCOUNT"). So the choice is made before main:
 * a constructor reads the command line (--op-wait, --op-threads), the cores
 * this process may run on (sched_getaffinity) and the load (/proc/loadavg:
 * the 1-minute average, or the threads runnable now besides this one where
 * more), and where the choice needs another setting than the environment
 * has, sets it and executes the program once more, the same arguments and
 * the same process (docs/op2-library.md, "Waiting threads").
 */
#ifndef OP_OMP_WAIT_H
#define OP_OMP_WAIT_H

#ifdef __cplusplus
extern "C" {
#endif

/* What the user asked for: --op-wait=auto (default), active or passive. */
typedef enum { OP_OMP_WAIT_AUTO = 0, OP_OMP_WAIT_ACTIVE, OP_OMP_WAIT_PASSIVE } op_omp_wait_option;

/* What the program runs with. */
typedef enum {
  OP_OMP_WAIT_SPIN = 0,    /* libgomp's default: spin a while, then sleep (environment untouched) */
  OP_OMP_WAIT_USER,        /* OMP_WAIT_POLICY or GOMP_SPINCOUNT as the user set them */
  OP_OMP_WAIT_SET_ACTIVE,  /* OMP_WAIT_POLICY=active (asked for) */
  OP_OMP_WAIT_SET_PASSIVE, /* OMP_WAIT_POLICY=passive (asked for, or auto on a busy machine) */
} op_omp_wait_choice;

/* The rule, a pure function. An explicit --op-wait=active|passive wins; under
 * auto the user's OMP_WAIT_POLICY / GOMP_SPINCOUNT (user_env != 0) win; else
 * spinning when one thread (nothing waits) or when every thread has a core
 * that the load leaves free (threads <= cores and threads <= cores - load +
 * 0.5), passive otherwise. */
op_omp_wait_choice op_omp_wait_rule(int cores, int threads, double load, op_omp_wait_option option,
                                    int user_env);

/* Reads --op-wait=VALUE into *option; returns 1 when arg was that option
 * (fatal on a bad value), 0 otherwise. */
int op_omp_wait_option_parse(const char *arg, op_omp_wait_option *option);

/* What the program was started with, and why, in words (for --op-diags=2). */
const char *op_omp_wait_text(void);

#define OP_OMP_WAIT_USAGE                                                                    \
  "  --op-wait=W         OpenMP threads waiting at a colour's end: active (spin), passive\n" \
  "                      (sleep), auto (default: spin when each thread has a free core by\n" \
  "                      the cores this process may use and the 1-minute load, else\n"       \
  "                      passive; OMP_WAIT_POLICY or GOMP_SPINCOUNT, when set, win)\n"

#ifdef __cplusplus
}
#endif

#endif
