/* euler_accuracy.c - errors against the exact solution and the verdicts on
 * them (euler_accuracy.h). */
#include "euler_accuracy.h"

#include <math.h>
#include <string.h>

static const char *const var_name[4] = {"rho", "momentum_x", "momentum_y", "energy"};

void euler_accuracy_measure(const euler_problem *pb, double t, int nx, int ny, const double *q,
                            euler_accuracy *a) {
  memset(a, 0, sizeof *a);
  if (!euler_has_exact(pb)) return;
  a->valid = euler_exact_valid(pb, t);
  a->nx = nx;
  a->ny = ny;
  for (int k = 0; k < 4; k++) {
    a->exact_lo[k] = a->lo[k] = INFINITY;
    a->exact_hi[k] = a->hi[k] = -INFINITY;
  }
  const double lx = pb->x_max - pb->x_min, ly = pb->y_max - pb->y_min;
  double s1[4] = {0.0, 0.0, 0.0, 0.0}, s2 = 0.0, mx = 0.0;
  for (int j = 0; j < ny; j++)
    for (int i = 0; i < nx; i++) {
      /* The cell's faces as set_initial computes them. */
      const double xa = pb->x_min + lx * i / nx, xb = pb->x_min + lx * (i + 1) / nx;
      const double ya = pb->y_min + ly * j / ny, yb = pb->y_min + ly * (j + 1) / ny;
      double ex[4];
      if (euler_exact_average(pb, t, xa, xb, ya, yb, ex, a->exact_lo, a->exact_hi) != 0) return;
      const double *c = q + 4 * ((size_t)j * nx + i);
      for (int k = 0; k < 4; k++) {
        s1[k] += fabs(c[k] - ex[k]);
        if (c[k] < a->lo[k]) a->lo[k] = c[k];
        if (c[k] > a->hi[k]) a->hi[k] = c[k];
      }
      const double err = fabs(c[0] - ex[0]);
      s2 += err * err;
      if (!(err <= mx)) mx = err;
    }
  const double n = (double)nx * ny;
  for (int k = 0; k < 4; k++) a->l1[k] = s1[k] / n;
  a->l2_rho = sqrt(s2 / n);
  a->linf_rho = mx;
  a->available = 1;
}

double euler_accuracy_excess(const euler_accuracy *a, int k) {
  const double width = a->exact_hi[k] - a->exact_lo[k];
  const double below = a->exact_lo[k] - a->lo[k], above = a->hi[k] - a->exact_hi[k];
  const double out = below > above ? below : above;
  if (!(out > 0.0)) return out == out ? 0.0 : INFINITY; /* NaN counts as out */
  return width > 0.0 ? out / width : INFINITY;
}

double euler_l1_bound_scale(int measured, int cells) {
  const double ratio = (double)measured / cells; /* h of this run over h measured */
  return ratio >= 1.0 ? ratio : sqrt(ratio);
}

/* The four L1 verdicts against bound[k] times scale; `how` says where the
 * bound comes from. */
static void l1_verdicts(const euler_accuracy *a, const euler_l1_bound *b, double scale,
                        const char *how, solver_verdicts *v) {
  for (int k = 0; k < 4; k++) {
    char name[32];
    snprintf(name, sizeof name, "l1_%s", var_name[k]);
    const double limit = b->value[k] * scale;
    solver_verdict_add(v, name, a->l1[k], SOLVER_AT_MOST, limit,
                       "L1 error of %s against the exact solution %.4e (bound %.4e%s)",
                       var_name[k], a->l1[k], limit, how);
  }
}

void euler_accuracy_verdicts(const euler_problem *pb, const euler_accuracy *a,
                             const euler_l1_bound *bound, double range_tol, int reached_end,
                             solver_verdicts *v) {
  if (bound && reached_end) {
    if (!a->available || !a->valid) {
      solver_verdict_add(v, "l1_error", 1, SOLVER_AT_MOST, 0,
                         "L1 bounds given, but %s at the end time (value: 1 when there is no "
                         "exact solution to compare with)",
                         a->available ? "the exact solution no longer holds (a wave has left "
                                        "the domain)"
                                      : "there is no exact solution to compare with");
    } else {
      const int along = pb->kind == EULER_PROBLEM_RIEMANN1D && pb->direction == 1 ? a->ny : a->nx;
      const char *axis = pb->kind == EULER_PROBLEM_RIEMANN1D && pb->direction == 1 ? "ny" : "nx";
      char how[192];
      if (bound->cells == 0) {
        l1_verdicts(a, bound, 1.0, "", v);
      } else if (bound->cells == along) {
        snprintf(how, sizeof how, ", measured at %s = %d", axis, along);
        l1_verdicts(a, bound, 1.0, how, v);
      } else if (pb->kind == EULER_PROBLEM_RIEMANN1D &&
                 (along < bound->min_cells || along > bound->max_cells)) {
        solver_verdict_not_judged(v, "l1_bounds",
                                  "%s = %d lies %s the validated range of the scaled L1 bounds "
                                  "(measured at %s = %d, checked against runs on %s = %d to %d)",
                                  axis, along, along < bound->min_cells ? "below" : "above", axis,
                                  bound->cells, axis, bound->min_cells, bound->max_cells);
      } else if (pb->kind == EULER_PROBLEM_RIEMANN1D) {
        const double scale = euler_l1_bound_scale(bound->cells, along);
        snprintf(how, sizeof how,
                 ": measured at %s = %d, times (%d/%d)^%s for %s = %d; L1 orders of "
                 "discontinuities lie in [1/2, 1], the looser taken",
                 axis, bound->cells, bound->cells, along, along < bound->cells ? "1" : "(1/2)",
                 axis, along);
        l1_verdicts(a, bound, scale, how, v);
      } else {
        solver_verdict_not_judged(v, "l1_bounds",
                                  "the L1 bounds were measured at %s = %d and this run has %s = "
                                  "%d (bounds are scaled only for the 1D Riemann problems)",
                                  axis, bound->cells, axis, along);
      }
    }
  }
  if (pb->kind == EULER_PROBLEM_RIEMANN1D && a->available && a->valid) {
    int worst = 0;
    double excess[4];
    char detail[128] = "";
    size_t used = 0;
    for (int k = 0; k < 4; k++) {
      excess[k] = euler_accuracy_excess(a, k);
      if (excess[k] > excess[worst]) worst = k;
      used += (size_t)snprintf(detail + used, sizeof detail - used, "%s%s %.2g", k ? ", " : "",
                               var_name[k], excess[k]);
      if (used >= sizeof detail) used = sizeof detail - 1;
    }
    solver_verdict_add(v, "no_new_extrema", excess[worst], SOLVER_AT_MOST, range_tol,
                       "outside the exact range, as a fraction of it: %s (limit %.2g); %s "
                       "computed [%.6g, %.6g], exact [%.6g, %.6g]",
                       detail, range_tol, var_name[worst], a->lo[worst], a->hi[worst],
                       a->exact_lo[worst], a->exact_hi[worst]);
  }
}
