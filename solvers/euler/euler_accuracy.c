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

void euler_accuracy_verdicts(const euler_problem *pb, const euler_accuracy *a,
                             const double *l1_bound, double range_tol, int reached_end,
                             solver_verdicts *v) {
  if (l1_bound && reached_end) {
    if (!a->available || !a->valid) {
      solver_verdict_add(v, "l1_error", 0,
                         "L1 bounds given, but %s at the end time",
                         a->available ? "the exact solution no longer holds (a wave has left "
                                        "the domain)"
                                      : "there is no exact solution to compare with");
    } else {
      for (int k = 0; k < 4; k++) {
        char name[32];
        snprintf(name, sizeof name, "l1_%s", var_name[k]);
        solver_verdict_add(v, name, a->l1[k] <= l1_bound[k],
                           "L1 error of %s against the exact solution %.4e (bound %.4e)",
                           var_name[k], a->l1[k], l1_bound[k]);
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
    solver_verdict_add(v, "no_new_extrema", excess[worst] <= range_tol,
                       "outside the exact range, as a fraction of it: %s (limit %.2g); %s "
                       "computed [%.6g, %.6g], exact [%.6g, %.6g]",
                       detail, range_tol, var_name[worst], a->lo[worst], a->hi[worst],
                       a->exact_lo[worst], a->exact_hi[worst]);
  }
}
