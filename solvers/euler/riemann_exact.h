/*
 * riemann_exact.h - exact Riemann solver for the 1D Euler equations of an
 * ideal gas (the method of E. F. Toro, "Riemann Solvers and Numerical
 * Methods for Fluid Dynamics", chapter 4), written from the mathematics.
 *
 * This header declares the types and the out-of-line C API (implemented in
 * riemann_exact.c).  The mathematics itself lives in riemann_exact_core.h as
 * static inline functions without allocation, I/O, globals or recursion, so
 * that CUDA code can #include it with
 *     #define RIEMANN_FN __host__ __device__ static inline
 *     #include "riemann_exact_core.h"
 * and call riemann_core_*() from device code.
 *
 * Conventions
 *   - A state is primitive: density rho, velocity u, pressure p.
 *   - A non-vacuum state needs rho > 0 and p > 0 (all finite); a vacuum
 *     state is rho == 0 and p == 0 (its u must be finite but is otherwise
 *     ignored).  Anything else
 *     (negative, NaN, infinite, rho == 0 with p > 0, rho > 0 with p <= 0)
 *     is rejected with RIEMANN_ERR_INPUT.  gamma must be finite and > 1.
 *   - p* is found by Newton-Raphson on f(p) = f_L(p) + f_R(p) + (u_R - u_L)
 *     from Toro's adaptive initial guess (PVRS / two-rarefaction /
 *     two-shock).  Iteration stops when the relative change
 *     2|p_new - p_old| / (p_new + p_old) < RIEMANN_TOL (1e-12), or when
 *     f(p) == 0 exactly; after RIEMANN_MAX_ITER iterations without that,
 *     the solve returns RIEMANN_ERR_NOCONV (the last iterate is still
 *     stored, and is finite).  A bracket kept from the signs of f makes
 *     every iterate positive (bisection replaces a Newton step leaving it).
 *   - Status codes >= 0 mean a valid exact solution exists and can be
 *     sampled: RIEMANN_OK (four-wave star structure) or one of the vacuum
 *     codes.  Codes < 0 are failures.  No function returns NaN for valid
 *     input.
 */
#ifndef RIEMANN_EXACT_H
#define RIEMANN_EXACT_H

