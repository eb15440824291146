/*
 * solver_verdict.h - the validation verdicts a solver reaches about its own
 * run: a name, pass or fail, and a line saying what was compared. Printed at
 * the end of the run, written into result.json, and turned into the exit code.
 */
#ifndef SOLVER_COMMON_VERDICT_H
#define SOLVER_COMMON_VERDICT_H

#include <stdio.h>

#include "result_json.h"

#define SOLVER_MAX_VERDICTS 32

typedef struct {
  char name[64];
  int passed;
  char detail[256];
} solver_verdict;

typedef struct {
  int count;
  solver_verdict v[SOLVER_MAX_VERDICTS];
} solver_verdicts;

void solver_verdicts_init(solver_verdicts *s);
void solver_verdict_add(solver_verdicts *s, const char *name, int passed, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* 1 when every verdict passed (and there is at least one). */
int solver_verdicts_passed(const solver_verdicts *s);
void solver_verdicts_print(const solver_verdicts *s, FILE *f);
/* {"passed": bool, "checks": [{"name":..., "passed":..., "detail":...}, ...]} */
void solver_verdicts_json(const solver_verdicts *s, json_writer *w);

#endif
