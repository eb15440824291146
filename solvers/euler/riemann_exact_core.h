/*
 * riemann_exact_core.h - the mathematics of the exact Riemann solver for the
 * 1D Euler equations of an ideal gas (Toro, "Riemann Solvers and Numerical
 * Methods for Fluid Dynamics", ch. 4), as static inline functions.
 *
 * No allocation, no I/O, no globals, no recursion: safe to call at every
 * cell interface and from GPU code.  Every function is declared with the
 * prefix RIEMANN_FN, which defaults to `static inline`; a CUDA translation
 * unit can instead write
 *     #define RIEMANN_FN __host__ __device__ static inline
 *     #include "riemann_exact_core.h"
 * The code is valid C17 and C++ (no compound literals, no designated
 * initialisers, no VLAs); it uses only sqrt, pow and fabs from <math.h>.
 *
 * Types, status codes and constants come from riemann_exact.h; see there
 * for the conventions.  Out-of-line wrappers are in riemann_exact.c.
 *
 * Notation: for gamma,
 *   z  = (gamma-1)/(2 gamma)      exponent of p in a ~ p^z along isentropes
 *   g2 = (gamma+1)/(2 gamma)
 *   g4 = 2/(gamma-1),  g5 = 2/(gamma+1),  g6 = (gamma-1)/(gamma+1),
 *   g7 = (gamma-1)/2
 */
#ifndef RIEMANN_EXACT_CORE_H
#define RIEMANN_EXACT_CORE_H

#include <float.h>
#include <math.h>

#include "riemann_exact.h"

#ifndef RIEMANN_FN
#define RIEMANN_FN static inline
#endif

/* 1 if x is a finite number (no isfinite(): portable to device code). */
RIEMANN_FN int riemann_core_finite(double x)
{
    return fabs(x) <= DBL_MAX;
}

/* Classify a state: 1 = valid non-vacuum (rho > 0, p > 0), 0 = vacuum
 * (rho == 0 and p == 0), -1 = invalid.  All components must be finite. */
RIEMANN_FN int riemann_core_classify(const riemann_state *w)
{
    if (!riemann_core_finite(w->rho) || !riemann_core_finite(w->u) ||
        !riemann_core_finite(w->p))
        return -1;
    if (w->rho > 0.0 && w->p > 0.0)
        return 1;
    if (w->rho == 0.0 && w->p == 0.0)
        return 0;
    return -1;
}

/* The constants of the gas that a solve uses: each the same expression of
 * gamma as it would be where it is used (so every value is bitwise the
 * same), made once for many solves instead of at every use; a face flux
 * would otherwise spend a third of its divisions on them.  (z's binomial
 * coefficients: see riemann_core_pow_z.)  It holds doubles only, so it can
 * travel as an array of them (euler's kernel constant euler_gas). */
typedef struct {
    double gamma;
    double z;        /* (gamma-1)/(2 gamma)                               */
    double inv_z;    /* 1/z                                               */
    double g2;       /* (gamma+1)/(2 gamma)                               */
    double g4;       /* 2/(gamma-1)                                       */
    double g5;       /* 2/(gamma+1)                                       */
    double g6;       /* (gamma-1)/(gamma+1)                               */
    double g7;       /* 2 gamma/(gamma-1)                                 */
    double half_gm1; /* (gamma-1)/2                                       */
    double zc[7];    /* binomial coefficients of (1+x)^z, of x^2 .. x^8   */
} riemann_gas;

RIEMANN_FN void riemann_core_gas_init(riemann_gas *g, double gamma)
{
    const double z = (gamma - 1.0) / (2.0 * gamma);
    g->gamma = gamma;
    g->z = z;
    g->inv_z = 1.0 / z;
    g->g2 = (gamma + 1.0) / (2.0 * gamma);
    g->g4 = 2.0 / (gamma - 1.0);
    g->g5 = 2.0 / (gamma + 1.0);
    g->g6 = (gamma - 1.0) / (gamma + 1.0);
    g->g7 = 2.0 * gamma / (gamma - 1.0);
    g->half_gm1 = 0.5 * (gamma - 1.0);
    g->zc[0] = z * (z - 1.0) * 0.5;
    g->zc[1] = g->zc[0] * (z - 2.0) * (1.0 / 3.0);
    g->zc[2] = g->zc[1] * (z - 3.0) * 0.25;
    g->zc[3] = g->zc[2] * (z - 4.0) * 0.2;
    g->zc[4] = g->zc[3] * (z - 5.0) * (1.0 / 6.0);
    g->zc[5] = g->zc[4] * (z - 6.0) * (1.0 / 7.0);
    g->zc[6] = g->zc[5] * (z - 7.0) * 0.125;
}

