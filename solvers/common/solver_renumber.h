/* solver_renumber.h - the one line a run prints on what renumber=auto|yes did
 * (op_renumber_if, op2_renumber.h), worded alike by every solver. */
#ifndef SOLVER_RENUMBER_H
#define SOLVER_RENUMBER_H

#include <math.h>

#include "op2.h"
#include "op2_renumber.h"

/* solver: the program's name; setting: the deck's renumber value; order: what
 * was kept ("the mesh's order"); min_gain: the step bits asked for. Prints
 * nothing when nothing was measured. */
static inline void solver_renumber_report(const char *solver, const char *setting,
                                          const char *order, int renumbered,
                                          const op_renumber_result *r, double min_gain,
                                          double seconds) {
  if (r->measured && isnan(r->bits_after))
    op_printf(
        "%s: renumber=%s: kept %s (mean step bits %.2f, mean span %.0f: no order could "
        "gain %g), %.2f s\n",
        solver, setting, order, r->bits_before, r->span_before, min_gain, seconds);
  else if (r->measured)
    op_printf(
        "%s: renumber=%s: %s%s (mean step bits %.2f -> %.2f, mean span %.0f -> %.0f), "
        "%.2f s\n",
        solver, setting, renumbered ? "renumbered" : "kept ", renumbered ? "" : order,
        r->bits_before, r->bits_after, r->span_before, r->span_after, seconds);
}

#endif
