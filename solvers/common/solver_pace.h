/*
 * solver_pace.h - how far the main loop of a run has come and how long the
 * rest will take, as the text its progress lines end with:
 *
 *     100/1000, 10%, 8.1 s, about 1 min 13 s left
 *
 * (the solver writes "100/1000"; this writes the rest). The estimate is the
 * time so far scaled by the work left (elapsed (1 - f) / f for a fraction f
 * done), which holds for loops whose iterations cost the same. A run whose
 * regular lines are far apart (a deck that prints rarely, or never) also
 * prints a line of its own when a line is due (solver_pace_due), so that a
 * long run never goes quiet for more than SOLVER_PACE_QUIET seconds.
 *
 * Times are seconds of CLOCK_MONOTONIC (solver_pace_now), passed in, so that
 * the functions are tested with made-up clocks.
 */
#ifndef SOLVER_COMMON_PACE_H
#define SOLVER_COMMON_PACE_H

#include <stddef.h>

/* The longest a run stays without a progress line. */
#define SOLVER_PACE_QUIET 10.0

typedef struct {
  double start;     /* when the loop began */
  double last_line; /* when the last progress line was printed */
} solver_pace;

double solver_pace_now(void);
void solver_pace_begin(solver_pace *p, double now);

/* "10%, 8.1 s, about 1 min 13 s left" for the fraction done at `now` (no
 * estimate while nothing is done, "done" once all is); marks a line as
 * printed. Returns buf. */
const char *solver_pace_text(solver_pace *p, double fraction, double now, char *buf, size_t len);

/* 1 when more than `quiet` seconds have passed since the last line (or the
 * start). */
int solver_pace_due(const solver_pace *p, double quiet, double now);

/* A duration as people read it: "0.4 s", "8.1 s", "42 s", "1 min 13 s",
 * "2 h 05 min"; "?" when it is not a finite, non-negative number. */
const char *solver_duration_text(double seconds, char *buf, size_t len);

#endif
