/* solver_result.c - the common head of result.json. */
#include "solver_result.h"

#include "op2.h"

void solver_result_begin(json_writer *w, FILE *f, const char *solver, const deck *d) {
  json_init(w, f, 1);
  json_begin_object(w);
  json_kv_string(w, "solver", solver);
  json_kv_string(w, "backend", op_backend_name());
  json_kv_int(w, "threads", op_num_threads());
  json_kv_int(w, "part_size", op_part_size());
  json_kv_string(w, "deck", deck_path(d) ? deck_path(d) : "");
  json_key(w, "parameters");
  deck_json_value(d, w);
}
