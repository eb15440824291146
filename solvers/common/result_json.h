/*
 * result_json.h - a small streaming JSON writer for result.json, and the
 * file helpers around it.
 *
 * The writer puts the commas, the colons and the indentation in itself:
 *
 *   json_writer w;
 *   json_init(&w, f, 1);
 *   json_begin_object(&w);
 *   json_kv_string(&w, "solver", "euler");
 *   json_key(&w, "parameters");  deck_json_value(d, &w);
 *   json_key(&w, "loops");       op_timing_json(json_raw_value(&w));
 *   json_end_object(&w);
 *   if (json_finish(&w) != 0) ...
 *
 * Misuse (a value in an object without a key, a key in an array, an end that
 * does not match its begin, nesting deeper than JSON_MAX_DEPTH) is reported
 * once on stderr and makes json_finish fail.
 */
#ifndef SOLVER_COMMON_RESULT_JSON_H
#define SOLVER_COMMON_RESULT_JSON_H

#include <stddef.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define JSON_MAX_DEPTH 32

typedef struct json_writer {
  FILE *f;
  int pretty;     /* newlines and two-space indentation */
  int depth;      /* open containers */
  int after_key;  /* a key was written; its value comes next */
  int done;       /* the top-level value is complete */
  int error;      /* misuse seen */
  unsigned char is_object[JSON_MAX_DEPTH];
  unsigned char has_items[JSON_MAX_DEPTH];
} json_writer;

void json_init(json_writer *w, FILE *f, int pretty);
void json_begin_object(json_writer *w);
void json_end_object(json_writer *w);
void json_begin_array(json_writer *w);
void json_end_array(json_writer *w);
void json_key(json_writer *w, const char *key);
/* s is UTF-8; quotes, backslashes and control characters are escaped and
 * invalid UTF-8 bytes become U+FFFD. NULL writes null. */
void json_string(json_writer *w, const char *s);
/* The shortest decimal form that reads back to the same double (at most
 * %.17g), with ".0" added to integral values (100.0, -0.0) so they stay
 * doubles; NaN and infinities, which JSON lacks, are written as null. */
void json_number(json_writer *w, double v);
void json_int(json_writer *w, long long v);
void json_bool(json_writer *w, int v);
void json_null(json_writer *w);
/* json_text must be one complete JSON value; it is copied as it is. */
void json_raw(json_writer *w, const char *json_text);
/* For a value produced by someone else's code: writes the separator and
 * returns the stream, to which the caller writes exactly one JSON value. */
FILE *json_raw_value(json_writer *w);

void json_kv_string(json_writer *w, const char *key, const char *s);
void json_kv_number(json_writer *w, const char *key, double v);
void json_kv_int(json_writer *w, const char *key, long long v);
void json_kv_bool(json_writer *w, const char *key, int v);

/* Ends the document with a newline. Returns 0 when the document is complete
 * and balanced, nothing was misused and the stream has no error; else -1. */
int json_finish(json_writer *w);

/* Writes path through fill into a temporary of this process's own
 * ("path.<host>-<pid>.tmp", op_tmpname.h), flushes and closes it, then
 * renames it over path, so a reader never sees half a file. The stream is
 * checked for errors after fill. Returns 0, or -1 with the reason in err
 * (the temporary file is removed). */
int write_file_atomically(const char *path, void (*fill)(FILE *f, void *ctx), void *ctx,
                          char *err, size_t errlen);

/* mkdir -p: creates path and its missing parents (mode 0777 less umask).
 * Returns 0, or -1 with errno set. An existing directory is fine. */
int make_dirs(const char *path);

#ifdef __cplusplus
}
#endif

#endif /* SOLVER_COMMON_RESULT_JSON_H */
