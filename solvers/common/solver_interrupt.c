/*
 * solver_interrupt.c - see solver_interrupt.h.
 */
#include "solver_interrupt.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static volatile sig_atomic_t received;
static char message[256];
static size_t message_len;

static void on_signal(int sig) {
  received = sig;
  /* write(2) is async-signal-safe; the text was made in advance. */
  ssize_t w = write(STDERR_FILENO, message, message_len);
  (void)w;
}

void solver_interrupt_install(const char *solver) {
  snprintf(message, sizeof message,
           "\n%s: signal received: finishing this step and writing the results "
           "(send it again to stop at once)\n",
           solver);
  message_len = strlen(message);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  /* The first signal is ours; the next one gets the default action. */
  sa.sa_flags = SA_RESETHAND | SA_RESTART;
  if (sigaction(SIGINT, &sa, NULL) != 0 || sigaction(SIGTERM, &sa, NULL) != 0)
    perror("solver_interrupt_install: sigaction");
}

int solver_interrupted(void) { return (int)received; }

void solver_interrupt_verdict(solver_verdicts *v, const char *fmt, ...) {
  if (!received) return;
  char progress[160];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(progress, sizeof progress, fmt, ap);
  va_end(ap);
  /* value: the signal received; the run passes only without one */
  solver_verdict_add(v, "not_interrupted", (double)received, SOLVER_EQUAL, 0.0,
                     "stopped by %s after %s; the results are those of that point",
                     received == SIGINT ? "SIGINT" : "SIGTERM", progress);
}

int solver_exit_status(const solver_verdicts *v) {
  if (received) return 128 + (int)received;
  return solver_verdicts_passed(v) ? 0 : 1;
}
