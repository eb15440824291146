/*
 * euler_problem.c - initial data and exact solutions of the Euler solver's
 * problems (euler_problem.h).
 */
#include "euler_problem.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op_number.h"
#include "riemann_exact.h"

static const double PI = 3.14159265358979323846;

void euler_prim_to_cons(const double w[4], double gamma, double q[4]) {
  q[0] = w[0];
  q[1] = w[0] * w[1];
  q[2] = w[0] * w[2];
  q[3] = w[3] / (gamma - 1.0) + 0.5 * w[0] * (w[1] * w[1] + w[2] * w[2]);
}

void euler_cons_to_prim(const double q[4], double gamma, double w[4]) {
  w[0] = q[0];
  w[1] = q[1] / q[0];
  w[2] = q[2] / q[0];
  w[3] = (gamma - 1.0) * (q[3] - 0.5 * (q[1] * q[1] + q[2] * q[2]) / q[0]);
}

int euler_parse_numbers(const char *text, int n, double *out, char *why, size_t whylen) {
  const char *s = text;
  for (int k = 0; k < n; k++) {
    const char *end = strchr(s, ',');
    if (!end) end = s + strlen(s);
    if (k + 1 < n && *end != ',') {
      snprintf(why, whylen, "found %d number%s", k + 1, k ? "s" : "");
      return -1;
    }
    if (k + 1 == n && *end == ',') {
      int more = n;
      for (const char *p = s; *p; p++) more += *p == ',';
      snprintf(why, whylen, "found %d numbers", more);
      return -1;
    }
    const char *b = s, *e = end;
    while (b < e && (*b == ' ' || *b == '\t')) b++;
    while (e > b && (e[-1] == ' ' || e[-1] == '\t')) e--;
    op_number_status st = op_number_parse(b, (size_t)(e - b), &out[k]);
    if (st != OP_NUMBER_OK) {
      snprintf(why, whylen, "number %d '%.*s' %s", k + 1, (int)(e - b < 40 ? e - b : 40), b,
               op_number_reason(st));
      return -1;
    }
    s = *end ? end + 1 : end;
  }
  return 0;
}

/* Fraction of [a, b] below c. */
static double fraction_below(double a, double b, double c) {
  if (c <= a) return 0.0;
  if (c >= b) return 1.0;
  return (c - a) / (b - a);
}

/* Nearest periodic image of d in a period L: in [-L/2, L/2). */
static double wrap(double d, double L) { return d - L * floor(d / L + 0.5); }

/* The vortex's primitive state at (x, y) at time t. */
static void vortex_state(const euler_problem *pb, double t, double x, double y, double w[4]) {
  const double g = pb->gamma, eps = pb->strength;
  const double dx = wrap(x - pb->centre_x - pb->u0 * t, pb->x_max - pb->x_min);
  const double dy = wrap(y - pb->centre_y - pb->v0 * t, pb->y_max - pb->y_min);
  const double e = exp(1.0 - (dx * dx + dy * dy));
  const double T = 1.0 - (g - 1.0) * eps * eps / (8.0 * g * PI * PI) * e;
  const double du = eps / (2.0 * PI) * sqrt(e);
  w[0] = pow(T, 1.0 / (g - 1.0));
  w[1] = pb->u0 - du * dy;
  w[2] = pb->v0 + du * dx;
  w[3] = w[0] * T;
}

/* 3-point Gauss-Legendre nodes on [-1, 1] and weights (sum 2). */
static const double GAUSS_X[3] = {-0.77459666924148337704, 0.0, 0.77459666924148337704};
static const double GAUSS_W[3] = {5.0 / 9.0, 8.0 / 9.0, 5.0 / 9.0};

