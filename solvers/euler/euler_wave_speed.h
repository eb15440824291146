/*
 * euler_wave_speed.h - kernel: the largest signal speed max(|u|+a, |v|+a)
 * over the interior cells (smax, an OP_MAX reduction) for the time step, and
 * the smallest density and pressure (qmin[0], qmin[1], an OP_MIN reduction),
 * so that the program stops on a state that is not physical. A value that is
 * not finite counts as -HUGE_VAL in qmin.
 */
#include "euler_scheme.h"

static inline void euler_wave_speed(const double *q, double *smax, double *qmin) {
  double rho = q[0], p = euler_pressure(q, euler_gamma);
  if (!(rho > 0.0 && p > 0.0 && riemann_core_finite(q[1]) && riemann_core_finite(q[2]))) {
    if (!riemann_core_finite(rho)) rho = -HUGE_VAL;
    if (!riemann_core_finite(p) || !riemann_core_finite(q[1]) || !riemann_core_finite(q[2]))
      p = -HUGE_VAL;
  } else {
    const double s = euler_signal_speed(q, euler_gamma);
    if (s > smax[0]) smax[0] = s;
  }
  if (rho < qmin[0]) qmin[0] = rho;
  if (p < qmin[1]) qmin[1] = p;
}
