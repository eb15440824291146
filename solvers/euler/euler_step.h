/*
 * euler_step.h - every parallel loop of the Euler solver (the one file of it
 * with op_par_loop calls, which op2-gen turns into each backend's loop code):
 * the time step by dimensional splitting, the CFL wave speed, the conserved
 * totals and the output fields; and the constants the kernels read.
 *
 * A time step is: the max wave speed (OP_MAX) for dt; then, for each
 * direction in turn (x then y on even steps, y then x on odd ones), the
 * ghosts of that direction, the face fluxes and the cell updates, from the
 * state q into q2 in the first sweep and back into q in the second.
 */
#ifndef EULER_STEP_H
#define EULER_STEP_H

#include "euler_mesh.h"

/* What the positivity fallbacks did over the run. */
typedef struct {
  long fallbacks; /* faces that took the first-order flux: evolved states not physical */
  long flagged;   /* cells whose update would not have been physical */
  long fixed;     /* faces that took the first-order flux beside such cells */
} euler_step_stats;

/* Sets and declares (op_decl_const) the constants the kernels read: gamma,
 * the limiter (deck_choice of "limiter") and gamma's constants for the exact
 * Riemann solver. */
void euler_declare_constants(double gamma, int limiter);

/* Time step number `step` (0 first) of length dt: the two sweeps, in the
 * order the step's parity gives, from m->q back into m->q. */
void euler_step(euler_mesh *m, long step, double dt, euler_step_stats *st);

/* Max signal speed over the interior; qmin gets the smallest density and
 * pressure (for the check that the state stays physical). */
double euler_max_wave_speed(euler_mesh *m, double qmin[2]);

/* Conserved totals (integrals over the domain of mass, momenta and energy)
 * into tot[0..3], and the integrals of their absolute values into tot[4..7]. */
void euler_conserved_totals(euler_mesh *m, double tot[8]);

/* The output dats (m->out_*) from the state. */
void euler_compute_output_fields(euler_mesh *m);

#endif
