/*
 * euler_problem.h - the initial data the Euler solver offers
 * (docs/euler.md, "Initial data"), and the exact solutions of those
 * that have one: host code, shared by the solver and its test driver.
 *
 * States are primitive: (rho, u, v, p) in 2D, (rho, u_n, p) for a 1D
 * Riemann problem (u_n along its direction). Conserved states are
 * (rho, rho u, rho v, E), E = p/(gamma-1) + rho (u^2 + v^2)/2.
 */
#ifndef EULER_PROBLEM_H
#define EULER_PROBLEM_H

#include <stddef.h>

/* In the order of the deck's `problem` choices. */
typedef enum {
  EULER_PROBLEM_RIEMANN2D = 0, /* four constant quadrants (Lax-Liu) */
  EULER_PROBLEM_RIEMANN1D = 1, /* left | right states along x or y */
  EULER_PROBLEM_VORTEX = 2,    /* the isentropic vortex, advected */
  EULER_PROBLEM_EXPLOSION = 3  /* a circle of high pressure and density */
} euler_problem_kind;

typedef struct {
  euler_problem_kind kind;
  double gamma;
  double x_min, x_max, y_min, y_max;
  /* riemann2d: the split point and the quadrant states (rho, u, v, p) */
  double split_x, split_y;
  double ne[4], nw[4], sw[4], se[4];
  /* riemann1d: direction 0 (x) or 1 (y), diaphragm position along it,
   * left and right states (rho, u_n, p) */
  int direction;
  double diaphragm;
  double left[3], right[3];
  /* vortex and explosion: the centre */
  double centre_x, centre_y;
  /* vortex: strength eps and background velocity (u, v) */
  double strength, u0, v0;
  /* explosion: radius, states inside and outside (rho, u, v, p) */
  double radius;
  double inside[4], outside[4];
} euler_problem;

/* Primitive (rho, u, v, p) to conserved and back. */
void euler_prim_to_cons(const double w[4], double gamma, double q[4]);
void euler_cons_to_prim(const double q[4], double gamma, double w[4]);

/* Reads n comma-separated numbers ("1.5, 0, 0, 1.5"), each in the suite's
 * number syntax (op_number.h: decimal, finite, zero or a normal double).
 * Returns 0, or -1 with the reason in why: how many numbers were found, or
 * which one is not a number and why ("number 4 '1e-310' underflows a
 * double ..."). */
int euler_parse_numbers(const char *text, int n, double *out, char *why, size_t whylen);

/* The initial cell average of the conserved variables of the cell
 * [xa, xb] x [ya, yb]: exact for the quadrant and 1D Riemann problems whose
 * discontinuities lie on cell faces, by a 3 x 3 Gauss rule for the vortex,
 * and by 8 x 8 midpoint sub-sampling for the explosion's circle (so that the
 * cut cells hold mixtures). */
void euler_initial_average(const euler_problem *pb, double xa, double xb, double ya, double yb,
                           double q[4]);

/* 1 when the problem has an exact solution at time t that the solver can
 * compare with: the vortex (any t) and the 1D Riemann problem (until its
 * waves reach the ends of the domain; the caller checks that with
 * euler_exact_valid). */
int euler_has_exact(const euler_problem *pb);
/* For the 1D Riemann problem: 1 when no wave has reached x_min/x_max (y) at
 * time t, so the exact solution of the unbounded problem still holds. The
 * vortex: always 1. Others: 0. */
int euler_exact_valid(const euler_problem *pb, double t);
/* The exact conserved state (rho, rho u, rho v, E) averaged over the cell at
 * time t: 3 x 3 Gauss for the vortex (the initial field advected with
 * (u0, v0), periodic), 16-point midpoint sampling along the direction for the
 * 1D Riemann problem. When lo and hi are not NULL, the samples also widen the
 * range [lo[k], hi[k]] of each component (the range of the exact solution,
 * once every cell has been sampled). Returns 0, or -1 when the problem has no
 * exact solution or the Riemann solve fails. */
int euler_exact_average(const euler_problem *pb, double t, double xa, double xb, double ya,
                        double yb, double q[4], double lo[4], double hi[4]);

/* The exact Riemann problem's star state as text, for the log. */
/* riemann1d: the exact state w = (rho, u along the direction, p) at time t
 * and position s along the direction. Returns 0, or -1 when the problem has
 * no exact solution here. */
int euler_exact_riemann1d(const euler_problem *pb, double t, double s, double w[3]);

int euler_riemann1d_describe(const euler_problem *pb, char *buf, size_t len);

#endif /* EULER_PROBLEM_H */
