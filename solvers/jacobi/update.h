/* update: the Jacobi step of one unknown, u <- u + (A'·u + r') (Giles, "OPlus2 for many-core
 * platforms", 2010), with du = A'·u gathered by res; du is zeroed for the next iteration.
 * Reductions: the sum of squares of the change (the update norm), the sum of
 * squares of u (its rms) and the maximum of |u|. u is OP_RW, not OP_INC,
 * because the reductions read its new value. */
static inline void update(const double *r, double *du, double *u, double *change_sq,
                          double *u_sq, double *u_max) {
  double change = *du + *r;
  *u += change;
  *du = 0.0;
  *change_sq += change * change;
  *u_sq += (*u) * (*u);
  double a = fabs(*u);
  if (a > *u_max) *u_max = a;
}
