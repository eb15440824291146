/*
 * solver_limits.c - memory and output estimates against their limits, and
 * set-up progress (solver_limits.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "solver_limits.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* "MemAvailable:   24033276 kB" from /proc/meminfo, in bytes; -1 if absent. */
static double meminfo_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return -1.0;
  char line[256];
  double v = -1.0;
  while (fgets(line, sizeof line, f)) {
    unsigned long long kb;
    if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
      v = (double)kb * 1024.0;
      break;
    }
  }
  fclose(f);
  return v;
}

/* A cgroup v2 limit less what the group already uses; -1 if none. */
static double cgroup_available(void) {
  FILE *f = fopen("/sys/fs/cgroup/memory.max", "r");
  if (!f) return -1.0;
  char text[64] = "";
  int ok = fgets(text, sizeof text, f) != NULL;
  fclose(f);
  if (!ok || strncmp(text, "max", 3) == 0) return -1.0;
  double max = strtod(text, NULL), cur = 0.0;
  f = fopen("/sys/fs/cgroup/memory.current", "r");
  if (f) {
    if (fgets(text, sizeof text, f)) cur = strtod(text, NULL);
    fclose(f);
  }
  return max > cur ? max - cur : 0.0;
}

double solver_memory_available(void) {
  double a = meminfo_available(), c = cgroup_available();
  if (a < 0.0) {
    long pages = sysconf(_SC_AVPHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    if (pages > 0 && size > 0) a = (double)pages * (double)size;
  }
  if (c >= 0.0 && (a < 0.0 || c < a)) a = c;
  return a;
}


/* The key's value suggested to let the run go: the estimate rounded up, with
 * a margin. */
static double suggest_gb(double bytes) { return ceil(bytes * 1.1 / 1e9); }

/* One limit: the key's value in GB (0: `machine` bytes, -1 when unknown,
 * described by `where`). Returns 0 when `bytes` fit, else -1 with the
 * refusal (`what` is a format with one %s: the amount). */
static int within(const deck *d, const char *key, double machine, const char *where,
                  double bytes, const char *what, const char *detail, const char *remedy,
                  char *err, size_t errlen) {
  const double gb = deck_real(d, key);
  const double limit = gb > 0.0 ? gb * 1e9 : machine;
  if (limit < 0.0 || bytes <= limit) return 0;
  char need[32], have[32], lim[OP_TEXT_SHOWN + 96], amount[96];
  if (gb > 0.0)
    snprintf(lim, sizeof lim, "%s = %g", key, gb);
  else
    snprintf(lim, sizeof lim, "the %s %s", solver_output_bytes(limit, have, sizeof have), where);
  snprintf(amount, sizeof amount, what, solver_output_bytes(bytes, need, sizeof need));
  op_text_format(err, errlen, "refusing to run: %s (%s), more than %s; %s, or set %s=%.0f to "
                 "run anyway",
                 amount, detail, lim, remedy, key, suggest_gb(bytes));
  return -1;
}

int solver_limits_check(const deck *d, const solver_output *o, const solver_estimate *e, char *err,
                        size_t errlen) {
  char where[OP_TEXT_SHOWN + 16];
  snprintf(where, sizeof where, "free in %s", o->shown);
  if (within(d, "max_memory_gb", solver_memory_available(), "available on this machine",
             e->memory_bytes, "it needs about %s of memory", e->memory_detail, "make the problem smaller", err,
             errlen) != 0)
    return -1;
  return within(d, "max_output_gb", solver_output_free_bytes(o), where, e->output_bytes,
                "its outputs would take about %s", e->output_detail, "write fewer or smaller outputs",
                err, errlen);
}

/* ---- progress ------------------------------------------------------------------------ */

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define PROGRESS_EVERY 2.0 /* seconds between lines */

void solver_progress_begin(solver_progress *p, const char *solver, const char *what) {
  p->solver = solver;
  p->what = what;
  p->start = p->last = now();
  p->printed = 0;
}

void solver_progress_at(solver_progress *p, double fraction) {
  double t = now();
  if (t - p->last < PROGRESS_EVERY) return;
  p->last = t;
  p->printed = 1;
  printf("%s: %s: %.0f%% (%.0f s)\n", p->solver, p->what, 100.0 * fraction, t - p->start);
  fflush(stdout);
}

void solver_progress_end(solver_progress *p) {
  if (!p->printed) return;
  printf("%s: %s: done in %.1f s\n", p->solver, p->what, now() - p->start);
  fflush(stdout);
}

void solver_progress_callback(double fraction, void *ctx) { solver_progress_at(ctx, fraction); }
