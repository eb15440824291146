/*
 * riemann_main.c - the `riemann` command: exact solution of a 1D Riemann
 * problem for the Euler equations of an ideal gas.
 *
 *   riemann --left RHO,U,P --right RHO,U,P [--gamma G] [--csv]
 *   riemann --test N [--csv]                        (Toro's tests 1..5)
 *   ... --sample T [--x0 X0] [--xmin A] [--xmax B] [--points N]
 *
 * Exit status: 0 success, 1 bad arguments, 2 invalid states or no
 * convergence, 3 vacuum (generated or in the data).
 */
#include "riemann_exact.h"
#include "op_version.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXIT_USAGE 1
#define EXIT_SOLVER 2
#define EXIT_VACUUM 3

/* Toro's standard tests (Table 4.1 of his book): states, gamma 1.4, the
 * diaphragm position on [0, 1] and the output time. */
typedef struct {
    riemann_state left, right;
    double x0, t;
} toro_test;

static const toro_test toro_tests[5] = {
    {{1.0, 0.0, 1.0}, {0.125, 0.0, 0.1}, 0.5, 0.25},
    {{1.0, -2.0, 0.4}, {1.0, 2.0, 0.4}, 0.5, 0.15},
    {{1.0, 0.0, 1000.0}, {1.0, 0.0, 0.01}, 0.5, 0.012},
    {{1.0, 0.0, 0.01}, {1.0, 0.0, 100.0}, 0.4, 0.035},
    {{5.99924, 19.5975, 460.894}, {5.99242, -6.19633, 46.0950}, 0.8, 0.035},
};

static void usage(FILE *f)
{
    fprintf(f,
        "usage: riemann --left RHO,U,P --right RHO,U,P [--gamma G] [options]\n"
        "       riemann --test N [options]\n"
        "\n"
        "Exact solution of the Riemann problem for the 1D Euler equations of\n"
        "an ideal gas (Toro, ch. 4).  Without --sample, prints the star state\n"
        "p*, u*, rho*L, rho*R and the wave pattern.\n"
        "\n"
        "  --left RHO,U,P    left state: density, velocity, pressure\n"
        "  --right RHO,U,P   right state (RHO = P = 0 means vacuum)\n"
        "  --gamma G         ratio of specific heats, > 1 (default 1.4)\n"
        "  --test N          Toro's test N (1..5), gamma 1.4; not combinable\n"
        "                    with --left/--right/--gamma.  Book output times:\n"
        "                    1: t=0.25 x0=0.5   2: t=0.15 x0=0.5\n"
        "                    3: t=0.012 x0=0.5  4: t=0.035 x0=0.4\n"
        "                    5: t=0.035 x0=0.8\n"
        "                    (test 5 uses the 6-digit data of Toro's Table\n"
        "                    4.1; his Table 4.2 row is for the unrounded\n"
        "                    data, so p* and u* differ in the last digit)\n"
        "  --sample T        print the solution at time T >= 0 on a grid:\n"
        "                    columns x rho u p e, e = p/((gamma-1) rho)\n"
        "  --x0 X0           initial discontinuity position (default 0.5,\n"
        "                    or the test's x0 with --test)\n"
        "  --xmin A          first sample point (default 0)\n"
        "  --xmax B          last sample point (default 1)\n"
        "  --points N        number of sample points, >= 1 (default 101)\n"
        "  --csv             comma-separated output with a header line\n"
        "  --help            this text\n"
        "\n"
        "Exit status: 0 ok, 1 bad arguments, 2 invalid states or no\n"
        "convergence, 3 vacuum (generated, or a vacuum input state).\n");
}

static int fail_arg(const char *opt, const char *what, const char *value)
{
    if (value != NULL)
        fprintf(stderr, "riemann: %s: %s, got '%s'\n", opt, what, value);
    else
        fprintf(stderr, "riemann: %s: %s\n", opt, what);
    fprintf(stderr, "riemann: try 'riemann --help'\n");
    return EXIT_USAGE;
}