void euler_initial_average(const euler_problem *pb, double xa, double xb, double ya, double yb,
                           double q[4]) {
  const double g = pb->gamma;
  double a[4], b[4], c[4], d[4];
  for (int k = 0; k < 4; k++) q[k] = 0.0;
  switch (pb->kind) {
    case EULER_PROBLEM_RIEMANN2D: {
      /* Area-weighted: exact for any split point. */
      const double fx = fraction_below(xa, xb, pb->split_x);
      const double fy = fraction_below(ya, yb, pb->split_y);
      euler_prim_to_cons(pb->sw, g, a);
      euler_prim_to_cons(pb->se, g, b);
      euler_prim_to_cons(pb->nw, g, c);
      euler_prim_to_cons(pb->ne, g, d);
      for (int k = 0; k < 4; k++)
        q[k] = fy * (fx * a[k] + (1.0 - fx) * b[k]) + (1.0 - fy) * (fx * c[k] + (1.0 - fx) * d[k]);
      break;
    }
    case EULER_PROBLEM_RIEMANN1D: {
      const double f = pb->direction == 0 ? fraction_below(xa, xb, pb->diaphragm)
                                          : fraction_below(ya, yb, pb->diaphragm);
      double wl[4], wr[4];
      /* (rho, u_n, p) -> (rho, u, v, p) with u_n along the direction */
      wl[0] = pb->left[0];
      wr[0] = pb->right[0];
      wl[3] = pb->left[2];
      wr[3] = pb->right[2];
      wl[1 + pb->direction] = pb->left[1];
      wr[1 + pb->direction] = pb->right[1];
      wl[2 - pb->direction] = 0.0;
      wr[2 - pb->direction] = 0.0;
      euler_prim_to_cons(wl, g, a);
      euler_prim_to_cons(wr, g, b);
      for (int k = 0; k < 4; k++)
        q[k] = f == 1.0 ? a[k] : f == 0.0 ? b[k] : f * a[k] + (1.0 - f) * b[k];
      break;
    }
    case EULER_PROBLEM_VORTEX: {
      const double hx = 0.5 * (xb - xa), hy = 0.5 * (yb - ya);
      const double mx = 0.5 * (xa + xb), my = 0.5 * (ya + yb);
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          double w[4];
          vortex_state(pb, 0.0, mx + hx * GAUSS_X[i], my + hy * GAUSS_X[j], w);
          euler_prim_to_cons(w, g, a);
          for (int k = 0; k < 4; k++) q[k] += 0.25 * GAUSS_W[i] * GAUSS_W[j] * a[k];
        }
      break;
    }
    case EULER_PROBLEM_EXPLOSION: {
      enum { SUB = 8 };
      int inside = 0;
      const double r2 = pb->radius * pb->radius;
      for (int i = 0; i < SUB; i++)
        for (int j = 0; j < SUB; j++) {
          const double x = xa + (xb - xa) * (i + 0.5) / SUB - pb->centre_x;
          const double y = ya + (yb - ya) * (j + 0.5) / SUB - pb->centre_y;
          inside += x * x + y * y < r2;
        }
      euler_prim_to_cons(pb->inside, g, a);
      euler_prim_to_cons(pb->outside, g, b);
      const double f = (double)inside / (SUB * SUB);
      for (int k = 0; k < 4; k++)
        q[k] = inside == SUB * SUB ? a[k] : inside == 0 ? b[k] : f * a[k] + (1.0 - f) * b[k];
      break;
    }
  }
}

int euler_has_exact(const euler_problem *pb) {
  return pb->kind == EULER_PROBLEM_VORTEX || pb->kind == EULER_PROBLEM_RIEMANN1D;
}

static int riemann1d_solve(const euler_problem *pb, riemann_solution *sol) {
  riemann_state L = {pb->left[0], pb->left[1], pb->left[2]};
  riemann_state R = {pb->right[0], pb->right[1], pb->right[2]};
  return riemann_solve(&L, &R, pb->gamma, sol);
}

int euler_exact_valid(const euler_problem *pb, double t) {
  if (pb->kind == EULER_PROBLEM_VORTEX) return 1;
  if (pb->kind != EULER_PROBLEM_RIEMANN1D) return 0;
  riemann_solution sol;
  if (riemann1d_solve(pb, &sol) < 0) return 0;
  double s[5];
  riemann_wave_speeds(&sol, s);
  const double lo = pb->direction == 0 ? pb->x_min : pb->y_min;
  const double hi = pb->direction == 0 ? pb->x_max : pb->y_max;
  return pb->diaphragm + s[0] * t >= lo && pb->diaphragm + s[4] * t <= hi;
}

