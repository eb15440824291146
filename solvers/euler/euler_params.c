/*
 * euler_params.c - the Euler solver's deck keys, the problem read and checked
 * from them, and what the deck alone says about the run (euler_params.h).
 */
#include "euler_params.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "euler_scheme.h"
#include "op_text.h"
#include "solver_limits.h"
#include "structured_grid.h"

const deck_key euler_keys[] = {
    {"problem", DECK_CHOICE, "riemann2d", 0, 0, "riemann2d|riemann1d|vortex|explosion",
     "initial data: four-quadrant 2D Riemann problem, 1D Riemann problem along x or y, "
     "isentropic vortex, cylindrical explosion"},
    {"nx", DECK_INT, "400", 2, 100000, NULL, "cells along x"},
    {"ny", DECK_INT, "400", 2, 100000, NULL, "cells along y"},
    {"x_min", DECK_REAL, "0", 0, 0, NULL, "domain: left end"},
    {"x_max", DECK_REAL, "1", 0, 0, NULL, "domain: right end (> x_min)"},
    {"y_min", DECK_REAL, "0", 0, 0, NULL, "domain: bottom end"},
    {"y_max", DECK_REAL, "1", 0, 0, NULL, "domain: top end (> y_min)"},
    {"t_end", DECK_REAL, "0.3", 0, INFINITY, NULL, "end time (> 0)"},
    {"cfl", DECK_REAL, "0.9", 0, 1, NULL,
     "Courant number in (0, 1]: dt = cfl min(dx, dy) / max(|u| + a, |v| + a)"},
    {"gamma", DECK_REAL, "1.4", 1, 100, NULL, "ratio of specific heats (> 1)"},
    {"limiter", DECK_CHOICE, "vanleer", 0, 0, "firstorder|minbee|vanleer|superbee|none",
     "slope limiter (none: unlimited, for smooth flows only)"},
    {"bc_west", DECK_CHOICE, "transmissive", 0, 0, "transmissive|reflective|periodic",
     "boundary condition at x = x_min"},
    {"bc_east", DECK_CHOICE, "transmissive", 0, 0, "transmissive|reflective|periodic",
     "boundary condition at x = x_max"},
    {"bc_south", DECK_CHOICE, "transmissive", 0, 0, "transmissive|reflective|periodic",
     "boundary condition at y = y_min"},
    {"bc_north", DECK_CHOICE, "transmissive", 0, 0, "transmissive|reflective|periodic",
     "boundary condition at y = y_max"},
    {"split_x", DECK_REAL, "0.5", 0, 0, NULL, "riemann2d: x of the quadrants' corner"},
    {"split_y", DECK_REAL, "0.5", 0, 0, NULL, "riemann2d: y of the quadrants' corner"},
    {"state_ne", DECK_STRING, "1.5, 0, 0, 1.5", 0, 0, NULL,
     "riemann2d: upper right state RHO,U,V,P (default: configuration 3)"},
    {"state_nw", DECK_STRING, "0.5323, 1.206, 0, 0.3", 0, 0, NULL,
     "riemann2d: upper left state RHO,U,V,P"},
    {"state_sw", DECK_STRING, "0.138, 1.206, 1.206, 0.029", 0, 0, NULL,
     "riemann2d: lower left state RHO,U,V,P"},
    {"state_se", DECK_STRING, "0.5323, 0, 1.206, 0.3", 0, 0, NULL,
     "riemann2d: lower right state RHO,U,V,P"},
    {"direction", DECK_CHOICE, "x", 0, 0, "x|y", "riemann1d: the direction of the problem"},
    {"diaphragm", DECK_REAL, "0.5", 0, 0, NULL,
     "riemann1d: position of the initial discontinuity along the direction"},
    {"state_left", DECK_STRING, "1, 0, 1", 0, 0, NULL,
     "riemann1d: state RHO,U,P before the diaphragm (U along the direction; default Sod)"},
    {"state_right", DECK_STRING, "0.125, 0, 0.1", 0, 0, NULL,
     "riemann1d: state RHO,U,P after the diaphragm"},
    {"centre", DECK_STRING, "", 0, 0, NULL,
     "vortex, explosion: the centre X,Y (empty: the middle of the domain)"},
    {"vortex_strength", DECK_REAL, "5", 0, INFINITY, NULL, "vortex: strength epsilon"},
    {"vortex_velocity", DECK_STRING, "1, 1", 0, 0, NULL,
     "vortex: background velocity U,V (the vortex moves with it)"},
    {"radius", DECK_REAL, "0.4", 0, INFINITY, NULL, "explosion: radius of the circle (> 0)"},
    {"state_inside", DECK_STRING, "1, 0, 0, 1", 0, 0, NULL,
     "explosion: state RHO,U,V,P inside the circle"},
    {"state_outside", DECK_STRING, "0.125, 0, 0, 0.1", 0, 0, NULL,
     "explosion: state RHO,U,V,P outside the circle"},
    {"l1_bound", DECK_STRING, "", 0, 0, NULL,
     "upper bounds RHO,MX,MY,E on the L1 errors (means over the cells) of the conserved "
     "variables against the exact solution at t_end (problems with one); empty: not checked"},
    {"l1_bound_cells", DECK_INT, "0", 0, 2e9, NULL,
     "the cells along the problem's direction (nx for 2D problems) of the run l1_bound was "
     "measured on: a riemann1d run on other cells within l1_bound_min_cells to "
     "l1_bound_max_cells scales the bounds by the scheme's order, other runs are not judged "
     "on them; 0: the bounds are this run's own"},
    {"l1_bound_min_cells", DECK_INT, "0", 0, 2e9, NULL,
     "riemann1d: the fewest cells along the direction on which the scaled L1 bounds were "
     "checked against measured runs; a run on fewer is not judged on them; 0: l1_bound_cells"},
    {"l1_bound_max_cells", DECK_INT, "0", 0, 2e9, NULL,
     "riemann1d: the most cells along the direction on which the scaled L1 bounds were "
     "checked against measured runs; a run on more is not judged on them; 0: l1_bound_cells"},
    {"range_tolerance", DECK_REAL, "0.01", 0, 1, NULL,
     "riemann1d: how far the computed conserved variables may lie outside the exact "
     "solution's range of each, as a fraction of its width (verdict no_new_extrema)"},
    {"max_steps", DECK_INT, "0", 0, 2e9, NULL,
     "stop after this many steps even before t_end (0: no limit)"},
    {"output_interval", DECK_REAL, "0", 0, INFINITY, NULL,
     "time between outputs (a line, images, HDF5 dumps); 0: only at the start and the end. "
     "Time steps are shortened to land on output times"},
    {"output_dir", DECK_STRING, "outputs/euler", 0, 0, NULL,
     "directory for images, HDF5 files and result.json"},
    {"images", DECK_BOOL, "yes", 0, 0, NULL,
     "pictures at every output (PPM and PNG, with the time and a colour bar)"},
    {"image_fields", DECK_STRING, "rho", 0, 0, NULL,
     "fields to draw, comma-separated: rho, u, v, p, e (specific internal energy), energy (total "
     "energy per volume), speed, mach"},
    {"image_colormap", DECK_CHOICE, "viridis", 0, 0, "viridis|gray|coolwarm|jet",
     "colour map of the images"},
    {"image_scale", DECK_INT, "1", 1, 64, NULL,
     "pixels per cell along each axis (by default more on a small grid: 240 pixels or more "
     "on its longer side)"},
    {"image_range", DECK_STRING, "", 0, 0, NULL,
     "fixed colour ranges FIELD:MIN:MAX, comma-separated (fields not listed: the range of "
     "the whole series, the frames redrawn at the end)"},
    {"hdf5", DECK_CHOICE, "final", 0, 0, "none|final|all",
     "HDF5 + XDMF output: none; the final state (final.h5, final.xmf); or also a dump at "
     "every output (dump_NNNN.h5, series dumps.xmf); both with grid.h5, the cells for ParaView"},
    SOLVER_LIMIT_KEYS,
};
const int euler_nkeys = (int)(sizeof euler_keys / sizeof euler_keys[0]);