/* r^z for 0 < z < 1/2 (z = (gamma-1)/(2 gamma)), the power every
 * rarefaction side takes.  Where |r - 1| < 1/128, the binomial series of
 * (1 + x)^z, x = r - 1 (exact there, Sterbenz), to eight terms by Horner's
 * rule: its ninth term is below 0.07 |x|^9 < 1e-20, so what remains is the
 * rounding of the sum, within half an ulp like pow (measured for gamma =
 * 1.05 to 10, euler.riemann.pow_series; seven terms measure the same, six
 * do not, so the eighth is margin).  That is where most faces
 * of a flow are, the two states a rounding apart, and it is several times
 * cheaper than pow.  Elsewhere pow itself. */
RIEMANN_FN double riemann_core_pow_z(double r, const riemann_gas *g)
{
    const double x = r - 1.0;
    if (fabs(x) < 0.0078125) {
        const double *c = g->zc;
        return 1.0 + x * (g->z + x * (c[0] + x * (c[1] + x * (c[2] + x * (c[3] + x * (c[4] + x * (c[5] + x * c[6])))))));
    }
    return pow(r, g->z);
}

/* Pressure function f_K(p) of side K (state K, sound speed aK), and its
 * derivative in *dfdp; on the
 * rarefaction branch also (p/pK)^z in *pz (unless pz is a null pointer).
 *   shock (p > pK):        f = (p - pK) sqrt(A/(p + B)),
 *                          A = 2/((gamma+1) rhoK), B = (gamma-1)/(gamma+1) pK
 *                          f' = sqrt(A/(p + B)) (1 - (p - pK)/(2 (p + B)))
 *   rarefaction (p <= pK): f = 2 aK/(gamma-1) ((p/pK)^z - 1)
 *                          f' = (p/pK)^(-(gamma+1)/(2 gamma)) / (rhoK aK)
 *                             = (p/pK)^z / ((p/pK) rhoK aK)
 * f is increasing and concave in p; f and f' are continuous at p = pK. */
RIEMANN_FN double riemann_core_fk_gas(double p, const riemann_state *K,
                                      double aK, const riemann_gas *g,
                                      double *dfdp, double *pz)
{
    const double gamma = g->gamma;
    if (p > K->p) {
        const double A = 2.0 / ((gamma + 1.0) * K->rho);
        const double B = g->g6 * K->p;
        const double q = sqrt(A / (p + B));
        *dfdp = q * (1.0 - 0.5 * (p - K->p) / (p + B));
        return (p - K->p) * q;
    } else {
        const double pr = p / K->p;
        const double t = riemann_core_pow_z(pr, g);
        if (pz)
            *pz = t;
        *dfdp = (pr > 0.0) ? t / (pr * K->rho * aK) : HUGE_VAL;
        return 2.0 * aK / (gamma - 1.0) * (t - 1.0);
    }
}

/* f_K(p) for the side with density rhoK, pressure pK and sound speed aK
 * (riemann_core_fk_gas with gamma's constants made on the spot). */
RIEMANN_FN double riemann_core_fk(double p, double rhoK, double pK, double aK,
                                  double gamma, double *dfdp)
{
    riemann_gas g;
    riemann_state K;
    riemann_core_gas_init(&g, gamma);
    K.rho = rhoK;
    K.u = 0.0;
    K.p = pK;
    return riemann_core_fk_gas(p, &K, aK, &g, dfdp, (double *)0);
}

/* Toro's adaptive initial guess for p* (valid non-vacuum states, no vacuum
 * generated).  Primitive-variable (PVRS) estimate
 *   p_pv = (pL + pR)/2 - (uR - uL)(rhoL + rhoR)(aL + aR)/8,  clipped at 0;
 * used if pmax/pmin < RIEMANN_QUSER and pmin <= p_pv <= pmax.  Otherwise,
 * if p_pv < pmin (rarefactions expected) the two-rarefaction estimate
 *   p_tr = [(aL + aR - (gamma-1)/2 (uR - uL)) / (aL/pL^z + aR/pR^z)]^(1/z),
 * else (shocks expected) the two-shock estimate
 *   p_ts = (gL pL + gR pR - (uR - uL)) / (gL + gR),
 *   gK = sqrt(A_K/(p0 + B_K)), p0 = max(0, p_pv).
 * The result is positive: a non-positive or non-finite value (possible
 * only through under/overflow) is replaced by pmin. */