int euler_exact_riemann1d(const euler_problem *pb, double t, double s, double w[3]) {
  riemann_solution sol;
  if (pb->kind != EULER_PROBLEM_RIEMANN1D || riemann1d_solve(pb, &sol) < 0) return -1;
  const double S = t > 0.0 ? (s - pb->diaphragm) / t : (s < pb->diaphragm ? -INFINITY : INFINITY);
  riemann_state st;
  if (riemann_sample(&sol, S, &st) < 0) return -1;
  w[0] = st.rho;
  w[1] = st.u;
  w[2] = st.p;
  return 0;
}

/* Folds the conserved state q into the running range [lo, hi]. */
static void widen_range(const double q[4], double lo[4], double hi[4]) {
  if (!lo) return;
  for (int k = 0; k < 4; k++) {
    if (q[k] < lo[k]) lo[k] = q[k];
    if (q[k] > hi[k]) hi[k] = q[k];
  }
}

int euler_exact_average(const euler_problem *pb, double t, double xa, double xb, double ya,
                        double yb, double q[4], double lo[4], double hi[4]) {
  const double g = pb->gamma;
  double c[4], w[4];
  for (int k = 0; k < 4; k++) q[k] = 0.0;
  if (pb->kind == EULER_PROBLEM_VORTEX) {
    const double hx = 0.5 * (xb - xa), hy = 0.5 * (yb - ya);
    const double mx = 0.5 * (xa + xb), my = 0.5 * (ya + yb);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        vortex_state(pb, t, mx + hx * GAUSS_X[i], my + hy * GAUSS_X[j], w);
        euler_prim_to_cons(w, g, c);
        widen_range(c, lo, hi);
        for (int k = 0; k < 4; k++) q[k] += 0.25 * GAUSS_W[i] * GAUSS_W[j] * c[k];
      }
    return 0;
  }
  if (pb->kind != EULER_PROBLEM_RIEMANN1D) return -1;
  riemann_solution sol;
  if (riemann1d_solve(pb, &sol) < 0) return -1;
  enum { SUB = 16 };
  const double a = pb->direction == 0 ? xa : ya, b = pb->direction == 0 ? xb : yb;
  for (int k = 0; k < SUB; k++) {
    const double x = a + (b - a) * (k + 0.5) / SUB;
    riemann_state r;
    double S = t > 0.0 ? (x - pb->diaphragm) / t : (x < pb->diaphragm ? -INFINITY : INFINITY);
    if (riemann_sample(&sol, S, &r) < 0) return -1;
    /* (rho, u_n, p) -> (rho, u, v, p) with u_n along the direction */
    w[0] = r.rho;
    w[1 + pb->direction] = r.u;
    w[2 - pb->direction] = 0.0;
    w[3] = r.p;
    euler_prim_to_cons(w, g, c);
    widen_range(c, lo, hi);
    for (int m = 0; m < 4; m++) q[m] += c[m];
  }
  for (int m = 0; m < 4; m++) q[m] /= SUB;
  return 0;
}

int euler_riemann1d_describe(const euler_problem *pb, char *buf, size_t len) {
  riemann_solution sol;
  int st = riemann1d_solve(pb, &sol);
  if (st < 0) {
    snprintf(buf, len, "exact Riemann solution: %s", riemann_status_string(st));
    return -1;
  }
  if (st != RIEMANN_OK) {
    snprintf(buf, len, "exact Riemann solution: %s", riemann_status_string(st));
    return 0;
  }
  snprintf(buf, len,
           "exact Riemann solution: p* = %.10g, u* = %.10g, rho*L = %.10g, rho*R = %.10g "
           "(left %s, right %s)",
           sol.p_star, sol.u_star, sol.rho_star_left, sol.rho_star_right,
           riemann_wave_string(sol.left_wave), riemann_wave_string(sol.right_wave));
  return 0;
}
