/*
 * euler_scheme.h - the MUSCL-Hancock scheme of the Euler solver, one
 * dimensional sweep at a time (docs/euler.md, "The method"), as inline
 * functions that the loop kernels call.
 *
 * Every function works in the sweep's own frame: a conserved state is
 * q = (rho, m_n, m_t, E) with m_n the momentum normal to the faces of the
 * sweep and m_t the tangential one. The x-sweep kernel passes (rho, rho u,
 * rho v, E) unchanged, the y-sweep kernel passes (rho, rho v, rho u, E):
 * both run exactly the same arithmetic, so a problem along x and the same
 * problem along y give bitwise the same profile.
 *
 * Like riemann_exact_core.h, this header holds no globals, no I/O, no
 * allocation and no recursion, and compiles as CUDA device code: every
 * function is declared EULER_FN, which is `__host__ __device__ static inline`
 * under nvcc and `static inline` elsewhere (and RIEMANN_FN is set the same
 * way before riemann_exact_core.h is included). Parameters such as gamma and
 * the limiter are arguments: only the kernels read the global constants.
 */
#ifndef EULER_SCHEME_H
#define EULER_SCHEME_H

#if defined(__CUDACC__)
#ifndef RIEMANN_FN
#define RIEMANN_FN __host__ __device__ static inline
#endif
#define EULER_FN __host__ __device__ static inline
#else
#define EULER_FN static inline
#endif

#include "riemann_exact_core.h"

/* Slope limiters, in the order of the deck's `limiter` choices. */
enum {
  EULER_LIMITER_FIRSTORDER = 0, /* xi = 0: Godunov's first-order method */
  EULER_LIMITER_MINBEE = 1,
  EULER_LIMITER_VANLEER = 2,
  EULER_LIMITER_SUPERBEE = 3,
  EULER_LIMITER_NONE = 4 /* xi = 1: unlimited, for smooth flows only */
};

/* The limited slope xi(r) * D of one component, from the backward and
 * forward differences dm = U_i - U_{i-1} and dp = U_{i+1} - U_i, with
 * D = (dm + dp)/2, r = dm/dp and xi_R(r) = 2/(1 + r) (Toro, section 14.4).
 * Every limiter but `none` gives 0 for r <= 0, and tends to 0 as r -> +inf
 * (dp -> 0 with dm != 0), because xi <= xi_R there: so dm * dp <= 0, which
 * covers dp == 0, gives a zero slope without dividing by zero. */
EULER_FN double euler_limited_slope(double dm, double dp, int limiter) {
  const double D = 0.5 * (dm + dp);
  double r, xi, xr;
  if (limiter == EULER_LIMITER_NONE) return D;
  if (limiter == EULER_LIMITER_FIRSTORDER || !(dm * dp > 0.0)) return 0.0;
  /* van Leer: with r = dm/dp > 0, 2r/(1 + r) D = dm and 2/(1 + r) D = dp
   * exactly, and 2r/(1 + r) <= 2/(1 + r) just when r <= 1: the limited slope
   * is whichever difference is smaller in magnitude. Taken so, it is the
   * exact value with no division (the formula's three cost a third of a
   * face's reconstruction) and no rounding. */
  if (limiter == EULER_LIMITER_VANLEER) return fabs(dm) <= fabs(dp) ? dm : dp;
  r = dm / dp;
  xr = 2.0 / (1.0 + r);
  if (limiter == EULER_LIMITER_MINBEE) {
    xi = (r <= 1.0) ? r : (xr < 1.0 ? xr : 1.0);
  } else { /* superbee */
    if (r <= 0.5) {
      xi = 2.0 * r;
    } else if (r <= 1.0) {
      xi = 1.0;
    } else {
      xi = r < xr ? r : xr;
      if (xi > 2.0) xi = 2.0;
    }
  }
  return xi * D;
}

/* Pressure of a conserved state (any frame). */
EULER_FN double euler_pressure(const double q[4], double gamma) {
  return (gamma - 1.0) * (q[3] - 0.5 * (q[1] * q[1] + q[2] * q[2]) / q[0]);
}

/* The velocities m/rho of a conserved state and its pressure from them,
 * p = (gamma - 1)(E - (m_n u_n + m_t u_t)/2): one division, by rho, where
 * the textbook forms take three (m_n/rho, m_t/rho, |m|^2/rho). Divisions
 * were the largest cost of a face's reconstruction; the values differ from
 * those forms by rounding only. */
