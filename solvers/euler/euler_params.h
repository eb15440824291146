/*
 * euler_params.h - the Euler solver's parameters: its deck keys, the problem
 * read and checked from them (bad input stops the run naming the key and
 * where its value came from), and what the deck alone says about the run:
 * the time steps it takes about, and the totals its boundaries conserve.
 */
#ifndef EULER_PARAMS_H
#define EULER_PARAMS_H

#include "deck.h"
#include "euler_accuracy.h"
#include "euler_problem.h"

/* The deck keys (docs/euler.md's table is made from them). */
extern const deck_key euler_keys[];
extern const int euler_nkeys;

/* No run of more time steps than this: it would take days, and its
 * history.csv gigabytes (heat has the same bound). */
#define EULER_MAX_STEPS 1e9

/* Stops the run on a bad value of key: "euler: ORIGIN: KEY: " then fmt with
 * value, exit 2. */
void euler_bad_input(const deck *d, const char *key, const char *fmt, const char *value)
    __attribute__((noreturn));

/* Stops the run on a failure that is not the deck's (an output that cannot
 * be written, memory): "euler: WHAT: DETAIL" on stderr, exit 2. */
void euler_fail(const char *what, const char *detail) __attribute__((noreturn));

/* n comma-separated numbers of key into out (what: their names, for the
 * message), or euler_bad_input. */
void euler_read_numbers(const deck *d, const char *key, int n, const char *what, double *out);

/* Reads and checks the problem; *speed gets the largest signal speed of its
 * initial data (for the estimate of the time steps). */
void euler_read_problem(const deck *d, euler_problem *pb, double *speed);

/* The l1_bound, l1_bound_cells and l1_bound_{min,max}_cells keys: 1 with
 * the bounds, 0 when l1_bound is empty; a range that does not hold
 * l1_bound_cells is bad input. */
int euler_read_l1_bound(const deck *d, euler_l1_bound *b);

/* Which totals (mass, momentum_x, momentum_y, energy) the boundary
 * conditions conserve: 1 each that is. */
void euler_conserved_mask(const deck *d, int conserved[4]);

/* 1 while the ends of a 1D Riemann problem add no waves of their own (the
 * exact solution then holds in the domain); 1 for the other problems. */
int euler_ends_keep_exact(const deck *d, const euler_problem *pb);

/* The time steps a run takes, about (max_steps caps it); *dt gets the first
 * dt, from speed, the initial data's largest signal speed. */
double euler_estimate_steps(const deck *d, double speed, double *dt);

/* Refuses up front (exit 2, saying what to change) a run of more than
 * EULER_MAX_STEPS steps. */
void euler_check_steps(const deck *d, double speed, double steps, double dt);

#endif
