/*
 * test_json.c - unit tests of the JSON writer and the file helpers.
 *
 * usage: test_json CASE    (or "all"); files go to the current directory.
 * The "write" case leaves json_pretty.json and json_compact.json behind for
 * check_json.py (the common.json_parse test), which reads them back with
 * Python's json module.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "check.h"
#include "result_json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void fill_document(FILE *f, void *ctx)
{
  int pretty = *(int *)ctx;
  json_writer w;
  json_init(&w, f, pretty);
  json_begin_object(&w);
  json_kv_string(&w, "solver", "test");
  json_kv_string(&w, "escapes", "quote \" backslash \\ slash / nl \n tab \t cr \r bell \a del \x7f");
  json_kv_string(&w, "utf8", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
  json_kv_string(&w, "invalid_utf8", "a\xff" "b\xc3" "c\xed\xa0\x80" "d");
  json_key(&w, "null_string");
  json_string(&w, NULL);
  json_kv_number(&w, "tenth", 0.1);
  json_kv_number(&w, "tiny", 1e-300);
  json_kv_number(&w, "third", 1.0 / 3.0);
  json_kv_number(&w, "neg_zero", -0.0);
  json_kv_number(&w, "big", 1e300);
  json_kv_number(&w, "nan", NAN);
  json_kv_number(&w, "inf", INFINITY);
  json_kv_int(&w, "int_min", -9223372036854775807LL - 1);
  json_kv_bool(&w, "yes", 1);
  json_kv_bool(&w, "no", 0);
  json_key(&w, "nothing");
  json_null(&w);
  json_key(&w, "empty_object");
  json_begin_object(&w);
  json_end_object(&w);
  json_key(&w, "empty_array");
  json_begin_array(&w);
  json_end_array(&w);
  json_key(&w, "loops");
  json_begin_array(&w);
  for (int i = 0; i < 3; i++) {
    json_begin_object(&w);
    json_kv_string(&w, "name", i == 0 ? "res_calc" : i == 1 ? "update" : "adt_calc");
    json_kv_int(&w, "calls", 10 * (i + 1));
    json_key(&w, "nested");
    json_begin_array(&w);
    json_int(&w, i);
    json_number(&w, 0.5 * i);
    json_begin_array(&w);
    json_end_array(&w);
    json_end_array(&w);
    json_end_object(&w);
  }
  json_end_array(&w);
  json_key(&w, "raw");
  json_raw(&w, "{\"x\": [1, 2]}");
  json_key(&w, "raw_stream");
  fputs("[\"from\", \"elsewhere\"]", json_raw_value(&w));
  json_kv_string(&w, "last", "end");
  json_end_object(&w);
  if (json_finish(&w) != 0)
    fprintf(stderr, "%s:%d: %s: json_finish failed\n", __FILE__, __LINE__, __func__);
}

static void case_write(void)
{
  char err[512] = "";
  int pretty = 1, compact = 0;
  CHECK(write_file_atomically("json_pretty.json", fill_document, &pretty, err, sizeof err) == 0);
  CHECK(write_file_atomically("json_compact.json", fill_document, &compact, err, sizeof err) == 0);
  CHECK(access("json_pretty.json.tmp", F_OK) != 0);
}

/* Runs body on a scratch writer and returns json_finish's answer. */
static int finish_of(void (*body)(json_writer *))
{
  FILE *f = tmpfile();
  if (f == NULL)
    return 99;
  json_writer w;
  json_init(&w, f, 0);
  body(&w);
  int rc = json_finish(&w);
  fclose(f);
  return rc;
}

