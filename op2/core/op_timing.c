/* op_timing.c - per-loop timing: calls, seconds, bytes moved, achieved GB/s. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_at_exit.h"
#include "op_dist.h"
#include "op_state.h"

/* The clock every timing of the library reads (monotonic: a change of the
 * system's time of day does not move it). */
double op_wtime(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
  char *name;
  long calls;
  double seconds;
  double bytes;
  double halo, reduce; /* of seconds, in the MPI layer (op_timer_add_mpi) */
} op_timer;

static op_timer *timers;
static int ntimers, cap_timers;
/* Many processes: each loop's seconds as op_timing_output last reduced them
 * (the largest over the processes), for op_timing_json. */
static double *reduced;
static int nreduced;

static void timing_free(void);

int op_timer_find(const char *name) {
  for (int i = 0; i < ntimers; i++)
    if (!strcmp(timers[i].name, name)) return i;
  if (ntimers == cap_timers) {
    op_at_exit(timing_free, "timing");
    cap_timers = cap_timers ? 2 * cap_timers : 16;
    timers = op_realloc(timers, sizeof(*timers) * (size_t)cap_timers);
  }
  timers[ntimers].name = op_strdup(name);
  timers[ntimers].calls = 0;
  timers[ntimers].seconds = 0.0;
  timers[ntimers].bytes = 0.0;
  timers[ntimers].halo = timers[ntimers].reduce = 0.0;
  return ntimers++;
}

void op_timer_add(int timer, double seconds, double bytes) {
  if (timer < 0 || timer >= ntimers) return;
  timers[timer].calls++;
  timers[timer].seconds += seconds;
  timers[timer].bytes += bytes;
}

void op_timer_add_seconds(int timer, double seconds) {
  if (timer < 0 || timer >= ntimers) return;
  timers[timer].seconds += seconds;
}

void (*op_timing_collect)(void);

void op_timer_add_mpi(int timer, double halo, double reduce) {
  if (timer < 0 || timer >= ntimers) return;
  timers[timer].halo += halo;
  timers[timer].reduce += reduce;
}

static double gbps(double bytes, double seconds) {
  return seconds > 0.0 ? bytes / seconds * 1e-9 : 0.0;
}

/* One process: the table as it always was. Many: each process runs the same
 * loops in the same order, so the tables line up; the time is the largest
 * over the processes (what the run waited for), then the mean, then where the
 * time went, each the largest over the processes: the loop's own work
 * (compute), the MPI layer's halo exchanges (started and waited for) and the
 * combination of its reductions; the bytes are this process's share times
 * the processes (an estimate: parts are equal to within the partition's
 * imbalance). Collective on many processes. */
void op_timing_output(void) {
  if (op_timing_collect) op_timing_collect();
  const int P = op_num_procs(), n = ntimers;
  /* Per timer: seconds, then compute, halo and reduce (4 n values). */
  double *largest = op_calloc(4 * (size_t)n + 1, sizeof(double));
  double *mean = op_calloc(4 * (size_t)n + 1, sizeof(double));
  double *mine = op_calloc(4 * (size_t)n + 1, sizeof(double));
  for (int i = 0; i < n; i++) {
    mine[i] = timers[i].seconds;
    mine[n + i] = timers[i].seconds - timers[i].halo - timers[i].reduce;
    mine[2 * n + i] = timers[i].halo;
    mine[3 * n + i] = timers[i].reduce;
  }
  memcpy(largest, mine, sizeof(double) * 4 * (size_t)n);
  memcpy(mean, mine, sizeof(double) * 4 * (size_t)n);
  if (op_dist && P > 1) {
    op_dist->reduce_times(4 * n, mine, largest, mean);
    free(reduced);
    op_at_exit(timing_free, "timing");
    reduced = op_calloc((size_t)ntimers + 1, sizeof(double));
    memcpy(reduced, largest, sizeof(double) * (size_t)ntimers);
    nreduced = ntimers;
  }
  double total = 0.0;
  for (int i = 0; i < ntimers; i++) total += largest[i];
  if (op_is_root()) {
    if (P > 1) {
      printf("\n  %-20s %10s %12s %12s %12s %12s %12s %8s %10s\n", "loop", "calls", "max time (s)",
             "mean (s)", "compute (s)", "halo (s)", "reduce (s)", "share", "GB/s");
      printf("  %-20s %10s %12s %12s %12s %12s %12s %8s %10s\n", "--------------------",
             "----------", "------------", "------------", "------------", "------------",
             "------------", "--------", "----------");
    } else {
      printf("\n  %-20s %10s %12s %8s %10s\n", "loop", "calls", "time (s)", "share", "GB/s");
      printf("  %-20s %10s %12s %8s %10s\n", "--------------------", "----------", "------------",
             "--------", "----------");
    }
    for (int i = 0; i < ntimers; i++) {
      const op_timer *t = &timers[i];
      const double share = total > 0 ? 100.0 * largest[i] / total : 0.0;
      if (P > 1)
        printf("  %-20s %10ld %12.4f %12.4f %12.4f %12.4f %12.4f %7.1f%% %10.2f\n", t->name,
               t->calls, largest[i], mean[i], largest[n + i], largest[2 * n + i],
               largest[3 * n + i], share, gbps(t->bytes * P, largest[i]));
      else
        printf("  %-20s %10ld %12.4f %7.1f%% %10.2f\n", t->name, t->calls, t->seconds, share,
               gbps(t->bytes, t->seconds));
    }
    printf("  %-20s %10s %12.4f\n", "total in loops", "", total);
    if (P > 1)
      printf("  (compute, halo, reduce: each the largest over the %d processes; halo: the MPI "
             "layer's exchanges, started and waited for; reduce: reductions combined over the "
             "processes)\n",
             P);
  }
  if (op_dist && P > 1) {
    long long messages = 0, bytes = 0;
    op_dist->halo_traffic(&messages, &bytes);
    if (op_is_root())
      printf("  halo exchanges: %lld messages, %.3f MB over %d processes\n", messages,
             (double)bytes * 1e-6, P);
    op_dist->print_halo_sets();
  }
  free(largest);
  free(mean);
  free(mine);
}

void op_timing_json(void *file) {
  FILE *f = file;
  if (op_timing_collect) op_timing_collect();
  fprintf(f, "[");
  const int P = op_num_procs();
  for (int i = 0; i < ntimers; i++) {
    const op_timer *t = &timers[i];
    /* Many processes: the largest time over them, if op_timing_output has
     * reduced it; the bytes of the whole mesh (see op_timing_output). */
    const double seconds = i < nreduced ? reduced[i] : t->seconds, bytes = t->bytes * P;
    fprintf(f, "%s{\"loop\": \"%s\", \"calls\": %ld, \"seconds\": %.9g, \"bytes\": %.17g, "
               "\"gb_per_s\": %.6g}",
            i ? ", " : "", t->name, t->calls, seconds, bytes, gbps(bytes, seconds));
  }
  fprintf(f, "]");
}

/* Forgets every timer (op_exit). */
static void timing_free(void) {
  for (int i = 0; i < ntimers; i++) free(timers[i].name);
  free(timers);
  timers = NULL;
  ntimers = cap_timers = 0;
  free(reduced);
  reduced = NULL;
  nreduced = 0;
}
