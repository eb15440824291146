/* op_timing.c - per-loop timing: calls, seconds, bytes moved, achieved GB/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op2_state.h"

typedef struct {
  char *name;
  long calls;
  double seconds;
  double bytes;
} op_timer;

static op_timer *timers;
static int ntimers, cap_timers;

int op_timer_find(const char *name) {
  for (int i = 0; i < ntimers; i++)
    if (!strcmp(timers[i].name, name)) return i;
  if (ntimers == cap_timers) {
    cap_timers = cap_timers ? 2 * cap_timers : 16;
    timers = op_realloc(timers, sizeof(*timers) * (size_t)cap_timers);
  }
  timers[ntimers].name = op_strdup(name);
  timers[ntimers].calls = 0;
  timers[ntimers].seconds = 0.0;
  timers[ntimers].bytes = 0.0;
  return ntimers++;
}

void op_timer_add(int timer, double seconds, double bytes) {
  if (timer < 0 || timer >= ntimers) return;
  timers[timer].calls++;
  timers[timer].seconds += seconds;
  timers[timer].bytes += bytes;
}

static double gbps(const op_timer *t) {
  return t->seconds > 0.0 ? t->bytes / t->seconds * 1e-9 : 0.0;
}

void op_timing_output(void) {
  double total = 0.0;
  for (int i = 0; i < ntimers; i++) total += timers[i].seconds;
  printf("\n  %-20s %10s %12s %8s %10s\n", "loop", "calls", "time (s)", "share", "GB/s");
  printf("  %-20s %10s %12s %8s %10s\n", "--------------------", "----------", "------------",
         "--------", "----------");
  for (int i = 0; i < ntimers; i++) {
    const op_timer *t = &timers[i];
    printf("  %-20s %10ld %12.4f %7.1f%% %10.2f\n", t->name, t->calls, t->seconds,
           total > 0 ? 100.0 * t->seconds / total : 0.0, gbps(t));
  }
  printf("  %-20s %10s %12.4f\n", "total in loops", "", total);
}

void op_timing_json(void *file) {
  FILE *f = file;
  fprintf(f, "[");
  for (int i = 0; i < ntimers; i++) {
    const op_timer *t = &timers[i];
    fprintf(f, "%s{\"loop\": \"%s\", \"calls\": %ld, \"seconds\": %.9g, \"bytes\": %.17g, "
               "\"gb_per_s\": %.6g}",
            i ? ", " : "", t->name, t->calls, t->seconds, t->bytes, gbps(t));
  }
  fprintf(f, "]");
}

void op_timing_free(void) {
  for (int i = 0; i < ntimers; i++) free(timers[i].name);
  free(timers);
  timers = NULL;
  ntimers = cap_timers = 0;
}
