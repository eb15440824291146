/*
 * solver_interrupt.c - see solver_interrupt.h.
 */
#include "solver_interrupt.h"

#include "op2.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t received;
/* The signal every process of the run has agreed on (one process: received). */
static int agreed;
static volatile sig_atomic_t graceful; /* solver_interrupt_install has run */
static volatile sig_atomic_t many;     /* the run has more than one process */
static void (*volatile at_kill)(void);
static char message[256];
static size_t message_len;

/* Ends the process as the signal would, after the cleanup registered with
 * solver_interrupt_on_kill (async-signal-safe by contract). */
static void die_of(int sig) {
  void (*fn)(void) = at_kill;
  if (fn) fn();
  signal(sig, SIG_DFL);
  raise(sig);
}

static void on_signal(int sig) {
  if (received) { /* the second one: stop at once */
    die_of(sig);
    return;
  }
  received = sig;
  /* write(2) is async-signal-safe; the text was made in advance. On many
   * processes nothing here: the root says it once the processes agree
   * (solver_interrupted), and a process torn down because another ended the
   * job (the launcher's SIGTERM) says nothing at all. */
  if (!many) {
    ssize_t w = write(STDERR_FILENO, message, message_len);
    (void)w;
  }
}

static void set_handler(int sig, void (*fn)(int)) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = fn;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART;
  if (sigaction(sig, &sa, NULL) != 0) perror("solver_interrupt: sigaction");
}

void solver_interrupt_on_kill(void (*fn)(void)) {
  at_kill = fn;
  if (!graceful) {
    set_handler(SIGINT, die_of);
    set_handler(SIGTERM, die_of);
  }
  set_handler(SIGHUP, die_of);
  set_handler(SIGPIPE, die_of); /* the output went away (a closed pipe) */
  /* A file grown past the size limit (ulimit -f): an error the write
   * reports (EFBIG), not a kill that would leave the outputs behind. */
  signal(SIGXFSZ, SIG_IGN);
}

void solver_interrupt_install(const char *solver) {
  snprintf(message, sizeof message,
           "\n%s: signal received: finishing this step and writing the results "
           "(send it again to stop at once)\n",
           solver);
  message_len = strlen(message);
  many = op_num_procs() > 1;
  graceful = 1;
  set_handler(SIGINT, on_signal);
  set_handler(SIGTERM, on_signal);
}

/* On many processes each may receive the signal at another moment: they
 * agree (the largest signal number any has) at every call, which every
 * process makes at the same point of its loop, so that all stop after the
 * same step. Collective on many processes. */
int solver_interrupted(void) {
  if (!agreed) {
    agreed = op_max_int((int)received);
    if (agreed && many && op_is_root()) {
      fputs(message + 1, stderr); /* without its leading newline */
      fflush(stderr);
    }
  }
  return agreed;
}

static void add_verdict(solver_verdicts *v, const char *fmt, va_list ap) {
  char progress[160];
  vsnprintf(progress, sizeof progress, fmt, ap);
  /* value: the signal received; the run passes only without one */
  solver_verdict_add(v, "not_interrupted", (double)agreed, SOLVER_EQUAL, 0.0,
                     "stopped by %s after %s; the results are those of that point",
                     agreed == SIGINT ? "SIGINT" : "SIGTERM", progress);
}

void solver_interrupt_verdict(solver_verdicts *v, const char *fmt, ...) {
  /* A signal may have come after the loop's last look, while the final
   * outputs were written: it counts as well. */
  if (graceful) solver_interrupted();
  if (!agreed) return;
  va_list ap;
  va_start(ap, fmt);
  add_verdict(v, fmt, ap);
  va_end(ap);
}

int solver_interrupt_late(solver_verdicts *v, const char *fmt, ...) {
  if (agreed || !graceful || !solver_interrupted()) return 0;
  va_list ap;
  va_start(ap, fmt);
  add_verdict(v, fmt, ap);
  va_end(ap);
  return 1;
}

int solver_exit_status(const solver_verdicts *v) {
  if (agreed) return 128 + agreed;
  return solver_verdicts_passed(v) ? 0 : 1;
}
