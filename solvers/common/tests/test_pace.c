/*
 * test_pace.c - unit tests of the progress text (solver_pace.h), on made-up
 * clocks: the estimate of the time left, the durations as written, the
 * edges (nothing done, all done, not a number), and when a line is due.
 *
 * usage: test_pace
 */
#include "test_check.h"
#include "solver_pace.h"

#include <math.h>

static const char *text(double fraction, double elapsed, char *buf, size_t len) {
  solver_pace p;
  solver_pace_begin(&p, 1000.0);
  return solver_pace_text(&p, fraction, 1000.0 + elapsed, buf, len);
}

int main(void) {
  char b[128];
  /* 10% done in 8.1 s: 72.9 s to go. */
  CHECK(strcmp(text(0.1, 8.1, b, sizeof b), "10%, 8.1 s, about 1 min 13 s left") == 0);
  CHECK(strcmp(text(0.5, 30.0, b, sizeof b), "50%, 30 s, about 30 s left") == 0);
  CHECK(strcmp(text(0.999, 3.0, b, sizeof b), "99%, 3.0 s, about 0.0 s left") == 0);
  CHECK(strcmp(text(0.0, 2.0, b, sizeof b), "0%, 2.0 s") == 0);
  CHECK(strcmp(text(NAN, 2.0, b, sizeof b), "0%, 2.0 s") == 0);
  CHECK(strcmp(text(1.0, 95.0, b, sizeof b), "100%, 1 min 35 s, done") == 0);
  CHECK(strcmp(text(0.01, 100.0, b, sizeof b), "1%, 1 min 40 s, about 2 h 45 min left") == 0);
  CHECK(strcmp(solver_duration_text(0.04, b, sizeof b), "0.0 s") == 0);
  CHECK(strcmp(solver_duration_text(59.4, b, sizeof b), "59 s") == 0);
  CHECK(strcmp(solver_duration_text(3599.0, b, sizeof b), "59 min 59 s") == 0);
  CHECK(strcmp(solver_duration_text(7500.0, b, sizeof b), "2 h 05 min") == 0);
  CHECK(strcmp(solver_duration_text(-1.0, b, sizeof b), "?") == 0);
  CHECK(strcmp(solver_duration_text(INFINITY, b, sizeof b), "?") == 0);
  /* A short buffer is cut, never overrun. */
  char small[8];
  text(0.1, 8.1, small, sizeof small);
  CHECK(strlen(small) == 7);

  /* A line is due once `quiet` seconds have passed since the last one. */
  solver_pace p;
  solver_pace_begin(&p, 50.0);
  CHECK(!solver_pace_due(&p, 10.0, 55.0));
  CHECK(solver_pace_due(&p, 10.0, 60.5));
  solver_pace_text(&p, 0.3, 60.5, b, sizeof b);
  CHECK(!solver_pace_due(&p, 10.0, 65.0));
  CHECK(solver_pace_due(&p, 10.0, 71.0));
  /* The elapsed time counts from the start, not from the last line. */
  CHECK(strcmp(solver_pace_text(&p, 0.5, 71.0, b, sizeof b), "50%, 21 s, about 21 s left") == 0);

  return check_exit("solver_pace");
}