EULER_FN void euler_velocities_pressure(const double q[4], double gamma, double *un, double *ut,
                                        double *p) {
  const double inv = 1.0 / q[0];
  *un = q[1] * inv;
  *ut = q[2] * inv;
  *p = (gamma - 1.0) * (q[3] - 0.5 * (q[1] * *un + q[2] * *ut));
}

/* Physical flux along the normal of a conserved state q = (rho, m_n, m_t, E):
 * (m_n, m_n^2/rho + p, m_n m_t/rho, (E + p) m_n/rho). */
EULER_FN void euler_normal_flux(const double q[4], double gamma, double f[4]) {
  double un, ut, p;
  euler_velocities_pressure(q, gamma, &un, &ut, &p);
  f[0] = q[1];
  f[1] = q[1] * un + p;
  f[2] = q[2] * un;
  f[3] = (q[3] + p) * un;
}

/* Conserved q = (rho, m_n, m_t, E) to the primitive w = (rho, u_n, u_t, p)
 * that riemann_core_flux_2d takes. */
EULER_FN void euler_to_primitive(const double q[4], double gamma, double w[4]) {
  w[0] = q[0];
  euler_velocities_pressure(q, gamma, &w[1], &w[2], &w[3]);
}

/* 1 when rho and p are positive and every value is finite. */
EULER_FN int euler_physical(const double w[4]) {
  return w[0] > 0.0 && w[3] > 0.0 && riemann_core_finite(w[0]) && riemann_core_finite(w[1]) &&
         riemann_core_finite(w[2]) && riemann_core_finite(w[3]);
}

/* Steps 1-4 of the scheme for one cell: limited slopes of every component
 * from the cell (c) and its neighbours (m: minus side, p: plus side), the
 * boundary-extrapolated values U_i -+ D/2, and both evolved over half a time
 * step by (dt/dx)/2 (F(U_L) - F(U_R)). Writes the evolved value at the
 * cell's minus face (qm) and at its plus face (qp). */
EULER_FN void euler_muscl_hancock(const double m[4], const double c[4], const double p[4],
                                  double dtdx, double gamma, int limiter, double qm[4],
                                  double qp[4]) {
  double fm[4], fp[4];
  int k, sloped = 0;
  for (k = 0; k < 4; k++) {
    const double half = 0.5 * euler_limited_slope(c[k] - m[k], p[k] - c[k], limiter);
    qm[k] = c[k] - half;
    qp[k] = c[k] + half;
    sloped |= half != 0.0;
  }
  /* No slope in any component (a cell beside a uniform stretch, or at an
   * extremum of every component): U_L = U_R, so the half step changes
   * nothing (F(U_L) - F(U_R) = 0) and needs no fluxes. */
  if (!sloped) return;
  euler_normal_flux(qm, gamma, fm);
  euler_normal_flux(qp, gamma, fp);
  for (k = 0; k < 4; k++) {
    const double dq = 0.5 * dtdx * (fm[k] - fp[k]);
    qm[k] += dq;
    qp[k] += dq;
  }
}

/* 1 when two states are equal, component by component. */
EULER_FN int euler_same_state(const double a[4], const double b[4]) {
  return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
}

/* Where a face lies (the `wall` argument of the flux functions): inside the
 * domain or on a periodic or transmissive side (0), or on a reflective wall
 * with the ghost cell on its minus side (1: west or south wall) or on its
 * plus side (2: east or north wall). */
enum { EULER_FACE_INNER = 0, EULER_FACE_WALL_MINUS = 1, EULER_FACE_WALL_PLUS = 2 };

/* The exact Riemann flux between the primitive states wl and wr, or, on a
 * wall, between the interior side's state and its mirror image (normal
 * velocity negated). The mirror problem is symmetric, so u* = 0 exactly
 * and the wall lets nothing through: mass, tangential momentum and energy
 * fluxes are exactly zero and the normal momentum flux is the wall pressure
 * p*. (The ghost cells' own values feed only the interior cells' slopes:
 * with Toro's minbee and superbee, xi(1/r) != xi(r), so the ghost's
 * reconstruction is not the mirror of the interior one.) Equal states on
 * both sides of an inner face need no solve: their flux is the physical one. */
