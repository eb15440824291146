/*
 * solver_interrupt.h - Ctrl-C (SIGINT) or SIGTERM during a solver's run.
 *
 * A long run should not lose what it has computed when it is stopped. Once
 * solver_interrupt_install() has run, the first of these signals only sets a
 * flag: the solver ends the step it is in, leaves its time loop, writes its
 * results as they stand (fields, history, result.json, with a failed verdict
 * "not_interrupted" that says where it stopped) and exits with 128 + the
 * signal number, as a shell reports a program killed by it. A second signal
 * ends the program at once, as the default action does, after the cleanup
 * registered with solver_interrupt_on_kill (the run's unfinished outputs).
 */
#ifndef SOLVER_INTERRUPT_H
#define SOLVER_INTERRUPT_H

#include "solver_verdict.h"

/* fn runs (in the signal handler: it must be async-signal-safe) before the
 * process dies of SIGINT, SIGTERM, SIGHUP or SIGPIPE: at once for SIGHUP and
 * SIGPIPE, and for SIGINT and SIGTERM before solver_interrupt_install or at
 * their second arrival after it. SIGXFSZ is ignored from then on: a file
 * grown past ulimit -f fails its write (EFBIG) and the run stops with an
 * error instead of dying. */
void solver_interrupt_on_kill(void (*fn)(void));

/* Installs the handlers for SIGINT and SIGTERM; `solver` names the program
 * in the message printed when a signal arrives. */
void solver_interrupt_install(const char *solver);

/* The signal received (SIGINT or SIGTERM), or 0. */
int solver_interrupted(void);

/* When interrupted (a signal seen by the time loop, or one that arrived since,
 * while the final outputs were written: this asks again, collectively on
 * many processes): adds the failed verdict "not_interrupted", saying how far
 * the run got (printf-style, e.g. "step %d of %d"). Otherwise nothing. */
void solver_interrupt_verdict(solver_verdicts *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* After the time loop: when a signal arrived since its last
 * solver_interrupted() (on any process: collective), agrees on it and adds
 * "not_interrupted" as solver_interrupt_verdict does; returns 1 then, else 0
 * (also when the loop had already seen one: its verdict is there). */
int solver_interrupt_late(solver_verdicts *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The solver's exit status: 128 + the signal when interrupted, else 0 when
 * every verdict passed and 1 when one failed. */
int solver_exit_status(const solver_verdicts *v);

#endif