RIEMANN_FN double riemann_core_guess_gas(const riemann_state *L, double aL,
                                         const riemann_state *R, double aR,
                                         const riemann_gas *g)
{
    const double du = R->u - L->u;
    const double pmin = (L->p < R->p) ? L->p : R->p;
    const double pmax = (L->p < R->p) ? R->p : L->p;
    double ppv = 0.5 * (L->p + R->p) -
                 0.125 * du * (L->rho + R->rho) * (aL + aR);
    double p0;
    if (ppv < 0.0)
        ppv = 0.0;
    if (pmax / pmin < RIEMANN_QUSER && ppv >= pmin && ppv <= pmax) {
        p0 = ppv;
    } else if (ppv < pmin) {
        const double z = g->z;
        const double num = aL + aR - g->half_gm1 * du;
        const double den = aL / pow(L->p, z) + aR / pow(R->p, z);
        p0 = pow(num / den, g->inv_z);
    } else {
        const double g5 = g->g5, g6 = g->g6;
        const double gL = sqrt(g5 / L->rho / (g6 * L->p + ppv));
        const double gR = sqrt(g5 / R->rho / (g6 * R->p + ppv));
        p0 = (gL * L->p + gR * R->p - du) / (gL + gR);
    }
    if (!(p0 > 0.0) || !riemann_core_finite(p0))
        p0 = pmin;
    return p0;
}

RIEMANN_FN double riemann_core_guess(const riemann_state *L, double aL,
                                     const riemann_state *R, double aR,
                                     double gamma)
{
    riemann_gas g;
    riemann_core_gas_init(&g, gamma);
    return riemann_core_guess_gas(L, aL, R, aR, &g);
}

/* The solve without the star densities: status, sound speeds, p*, u*, the
 * wave types and (p_star/p_K)^z on rarefaction sides.  The flux needs the
 * density of one side of the contact only (riemann_core_flux_2d), and on a
 * rarefaction side it costs a pow. */
