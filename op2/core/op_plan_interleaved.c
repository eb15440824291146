/*
 * op_plan_interleaved.c - where a map's interleaved runs break (op_plan.h,
 * "interleaved runs"): row n continues a run of period P when it is row
 * n - P plus one in every entry. A mesh that numbers its edges kind by kind
 * within a row of cells (the airfoil C-mesh: each cell's north edge, then its
 * east edge) has no affine runs, since consecutive edges point in different
 * directions, but its edges two apart step by one: P = 2.
 *
 * Each (map, period) is read once, whatever the loops using it, in pieces
 * over the threads: a counting pass, and a second pass writing the breaks
 * where there are few enough to be worth it.
 */
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op_at_exit.h"
#include "op_parallel.h"
#include "op_plan_parts.h"
#include "op_state.h"

static op_interleave_breaks *seen[OP_PLAN_MAX_PERIOD + 1];
static int nseen[OP_PLAN_MAX_PERIOD + 1];

void op_plan_interleaved_forget_maps(void) {
  for (int p = 0; p <= OP_PLAN_MAX_PERIOD; p++) {
    for (int i = 0; i < nseen[p]; i++) free(seen[p][i].rows);
    free(seen[p]);
    seen[p] = NULL;
    nseen[p] = 0;
  }
}

typedef struct {
  const int *map;
  int dim, period;
  long rows, pieces, limit;
  long *count; /* per piece: its breaks (the counting pass stops past limit) */
  long *at;    /* per piece: where its breaks go in out (the second pass) */
  int *out;
} break_job;

/* The breaks among rows [r0, r1), written to out when it is not NULL. */
static long piece_breaks(const break_job *j, long r0, long r1, int *out) {
  const int D = j->dim;
  const long back = (long)j->period * D;
  long c = 0;
  if (r0 < j->period) r0 = j->period;
  for (long n = r0; n < r1; n++) {
    const int *r = j->map + n * D;
    int ok = 1;
    for (int k = 0; k < D; k++) ok &= r[k] == r[k - back] + 1;
    if (ok) continue;
    if (out) out[c] = (int)n;
    if (++c > j->limit && !out) break;
  }
  return c;
}

static void count_pieces(long lo, long hi, void *ctx) {
  break_job *j = ctx;
  for (long p = lo; p < hi; p++)
    j->count[p] = piece_breaks(j, j->rows * p / j->pieces, j->rows * (p + 1) / j->pieces, NULL);
}

static void fill_pieces(long lo, long hi, void *ctx) {
  break_job *j = ctx;
  for (long p = lo; p < hi; p++)
    piece_breaks(j, j->rows * p / j->pieces, j->rows * (p + 1) / j->pieces, j->out + j->at[p]);
}

const op_interleave_breaks *op_plan_interleave_breaks(op_map m, int period) {
  OP_CHECK(period >= 2 && period <= OP_PLAN_MAX_PERIOD, "interleaved runs: period %d not in [2, %d]",
           period, OP_PLAN_MAX_PERIOD);
  if (m->index >= nseen[period]) {
    op_at_exit(op_plan_interleaved_forget_maps, "interleaved runs of maps");
    const int n = op_g.nmaps > m->index ? op_g.nmaps : m->index + 1;
    seen[period] = op_realloc(seen[period], sizeof(op_interleave_breaks) * (size_t)n);
    memset(seen[period] + nseen[period], 0,
           sizeof(op_interleave_breaks) * (size_t)(n - nseen[period]));
    nseen[period] = n;
  }
  op_interleave_breaks *b = &seen[period][m->index];
  if (b->known) return b;
  b->known = 1;
  const long rows = op_plan_map_rows(m), pieces = op_plan_row_pieces(rows);
  long count[OP_PLAN_ROW_PIECES], at[OP_PLAN_ROW_PIECES];
  break_job j = {m->map, m->dim, period, rows, pieces, rows / OP_AFFINE_MIN_RUN + pieces,
                 count, at, NULL};
  op_parallel_for(pieces, count_pieces, &j);
  long total = 0;
  for (long p = 0; p < pieces; p++) {
    at[p] = total;
    total += count[p];
  }
  if (total > j.limit) {
    b->scattered = 1;
    return b;
  }
  b->nrows = (int)total;
  b->rows = op_malloc(sizeof(int) * ((size_t)total + 1));
  j.out = b->rows;
  op_parallel_for(pieces, fill_pieces, &j);
  return b;
}