static void value_without_key(json_writer *w)
{
  json_begin_object(w);
  json_int(w, 1);
  json_end_object(w);
}
static void key_in_array(json_writer *w)
{
  json_begin_array(w);
  json_key(w, "k");
  json_end_array(w);
}
static void mismatched_end(json_writer *w)
{
  json_begin_array(w);
  json_end_object(w);
}
static void unclosed(json_writer *w) { json_begin_object(w); }
static void two_values(json_writer *w)
{
  json_int(w, 1);
  json_int(w, 2);
}
static void dangling_key(json_writer *w)
{
  json_begin_object(w);
  json_key(w, "k");
  json_end_object(w);
}
static void too_deep(json_writer *w)
{
  for (int i = 0; i <= JSON_MAX_DEPTH; i++)
    json_begin_array(w);
}
static void fine(json_writer *w)
{
  json_begin_array(w);
  json_int(w, 1);
  json_end_array(w);
}
static void scalar(json_writer *w) { json_string(w, "alone"); }

static void case_misuse(void)
{
  fprintf(stderr, "(seven 'JSON writer misuse' messages are expected below)\n");
  CHECK(finish_of(value_without_key) == -1);
  CHECK(finish_of(key_in_array) == -1);
  CHECK(finish_of(mismatched_end) == -1);
  CHECK(finish_of(unclosed) == -1);
  CHECK(finish_of(two_values) == -1);
  CHECK(finish_of(dangling_key) == -1);
  CHECK(finish_of(too_deep) == -1);
  CHECK(finish_of(fine) == 0);
  CHECK(finish_of(scalar) == 0);
}

static void fill_text(FILE *f, void *ctx) { fputs((const char *)ctx, f); }

static void case_files(void)
{
  char err[512] = "";
  /* mkdir -p, twice (the second finds everything there). */
  CHECK(make_dirs("dirs_test/a/b//c/") == 0);
  CHECK(make_dirs("dirs_test/a/b/c") == 0);
  struct stat st;
  CHECK(stat("dirs_test/a/b/c", &st) == 0 && S_ISDIR(st.st_mode));
  CHECK(write_file_atomically("dirs_test/a/b/c/x.txt", fill_text, "hello\n", err, sizeof err) == 0);
  /* Overwriting replaces the content. */
  CHECK(write_file_atomically("dirs_test/a/b/c/x.txt", fill_text, "bye\n", err, sizeof err) == 0);
  FILE *f = fopen("dirs_test/a/b/c/x.txt", "r");
  char buf[32] = "";
  CHECK(f != NULL && fgets(buf, sizeof buf, f) != NULL && strcmp(buf, "bye\n") == 0);
  if (f)
    fclose(f);
  CHECK(access("dirs_test/a/b/c/x.txt.tmp", F_OK) != 0);
  /* A file in the way of a directory. */
  errno = 0;
  CHECK(make_dirs("dirs_test/a/b/c/x.txt/d") == -1 && errno == ENOTDIR);
  errno = 0;
  CHECK(make_dirs("dirs_test/a/b/c/x.txt") == -1 && errno == ENOTDIR);
  CHECK(make_dirs("") == -1 && errno == EINVAL);
  /* Writing where no directory exists fails with the path in the message. */
  CHECK(write_file_atomically("dirs_test/missing/y.json", fill_text, "{}", err, sizeof err) == -1);
  CHECK_HAS(err, "dirs_test/missing/y.json.tmp", "write_file_atomically", "result_json.c:");
}

typedef struct {
  const char *name;
  void (*run)(void);
} test_case;

static const test_case cases[] = {
  {"write", case_write},
  {"misuse", case_misuse},
  {"files", case_files},
};

int main(int argc, char **argv)
{
  int ncases = (int)(sizeof cases / sizeof cases[0]), ran = 0;
  if (argc != 2) {
    fprintf(stderr, "usage: %s CASE|all\n", argv[0]);
    return 2;
  }
  for (int i = 0; i < ncases; i++)
    if (strcmp(argv[1], "all") == 0 || strcmp(argv[1], cases[i].name) == 0) {
      cases[i].run();
      ran++;
    }
  if (ran == 0) {
    fprintf(stderr, "%s: no case named '%s'\n", argv[0], argv[1]);
    return 2;
  }
  if (check_failures > 0) {
    fprintf(stderr, "%d check(s) failed\n", check_failures);
    return 1;
  }
  return 0;
}
