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

#include "test_check.h"
#include "result_json.h"
#include "op_tmpname.h"
#include "solver_files.h"
#include "solver_sha256.h"

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
  char tmpname[512];
  CHECK(op_tmp_name("json_pretty.json", tmpname, sizeof tmpname) != NULL);
  CHECK(access(tmpname, F_OK) != 0 && access("json_pretty.json.tmp", F_OK) != 0);
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
  char xtmp[512];
  CHECK(op_tmp_name("dirs_test/a/b/c/x.txt", xtmp, sizeof xtmp) != NULL);
  CHECK(access(xtmp, F_OK) != 0);
  /* A file in the way of a directory. */
  errno = 0;
  CHECK(make_dirs("dirs_test/a/b/c/x.txt/d") == -1 && errno == ENOTDIR);
  errno = 0;
  CHECK(make_dirs("dirs_test/a/b/c/x.txt") == -1 && errno == ENOTDIR);
  CHECK(make_dirs("") == -1 && errno == EINVAL);
  /* Writing where no directory exists fails with the path in the message. */
  CHECK(write_file_atomically("dirs_test/missing/y.json", fill_text, "{}", err, sizeof err) == -1);
  char ytmp[512];
  CHECK(op_tmp_name("dirs_test/missing/y.json", ytmp, sizeof ytmp) != NULL);
  CHECK_HAS(err, ytmp, "write_file_atomically", "result_json.c:");
}

/* SHA-256 against the test vectors of FIPS 180-4's examples: empty, one
 * block, two blocks (the 56-byte message pads into a second), a million
 * bytes fed in uneven pieces; and of a file. */
static void case_sha256(void)
{
  static const char *const two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  char hex[65];
  solver_sha256 s;
  solver_sha256_init(&s);
  solver_sha256_hex(&s, hex);
  CHECK(strcmp(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") == 0);
  solver_sha256_init(&s);
  solver_sha256_update(&s, "abc", 3);
  solver_sha256_hex(&s, hex);
  CHECK(strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0);
  solver_sha256_init(&s);
  solver_sha256_update(&s, two, strlen(two));
  solver_sha256_hex(&s, hex);
  CHECK(strcmp(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1") == 0);
  static char a[1000000];
  memset(a, 'a', sizeof a);
  solver_sha256_init(&s);
  for (size_t off = 0, step = 1; off < sizeof a; off += step, step = step * 3 % 997 + 1)
    solver_sha256_update(&s, a + off, off + step <= sizeof a ? step : sizeof a - off);
  solver_sha256_hex(&s, hex);
  CHECK(strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0);
  FILE *f = fopen("sha_abc.txt", "wb");
  CHECK(f && fwrite("abc", 1, 3, f) == 3);
  if (f) fclose(f);
  long long bytes = -1;
  CHECK(solver_sha256_file("sha_abc.txt", hex, &bytes) == 0 && bytes == 3 &&
        strcmp(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") == 0);
  CHECK(solver_sha256_file("no_such_file", hex, &bytes) == -1);
}

/* result.json's list of files, written and read back: every file of the
 * directory but result.json, hidden names and temporaries; the names of
 * this directory only (not "../x", not a path). */
static void case_listed(void)
{
  CHECK(make_dirs("listed_test") == 0);
  (void)remove("listed_test/old.json"); /* a file of an earlier run of the test */
  const char *names[] = {"listed_test/b.h5", "listed_test/a.csv", "listed_test/.hidden",
                         "listed_test/c.txt.vm-1.tmp", "listed_test/result.json"};
  for (int k = 0; k < 5; k++) {
    FILE *f = fopen(names[k], "w");
    CHECK(f != NULL);
    if (f) {
      fprintf(f, "%d\n", k);
      fclose(f);
    }
  }
  FILE *f = fopen("listed_test/result.json", "w");
  CHECK(f != NULL);
  if (!f) return;
  json_writer w;
  json_init(&w, f, 1);
  json_begin_object(&w);
  json_kv_string(&w, "solver", "x");
  json_key(&w, "files");
  const char *extra[2] = {"sha_abc.txt", "no_such_file"};
  const char *extra_names[2] = {"../sha_abc.txt", "gone"};
  solver_files_json(&w, "listed_test", extra, extra_names, 2);
  json_end_object(&w);
  CHECK(json_finish(&w) == 0);
  fclose(f);
  char **got = NULL;
  int n = solver_files_listed("listed_test/result.json", &got);
  CHECK(n == 2 && !strcmp(got[0], "a.csv") && !strcmp(got[1], "b.h5"));
  solver_files_free(got, n > 0 ? n : 0);
  /* One without the key, and none at all. */
  f = fopen("listed_test/old.json", "w");
  if (f) {
    fputs("{\n  \"solver\": \"x\"\n}\n", f);
    fclose(f);
  }
  CHECK(solver_files_listed("listed_test/old.json", &got) == -1 && got == NULL);
  CHECK(solver_files_listed("listed_test/none.json", &got) == -1);
}

typedef struct {
  const char *name;
  void (*run)(void);
} test_case;

static const test_case cases[] = {
  {"write", case_write},
  {"misuse", case_misuse},
  {"files", case_files},
  {"sha256", case_sha256},
  {"listed", case_listed},
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
  return check_exit("solver_json");
}
