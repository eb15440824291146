/*
 * euler_results.c - the verdicts, the summary and result.json of
 * euler_results.h.
 */
#include "euler_results.h"

#include <math.h>
#include <stddef.h>

#include "euler_params.h"
#include "result_json.h"
#include "solver_interrupt.h"
#include "solver_result.h"

void euler_result_verdicts(const euler_result *r, const euler_problem *pb, const euler_l1_bound *l1,
                           solver_verdicts *v) {
  const deck *d = r->d;
  const double t = r->t_final, t_end = deck_real(d, "t_end");
  const long step = r->steps, max_steps = deck_int(d, "max_steps");
  const int reached = t >= t_end;
  if (!reached && max_steps > 0 && step == max_steps)
    solver_verdict_add(v, "completed", (double)step, SOLVER_AT_LEAST, (double)max_steps,
                       "stopped at t = %.10g after max_steps = %ld steps", t, step);
  else
    solver_verdict_add(
        v, "completed", t, SOLVER_AT_LEAST, t_end,
        reached ? "reached t_end = %.10g in %ld steps" : "stopped at t = %.10g after %ld steps",
        reached ? t_end : t, step);
  solver_interrupt_verdict(v, "step %ld (t = %.10g of %.10g)", step, t, t_end);
  /* value: the smaller of the smallest density and pressure; NaN when the
   * state was not physical for another reason (a wave speed not finite). */
  double smallest = r->qmin[0] < r->qmin[1] ? r->qmin[0] : r->qmin[1];
  if (!r->physical && smallest > 0.0) smallest = NAN;
  solver_verdict_add(v, "physical_state", smallest, SOLVER_ABOVE, 0.0,
                     "smallest density %.6g and pressure %.6g at the end (must be positive)",
                     r->qmin[0], r->qmin[1]);
  euler_accuracy_verdicts(pb, &r->ex, l1, deck_real(d, "range_tolerance"), reached, v);
  int conserved[4];
  euler_conserved_mask(d, conserved);
  if (conserved[0] || conserved[1] || conserved[2] || conserved[3]) {
    /* Each step rounds every cell's value about twice per sweep (relative
     * 1.1e-16 each), and the totals are sums of nx*ny terms: a bound of
     * 4.4e-16 per step plus the summation error, well under the tolerance
     * 1e-12 + 1e-15 per step, relative to the integral of |U| (the scale of
     * those rounding errors). A conservation bug (a flux counted once, a
     * boundary face not cancelling) shows at the size of the flux itself. */
    static const char *const qname[4] = {"mass", "momentum_x", "momentum_y", "energy"};
    const double tol = 1e-12 + 1e-15 * (double)step;
    double worst = 0.0;
    char detail[256] = "";
    size_t used = 0;
    for (int k = 0; k < 4; k++) {
      if (!conserved[k]) continue;
      double scale = r->tot0[4 + k] > r->tot1[4 + k] ? r->tot0[4 + k] : r->tot1[4 + k];
      double change = fabs(r->tot1[k] - r->tot0[k]);
      double rel = scale > 0.0 ? change / scale : change;
      if (isnan(rel) || isnan(worst))
        worst = NAN; /* a NaN total fails, and stays the value reported */
      else if (rel > worst)
        worst = rel;
      used += (size_t)snprintf(detail + used, sizeof detail - used, "%s%s %.1e", used ? ", " : "",
                               qname[k], rel);
      if (used >= sizeof detail) used = sizeof detail - 1;
    }
    solver_verdict_add(v, "conservation", worst, SOLVER_AT_MOST, tol,
                       "relative change of the totals (to the integral of |U|): %s; limit %.1e",
                       detail, tol);
  }
}

void euler_result_print(const euler_result *r, FILE *f) {
  fprintf(f, "\neuler: %ld steps to t = %.10g in %.3f s (%.3f ms per step; output %.3f s)\n",
          r->steps, r->t_final, r->wall_steps, r->steps ? 1e3 * r->wall_steps / r->steps : 0.0,
          r->wall_output);
  if (r->fallbacks > 0 || r->flagged > 0)
    fprintf(f,
            "euler: first-order fluxes: %ld faces whose evolved states were not physical; %ld "
            "faces beside %ld cells whose update would not have been\n",
            r->fallbacks, r->fixed, r->flagged);
  if (r->ex.available)
    fprintf(f,
            "euler: error against the exact solution at t = %.10g%s: L1(rho) = %.6e, "
            "L2(rho) = %.6e, Linf(rho) = %.6e; L1(rho u) = %.6e, L1(rho v) = %.6e, "
            "L1(E) = %.6e\n",
            r->t_final,
            r->ex.valid ? "" : " (NOT VALID: a wave has reached an end, or an end makes waves)",
            r->ex.l1[0], r->ex.l2_rho, r->ex.linf_rho, r->ex.l1[1], r->ex.l1[2], r->ex.l1[3]);
}

static void json_totals(json_writer *w, const char *key, const double t[8]) {
  json_key(w, key);
  json_begin_object(w);
  json_kv_number(w, "mass", t[0]);
  json_kv_number(w, "momentum_x", t[1]);
  json_kv_number(w, "momentum_y", t[2]);
  json_kv_number(w, "energy", t[3]);
  json_end_object(w);
}

void euler_result_fill(FILE *f, void *vctx) {
  const euler_result *c = vctx;
  json_writer w;
  solver_result_begin(&w, f, "euler", c->d);
  json_key(&w, "grid");
  json_begin_object(&w);
  json_kv_int(&w, "nx", c->grid->nx);
  json_kv_int(&w, "ny", c->grid->ny);
  json_kv_int(&w, "ghost_layers", c->grid->g);
  json_kv_number(&w, "dx", c->dx);
  json_kv_number(&w, "dy", c->dy);
  json_kv_int(&w, "cells", c->grid->ninterior);
  json_kv_int(&w, "extended_cells", c->grid->ncells);
  json_kv_int(&w, "x_faces", c->grid->nxfaces);
  json_kv_int(&w, "y_faces", c->grid->nyfaces);
  json_end_object(&w);
  json_kv_int(&w, "steps", c->steps);
  json_kv_number(&w, "final_time", c->t_final);
  json_key(&w, "first_order_fluxes");
  json_begin_object(&w);
  json_kv_int(&w, "faces_evolved_states_unphysical", c->fallbacks);
  json_kv_int(&w, "cells_update_unphysical", c->flagged);
  json_kv_int(&w, "faces_beside_those_cells", c->fixed);
  json_end_object(&w);
  json_totals(&w, "totals_initial", c->tot0);
  json_totals(&w, "totals_final", c->tot1);
  if (c->ex.available) {
    json_key(&w, "exact_error");
    json_begin_object(&w);
    json_kv_bool(&w, "valid", c->ex.valid);
    json_kv_number(&w, "l1_rho", c->ex.l1[0]);
    json_kv_number(&w, "l2_rho", c->ex.l2_rho);
    json_kv_number(&w, "linf_rho", c->ex.linf_rho);
    json_end_object(&w);
  }
  json_kv_number(&w, "wall_seconds_steps", c->wall_steps);
  json_kv_number(&w, "wall_seconds_output", c->wall_output);
  const solver_wall wall = {c->wall_total, c->wall_steps};
  solver_result_end(&w, c->verdicts, &wall);
}
