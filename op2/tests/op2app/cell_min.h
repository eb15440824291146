/* cell_min.h - the kernel of loop "cell_min": per cell, two measures of its
 * distance to a point; the smallest of each over the mesh, and the cell where
 * it is (op_arg_info of dim 2 with an OP_MIN global of dim 2). */
inline void cell_min(const double *x0, const double *x1, const double *x2, const double *x3,
                     const double *point, double *nearest, int *cell, int *where) {
  const double cx = 0.25 * (x0[0] + x1[0] + x2[0] + x3[0]);
  const double cy = 0.25 * (x0[1] + x1[1] + x2[1] + x3[1]);
  const double d[2] = {fabs(cx - point[0]) + fabs(cy - point[1]),
                       MIN(fabs(cx - point[0]), fabs(cy - point[1]))};
  for (int c = 0; c < 2; c++) {
    const double v = d[c] + *cell / 1048576.0; /* unique: no ties between cells */
    if (v < nearest[c]) {
      nearest[c] = v;
      where[c] = *cell;
    }
  }
}