void euler_bad_input(const deck *d, const char *key, const char *fmt, const char *value) {
  fprintf(stderr, "euler: %s: %s: ", deck_origin(d, key), key);
  fprintf(stderr, fmt, value);
  fputc('\n', stderr);
  exit(2);
}

void euler_fail(const char *what, const char *detail) {
  fprintf(stderr, "euler: %s: %s\n", what, detail);
  exit(2);
}

void euler_read_numbers(const deck *d, const char *key, int n, const char *what, double *out) {
  const char *text = deck_string(d, key);
  char why[160];
  if (euler_parse_numbers(text, n, out, why, sizeof why) != 0) {
    char fmt[512];
    /* why may quote the value: no '%' of it may reach the format. */
    for (char *p = why; *p; p++)
      if (*p == '%') *p = '?';
    snprintf(fmt, sizeof fmt, "%s in \"%%s\" (expected %s: %d comma-separated numbers)", why, what,
             n);
    euler_bad_input(d, key, fmt, text);
  }
}

/* The largest magnitude of a conserved variable or flux a state may have:
 * the scheme forms products of two of them (m^2 / rho, u (E + p), the
 * Riemann solver's), which stay far below DBL_MAX (1.8e308) under it. */
#define STATE_MAX 1e150

/* A state (rho, u, v, p) as the scheme holds it: its conserved variables and
 * fluxes at most STATE_MAX in magnitude, the pressure the kernels recover
 * from them positive and its signal speed finite. A state beyond (a density
 * of 1e308, a velocity of 1e200) is bad input, refused before any step
 * rather than found "not physical" at step 1 with an infinite pressure.
 * Returns the signal speed max(|u|, |v|) + a. */
