/* residual: one unknown's share of the final checks, after res has gathered
 * du = A'·u: the residual of the original system b - A·u = D·(A'·u + r'),
 * summed in square (rr), with ||b||^2 = ||D·r'||^2 (bb), the largest |u - 1|
 * (the error when the solution is u = 1) and the largest |r'| (for the error
 * bound). As loops, so that they hold on any number of processes. */
static inline void residual(const double *r, const double *diag, const double *du,
                            const double *u, double *rr, double *bb, double *err_max,
                            double *r_max) {
  const double ri = *diag * (*du + *r), bi = *diag * *r;
  *rr += ri * ri;
  *bb += bi * bi;
  const double e = fabs(*u - 1.0);
  if (e > *err_max) *err_max = e;
  const double a = fabs(*r);
  if (a > *r_max) *r_max = a;
}
