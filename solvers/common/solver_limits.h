/*
 * solver_limits.h - refusing up front what cannot fit, and showing progress
 * while a long set-up runs.
 *
 * A solver estimates, from the sizes in its deck, the memory its run needs
 * and the bytes its outputs will take, before it allocates or writes
 * anything. solver_limits_check refuses the run when either exceeds its
 * limit, with the estimate and the key that overrides it in the message:
 *
 *   max_memory_gb   0 (default): the memory available on this machine (the
 *                   smaller of MemAvailable and the cgroup's limit)
 *   max_output_gb   0 (default): the free space of output_dir's file system
 *
 * Every solver's key table holds these two keys (SOLVER_LIMIT_KEYS).
 */
#ifndef SOLVER_COMMON_LIMITS_H
#define SOLVER_COMMON_LIMITS_H

#include <math.h>
#include <stddef.h>

#include "deck.h"
#include "solver_output.h"

#define SOLVER_LIMIT_KEYS                                                                       \
  {"max_memory_gb", DECK_REAL, "0", 0, INFINITY, NULL,                                          \
   "refuse to run when the memory the run needs is estimated above this many GB (0: the "       \
   "memory available on this machine)"},                                                        \
  {"max_output_gb", DECK_REAL, "0", 0, INFINITY, NULL,                                          \
   "refuse to run when its outputs are estimated above this many GB (0: the free space in "     \
   "output_dir)"}

/* What a run needs, with a line saying where the figure comes from. */
typedef struct {
  double memory_bytes;
  char memory_detail[256];
  double output_bytes;
  char output_detail[256];
} solver_estimate;

/* Bytes of memory available to this process, or -1 when unknown. */
double solver_memory_available(void);

/* Returns 0 when the estimate fits, else -1 with the message in err. */
int solver_limits_check(const deck *d, const solver_output *o, const solver_estimate *e, char *err,
                        size_t errlen);

/* Progress of a long set-up step: a line every two seconds or so, and none
 * at all when the step is quick. */
typedef struct {
  const char *solver, *what;
  double start, last;
  int printed;
} solver_progress;

void solver_progress_begin(solver_progress *p, const char *solver, const char *what);
/* fraction in [0, 1]; cheap when nothing is due. */
void solver_progress_at(solver_progress *p, double fraction);
void solver_progress_end(solver_progress *p);
/* The same as a plain callback (ctx: a solver_progress), for libraries that
 * do not know solver_progress. */
void solver_progress_callback(double fraction, void *ctx);

#endif
