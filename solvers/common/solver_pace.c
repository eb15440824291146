/* solver_pace.c - the progress text of a run's main loop (solver_pace.h). */
#include "solver_pace.h"

#include <math.h>
#include <stdio.h>
#include <time.h>

double solver_pace_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void solver_pace_begin(solver_pace *p, double now) { p->start = p->last_line = now; }

const char *solver_duration_text(double s, char *buf, size_t len) {
  if (!(s >= 0.0) || !isfinite(s))
    snprintf(buf, len, "?");
  else if (s < 10.0)
    snprintf(buf, len, "%.1f s", s);
  else if (s < 60.0)
    snprintf(buf, len, "%.0f s", s);
  else if (s < 3600.0) {
    const long whole = lround(s);
    snprintf(buf, len, "%ld min %02ld s", whole / 60, whole % 60);
  } else {
    const long minutes = lround(s / 60.0);
    snprintf(buf, len, "%ld h %02ld min", minutes / 60, minutes % 60);
  }
  return buf;
}

const char *solver_pace_text(solver_pace *p, double fraction, double now, char *buf, size_t len) {
  const double elapsed = now - p->start;
  char e[32], left[32];
  solver_duration_text(elapsed, e, sizeof e);
  p->last_line = now;
  if (!(fraction > 0.0)) /* nothing done yet (or not a number): no estimate */
    snprintf(buf, len, "0%%, %s", e);
  else if (fraction >= 1.0)
    snprintf(buf, len, "100%%, %s, done", e);
  else
    snprintf(buf, len, "%.0f%%, %s, about %s left", floor(100.0 * fraction), e,
             solver_duration_text(elapsed * (1.0 - fraction) / fraction, left, sizeof left));
  return buf;
}

int solver_pace_due(const solver_pace *p, double quiet, double now) {
  return now - p->last_line > quiet;
}