#ifdef __cplusplus
extern "C" {
#endif

/* Newton-Raphson stopping rule: relative change of p below this. */
#define RIEMANN_TOL 1e-12
/* Iteration cap for the p* iteration (Newton + safeguarding bisection).
 * Typical problems need 1-6 iterations; 200000 random problems with
 * densities and pressures over 12 decades needed at most 14.  A
 * translation unit that includes riemann_exact_core.h may predefine it to
 * change the cap of its own copy of the core (the library uses 100). */
#ifndef RIEMANN_MAX_ITER
#define RIEMANN_MAX_ITER 100
#endif
/* Toro's switch for the adaptive guess: use PVRS when pmax/pmin < this
 * and the PVRS value lies within [pmin, pmax]. */
#define RIEMANN_QUSER 2.0

/* Status codes. */
enum {
    RIEMANN_OK = 0,               /* star region exists (no vacuum)        */
    RIEMANN_VACUUM_GENERATED = 1, /* 2(aL+aR)/(gamma-1) <= uR-uL: two     */
                                  /* rarefactions with vacuum between      */
    RIEMANN_VACUUM_RIGHT = 2,     /* right input state is vacuum           */
    RIEMANN_VACUUM_LEFT = 3,      /* left input state is vacuum            */
    RIEMANN_VACUUM_BOTH = 4,      /* both input states are vacuum          */
    RIEMANN_ERR_INPUT = -1,       /* invalid state(s) or gamma             */
    RIEMANN_ERR_NOCONV = -2       /* p* iteration hit RIEMANN_MAX_ITER     */
};

/* Wave types (sol.left_wave / sol.right_wave). */
enum {
    RIEMANN_WAVE_NONE = 0,        /* no wave on this side (vacuum input)   */
    RIEMANN_WAVE_SHOCK = 1,       /* p* > p_K                              */
    RIEMANN_WAVE_RAREFACTION = 2  /* p* <= p_K (includes the trivial wave) */
};

/* Regions of the wave pattern, returned by the sample functions. */
enum {
    RIEMANN_REGION_LEFT = 0,      /* undisturbed left state                */
    RIEMANN_REGION_LEFT_FAN = 1,  /* inside the left rarefaction           */
    RIEMANN_REGION_LEFT_STAR = 2, /* between left wave and contact         */
    RIEMANN_REGION_RIGHT_STAR = 3,/* between contact and right wave        */
    RIEMANN_REGION_RIGHT_FAN = 4, /* inside the right rarefaction          */
    RIEMANN_REGION_RIGHT = 5,     /* undisturbed right state               */
    RIEMANN_REGION_VACUUM = 6     /* vacuum (rho = p = 0, u = S)           */
};

/* Primitive 1D state. */
typedef struct riemann_state {
    double rho, u, p;
} riemann_state;

/* Result of a solve; everything the sampler needs. */
typedef struct riemann_solution {
    riemann_state left, right; /* the input states                        */
    double gamma;
    double a_left, a_right;    /* sound speeds of the inputs (0 if vacuum) */
    double p_star, u_star;     /* star pressure and velocity               */
    double rho_star_left;      /* density left of the contact              */
    double rho_star_right;     /* density right of the contact             */
    double pz_left, pz_right;  /* (p_star/p_K)^((gamma-1)/(2 gamma)) of a  */
                               /* rarefaction side K, else 0: the fan's    */
                               /* tail speed, kept from the solve          */
    /* Vacuum cases: p_star = rho_star_* = 0 and u_star is the speed of the
     * vacuum front (VACUUM_LEFT/RIGHT) or the mean of the two fronts
     * (VACUUM_GENERATED; 0 for VACUUM_BOTH): no star state exists there. */
    int left_wave, right_wave; /* RIEMANN_WAVE_*                           */
    int iterations;            /* Newton/bisection iterations used         */
    int status;                /* RIEMANN_OK, RIEMANN_VACUUM_*, or < 0     */
} riemann_solution;

/* Solve the Riemann problem (left | right) for gamma.  Fills *sol (also on
 * failure, with finite values) and returns sol->status. */
int riemann_solve(const riemann_state *left, const riemann_state *right,
                  double gamma, riemann_solution *sol);

/* Sample the solution at speed S = x/t (the discontinuity at x = 0, t > 0).
 * Writes the state to *out and returns the RIEMANN_REGION_* index, or
 * RIEMANN_ERR_INPUT if sol->status is RIEMANN_ERR_INPUT or S is NaN (then
 * *out = 0,0,0).  A RIEMANN_ERR_NOCONV solution is sampled with its last
 * iterate.  S = -inf / +inf give the left / right input states (unless that
 * side is vacuum).  Vacuum regions have rho = p = 0 and a finite u: the
 * vacuum-front speed for vacuum data, S itself inside a generated vacuum,
 * 0 if both inputs are vacuum. */
int riemann_sample(const riemann_solution *sol, double S, riemann_state *out);

/* Wave speeds of the solution, in order of position:
 *   speeds[0]  left wave head  (shock speed if the left wave is a shock)
 *   speeds[1]  left wave tail  (= speeds[0] for a shock; vacuum front for
 *                               a rarefaction into vacuum)
 *   speeds[2]  contact, u*     (vacuum cases: sol->u_star, see above)
 *   speeds[3]  right wave tail (= speeds[4] for a shock; vacuum front)
 *   speeds[4]  right wave head (shock speed if the right wave is a shock)
 * A side with no wave (vacuum data) repeats the adjacent vacuum-front
 * speed; all five are 0 for RIEMANN_VACUUM_BOTH and for RIEMANN_ERR_INPUT. */
void riemann_wave_speeds(const riemann_solution *sol, double speeds[5]);

/* Pressure function f_K(p) of one side (state K, sound speed computed from
 * it) and its derivative dfdp (may be NULL).  Shock branch for p > p_K:
 * (p - p_K) sqrt(A_K / (p + B_K)), A_K = 2/((gamma+1) rho_K),
 * B_K = (gamma-1)/(gamma+1) p_K; rarefaction branch for p <= p_K:
 * 2 a_K/(gamma-1) ((p/p_K)^((gamma-1)/(2 gamma)) - 1).  K must be a valid
 * non-vacuum state and p >= 0, and gamma > 1; otherwise 0 is returned (and
 * *dfdp = 0).  At p = 0 the rarefaction-branch derivative is HUGE_VAL. */
double riemann_pressure_function(double p, const riemann_state *K,
                                 double gamma, double *dfdp);

/* Toro's adaptive initial guess for p* (PVRS if pmax/pmin < RIEMANN_QUSER
 * and pmin <= PVRS <= pmax; two-rarefaction if PVRS < pmin; two-shock
 * otherwise).  Both states must be valid and non-vacuum, and no vacuum
 * may be generated; the result is then > 0.  Returns 0 if that fails. */
double riemann_initial_guess(const riemann_state *left,
                             const riemann_state *right, double gamma);

/* Godunov flux for a 2D (or 3D-reduced) solver across an interface with
 * unit normal n: wl, wr = (rho, un, ut, p) left and right of the interface,
 * un the normal and ut the tangential velocity.  Solves the 1D problem in
 * (rho, un, p), samples it at S = 0, takes ut from the side the sample lies
 * on (left of the contact: wl's, right: wr's, i.e. by the sign of u*), and
 * writes flux = (rho un, rho un^2 + p, rho un ut, un (E + p)) with
 * E = p/(gamma-1) + rho (un^2 + ut^2)/2.  Returns the solve status; for
 * status >= 0 the flux is exact (vacuum at S = 0 gives zero flux); for
 * RIEMANN_ERR_NOCONV the flux of the last iterate is written; for
 * RIEMANN_ERR_INPUT the flux is set to 0. */
int riemann_flux_2d(const double wl[4], const double wr[4], double gamma,
                    double flux[4]);

/* Physical (Euler) normal flux of a primitive state w = (rho, un, ut, p). */
void riemann_physical_flux_2d(const double w[4], double gamma,
                              double flux[4]);

/* Short English description of a status code ("ok", "vacuum generated"...). */
const char *riemann_status_string(int status);

/* "shock", "rarefaction" or "none". */
const char *riemann_wave_string(int wave);

#ifdef __cplusplus
}
#endif

#endif /* RIEMANN_EXACT_H */