static double check_representable(const deck *d, const char *key, const double w[4],
                                  double gamma) {
  static const char *const names[12] = {
      "density",     "x momentum",   "y momentum",   "total energy",
      "mass flux along x", "x momentum flux along x", "y momentum flux along x",
      "energy flux along x", "mass flux along y", "x momentum flux along y",
      "y momentum flux along y", "energy flux along y"};
  double v[12];
  euler_prim_to_cons(w, gamma, v);
  const double p = w[3], u = w[1], vv = w[2];
  const double fx[4] = {v[1], v[1] * u + p, v[2] * u, (v[3] + p) * u};
  const double fy[4] = {v[2], v[1] * vv, v[2] * vv + p, (v[3] + p) * vv};
  memcpy(v + 4, fx, sizeof fx);
  memcpy(v + 8, fy, sizeof fy);
  char state[OP_TEXT_SHOWN], detail[640];
  op_text_shown(state, sizeof state, deck_string(d, key));
  for (int k = 0; k < 12; k++)
    if (!(fabs(v[k]) <= STATE_MAX)) {
      snprintf(detail, sizeof detail,
               "the state \"%s\" is out of reach of the scheme: its %s is %g, beyond %g, where "
               "the products the scheme forms of such values overflow a double",
               state, names[k], v[k], STATE_MAX);
      euler_bad_input(d, key, "%s", detail);
    }
  const double pr = euler_pressure(v, gamma), speed = euler_signal_speed(v, gamma);
  if (!(pr > 0.0) || !isfinite(speed)) {
    snprintf(detail, sizeof detail,
             "the state \"%s\" is out of reach of the scheme: the pressure it recovers from "
             "the conserved variables is %g (the kinetic energy swamps the internal one)",
             state, pr);
    euler_bad_input(d, key, "%s", detail);
  }
  return speed;
}

/* A 2D state RHO,U,V,P with rho > 0 and p > 0 that the scheme can hold;
 * returns its signal speed. */
static double read_state4(const deck *d, const char *key, double gamma, double w[4]) {
  euler_read_numbers(d, key, 4, "RHO,U,V,P", w);
  if (!(w[0] > 0.0) || !(w[3] > 0.0))
    euler_bad_input(d, key, "density and pressure must be positive (\"%s\")", deck_string(d, key));
  return check_representable(d, key, w, gamma);
}

