/*
 * euler_accuracy.h - how close a run came to the exact solution, and the
 * verdicts on it (docs/euler.md, "Accuracy verdicts"): the L1 error of each
 * conserved variable against a bound the deck states, and for the 1D Riemann
 * problem that no new extrema appeared (every computed cell average lies in
 * the range of the exact solution, to a stated tolerance). Host code over the
 * final conserved state; shared by the solver and its test driver.
 */
#ifndef EULER_ACCURACY_H
#define EULER_ACCURACY_H

#include "euler_problem.h"
#include "solver_verdict.h"

typedef struct {
  int available; /* the problem has an exact solution, evaluated on every cell */
  int nx, ny;    /* the grid it was measured on */
  int valid;     /* ... and it holds at the final time (no wave left the domain) */
  double l1[4];  /* mean over the cells of |q_k - exact cell average of q_k| */
  double l2_rho, linf_rho;
  double exact_lo[4], exact_hi[4]; /* range of the exact solution (its samples) */
  double lo[4], hi[4];             /* range of the computed cell averages */
} euler_accuracy;

/* Compares the conserved state q of the nx x ny cells (cell (i, j) at
 * 4 (j nx + i)) with the exact solution of pb at time t. a->available is 0
 * when pb has none. */
void euler_accuracy_measure(const euler_problem *pb, double t, int nx, int ny, const double *q,
                            euler_accuracy *a);

/* How far component k lies outside the exact range, as a fraction of the
 * range's width (0 inside; a component whose exact range is a single value
 * must equal it: any difference counts as infinitely far). */
double euler_accuracy_excess(const euler_accuracy *a, int k);

/* L1 bounds as a deck states them: the four values (RHO, MX, MY, E) and
 * the resolution they were measured at. */
typedef struct {
  double value[4];
  int cells; /* cells along the 1D Riemann problem's direction (nx for a 2D
              * problem) of the run the values came from; 0: this run's own */
  int min_cells, max_cells; /* the validated range: the scaled bounds were
                             * checked against runs from min_cells to
                             * max_cells (both cells when only measured) */
} euler_l1_bound;

/* The factor that turns a bound measured on `measured` cells into one for a
 * run on `cells` (1D Riemann problems; docs/euler.md, "Accuracy verdicts"):
 * the L1 error of a solution with discontinuities converges as h^p with p
 * between 1/2 (a contact smeared by a first-order scheme) and 1 (a shock,
 * and the most any discontinuity allows), so the error on `cells` is at most
 * (measured / cells)^1 times the measured one when coarser, and
 * (measured / cells)^(1/2) times when finer: the slowest rate each way. */
double euler_l1_bound_scale(int measured, int cells);

/* Adds the verdicts: with bound (NULL: none), l1_rho, l1_momentum_x,
 * l1_momentum_y and l1_energy, each L1 error at most its bound, for a run
 * that reached its end time (the bound is the end time's), or l1_error
 * failing when there is no valid exact solution to compare with. A bound
 * measured on another number of cells is scaled (euler_l1_bound_scale) for
 * a 1D Riemann problem inside the bound's validated range [min_cells,
 * max_cells]; outside it, and for any other problem, the L1 checks are
 * recorded as not judged, with the reason (a bound carried beyond the
 * resolutions it was checked on is a guess: below them the deck's grid may
 * not even set the time step the same way). For the 1D Riemann problem with a valid exact
 * solution, no_new_extrema: every component's excess
 * (euler_accuracy_excess) at most range_tol. */
void euler_accuracy_verdicts(const euler_problem *pb, const euler_accuracy *a,
                             const euler_l1_bound *bound, double range_tol, int reached_end,
                             solver_verdicts *v);

#endif /* EULER_ACCURACY_H */
