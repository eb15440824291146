/* Interpolating cubic splines with not-a-knot end conditions. */
#ifndef CUBIC_SPLINE_H
#define CUBIC_SPLINE_H

/* Slopes s[0..n-1] at the knots of the not-a-knot cubic spline through (x[k], y[k]),
 * k = 0..n-1, with x strictly increasing and n >= 4. work needs room for 3*n doubles.
 * Returns 0, or -1 when n < 4 or x is not strictly increasing. */
int cubic_spline_notaknot(int n, const double *x, const double *y, double *s, double *work);

/* Value at xv of the spline given by its knots and slopes. The interval is found by binary
 * search; outside [x[0], x[n-1]] the first or last cubic piece is extended. */
double cubic_spline_eval(int n, const double *x, const double *y, const double *s, double xv);

#endif