RIEMANN_FN int riemann_core_solve_waves(const riemann_state *L,
                                        const riemann_state *R,
                                        const riemann_gas *g,
                                        riemann_solution *s)
{
    const double gamma = g->gamma;
    int kL, kR, it, finished = 0;
    double g4, du, p, lo, hi, dL, dR, fL, fR, tL = 0.0, tR = 0.0;

    s->left = *L;
    s->right = *R;
    s->gamma = gamma;
    s->a_left = s->a_right = 0.0;
    s->p_star = s->u_star = 0.0;
    s->rho_star_left = s->rho_star_right = 0.0;
    s->pz_left = s->pz_right = 0.0;
    s->left_wave = s->right_wave = RIEMANN_WAVE_NONE;
    s->iterations = 0;

    if (!riemann_core_finite(gamma) || !(gamma > 1.0))
        return s->status = RIEMANN_ERR_INPUT;
    kL = riemann_core_classify(L);
    kR = riemann_core_classify(R);
    if (kL < 0 || kR < 0)
        return s->status = RIEMANN_ERR_INPUT;

    g4 = g->g4;
    if (kL > 0)
        s->a_left = sqrt(gamma * L->p / L->rho);
    if (kR > 0)
        s->a_right = sqrt(gamma * R->p / R->rho);

    /* Vacuum in the data (Toro 4.6): a single rarefaction into vacuum, whose
     * vacuum front moves at u_K +- 2 a_K/(gamma-1). */
    if (kL == 0 && kR == 0)
        return s->status = RIEMANN_VACUUM_BOTH;
    if (kR == 0) {
        s->left_wave = RIEMANN_WAVE_RAREFACTION;
        s->u_star = L->u + g4 * s->a_left;
        return s->status = RIEMANN_VACUUM_RIGHT;
    }
    if (kL == 0) {
        s->right_wave = RIEMANN_WAVE_RAREFACTION;
        s->u_star = R->u - g4 * s->a_right;
        return s->status = RIEMANN_VACUUM_LEFT;
    }

    /* Vacuum generation: the pressure-positivity condition
     * 2 (aL + aR)/(gamma-1) > uR - uL fails. */
    du = R->u - L->u;
    if (g4 * (s->a_left + s->a_right) <= du) {
        s->left_wave = s->right_wave = RIEMANN_WAVE_RAREFACTION;
        s->u_star = 0.5 * ((L->u + g4 * s->a_left) + (R->u - g4 * s->a_right));
        return s->status = RIEMANN_VACUUM_GENERATED;
    }

    /* Newton-Raphson for f(p) = fL(p) + fR(p) + du = 0.  f is increasing
     * and concave, so [lo, hi] with f(lo) < 0 < f(hi) brackets p*; a Newton
     * step that leaves the bracket (from above it can go negative) is
     * replaced by bisection (or hi/10 while lo is still 0). */
    p = riemann_core_guess_gas(L, s->a_left, R, s->a_right, g);
    lo = 0.0;
    hi = DBL_MAX;
    s->status = RIEMANN_ERR_NOCONV;
    for (it = 1; it <= RIEMANN_MAX_ITER; ++it) {
        double f, pn;
        fL = riemann_core_fk_gas(p, L, s->a_left, g, &dL, &tL);
        fR = riemann_core_fk_gas(p, R, s->a_right, g, &dR, &tR);
        f = fL + fR + du;
        if (f == 0.0) { /* fL, fR and the powers are those at p* = p */
            s->status = RIEMANN_OK;
            finished = 1;
            break;
        }
        if (f > 0.0)
            hi = p;
        else
            lo = p;
        pn = p - f / (dL + dR);
        /* converged: relative change 2|pn - p|/(pn + p) below the tolerance
         * (tested before the bracket, which rounding can make touch pn) */
        if (pn > 0.0 && 2.0 * fabs(pn - p) < RIEMANN_TOL * (pn + p)) {
            /* The star state needs fL, fR and (p/p_K)^z at pn.  Newton's
             * last step h = pn - p is below 1e-12 p, so their first-order
             * expansions about p, f_K + f_K' h and t_K (1 + z h/p), differ
             * from fresh evaluations by O(h^2), about 1e-24 relative: far
             * below those evaluations' own rounding (1e-16), and without
             * their pow, sqrt and divisions.  The expansion stays on one
             * branch of f_K: where pn and p lie on two sides of p_K, the
             * values are evaluated afresh below. */
            const double h = pn - p;
            if ((pn > L->p) == (p > L->p) && (pn > R->p) == (p > R->p)) {
                fL += dL * h;
                fR += dR * h;
                const double z = g->z;
                tL += z * tL * (h / p);
                tR += z * tR * (h / p);
                finished = 1;
            }
            p = pn;
            s->status = RIEMANN_OK;
            break;
        }
        if (!(pn > lo && pn < hi)) {
            if (hi < DBL_MAX)
                pn = (lo > 0.0) ? 0.5 * (lo + hi) : 0.1 * hi;
            else
                pn = 2.0 * p; /* unreachable in exact arithmetic */
        }
        p = pn;
    }
    s->iterations = (it > RIEMANN_MAX_ITER) ? RIEMANN_MAX_ITER : it;

    /* Star state from the final p. */
    if (finished) {
        s->pz_left = (p > L->p) ? 0.0 : tL;
        s->pz_right = (p > R->p) ? 0.0 : tR;
    } else {
        fL = riemann_core_fk_gas(p, L, s->a_left, g, &dL, &s->pz_left);
        fR = riemann_core_fk_gas(p, R, s->a_right, g, &dR, &s->pz_right);
    }
    s->p_star = p;
    s->u_star = 0.5 * (L->u + R->u) + 0.5 * (fR - fL);
    s->left_wave = (p > L->p) ? RIEMANN_WAVE_SHOCK : RIEMANN_WAVE_RAREFACTION;
    s->right_wave = (p > R->p) ? RIEMANN_WAVE_SHOCK : RIEMANN_WAVE_RAREFACTION;
    return s->status;
}

/* The star density on one side (right != 0: right of the contact) of a
 * solution from riemann_core_solve_waves with a star region (RIEMANN_OK, or
 * the last iterate of RIEMANN_ERR_NOCONV): Rankine-Hugoniot behind a shock,
 * isentropic behind a rarefaction. */
