/*
 * euler_results.h - how an Euler run ended: its verdicts (completed, the
 * state physical, the accuracy against the exact solution, the conservation
 * of the totals the boundaries conserve), the summary printed at the end,
 * and result.json. Plain C on what the run measured: no OP2 here.
 */
#ifndef EULER_RESULTS_H
#define EULER_RESULTS_H

#include <stdio.h>

#include "deck.h"
#include "euler_accuracy.h"
#include "euler_problem.h"
#include "solver_verdict.h"
#include "structured_grid.h"

typedef struct {
  const deck *d;
  const sg_grid *grid;
  double dx, dy;
  long steps;
  double t_final;
  int physical;   /* 0 when the run stopped on a state that was not physical */
  double qmin[2]; /* the smallest density and pressure of the final state */
  /* what the positivity fallbacks did (euler_step_stats) */
  long fallbacks, flagged, fixed;
  double tot0[8], tot1[8]; /* totals at the start and the end (euler_conserved_totals) */
  euler_accuracy ex;       /* against the exact solution, where the problem has one */
  double wall_steps, wall_output, wall_total;
  const solver_verdicts *verdicts; /* for result.json */
} euler_result;

/* The run's verdicts into v: completed (t_end, or max_steps, reached),
 * not interrupted, physical_state, the accuracy verdicts (l1: the deck's
 * bounds, or NULL) and conservation of the totals the boundaries conserve. */
void euler_result_verdicts(const euler_result *r, const euler_problem *pb, const euler_l1_bound *l1,
                           solver_verdicts *v);

/* The lines after the run: steps and times, the first-order fluxes taken,
 * the error against the exact solution. */
void euler_result_print(const euler_result *r, FILE *f);

/* result.json's content (solver_main_finish's fill; ctx: the euler_result). */
void euler_result_fill(FILE *f, void *ctx);

#endif