EULER_FN void euler_riemann_flux(double wl[4], double wr[4], int wall, const riemann_gas *g,
                                 double flux[4]) {
  if (euler_same_state(wl, wr) && wall == EULER_FACE_INNER) {
    /* No jump: the exact solution is the state itself, and its flux the
     * physical one. (Saves the iterative solve in uniform regions.) */
    riemann_core_physical_flux_2d(wl, g->gamma, flux);
    return;
  }
  if (wall == EULER_FACE_WALL_MINUS) {
    wl[0] = wr[0];
    wl[1] = -wr[1];
    wl[2] = wr[2];
    wl[3] = wr[3];
  } else if (wall == EULER_FACE_WALL_PLUS) {
    wr[0] = wl[0];
    wr[1] = -wl[1];
    wr[2] = wl[2];
    wr[3] = wl[3];
  }
  riemann_core_flux_2d_gas(wl, wr, g, flux);
}

/* The first-order Godunov flux (in the sweep's frame) between the cell
 * averages a and b: the exact Riemann flux of the data themselves. */
EULER_FN void euler_godunov_flux(const double a[4], const double b[4], int wall, const riemann_gas *g,
                                 double flux[4]) {
  double wl[4], wr[4];
  euler_to_primitive(a, g->gamma, wl);
  euler_to_primitive(b, g->gamma, wr);
  euler_riemann_flux(wl, wr, wall, g, flux);
}

/* The numerical flux (in the sweep's frame) at the face between cells a and b
 * of the row a-1, a, b, b+1 (q0, q1, q2, q3): step 5 of the scheme, the
 * Godunov flux of the exact Riemann problem between the evolved value of a
 * at the face and that of b (on a wall: see euler_riemann_flux). Where an
 * evolved value it needs is not physical (rho or p not positive: possible
 * next to strong rarefactions, when the half-step evolution overshoots), the
 * face falls back to the first-order Godunov flux between the cell averages
 * themselves. Returns 1 when it fell back, else 0. (Cell averages that are
 * themselves invalid give a zero flux from riemann_core_flux_2d; the
 * wave-speed loop stops the run on them.) */
EULER_FN int euler_face_flux(const double q0[4], const double q1[4], const double q2[4],
                             const double q3[4], double dtdx, const riemann_gas *g, int limiter, int wall,
                             double flux[4]) {
  const double gamma = g->gamma;
  double am[4], ap[4], bm[4], bp[4], wl[4], wr[4];
  if (wall == EULER_FACE_INNER && euler_same_state(q0, q1) && euler_same_state(q1, q2) &&
      euler_same_state(q2, q3)) {
    /* A uniform stretch (four equal cells, as in the undisturbed parts of a
     * flow): no slopes, no half-step change (F(U) - F(U) = 0) and the same
     * state on both sides of the face, whose flux is then the physical one
     * (euler_riemann_flux). The steps below give that very value, up to
     * the sign of a zero; here it costs one conversion. */
    euler_to_primitive(q1, gamma, wl);
    if (euler_physical(wl)) {
      riemann_core_physical_flux_2d(wl, gamma, flux);
      return 0;
    }
  }
  euler_muscl_hancock(q0, q1, q2, dtdx, gamma, limiter, am, ap);
  euler_muscl_hancock(q1, q2, q3, dtdx, gamma, limiter, bm, bp);
  euler_to_primitive(ap, gamma, wl);
  euler_to_primitive(bm, gamma, wr);
  if ((wall != EULER_FACE_WALL_MINUS && !euler_physical(wl)) ||
      (wall != EULER_FACE_WALL_PLUS && !euler_physical(wr))) {
    euler_godunov_flux(q1, q2, wall, g, flux);
    return 1;
  }
  euler_riemann_flux(wl, wr, wall, g, flux);
  return 0;
}

/* The largest signal speed of a conserved state (rho, rho u, rho v, E):
 * max(|u| + a, |v| + a), a = sqrt(gamma p / rho). */
EULER_FN double euler_signal_speed(const double q[4], double gamma) {
  const double u = q[1] / q[0], v = q[2] / q[0];
  const double a = sqrt(gamma * euler_pressure(q, gamma) / q[0]);
  const double su = fabs(u) + a, sv = fabs(v) + a;
  return su > sv ? su : sv;
}

#endif /* EULER_SCHEME_H */