RIEMANN_FN void riemann_core_star_density(riemann_solution *s, int right,
                                          const riemann_gas *g)
{
    /* The side's values by value, not through a pointer chosen at run
     * time: on a GPU that would put the whole solution in local memory. */
    const double rhoK = right ? s->right.rho : s->left.rho;
    const double pK = right ? s->right.p : s->left.p;
    const double p = s->p_star;
    const double r = p / pK;
    double rho;
    if (p > pK) {
        const double g6 = g->g6;
        rho = rhoK * (r + g6) / (g6 * r + 1.0);
    } else {
        /* r^(1/gamma) = r / (r^z)^2, since 1/gamma = 1 - 2z: the power is
         * the solve's own (p_star/p_K)^z, so no second pow.  (r^z)^2 >= r for
         * r <= 1, so nothing underflows that r itself does not. */
        const double t = right ? s->pz_right : s->pz_left;
        rho = rhoK * (r / (t * t));
    }
    if (right)
        s->rho_star_right = rho;
    else
        s->rho_star_left = rho;
}

/* Solve the Riemann problem; see riemann_solve() in riemann_exact.h. */
RIEMANN_FN int riemann_core_solve(const riemann_state *L,
                                  const riemann_state *R, double gamma,
                                  riemann_solution *s)
{
    riemann_gas g;
    int status;
    riemann_core_gas_init(&g, gamma);
    status = riemann_core_solve_waves(L, R, &g, s);
    if (status == RIEMANN_OK || status == RIEMANN_ERR_NOCONV) {
        riemann_core_star_density(s, 0, &g);
        riemann_core_star_density(s, 1, &g);
    }
    return status;
}

/* State inside the left rarefaction fan at speed S (K = left state, a its
 * sound speed):  c = 2/(gamma+1) + (gamma-1)/((gamma+1) a) (u - S),
 * rho = rho_K c^(2/(gamma-1)), u = 2/(gamma+1) (a + (gamma-1)/2 u_K + S),
 * p = p_K c^(2 gamma/(gamma-1)).  c is clipped at 0 (vacuum front). */
RIEMANN_FN void riemann_core_fan_left(const riemann_state *K, double a,
                                      const riemann_gas *g, double S,
                                      riemann_state *out)
{
    const double gamma = g->gamma, g5 = g->g5;
    double c = g5 + (gamma - 1.0) / ((gamma + 1.0) * a) * (K->u - S);
    if (c < 0.0)
        c = 0.0;
    out->rho = K->rho * pow(c, g->g4);
    out->u = g5 * (a + g->half_gm1 * K->u + S);
    out->p = K->p * pow(c, g->g7);
}

/* Mirror image for the right fan:
 * c = 2/(gamma+1) - (gamma-1)/((gamma+1) a) (u_K - S),
 * u = 2/(gamma+1) (-a + (gamma-1)/2 u_K + S). */
RIEMANN_FN void riemann_core_fan_right(const riemann_state *K, double a,
                                       const riemann_gas *g, double S,
                                       riemann_state *out)
{
    const double gamma = g->gamma, g5 = g->g5;
    double c = g5 - (gamma - 1.0) / ((gamma + 1.0) * a) * (K->u - S);
    if (c < 0.0)
        c = 0.0;
    out->rho = K->rho * pow(c, g->g4);
    out->u = g5 * (-a + g->half_gm1 * K->u + S);
    out->p = K->p * pow(c, g->g7);
}

RIEMANN_FN void riemann_core_set(riemann_state *out, double rho, double u,
                                 double p)
{
    out->rho = rho;
    out->u = u;
    out->p = p;
}

/* Sample at S = x/t; see riemann_sample() in riemann_exact.h.  Also samples
 * the last iterate of a RIEMANN_ERR_NOCONV solution.  Vacuum regions have
 * rho = p = 0 and u = the adjacent vacuum-front speed (one-sided vacuum
 * data), S (generated vacuum, between the two fronts) or 0 (all vacuum). */
