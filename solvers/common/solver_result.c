/* solver_result.c - the common head and tail of result.json. */
#include "solver_result.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "build_info.h"
#include "op2.h"
#include "solver_files.h"
#include "solver_machine.h"
#include "solver_output.h"

/* The directory result.json is being written into (solver_result_write),
 * whose files it lists. */
static const char *files_dir;

static void build_json(json_writer *w) {
  const build_info *b = solver_build_info();
  json_begin_object(w);
  json_kv_string(w, "version", b->version);
  json_kv_string(w, "commit", b->commit);
  json_kv_bool(w, "commit_dirty", b->commit_dirty);
  json_kv_string(w, "build_type", b->build_type);
  json_kv_string(w, "c_compiler", b->c_compiler);
  json_kv_string(w, "c_flags", b->c_flags);
  json_kv_string(w, "cuda_compiler", b->cuda_compiler);
  json_kv_string(w, "cuda_flags", b->cuda_flags);
  json_end_object(w);
}

void solver_result_begin(json_writer *w, FILE *f, const char *solver, const deck *d) {
  json_init(w, f, 1);
  json_begin_object(w);
  json_kv_string(w, "format", SOLVER_RESULT_FORMAT);
  json_kv_int(w, "format_version", SOLVER_RESULT_FORMAT_VERSION);
  json_kv_string(w, "solver", solver);
  json_kv_string(w, "backend", op_backend_name());
  json_kv_int(w, "threads", op_num_threads());
  json_kv_int(w, "processes", op_num_procs());
  json_kv_int(w, "part_size", op_part_size());
  json_kv_string(w, "deck", deck_path(d) ? deck_path(d) : "");
  json_key(w, "parameters");
  deck_json_value(d, w);
  json_key(w, "build");
  build_json(w);
  solver_machine m;
  solver_machine_probe(&m);
  json_key(w, "machine");
  solver_machine_json(&m, w);
  /* When the result was written, UTC, ISO 8601. */
  char date[32] = "unknown";
  time_t now = time(NULL);
  struct tm tm;
  if (now != (time_t)-1 && gmtime_r(&now, &tm)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  json_kv_string(w, "date", date);
}

void solver_result_end(json_writer *w, const solver_verdicts *v, const solver_wall *wall) {
  json_kv_number(w, "wall_seconds_total", wall->total);
  json_kv_number(w, "wall_seconds_main_loop", wall->main_loop);
  json_key(w, "loops");
  op_timing_json(json_raw_value(w));
  json_key(w, "validation");
  solver_verdicts_json(v, w);
  if (files_dir) {
    /* The run's files: those beside result.json, and those written straight
     * into output_dir, named from where result.json ends up (output_dir for
     * a run that passes, output_dir/failed otherwise). */
    const char *direct[8];
    char names[8][OP_TEXT_SHOWN + 8];
    const char *named[8];
    const int n = solver_output_direct_files(direct, 8);
    for (int k = 0; k < n; k++) {
      const char *slash = strrchr(direct[k], '/');
      snprintf(names[k], sizeof names[k], "%s%s", solver_verdicts_passed(v) ? "" : "../",
               slash ? slash + 1 : direct[k]);
      named[k] = names[k];
    }
    json_key(w, "files");
    solver_files_json(w, files_dir, direct, named, n);
  }
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
  /* On many processes the root writes (fill runs there only). */
  files_dir = outdir;
  int rc = op_is_root() ? write_file_atomically(path, fill, ctx, err, errlen) : 0;
  files_dir = NULL;
  return op_root_status(rc);
}