static double read_state3(const deck *d, const char *key, double gamma, double w[3]) {
  euler_read_numbers(d, key, 3, "RHO,U,P", w);
  if (!(w[0] > 0.0) || !(w[2] > 0.0))
    euler_bad_input(d, key, "density and pressure must be positive (\"%s\")", deck_string(d, key));
  const double w4[4] = {w[0], w[1], 0.0, w[2]};
  return check_representable(d, key, w4, gamma);
}

/* Reads and checks the problem; *speed gets the largest signal speed of its
 * initial data (for the estimate of the time steps). */
void euler_read_problem(const deck *d, euler_problem *pb, double *speed) {
  memset(pb, 0, sizeof *pb);
  *speed = 0.0;
  pb->kind = (euler_problem_kind)deck_choice(d, "problem");
  pb->gamma = deck_real(d, "gamma");
  pb->x_min = deck_real(d, "x_min");
  pb->x_max = deck_real(d, "x_max");
  pb->y_min = deck_real(d, "y_min");
  pb->y_max = deck_real(d, "y_max");
  char num[64];
  if (!(pb->gamma > 1.0)) {
    snprintf(num, sizeof num, "%g", pb->gamma);
    euler_bad_input(d, "gamma", "must be greater than 1, got %s", num);
  }
  if (!(pb->x_max > pb->x_min)) {
    snprintf(num, sizeof num, "%g", pb->x_max);
    euler_bad_input(d, "x_max", "must be greater than x_min, got %s", num);
  }
  if (!(pb->y_max > pb->y_min)) {
    snprintf(num, sizeof num, "%g", pb->y_max);
    euler_bad_input(d, "y_max", "must be greater than y_min, got %s", num);
  }
  /* The cell sizes must be finite normal numbers: a domain as wide as
   * [-1e308, 1e308] overflows, one of width 1e-310 underflows, and the
   * state would be blamed for what the domain does. */
  const char *axis_keys[2][2] = {{"x_min", "x_max"}, {"y_min", "y_max"}};
  const double lo[2] = {pb->x_min, pb->y_min}, hi[2] = {pb->x_max, pb->y_max};
  const int cells[2] = {deck_int(d, "nx"), deck_int(d, "ny")};
  for (int a = 0; a < 2; a++) {
    const double h = (hi[a] - lo[a]) / cells[a];
    if (!isfinite(hi[a] - lo[a]) || !(h >= DBL_MIN)) {
      snprintf(num, sizeof num, "[%g, %g] over %d cells", lo[a], hi[a], cells[a]);
      euler_bad_input(d, axis_keys[a][1],
                isfinite(hi[a] - lo[a]) ? "the domain %s is too narrow: the cell size underflows"
                                        : "the domain %s is too wide: its width overflows a double",
                num);
    }
  }
  if (!(deck_real(d, "t_end") > 0.0)) euler_bad_input(d, "t_end", "must be positive%s", "");
  if (!(deck_real(d, "cfl") > 0.0)) euler_bad_input(d, "cfl", "must be in (0, 1]%s", "");
  /* Only the keys of the chosen problem are read (and checked). */
  switch (pb->kind) {
    case EULER_PROBLEM_RIEMANN2D:
      pb->split_x = deck_real(d, "split_x");
      pb->split_y = deck_real(d, "split_y");
      *speed = fmax(*speed, read_state4(d, "state_ne", pb->gamma, pb->ne));
      *speed = fmax(*speed, read_state4(d, "state_nw", pb->gamma, pb->nw));
      *speed = fmax(*speed, read_state4(d, "state_sw", pb->gamma, pb->sw));
      *speed = fmax(*speed, read_state4(d, "state_se", pb->gamma, pb->se));
      break;
    case EULER_PROBLEM_RIEMANN1D:
      pb->direction = deck_choice(d, "direction");
      pb->diaphragm = deck_real(d, "diaphragm");
      *speed = fmax(*speed, read_state3(d, "state_left", pb->gamma, pb->left));
      *speed = fmax(*speed, read_state3(d, "state_right", pb->gamma, pb->right));
      break;
    case EULER_PROBLEM_VORTEX:
    case EULER_PROBLEM_EXPLOSION: {
      const char *c = deck_string(d, "centre");
      if (c[0] == '\0') {
        pb->centre_x = 0.5 * (pb->x_min + pb->x_max);
        pb->centre_y = 0.5 * (pb->y_min + pb->y_max);
      } else {
        double xy[2];
        euler_read_numbers(d, "centre", 2, "X,Y", xy);
        pb->centre_x = xy[0];
        pb->centre_y = xy[1];
      }
      if (pb->kind == EULER_PROBLEM_VORTEX) {
        double uv[2];
        pb->strength = deck_real(d, "vortex_strength");
        euler_read_numbers(d, "vortex_velocity", 2, "U,V", uv);
        pb->u0 = uv[0];
        pb->v0 = uv[1];
        /* The temperature 1 - (gamma-1) eps^2/(8 gamma pi^2) must stay positive. */
        const double tmin = 1.0 - (pb->gamma - 1.0) * pb->strength * pb->strength /
                                      (8.0 * pb->gamma * 3.14159265358979323846 *
                                       3.14159265358979323846);
        if (!(tmin > 0.0)) {
          snprintf(num, sizeof num, "%g", pb->strength);
          euler_bad_input(d, "vortex_strength",
                          "too strong: the core temperature is not positive (%s)", num);
        }
        /* The background (density and pressure 1) moves at (u0, v0); the
         * swirl adds at most strength / (2 pi), the core is colder. */
        const double background[4] = {1.0, pb->u0, pb->v0, 1.0};
        *speed = check_representable(d, "vortex_velocity", background, pb->gamma) +
                 fabs(pb->strength) / (2.0 * 3.14159265358979323846);
      } else {
        pb->radius = deck_real(d, "radius");
        if (!(pb->radius > 0.0)) euler_bad_input(d, "radius", "must be positive%s", "");
        *speed = fmax(*speed, read_state4(d, "state_inside", pb->gamma, pb->inside));
        *speed = fmax(*speed, read_state4(d, "state_outside", pb->gamma, pb->outside));
      }
      break;
    }
  }
}