RIEMANN_FN int riemann_core_sample_gas(const riemann_solution *s, double S,
                                       const riemann_gas *g, riemann_state *out)
{
    const riemann_state *L = &s->left, *R = &s->right;
    const double aL = s->a_left, aR = s->a_right;
    const double g4 = g->g4, z = g->z, g2 = g->g2;

    if (s->status == RIEMANN_ERR_INPUT || S != S) {
        riemann_core_set(out, 0.0, 0.0, 0.0);
        return RIEMANN_ERR_INPUT;
    }

    switch (s->status) {
    case RIEMANN_VACUUM_BOTH:
        riemann_core_set(out, 0.0, 0.0, 0.0);
        return RIEMANN_REGION_VACUUM;
    case RIEMANN_VACUUM_RIGHT:
        if (S <= L->u - aL) {
            *out = *L;
            return RIEMANN_REGION_LEFT;
        }
        if (S < s->u_star) {
            riemann_core_fan_left(L, aL, g, S, out);
            return RIEMANN_REGION_LEFT_FAN;
        }
        riemann_core_set(out, 0.0, s->u_star, 0.0);
        return RIEMANN_REGION_VACUUM;
    case RIEMANN_VACUUM_LEFT:
        if (S >= R->u + aR) {
            *out = *R;
            return RIEMANN_REGION_RIGHT;
        }
        if (S > s->u_star) {
            riemann_core_fan_right(R, aR, g, S, out);
            return RIEMANN_REGION_RIGHT_FAN;
        }
        riemann_core_set(out, 0.0, s->u_star, 0.0);
        return RIEMANN_REGION_VACUUM;
    case RIEMANN_VACUUM_GENERATED: {
        const double frontL = L->u + g4 * aL, frontR = R->u - g4 * aR;
        if (S <= L->u - aL) {
            *out = *L;
            return RIEMANN_REGION_LEFT;
        }
        if (S < frontL) {
            riemann_core_fan_left(L, aL, g, S, out);
            return RIEMANN_REGION_LEFT_FAN;
        }
        if (S >= R->u + aR) {
            *out = *R;
            return RIEMANN_REGION_RIGHT;
        }
        if (S > frontR) {
            riemann_core_fan_right(R, aR, g, S, out);
            return RIEMANN_REGION_RIGHT_FAN;
        }
        riemann_core_set(out, 0.0, S, 0.0);
        return RIEMANN_REGION_VACUUM;
    }
    default:
        break;
    }

    /* Four-wave pattern: left wave, contact at u*, right wave. */
    if (S <= s->u_star) {
        if (s->left_wave == RIEMANN_WAVE_SHOCK) {
            const double SL = L->u - aL * sqrt(g2 * s->p_star / L->p + z);
            if (S <= SL) {
                *out = *L;
                return RIEMANN_REGION_LEFT;
            }
        } else {
            const double tail = s->u_star - aL * s->pz_left;
            if (S <= L->u - aL) {
                *out = *L;
                return RIEMANN_REGION_LEFT;
            }
            if (S < tail) {
                riemann_core_fan_left(L, aL, g, S, out);
                return RIEMANN_REGION_LEFT_FAN;
            }
        }
        riemann_core_set(out, s->rho_star_left, s->u_star, s->p_star);
        return RIEMANN_REGION_LEFT_STAR;
    }
    if (s->right_wave == RIEMANN_WAVE_SHOCK) {
        const double SR = R->u + aR * sqrt(g2 * s->p_star / R->p + z);
        if (S >= SR) {
            *out = *R;
            return RIEMANN_REGION_RIGHT;
        }
    } else {
        const double tail = s->u_star + aR * s->pz_right;
        if (S >= R->u + aR) {
            *out = *R;
            return RIEMANN_REGION_RIGHT;
        }
        if (S > tail) {
            riemann_core_fan_right(R, aR, g, S, out);
            return RIEMANN_REGION_RIGHT_FAN;
        }
    }
    riemann_core_set(out, s->rho_star_right, s->u_star, s->p_star);
    return RIEMANN_REGION_RIGHT_STAR;
}

RIEMANN_FN int riemann_core_sample(const riemann_solution *s, double S,
                                   riemann_state *out)
{
    riemann_gas g;
    riemann_core_gas_init(&g, s->gamma);
    return riemann_core_sample_gas(s, S, &g, out);
}

