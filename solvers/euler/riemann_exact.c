/*
 * riemann_exact.c - out-of-line C API of the exact Riemann solver.  The
 * mathematics is in riemann_exact_core.h (static inline, shared with device
 * code); these are thin wrappers around it.
 */
#include "riemann_exact.h"
#include "riemann_exact_core.h"

#include <stddef.h>

int riemann_solve(const riemann_state *left, const riemann_state *right,
                  double gamma, riemann_solution *sol)
{
    return riemann_core_solve(left, right, gamma, sol);
}

int riemann_sample(const riemann_solution *sol, double S, riemann_state *out)
{
    return riemann_core_sample(sol, S, out);
}

void riemann_wave_speeds(const riemann_solution *sol, double speeds[5])
{
    riemann_core_wave_speeds(sol, speeds);
}

double riemann_pressure_function(double p, const riemann_state *K,
                                 double gamma, double *dfdp)
{
    double d = 0.0, f = 0.0;
    if (riemann_core_finite(gamma) && gamma > 1.0 &&
        riemann_core_classify(K) == 1 && riemann_core_finite(p) && p >= 0.0) {
        const double a = sqrt(gamma * K->p / K->rho);
        f = riemann_core_fk(p, K->rho, K->p, a, gamma, &d);
    }
    if (dfdp != NULL)
        *dfdp = d;
    return f;
}

double riemann_initial_guess(const riemann_state *left,
                             const riemann_state *right, double gamma)
{
    double aL, aR;
    if (!riemann_core_finite(gamma) || !(gamma > 1.0) ||
        riemann_core_classify(left) != 1 || riemann_core_classify(right) != 1)
        return 0.0;
    aL = sqrt(gamma * left->p / left->rho);
    aR = sqrt(gamma * right->p / right->rho);
    if (2.0 / (gamma - 1.0) * (aL + aR) <= right->u - left->u)
        return 0.0;
    return riemann_core_guess(left, aL, right, aR, gamma);
}

int riemann_flux_2d(const double wl[4], const double wr[4], double gamma,
                    double flux[4])
{
    return riemann_core_flux_2d(wl, wr, gamma, flux);
}

void riemann_physical_flux_2d(const double w[4], double gamma, double flux[4])
{
    riemann_core_physical_flux_2d(w, gamma, flux);
}

const char *riemann_status_string(int status)
{
    switch (status) {
    case RIEMANN_OK:
        return "ok";
    case RIEMANN_VACUUM_GENERATED:
        return "vacuum generated (2(aL+aR)/(gamma-1) <= uR-uL)";
    case RIEMANN_VACUUM_RIGHT:
        return "right state is vacuum";
    case RIEMANN_VACUUM_LEFT:
        return "left state is vacuum";
    case RIEMANN_VACUUM_BOTH:
        return "both states are vacuum";
    case RIEMANN_ERR_INPUT:
        return "invalid input (need finite rho > 0, p > 0 or rho = p = 0; "
               "gamma > 1)";
    case RIEMANN_ERR_NOCONV:
        return "p* iteration did not converge";
    default:
        return "unknown status";
    }
}

const char *riemann_wave_string(int wave)
{
    switch (wave) {
    case RIEMANN_WAVE_SHOCK:
        return "shock";
    case RIEMANN_WAVE_RAREFACTION:
        return "rarefaction";
    default:
        return "none";
    }
}
