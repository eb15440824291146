/* solver_result.c - the common head and tail of result.json. */
#include "solver_result.h"

#include <stdio.h>

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

void solver_result_end(json_writer *w, const solver_verdicts *v) {
  json_key(w, "loops");
  op_timing_json(json_raw_value(w));
  json_key(w, "validation");
  solver_verdicts_json(v, w);
  json_end_object(w);
  json_finish(w);
}

int solver_result_write(const char *outdir, void (*fill)(FILE *f, void *ctx), void *ctx,
                        char *err, size_t errlen) {
  char path[4200];
  if (snprintf(path, sizeof path, "%s/result.json", outdir) >= (int)sizeof path) {
    snprintf(err, errlen, "output directory name too long: %s", outdir);
    return -1;
  }
  return write_file_atomically(path, fill, ctx, err, errlen);
}