/* The l1_bound, l1_bound_cells and l1_bound_{min,max}_cells keys: 1 with
 * the bounds, 0 when l1_bound is empty. */
int euler_read_l1_bound(const deck *d, euler_l1_bound *b) {
  if (deck_string(d, "l1_bound")[0] == '\0') return 0;
  euler_read_numbers(d, "l1_bound", 4, "RHO,MX,MY,E", b->value);
  for (int k = 0; k < 4; k++)
    if (!(b->value[k] >= 0.0))
      euler_bad_input(d, "l1_bound", "bounds must not be negative (\"%s\")",
                      deck_string(d, "l1_bound"));
  b->cells = deck_int(d, "l1_bound_cells");
  /* The validated range: where runs were measured against the scaled
   * bounds. Without one, only the measured resolution itself is judged. */
  b->min_cells = deck_int(d, "l1_bound_min_cells");
  b->max_cells = deck_int(d, "l1_bound_max_cells");
  if (b->min_cells == 0) b->min_cells = b->cells;
  if (b->max_cells == 0) b->max_cells = b->cells;
  char num[64];
  snprintf(num, sizeof num, "%d", b->cells);
  if ((deck_int(d, "l1_bound_min_cells") || deck_int(d, "l1_bound_max_cells")) && b->cells == 0)
    euler_bad_input(d, "l1_bound_cells",
                    "must be given with l1_bound_min_cells or l1_bound_max_cells (got %s)", num);
  if (b->min_cells > b->cells)
    euler_bad_input(d, "l1_bound_min_cells",
                    "must not exceed l1_bound_cells (%s): the bounds were measured there", num);
  if (b->max_cells < b->cells)
    euler_bad_input(d, "l1_bound_max_cells",
                    "must not be below l1_bound_cells (%s): the bounds were measured there", num);
  return 1;
}

/* The totals that the boundary conditions conserve: a quantity is conserved
 * when no boundary face carries its flux. Mass and energy: every side
 * periodic or reflective (a wall's flux carries only pressure). x-momentum:
 * west/east periodic (a west/east wall pushes) and south/north periodic or
 * reflective; y-momentum likewise. Transmissive sides let everything out. */