/* Wave speeds; see riemann_wave_speeds() in riemann_exact.h. */
RIEMANN_FN void riemann_core_wave_speeds(const riemann_solution *s,
                                         double speeds[5])
{
    const riemann_state *L = &s->left, *R = &s->right;
    const double aL = s->a_left, aR = s->a_right;
    const double g4 = 2.0 / (s->gamma - 1.0);
    const double z = (s->gamma - 1.0) / (2.0 * s->gamma);
    const double g2 = (s->gamma + 1.0) / (2.0 * s->gamma);
    int i;

    for (i = 0; i < 5; ++i)
        speeds[i] = 0.0;
    switch (s->status) {
    case RIEMANN_ERR_INPUT:
    case RIEMANN_VACUUM_BOTH:
        return;
    case RIEMANN_VACUUM_RIGHT:
        speeds[0] = L->u - aL;
        speeds[1] = speeds[2] = speeds[3] = speeds[4] = s->u_star;
        return;
    case RIEMANN_VACUUM_LEFT:
        speeds[4] = R->u + aR;
        speeds[0] = speeds[1] = speeds[2] = speeds[3] = s->u_star;
        return;
    case RIEMANN_VACUUM_GENERATED:
        speeds[0] = L->u - aL;
        speeds[1] = L->u + g4 * aL;
        speeds[2] = s->u_star;
        speeds[3] = R->u - g4 * aR;
        speeds[4] = R->u + aR;
        return;
    default:
        break;
    }
    speeds[2] = s->u_star;
    if (s->left_wave == RIEMANN_WAVE_SHOCK) {
        speeds[0] = speeds[1] = L->u - aL * sqrt(g2 * s->p_star / L->p + z);
    } else {
        speeds[0] = L->u - aL;
        speeds[1] = s->u_star - aL * s->pz_left;
    }
    if (s->right_wave == RIEMANN_WAVE_SHOCK) {
        speeds[3] = speeds[4] = R->u + aR * sqrt(g2 * s->p_star / R->p + z);
    } else {
        speeds[4] = R->u + aR;
        speeds[3] = s->u_star + aR * s->pz_right;
    }
}

/* Physical normal flux of w = (rho, un, ut, p):
 * (rho un, rho un^2 + p, rho un ut, un (E + p)),
 * E = p/(gamma-1) + rho (un^2 + ut^2)/2. */
RIEMANN_FN void riemann_core_physical_flux_2d(const double w[4], double gamma,
                                              double flux[4])
{
    const double rho = w[0], un = w[1], ut = w[2], p = w[3];
    const double E = p / (gamma - 1.0) + 0.5 * rho * (un * un + ut * ut);
    flux[0] = rho * un;
    flux[1] = rho * un * un + p;
    flux[2] = rho * un * ut;
    flux[3] = un * (E + p);
}

/* Godunov flux; see riemann_flux_2d() in riemann_exact.h. */
RIEMANN_FN int riemann_core_flux_2d_gas(const double wl[4], const double wr[4],
                                        const riemann_gas *g, double flux[4])
{
    riemann_state L, R, w;
    riemann_solution s;
    double ws[4];
    int status, region;

    L.rho = wl[0];
    L.u = wl[1];
    L.p = wl[3];
    R.rho = wr[0];
    R.u = wr[1];
    R.p = wr[3];
    status = riemann_core_solve_waves(&L, &R, g, &s);
    /* Only the density on the side of the contact that x/t = 0 lies on. */
    if (status == RIEMANN_OK || status == RIEMANN_ERR_NOCONV)
        riemann_core_star_density(&s, !(0.0 <= s.u_star), g);
    if (status == RIEMANN_ERR_INPUT || !riemann_core_finite(wl[2]) ||
        !riemann_core_finite(wr[2])) {
        flux[0] = flux[1] = flux[2] = flux[3] = 0.0;
        return RIEMANN_ERR_INPUT;
    }
    region = riemann_core_sample_gas(&s, 0.0, g, &w);
    ws[0] = w.rho;
    ws[1] = w.u;
    ws[3] = w.p;
    /* The tangential velocity is carried by the flow: it jumps only across
     * the contact, so it is the left value on the left of the contact. */
    if (region == RIEMANN_REGION_VACUUM)
        ws[2] = 0.0;
    else if (region <= RIEMANN_REGION_LEFT_STAR)
        ws[2] = wl[2];
    else
        ws[2] = wr[2];
    riemann_core_physical_flux_2d(ws, g->gamma, flux);
    return status;
}

RIEMANN_FN int riemann_core_flux_2d(const double wl[4], const double wr[4],
                                    double gamma, double flux[4])
{
    riemann_gas g;
    riemann_core_gas_init(&g, gamma);
    return riemann_core_flux_2d_gas(wl, wr, &g, flux);
}

#endif /* RIEMANN_EXACT_CORE_H */
