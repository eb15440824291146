/* heat_error: the difference between the computed u and the manufactured
 * solution exp(-2 alpha pi^2 t / L^2) sin(pi x / L) sin(pi y / L) at the final
 * time (heat_decay holds the exponential), with the sines from the table of
 * heat_init (sine[k] = sin(pi x_k / L)), summed in square and maximised in
 * magnitude over the interior points. An error that is not a number counts
 * as infinite in the maximum: a reduction keeps the larger of two values,
 * and NaN is larger than none, so a NaN would leave "max error 0". */
static inline void heat_error(const int *idx, const double *sine, const double *u,
                              double *sum_sq, double *max_abs) {
  const int i = idx[0] % heat_n, j = idx[0] / heat_n;
  const double exact = heat_decay * sine[i] * sine[j];
  const double e = u[0] - exact;
  sum_sq[0] += e * e;
  const double a = e == e ? fabs(e) : HUGE_VAL;
  if (a > max_abs[0]) max_abs[0] = a;
}