void euler_conserved_mask(const deck *d, int conserved[4]) {
  const int w = deck_choice(d, "bc_west"), e = deck_choice(d, "bc_east");
  const int s = deck_choice(d, "bc_south"), n = deck_choice(d, "bc_north");
  const int closed = w != SG_TRANSMISSIVE && e != SG_TRANSMISSIVE && s != SG_TRANSMISSIVE &&
                     n != SG_TRANSMISSIVE;
  conserved[0] = conserved[3] = closed;
  conserved[1] = closed && w == SG_PERIODIC;
  conserved[2] = closed && s == SG_PERIODIC;
}

/* The exact solution of the unbounded 1D Riemann problem holds in the domain
 * only while the two ends along its direction add no waves of their own.
 * Transmissive ends add none (until a wave reaches them: euler_exact_valid);
 * a reflective end adds none when the state beside it is at rest along the
 * direction, and otherwise sends a shock or a rarefaction off the wall;
 * periodic ends make a second Riemann problem of the two states. The sides
 * along the other direction never matter: the flow is uniform across them. */
int euler_ends_keep_exact(const deck *d, const euler_problem *pb) {
  if (pb->kind != EULER_PROBLEM_RIEMANN1D) return 1;
  const int lo = deck_choice(d, pb->direction == 0 ? "bc_west" : "bc_south");
  const int hi = deck_choice(d, pb->direction == 0 ? "bc_east" : "bc_north");
  if (lo == SG_PERIODIC || hi == SG_PERIODIC) return 0;
  if (lo == SG_REFLECTIVE && pb->left[1] != 0.0) return 0;
  if (hi == SG_REFLECTIVE && pb->right[1] != 0.0) return 0;
  return 1;
}

/* The time steps a run takes, about: t_end over dt = cfl h / s, s the
 * largest signal speed of the initial data (waves that speed up take more
 * steps), plus one for each output time landed on; max_steps caps it. *dt
 * gets that first dt. */
double euler_estimate_steps(const deck *d, double speed, double *dt) {
  const double dx = (deck_real(d, "x_max") - deck_real(d, "x_min")) / deck_int(d, "nx");
  const double dy = (deck_real(d, "y_max") - deck_real(d, "y_min")) / deck_int(d, "ny");
  const double t_end = deck_real(d, "t_end"), interval = deck_real(d, "output_interval");
  *dt = deck_real(d, "cfl") * fmin(dx, dy) / speed;
  double steps = ceil(t_end / *dt);
  if (interval > 0.0) steps += fmin(floor(t_end / interval), 1e12);
  if (!(steps < INFINITY)) steps = INFINITY; /* NaN from 0/0 too */
  const long max_steps = deck_int(d, "max_steps");
  return max_steps > 0 && steps > (double)max_steps ? (double)max_steps : steps;
}

/* Refuses up front a run of more than EULER_MAX_STEPS steps. */
void euler_check_steps(const deck *d, double speed, double steps, double dt) {
  if (steps <= EULER_MAX_STEPS) return;
  const double dx = (deck_real(d, "x_max") - deck_real(d, "x_min")) / deck_int(d, "nx");
  const double dy = (deck_real(d, "y_max") - deck_real(d, "y_min")) / deck_int(d, "ny");
  /* t_end / dt beyond the largest double has no count to print. */
  char count[64];
  if (isfinite(steps))
    snprintf(count, sizeof count, "about %.3g", steps);
  else
    snprintf(count, sizeof count, "more than %.3g", DBL_MAX);
  fprintf(stderr,
          "euler: refusing to run: reaching t_end = %g takes %s time steps (dt about "
          "%.3g: cfl %g x the cell size %g / the initial data's largest signal speed %g), more "
          "than %.0e; raise cfl, shorten t_end or use fewer cells, or set max_steps to stop "
          "earlier\n",
          deck_real(d, "t_end"), count, dt, deck_real(d, "cfl"), fmin(dx, dy), speed,
          EULER_MAX_STEPS);
  exit(2);
}
