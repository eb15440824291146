/* edge_flux.h - the kernel of loop "edge_flux": each edge moves a share of the
 * difference of its two nodes' values into their residuals. C++ kernel header
 * in OP2's style: an `inline` (not static) kernel, a file-scope static helper
 * that is not inline, and a template. */

/* The share of each component: not inline, so CUDA needs op2-gen to make it a
 * device function. */
static op2app_real component_share(int c) { return c == 0 ? (op2app_real)1 : (op2app_real)0.5; }

template <typename T> inline T difference(const T *a, const T *b, int c) { return b[c] - a[c]; }

inline void edge_flux(const op2app_real *w, const op2app_real *u0, const op2app_real *u1,
                      op2app_real *r0, op2app_real *r1, const float *scale) {
  for (int c = 0; c < 2; c++) {
    const op2app_real f = (*w) * (*scale) * alpha * component_share(c) * difference(u0, u1, c);
    r0[c] += f;
    r1[c] -= f;
  }
}
