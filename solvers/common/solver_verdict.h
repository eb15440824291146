/*
 * solver_verdict.h - the validation verdicts a solver reaches about its own
 * run. Each one is a measured value held against a limit (both numbers, so
 * that scripts read them without parsing text), the comparison between them,
 * the pass or fail that follows from it, and a line saying what was compared.
 * Printed at the end of the run, written into result.json, and turned into
 * the exit code.
 */
#ifndef SOLVER_COMMON_VERDICT_H
#define SOLVER_COMMON_VERDICT_H

#include <stdio.h>

#include "result_json.h"

#define SOLVER_MAX_VERDICTS 32
#define SOLVER_MAX_NOT_JUDGED 8

/* How the value must stand to the limit for the verdict to pass. A value
 * that is NaN fails every comparison. */
typedef enum {
  SOLVER_AT_MOST,  /* value <= limit */
  SOLVER_AT_LEAST, /* value >= limit */
  SOLVER_ABOVE,    /* value > limit */
  SOLVER_EQUAL     /* value == limit */
} solver_cmp;

typedef struct {
  char name[64];
  int passed;
  double value, limit;
  solver_cmp cmp;
  char detail[256];
} solver_verdict;

/* A check the run was not judged on, and why: a reference that holds for
 * another resolution or configuration than the run's (so that a user sees
 * that the verdict was left out, not that it passed). */
typedef struct {
  char name[64];
  char detail[256];
} solver_not_judged;

typedef struct {
  int count;
  solver_verdict v[SOLVER_MAX_VERDICTS];
  int not_judged_count;
  solver_not_judged not_judged[SOLVER_MAX_NOT_JUDGED];
} solver_verdicts;

void solver_verdicts_init(solver_verdicts *s);
/* Adds a verdict: passed when `value cmp limit` holds. */
void solver_verdict_add(solver_verdicts *s, const char *name, double value, solver_cmp cmp,
                        double limit, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* Records a check left out of this run's verdicts, with the reason; it does
 * not count as passed or failed. */
void solver_verdict_not_judged(solver_verdicts *s, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* "<=", ">=", ">", "==" */
const char *solver_cmp_text(solver_cmp cmp);
/* 1 when every verdict passed (and there is at least one). */
int solver_verdicts_passed(const solver_verdicts *s);
void solver_verdicts_print(const solver_verdicts *s, FILE *f);
/* {"passed": bool, "checks": [{"name", "passed", "value", "comparison",
 * "limit", "detail"}, ...], "not_judged": [{"name", "detail"}, ...]}; a value
 * or limit that is not finite is null. */
void solver_verdicts_json(const solver_verdicts *s, json_writer *w);

#endif
