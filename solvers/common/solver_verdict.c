/* solver_verdict.c - validation verdicts of a run. */
#include "solver_verdict.h"

#include <stdarg.h>
#include <string.h>

void solver_verdicts_init(solver_verdicts *s) { memset(s, 0, sizeof *s); }

static int holds(double value, solver_cmp cmp, double limit) {
  switch (cmp) {
    case SOLVER_AT_MOST: return value <= limit;
    case SOLVER_AT_LEAST: return value >= limit;
    case SOLVER_ABOVE: return value > limit;
    case SOLVER_EQUAL: return value == limit;
  }
  return 0;
}

const char *solver_cmp_text(solver_cmp cmp) {
  switch (cmp) {
    case SOLVER_AT_MOST: return "<=";
    case SOLVER_AT_LEAST: return ">=";
    case SOLVER_ABOVE: return ">";
    case SOLVER_EQUAL: return "==";
  }
  return "?";
}

void solver_verdict_add(solver_verdicts *s, const char *name, double value, solver_cmp cmp,
                        double limit, const char *fmt, ...) {
  if (s->count == SOLVER_MAX_VERDICTS) {
    fprintf(stderr, "solver_verdict_add: more than %d verdicts; \"%s\" dropped\n",
            SOLVER_MAX_VERDICTS, name);
    return;
  }
  solver_verdict *v = &s->v[s->count++];
  snprintf(v->name, sizeof v->name, "%s", name);
  v->value = value;
  v->limit = limit;
  v->cmp = cmp;
  v->passed = holds(value, cmp, limit);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->detail, sizeof v->detail, fmt, ap);
  va_end(ap);
}

void solver_verdict_not_judged(solver_verdicts *s, const char *name, const char *fmt, ...) {
  if (s->not_judged_count == SOLVER_MAX_NOT_JUDGED) {
    fprintf(stderr, "solver_verdict_not_judged: more than %d; \"%s\" dropped\n",
            SOLVER_MAX_NOT_JUDGED, name);
    return;
  }
  solver_not_judged *n = &s->not_judged[s->not_judged_count++];
  snprintf(n->name, sizeof n->name, "%s", name);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(n->detail, sizeof n->detail, fmt, ap);
  va_end(ap);
}

int solver_verdicts_passed(const solver_verdicts *s) {
  if (s->count == 0) return 0;
  for (int i = 0; i < s->count; i++)
    if (!s->v[i].passed) return 0;
  return 1;
}

void solver_verdicts_print(const solver_verdicts *s, FILE *f) {
  fprintf(f, "\nvalidation:\n");
  for (int i = 0; i < s->count; i++)
    fprintf(f, "  %-4s %-24s %s\n", s->v[i].passed ? "PASS" : "FAIL", s->v[i].name,
            s->v[i].detail);
  for (int i = 0; i < s->not_judged_count; i++)
    fprintf(f, "  %-4s %-24s not judged: %s\n", "--", s->not_judged[i].name,
            s->not_judged[i].detail);
  fprintf(f, "validation %s\n", solver_verdicts_passed(s) ? "PASSED" : "FAILED");
}

void solver_verdicts_json(const solver_verdicts *s, json_writer *w) {
  json_begin_object(w);
  json_kv_bool(w, "passed", solver_verdicts_passed(s));
  json_key(w, "checks");
  json_begin_array(w);
  for (int i = 0; i < s->count; i++) {
    const solver_verdict *v = &s->v[i];
    json_begin_object(w);
    json_kv_string(w, "name", v->name);
    json_kv_bool(w, "passed", v->passed);
    json_kv_number(w, "value", v->value);
    json_kv_string(w, "comparison", solver_cmp_text(v->cmp));
    json_kv_number(w, "limit", v->limit);
    json_kv_string(w, "detail", v->detail);
    json_end_object(w);
  }
  json_end_array(w);
  json_key(w, "not_judged");
  json_begin_array(w);
  for (int i = 0; i < s->not_judged_count; i++) {
    json_begin_object(w);
    json_kv_string(w, "name", s->not_judged[i].name);
    json_kv_string(w, "detail", s->not_judged[i].detail);
    json_end_object(w);
  }
  json_end_array(w);
  json_end_object(w);
}
