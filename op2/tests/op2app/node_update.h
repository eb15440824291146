/* node_update.h - the kernel of loop "node_update": applies the residual, and
 * reports the sum of squares, the largest change per component and where it
 * happened (op_arg_info with the OP_MAX global), and a count. The element
 * index comes as int *, as OP2 kernels may take it. */
inline void node_update(op2app_real *r, op2app_real *u, double *sum, op2app_real *largest,
                        int *idx, int *where, int *count) {
  for (int c = 0; c < 2; c++) {
    const op2app_real change = op2app_keyed(r[c] < 0 ? -r[c] : r[c], *idx);
    if (change > largest[c]) {
      largest[c] = MAX(change, largest[c]);
      where[c] = *idx;
    }
    u[c] += r[c];
    r[c] = 0;
    *sum += (double)u[c] * (double)u[c];
  }
  (*count)++;
}
