/* solver_verdict.c - validation verdicts of a run. */
#include "solver_verdict.h"

#include <stdarg.h>
#include <string.h>

void solver_verdicts_init(solver_verdicts *s) { memset(s, 0, sizeof *s); }

void solver_verdict_add(solver_verdicts *s, const char *name, int passed, const char *fmt, ...) {
  if (s->count == SOLVER_MAX_VERDICTS) {
    fprintf(stderr, "solver_verdict_add: more than %d verdicts; \"%s\" dropped\n",
            SOLVER_MAX_VERDICTS, name);
    return;
  }
  solver_verdict *v = &s->v[s->count++];
  snprintf(v->name, sizeof v->name, "%s", name);
  v->passed = passed != 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->detail, sizeof v->detail, fmt, ap);
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
  fprintf(f, "validation %s\n", solver_verdicts_passed(s) ? "PASSED" : "FAILED");
}

void solver_verdicts_json(const solver_verdicts *s, json_writer *w) {
  json_begin_object(w);
  json_kv_bool(w, "passed", solver_verdicts_passed(s));
  json_key(w, "checks");
  json_begin_array(w);
  for (int i = 0; i < s->count; i++) {
    json_begin_object(w);
    json_kv_string(w, "name", s->v[i].name);
    json_kv_bool(w, "passed", s->v[i].passed);
    json_kv_string(w, "detail", s->v[i].detail);
    json_end_object(w);
  }
  json_end_array(w);
  json_end_object(w);
}