/* Parse a finite double that fills the whole of [s, end). */
static int parse_double_span(const char *s, const char *end, double *out)
{
    char buf[128];
    char *e;
    size_t n = (size_t)(end - s);
    double v;
    if (n == 0 || n >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    errno = 0;
    v = strtod(buf, &e);
    if (e == buf || *e != '\0' || errno == ERANGE || !isfinite(v))
        return 0;
    *out = v;
    return 1;
}

static int parse_double(const char *s, double *out)
{
    return parse_double_span(s, s + strlen(s), out);
}

static int parse_state(const char *s, riemann_state *w)
{
    double v[3];
    const char *p = s;
    int i;
    for (i = 0; i < 3; ++i) {
        const char *c = strchr(p, ',');
        const char *end = (i < 2) ? c : p + strlen(p);
        if (end == NULL || (i == 2 && strchr(p, ',') != NULL))
            return 0;
        if (!parse_double_span(p, end, &v[i]))
            return 0;
        p = end + 1;
    }
    w->rho = v[0];
    w->u = v[1];
    w->p = v[2];
    return 1;
}

static int parse_int(const char *s, long lo, long hi, long *out)
{
    char *e;
    long v;
    errno = 0;
    v = strtol(s, &e, 10);
    if (e == s || *e != '\0' || errno == ERANGE || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

/* Shortest of %.15g, %.16g, %.17g that reads back as x exactly (CSV). */
static const char *fmt_exact(char buf[32], double x)
{
    int prec;
    for (prec = 15; prec < 17; ++prec) {
        snprintf(buf, 32, "%.*g", prec, x);
        if (strtod(buf, NULL) == x)
            return buf;
    }
    snprintf(buf, 32, "%.17g", x);
    return buf;
}

static void print_star(const riemann_solution *s, int test, int csv)
{
    double sp[5];
    riemann_wave_speeds(s, sp);
    if (csv) {
        printf("test,gamma,rho_L,u_L,p_L,rho_R,u_R,p_R,p_star,u_star,"
               "rho_star_L,rho_star_R,left_wave,right_wave,iterations\n");
        const double v[11] = {s->gamma, s->left.rho, s->left.u, s->left.p,
                              s->right.rho, s->right.u, s->right.p,
                              s->p_star, s->u_star, s->rho_star_left,
                              s->rho_star_right};
        char buf[32];
        int k;
        printf("%d", test);
        for (k = 0; k < 11; ++k)
            printf(",%s", fmt_exact(buf, v[k]));
        printf(",%s,%s,%d\n", riemann_wave_string(s->left_wave),
               riemann_wave_string(s->right_wave), s->iterations);
        return;
    }
    if (test > 0)
        printf("Riemann problem: Toro test %d, gamma = %.10g\n", test,
               s->gamma);
    else
        printf("Riemann problem, gamma = %.10g\n", s->gamma);
    printf("         %-18s %-18s %s\n", "rho", "u", "p");
    printf("  left   %-18.10g %-18.10g %.10g\n", s->left.rho, s->left.u,
           s->left.p);
    printf("  right  %-18.10g %-18.10g %.10g\n", s->right.rho, s->right.u,
           s->right.p);
    printf("\nstar region\n");
    printf("  p*     %.10g\n", s->p_star);
    printf("  u*     %.10g\n", s->u_star);
    printf("  rho*L  %.10g\n", s->rho_star_left);
    printf("  rho*R  %.10g\n", s->rho_star_right);
    printf("\nwaves\n");
    if (s->left_wave == RIEMANN_WAVE_SHOCK)
        printf("  left   shock        speed %.10g\n", sp[0]);
    else
        printf("  left   rarefaction  head %.10g, tail %.10g\n", sp[0], sp[1]);
    printf("  middle contact      speed %.10g\n", sp[2]);
    if (s->right_wave == RIEMANN_WAVE_SHOCK)
        printf("  right  shock        speed %.10g\n", sp[4]);
    else
        printf("  right  rarefaction  tail %.10g, head %.10g\n", sp[3], sp[4]);
    printf("\n%d Newton-Raphson iteration%s (stop: relative change of p "
           "< %g)\n", s->iterations, s->iterations == 1 ? "" : "s",
           RIEMANN_TOL);
}

static void print_vacuum(const riemann_solution *s)
{
    double sp[5];
    const double g4 = 2.0 / (s->gamma - 1.0);
    riemann_wave_speeds(s, sp);
    switch (s->status) {
    case RIEMANN_VACUUM_GENERATED:
        fprintf(stderr,
                "riemann: vacuum is generated: 2(aL+aR)/(gamma-1) = %.10g "
                "<= uR-uL = %.10g.\n"
                "riemann: the solution is two rarefactions with vacuum "
                "between x/t = %.10g and %.10g; there is no star state.\n",
                g4 * (s->a_left + s->a_right), s->right.u - s->left.u,
                sp[1], sp[3]);
        break;
    case RIEMANN_VACUUM_RIGHT:
        fprintf(stderr,
                "riemann: the right state is vacuum: the solution is a left "
                "rarefaction (head x/t = %.10g) into vacuum (front x/t = "
                "%.10g); there is no star state.\n", sp[0], sp[1]);
        break;
    case RIEMANN_VACUUM_LEFT:
        fprintf(stderr,
                "riemann: the left state is vacuum: the solution is a right "
                "rarefaction (head x/t = %.10g) into vacuum (front x/t = "
                "%.10g); there is no star state.\n", sp[4], sp[3]);
        break;
    default:
        fprintf(stderr, "riemann: both states are vacuum.\n");
        break;
    }
}

static void print_sample(const riemann_solution *s, double t, double x0,
                         double xmin, double xmax, long n, int test, int csv)
{
    long i;
    if (csv) {
        printf("x,rho,u,p,e\n");
    } else {
        if (test > 0)
            printf("# Toro test %d, gamma = %.10g, t = %.10g, x0 = %.10g\n",
                   test, s->gamma, t, x0);
        else
            printf("# gamma = %.10g, t = %.10g, x0 = %.10g\n", s->gamma, t,
                   x0);
        printf("# %-16s %-18s %-18s %-18s %s\n", "x", "rho", "u", "p", "e");
    }
    for (i = 0; i < n; ++i) {
        const double x =
            (n > 1) ? xmin + (xmax - xmin) * (double)i / (double)(n - 1)
                    : xmin;
        double S;
        riemann_state w;
        double e;
        if (t > 0.0)
            S = (x - x0) / t;
        else /* t = 0: the initial data (the Godunov state at x0) */
            S = (x < x0) ? -HUGE_VAL : (x > x0) ? HUGE_VAL : 0.0;
        riemann_sample(s, S, &w);
        /* e -> 0 continuously at a vacuum front (e ~ a^2). */
        e = (w.rho > 0.0) ? w.p / ((s->gamma - 1.0) * w.rho) : 0.0;
        if (csv) {
            char b[5][32];
            printf("%s,%s,%s,%s,%s\n", fmt_exact(b[0], x),
                   fmt_exact(b[1], w.rho), fmt_exact(b[2], w.u),
                   fmt_exact(b[3], w.p), fmt_exact(b[4], e));
        } else
            printf("  %-16.10g %-18.10g %-18.10g %-18.10g %.10g\n", x,
                   w.rho, w.u, w.p, e);
    }
}

int main(int argc, char **argv)
{
    if (op_asks_version(argc, argv)) {
        op_print_version("riemann");
        return 0;
    }
    riemann_state left = {0, 0, 0}, right = {0, 0, 0};
    int have_left = 0, have_right = 0, have_gamma = 0, csv = 0;
    int have_sample = 0, have_x0 = 0, have_grid = 0;
    long test = 0, points = 101;
    double gamma = 1.4, t = 0.0, x0 = 0.5, xmin = 0.0, xmax = 1.0;
    riemann_solution sol;
    int i, status;

    for (i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        const char *val = NULL;
        char opt[32];
        const char *eq;
        if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            usage(stdout);
            return 0;
        }
        if (strcmp(arg, "--csv") == 0) {
            csv = 1;
            continue;
        }
        if (strncmp(arg, "--", 2) != 0)
            return fail_arg(arg, "unexpected argument (options start with --)",
                            NULL);
        /* --opt=value or --opt value */
        eq = strchr(arg, '=');
        if (eq != NULL) {
            size_t n = (size_t)(eq - arg);
            if (n >= sizeof opt)
                return fail_arg(arg, "unknown option", NULL);
            memcpy(opt, arg, n);
            opt[n] = '\0';
            val = eq + 1;
        } else {
            if (strlen(arg) >= sizeof opt)
                return fail_arg(arg, "unknown option", NULL);
            strcpy(opt, arg);
        }
        if (strcmp(opt, "--left") != 0 && strcmp(opt, "--right") != 0 &&
            strcmp(opt, "--gamma") != 0 && strcmp(opt, "--test") != 0 &&
            strcmp(opt, "--sample") != 0 && strcmp(opt, "--x0") != 0 &&
            strcmp(opt, "--xmin") != 0 && strcmp(opt, "--xmax") != 0 &&
            strcmp(opt, "--points") != 0)
            return fail_arg(opt, "unknown option", NULL);
        if (val == NULL) {
            if (i + 1 >= argc)
                return fail_arg(opt, "missing value", NULL);
            val = argv[++i];
        }
        if (strcmp(opt, "--left") == 0 || strcmp(opt, "--right") == 0) {
            riemann_state *w = (opt[2] == 'l') ? &left : &right;
            if (!parse_state(val, w))
                return fail_arg(opt,
                                "expected RHO,U,P (three finite numbers "
                                "separated by commas)", val);
            if (opt[2] == 'l')
                have_left = 1;
            else
                have_right = 1;
        } else if (strcmp(opt, "--gamma") == 0) {
            if (!parse_double(val, &gamma) || !(gamma > 1.0))
                return fail_arg(opt, "expected a number > 1", val);
            have_gamma = 1;
        } else if (strcmp(opt, "--test") == 0) {
            if (!parse_int(val, 1, 5, &test))
                return fail_arg(opt, "expected a test number 1..5", val);
        } else if (strcmp(opt, "--sample") == 0) {
            if (!parse_double(val, &t) || t < 0.0)
                return fail_arg(opt, "expected a time T >= 0", val);
            have_sample = 1;
        } else if (strcmp(opt, "--x0") == 0) {
            if (!parse_double(val, &x0))
                return fail_arg(opt, "expected a finite number", val);
            have_x0 = 1;
        } else if (strcmp(opt, "--xmin") == 0) {
            if (!parse_double(val, &xmin))
                return fail_arg(opt, "expected a finite number", val);
            have_grid = 1;
        } else if (strcmp(opt, "--xmax") == 0) {
            if (!parse_double(val, &xmax))
                return fail_arg(opt, "expected a finite number", val);
            have_grid = 1;
        } else { /* --points */
            if (!parse_int(val, 1, 100000000L, &points))
                return fail_arg(opt, "expected an integer 1..100000000", val);
            have_grid = 1;
        }
    }

    if (test > 0) {
        if (have_left || have_right || have_gamma)
            return fail_arg("--test",
                            "fixes the states and gamma; do not combine it "
                            "with --left, --right or --gamma", NULL);
        left = toro_tests[test - 1].left;
        right = toro_tests[test - 1].right;
        gamma = 1.4;
        if (!have_x0)
            x0 = toro_tests[test - 1].x0;
    } else {
        if (!have_left)
            return fail_arg("--left", "required (or use --test N)", NULL);
        if (!have_right)
            return fail_arg("--right", "required (or use --test N)", NULL);
    }
    if (!have_sample && (have_x0 || have_grid))
        return fail_arg(have_x0 ? "--x0" : "--xmin/--xmax/--points",
                        "only meaningful with --sample T", NULL);
    if (have_sample && !(xmin < xmax) && points > 1)
        return fail_arg("--xmin/--xmax", "need xmin < xmax", NULL);

    status = riemann_solve(&left, &right, gamma, &sol);
    if (status == RIEMANN_ERR_INPUT) {
        const riemann_state *bad = &left;
        const char *name = "--left";
        if ((left.rho > 0.0 && left.p > 0.0) ||
            (left.rho == 0.0 && left.p == 0.0)) {
            bad = &right;
            name = "--right";
        }
        fprintf(stderr,
                "riemann: %s: invalid state (%.10g, %.10g, %.10g): need "
                "rho > 0 and p > 0, or rho = p = 0 for vacuum\n",
                name, bad->rho, bad->u, bad->p);
        return EXIT_SOLVER;
    }
    if (status == RIEMANN_ERR_NOCONV) {
        fprintf(stderr, "riemann: %s after %d iterations (last p = %.10g)\n",
                riemann_status_string(status), sol.iterations, sol.p_star);
        return EXIT_SOLVER;
    }

    if (have_sample)
        print_sample(&sol, t, x0, xmin, xmax, points, (int)test, csv);
    if (status != RIEMANN_OK) {
        print_vacuum(&sol);
        return EXIT_VACUUM;
    }
    if (!have_sample)
        print_star(&sol, (int)test, csv);
    return 0;
}
