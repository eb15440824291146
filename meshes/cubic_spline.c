/* Not-a-knot cubic spline in slope (Hermite) form.
 *
 * With h_k = x_{k+1} - x_k and d_k = (y_{k+1} - y_k) / h_k, C2 continuity at an interior knot k
 * gives the row
 *     h_k s_{k-1} + 2 (h_{k-1} + h_k) s_k + h_{k-1} s_{k+1} = 3 (h_k d_{k-1} + h_{k-1} d_k).
 * Not-a-knot asks the third derivative to be continuous at x_1 (and at x_{n-2}), a row in
 * s_0, s_1 and s_2 that would break the tridiagonal shape. Eliminating s_2 with the C2 row of
 * knot 1 leaves a two-term first row
 *     h_1 s_0 + (h_0 + h_1) s_1 = (h_1 (3 h_0 + 2 h_1) d_0 + h_0^2 d_1) / (h_0 + h_1),
 * and the mirror image of it as the last row. The system is then tridiagonal. Its first row is
 * not diagonally dominant, but the first elimination step has multiplier exactly 1 and leaves
 * the pivot h_0 + h_1 > 0 in row 1; every later pivot stays positive, so elimination without
 * pivoting is stable. */
#include "cubic_spline.h"

int cubic_spline_notaknot(int n, const double *x, const double *y, double *s, double *work)
{
    if (n < 4)
        return -1;
    for (int k = 0; k + 1 < n; k++)
        if (!(x[k] < x[k + 1]))
            return -1;

    double *sub = work, *diag = work + n, *sup = work + 2 * n; /* rhs is kept in s */
    double h0 = x[1] - x[0], h1 = x[2] - x[1];
    double d0 = (y[1] - y[0]) / h0, d1 = (y[2] - y[1]) / h1;
    sub[0] = 0.0;
    diag[0] = h1;
    sup[0] = h0 + h1;
    s[0] = (h1 * (3.0 * h0 + 2.0 * h1) * d0 + h0 * h0 * d1) / (h0 + h1);

    for (int k = 1; k < n - 1; k++) {
        double hl = x[k] - x[k - 1], hr = x[k + 1] - x[k];
        double dl = (y[k] - y[k - 1]) / hl, dr = (y[k + 1] - y[k]) / hr;
        sub[k] = hr;
        diag[k] = 2.0 * (hl + hr);
        sup[k] = hl;
        s[k] = 3.0 * (hr * dl + hl * dr);
    }

    double g0 = x[n - 1] - x[n - 2], g1 = x[n - 2] - x[n - 3]; /* last and last-but-one */
    double e0 = (y[n - 1] - y[n - 2]) / g0, e1 = (y[n - 2] - y[n - 3]) / g1;
    sub[n - 1] = g0 + g1;
    diag[n - 1] = g1;
    sup[n - 1] = 0.0;
    s[n - 1] = (g1 * (3.0 * g0 + 2.0 * g1) * e0 + g0 * g0 * e1) / (g0 + g1);

    for (int k = 1; k < n; k++) {
        double w = sub[k] / diag[k - 1];
        diag[k] -= w * sup[k - 1];
        s[k] -= w * s[k - 1];
    }
    s[n - 1] /= diag[n - 1];
    for (int k = n - 2; k >= 0; k--)
        s[k] = (s[k] - sup[k] * s[k + 1]) / diag[k];
    return 0;
}

double cubic_spline_eval(int n, const double *x, const double *y, const double *s, double xv)
{
    /* Largest k in [0, n-2] with x[k] <= xv (k = 0 left of the knots). */
    int lo = 0, hi = n - 1;
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        if (x[mid] <= xv)
            lo = mid;
        else
            hi = mid;
    }
    int k = lo;
    double h = x[k + 1] - x[k];
    double d = (y[k + 1] - y[k]) / h;
    double c2 = (3.0 * d - 2.0 * s[k] - s[k + 1]) / h;
    double c3 = (s[k] + s[k + 1] - 2.0 * d) / (h * h);
    double t = xv - x[k];
    return y[k] + t * (s[k] + t * (c2 + t * c3));
}
