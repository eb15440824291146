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

static void set_err(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static void set_err(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || errlen == 0) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

/* The key's value suggested to let the run go: the estimate rounded up, with
 * a margin. */
static double suggest_gb(double bytes) { return ceil(bytes * 1.1 / 1e9); }

int solver_limits_check(const deck *d, const solver_output *o, const solver_estimate *e, char *err,
                        size_t errlen) {
  char need[32], have[32], limit[OP_TEXT_SHOWN + 96];
  double mem_gb = deck_real(d, "max_memory_gb");
  double mem_limit = mem_gb > 0.0 ? mem_gb * 1e9 : solver_memory_available();
  if (mem_limit >= 0.0 && e->memory_bytes > mem_limit) {
    if (mem_gb > 0.0)
      snprintf(limit, sizeof limit, "max_memory_gb = %g", mem_gb);
    else
      snprintf(limit, sizeof limit, "the %s available on this machine",
               solver_output_bytes(mem_limit, have, sizeof have));
    set_err(err, errlen,
            "refusing to run: it needs about %s of memory (%s), more than %s; make the problem "
            "smaller, or set max_memory_gb=%.0f to run anyway",
            solver_output_bytes(e->memory_bytes, need, sizeof need), e->memory_detail, limit,
            suggest_gb(e->memory_bytes));
    return -1;
  }
  double out_gb = deck_real(d, "max_output_gb");
  double out_limit = out_gb > 0.0 ? out_gb * 1e9 : solver_output_free_bytes(o);
  if (out_limit >= 0.0 && e->output_bytes > out_limit) {
    if (out_gb > 0.0)
      snprintf(limit, sizeof limit, "max_output_gb = %g", out_gb);
    else
      snprintf(limit, sizeof limit, "the %s free in %s",
               solver_output_bytes(out_limit, have, sizeof have), o->shown);
    set_err(err, errlen,
            "refusing to run: its outputs would take about %s (%s), more than %s; write fewer or "
            "smaller outputs, or set max_output_gb=%.0f to run anyway",
            solver_output_bytes(e->output_bytes, need, sizeof need), e->output_detail, limit,
            suggest_gb(e->output_bytes));
    return -1;
  }
  return 0;
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
