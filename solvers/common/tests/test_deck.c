/*
 * test_deck.c - unit tests of the input-deck parser.
 *
 * usage: test_deck CASE    (or "all"); deck files are written to the
 * current directory, named after the case so that cases may run in parallel.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "test_check.h"
#include "deck.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const deck_key keys[] = {
  {"steps", DECK_INT, "100", 1, 1000000, NULL, "time steps to run"},
  {"cfl", DECK_REAL, "0.9", 0, 1, NULL, "Courant number"},
  {"gamma", DECK_REAL, "1.4", 1, INFINITY, NULL, "ratio of specific heats"},
  {"shift", DECK_REAL, "0", 0, 0, NULL, "unbounded real"},
  {"output", DECK_STRING, "outputs/test", 0, 0, NULL, "output directory"},
  {"limiter", DECK_CHOICE, "minbee", 0, 0, "none|minbee|vanleer|superbee", "slope limiter"},
  {"ppm", DECK_BOOL, "yes", 0, 0, NULL, "write PPM images"},
  {"max_iter", DECK_INT, "50", 0, 0, NULL, "unbounded int"},
};
enum { NKEYS = (int)(sizeof keys / sizeof keys[0]) };

static deck *new_deck(void)
{
  deck *d = deck_new("test", keys, NKEYS);
  if (d == NULL) {
    fprintf(stderr, "%s:%d: %s: deck_new failed\n", __FILE__, __LINE__, __func__);
    exit(1);
  }
  return d;
}

static void write_text(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  if (f == NULL || fputs(text, f) < 0 || fclose(f) != 0) {
    fprintf(stderr, "%s:%d: %s: cannot write %s\n", __FILE__, __LINE__, __func__, path);
    exit(1);
  }
}

/* Reads a deck holding text and expects an error containing all of want
 * (NULL-terminated). */
static void expect_file_error(const char *path, const char *text, ...)
{
  char err[1024] = "";
  if (text != NULL)
    write_text(path, text);
  deck *d = new_deck();
  int rc = deck_read_file(d, path, err, sizeof err);
  CHECK(strchr(err, '\x1b') == NULL); /* nothing raw reaches a terminal */
  CHECK(rc == -1);
  va_list ap;
  va_start(ap, text);
  for (const char *s = va_arg(ap, const char *); s != NULL; s = va_arg(ap, const char *))
    CHECK_HAS(err, s);
  va_end(ap);
  deck_free(d);
}

static void case_defaults(void)
{
  deck *d = new_deck();
  CHECK(deck_int(d, "steps") == 100);
  CHECK(deck_real(d, "cfl") == 0.9);
  CHECK(deck_real(d, "gamma") == 1.4);
  CHECK(strcmp(deck_string(d, "output"), "outputs/test") == 0);
  CHECK(strcmp(deck_string(d, "limiter"), "minbee") == 0);
  CHECK(deck_choice(d, "limiter") == 1);
  CHECK(deck_bool(d, "ppm") == 1);
  CHECK(strcmp(deck_origin(d, "cfl"), "default") == 0);
  CHECK(deck_path(d) == NULL);
  CHECK(strcmp(deck_solver(d), "test") == 0);
  deck_free(d);
}

static void case_file(void)
{
  const char *path = "file.in";
  write_text(path, "# a comment line\n"
                   "\n"
                   "   steps   =   250   # trailing comment\n"
                   "cfl=0.5\n"
                   "\tgamma = 1.67\r\n"
                   "output = \"out dir/#1\"  # quoted, with a hash inside\n"
                   "limiter = superbee\n"
                   "ppm = Off\n"
                   "shift = -2.5e-3\n"
                   "max_iter = -7\n");
  write_text("bom.in", "\xEF\xBB\xBFsteps = 3\n");
  char err[1024] = "";
  deck *d = new_deck();
  int rc = deck_read_file(d, path, err, sizeof err);
  CHECK(rc == 0);
  if (rc != 0)
    fprintf(stderr, "  error: %s\n", err);
  CHECK(deck_int(d, "steps") == 250);
  CHECK(deck_real(d, "cfl") == 0.5);
  CHECK(deck_real(d, "gamma") == 1.67);
  CHECK(strcmp(deck_string(d, "output"), "out dir/#1") == 0);
  CHECK(deck_choice(d, "limiter") == 3);
  CHECK(deck_bool(d, "ppm") == 0);
  CHECK(deck_real(d, "shift") == -2.5e-3);
  CHECK(deck_int(d, "max_iter") == -7);
  CHECK(strcmp(deck_origin(d, "steps"), "file.in:3") == 0);
  CHECK(strcmp(deck_origin(d, "gamma"), "file.in:5") == 0);
  CHECK(strcmp(deck_origin(d, "max_iter"), "file.in:10") == 0);
  CHECK(deck_path(d) != NULL && strcmp(deck_path(d), path) == 0);
  deck_free(d);
  d = new_deck();
  CHECK(deck_read_file(d, "bom.in", err, sizeof err) == 0);
  CHECK(deck_int(d, "steps") == 3);
  deck_free(d);

  /* Single quotes are literal; double quotes take \" and \\; "" is empty. */
  write_text("quotes.in", "output = 'a \\\"b'\n");
  d = new_deck();
  CHECK(deck_read_file(d, "quotes.in", err, sizeof err) == 0);
  CHECK(strcmp(deck_string(d, "output"), "a \\\"b") == 0);
  deck_free(d);
  write_text("quotes2.in", "output = \"say \\\"hi\\\" c:\\dir\"\n");
  d = new_deck();
  CHECK(deck_read_file(d, "quotes2.in", err, sizeof err) == 0);
  CHECK(strcmp(deck_string(d, "output"), "say \"hi\" c:\\dir") == 0);
  deck_free(d);
  write_text("quotes3.in", "output = \"\"\n");
  d = new_deck();
  CHECK(deck_read_file(d, "quotes3.in", err, sizeof err) == 0);
  CHECK(strcmp(deck_string(d, "output"), "") == 0);
  deck_free(d);
}

static void case_unknown_key(void)
{
  expect_file_error("unknown.in", "steps = 3\n\nstesp = 5\n", "unknown.in:3", "'stesp'",
                    "did you mean 'steps'", NULL);
  /* Case mistakes are found too. */
  expect_file_error("unknown2.in", "CFL = 0.5\n", "unknown2.in:1", "'CFL'",
                    "did you mean 'cfl'", NULL);
  /* Far from everything: no suggestion that would mislead. */
  expect_file_error("unknown3.in", "resolution_of_grid = 5\n", "unknown3.in:1",
                    "'resolution_of_grid'", "no key is close; --help lists them all", NULL);
  /* A transposition is one edit; a word of a longer key counts ("iter" finds
   * "max_iter"); several near keys are all named, nearest first. */
  expect_file_error("unknown4.in", "lmiiter = vanleer\n", "did you mean 'limiter'?", NULL);
  expect_file_error("unknown5.in", "iter = 3\n", "did you mean 'max_iter'?", NULL);
  expect_file_error("unknown6.in", "stepz = 3\n", "did you mean 'steps'?", NULL);
  expect_file_error("unknown7.in", "shfit = 3\n", "did you mean 'shift'?", NULL);
  expect_file_error("unknown8.in", "cfk = 3\n", "did you mean 'cfl'?", NULL);
  /* Short keys: only a transposition is near enough (two substitutions are not). */
  expect_file_error("unknown9.in", "pmp = yes\n", "did you mean 'ppm'?", NULL);
  expect_file_error("unknown10.in", "clf = 0.5\n", "did you mean 'cfl'?", NULL);
}

static void case_duplicate(void)
{
  expect_file_error("dup.in", "# c\ncfl = 0.5\nsteps = 4\ncfl = 0.6\n", "dup.in:4",
                    "duplicate key 'cfl'", "first set at line 2", NULL);
}

static void case_bad_number(void)
{
  expect_file_error("bad1.in", "steps = abc\n", "bad1.in:1", "key 'steps'", "bad integer 'abc'",
                    NULL);
  expect_file_error("bad2.in", "\nsteps = 12x\n", "bad2.in:2", "key 'steps'", "'12x'", NULL);
  expect_file_error("bad3.in", "steps = 1.5\n", "bad3.in:1", "key 'steps'", "'1.5'", NULL);
  expect_file_error("bad4.in", "max_iter = 99999999999\n", "bad4.in:1", "key 'max_iter'",
                    "overflow", NULL);
  expect_file_error("bad5.in", "max_iter = 999999999999999999999999\n", "bad5.in:1",
                    "key 'max_iter'", "overflow", NULL);
  expect_file_error("bad6.in", "shift = 1e999\n", "bad6.in:1", "key 'shift'", "overflow", NULL);
  expect_file_error("bad7.in", "shift = nan\n", "bad7.in:1", "key 'shift'", "not a finite", NULL);
  expect_file_error("bad8.in", "shift = inf\n", "bad8.in:1", "key 'shift'", "not a finite", NULL);
  expect_file_error("bad9.in", "cfl = 0.5.1\n", "bad9.in:1", "key 'cfl'", "'0.5.1'", NULL);
  expect_file_error("bad10.in", "cfl =   # nothing\n", "bad10.in:1", "key 'cfl'",
                    "missing value", NULL);
  expect_file_error("bad11.in", "cfl = \"\"\n", "bad11.in:1", "key 'cfl'", "empty value", NULL);
  expect_file_error("bad12.in", "ppm = maybe\n", "bad12.in:1", "key 'ppm'", "bad boolean", NULL);
  expect_file_error("bad13.in", "shift = 1e-400\n", "bad13.in:1", "key 'shift'", "underflow",
                    NULL);
  expect_file_error("bad14.in", "steps = 0x10\n", "bad14.in:1", "key 'steps'", "'0x10'", NULL);
}

static void case_range(void)
{
  expect_file_error("range1.in", "cfl = 1.5\n", "range1.in:1", "key 'cfl'", "1.5",
                    "out of range [0, 1]", NULL);
  expect_file_error("range2.in", "steps = 0\n", "range2.in:1", "key 'steps'",
                    "out of range [1, 1000000]", NULL);
  expect_file_error("range3.in", "gamma = 0.5\n", "range3.in:1", "key 'gamma'",
                    "out of range [1, inf)", NULL);
  /* The bounds themselves are allowed. */
  char err[512];
  write_text("range4.in", "cfl = 1\nsteps = 1000000\ngamma = 1\n");
  deck *d = new_deck();
  CHECK(deck_read_file(d, "range4.in", err, sizeof err) == 0);
  deck_free(d);
}

static void case_choice(void)
{
  expect_file_error("choice.in", "limiter = minmod\n", "choice.in:1", "key 'limiter'",
                    "unknown choice 'minmod'", "none|minbee|vanleer|superbee", NULL);
}

static void case_syntax(void)
{
  expect_file_error("syntax1.in", "steps 100\n", "syntax1.in:1", "key 'steps'", "missing '='",
                    NULL);
  expect_file_error("syntax2.in", "\n\nrun fast # = 3\n", "syntax2.in:3", "expected 'key = value'",
                    "run fast", NULL);
  expect_file_error("syntax3.in", "= 5\n", "syntax3.in:1", "missing key", NULL);
  expect_file_error("syntax4.in", "output = \"abc\n", "syntax4.in:1", "key 'output'",
                    "unterminated", NULL);
  expect_file_error("syntax5.in", "output = \"abc\" def\n", "syntax5.in:1", "key 'output'",
                    "after the closing quote", NULL);
  char err[512] = "";
  write_text("empty.in", "");
  deck *d = new_deck();
  CHECK(deck_read_file(d, "empty.in", err, sizeof err) == 0);
  deck_free(d);
  d = new_deck();
  CHECK(deck_read_file(d, "no/such/deck.in", err, sizeof err) == -1);
  CHECK_HAS(err, "no/such/deck.in", "cannot open");
  deck_free(d);
}

static void case_set(void)
{
  char err[512] = "";
  deck *d = new_deck();
  CHECK(deck_set(d, "steps", "42", "test", err, sizeof err) == 0);
  CHECK(deck_int(d, "steps") == 42);
  CHECK(strcmp(deck_origin(d, "steps"), "test") == 0);
  CHECK(deck_set(d, "stepz", "42", "here", err, sizeof err) == -1);
  CHECK_HAS(err, "here", "'stepz'", "did you mean 'steps'");
  CHECK(deck_set(d, "cfl", "2", "there", err, sizeof err) == -1);
  CHECK_HAS(err, "there", "key 'cfl'", "out of range [0, 1]");
  CHECK(deck_real(d, "cfl") == 0.9); /* a failed set changes nothing */
  deck_free(d);
}

static void case_overrides(void)
{
  char err[1024] = "";
  write_text("over.in", "steps = 5\ncfl = 0.5\nppm = no\n");
  /* The deck comes last on the command line but is read first. */
  char *argv[] = {"prog", "steps=7", "--cfl", "0.25", "--limiter=none", "--ppm",
                  "--gamma", "2", "--gamma=3", "over.in", NULL};
  int argc = (int)(sizeof argv / sizeof argv[0]) - 1;
  deck *d = new_deck();
  int rc = deck_parse_args(d, argc, argv, err, sizeof err);
  CHECK(rc == DECK_OK);
  if (rc != DECK_OK)
    fprintf(stderr, "  error: %s\n", err);
  CHECK(deck_int(d, "steps") == 7);
  CHECK(deck_real(d, "cfl") == 0.25);
  CHECK(deck_choice(d, "limiter") == 0);
  CHECK(deck_bool(d, "ppm") == 1);
  CHECK(deck_real(d, "gamma") == 3); /* the last one wins */
  CHECK(strcmp(deck_origin(d, "steps"), "argument 1") == 0);
  CHECK(strcmp(deck_origin(d, "gamma"), "argument 8") == 0);
  CHECK(strcmp(deck_path(d), "over.in") == 0);
  deck_free(d);

  /* --deck FILE, and a bool flag followed by a bool word. */
  char *argv2[] = {"prog", "--deck", "over.in", "--ppm", "off", "--shift", "-1.5", NULL};
  d = new_deck();
  CHECK(deck_parse_args(d, 7, argv2, err, sizeof err) == DECK_OK);
  CHECK(deck_int(d, "steps") == 5);
  CHECK(deck_bool(d, "ppm") == 0);
  CHECK(deck_real(d, "shift") == -1.5);
  CHECK(strcmp(deck_origin(d, "cfl"), "over.in:2") == 0);
  deck_free(d);

  /* No deck at all: defaults plus overrides. */
  char *argv3[] = {"prog", "--deck=over.in", "output=a=b", NULL};
  d = new_deck();
  CHECK(deck_parse_args(d, 3, argv3, err, sizeof err) == DECK_OK);
  CHECK(strcmp(deck_string(d, "output"), "a=b") == 0);
  deck_free(d);
  char *argv4[] = {"prog", NULL};
  d = new_deck();
  CHECK(deck_parse_args(d, 1, argv4, err, sizeof err) == DECK_OK);
  CHECK(deck_path(d) == NULL);
  CHECK(deck_int(d, "steps") == 100);
  deck_free(d);
}

static void expect_args_error(int argc, char **argv, ...)
{
  char err[1024] = "";
  deck *d = new_deck();
  CHECK(deck_parse_args(d, argc, argv, err, sizeof err) == DECK_ERROR);
  va_list ap;
  va_start(ap, argv);
  for (const char *s = va_arg(ap, const char *); s != NULL; s = va_arg(ap, const char *))
    CHECK_HAS(err, s);
  va_end(ap);
  deck_free(d);
}

static void case_override_errors(void)
{
  write_text("over2.in", "steps = 5\n");
  char *a1[] = {"prog", "over2.in", "steps=abc"};
  expect_args_error(3, a1, "argument 2", "steps=abc", "key 'steps'", "bad integer", NULL);
  char *a2[] = {"prog", "--stpes", "4"};
  expect_args_error(3, a2, "argument 1", "'stpes'", "did you mean 'steps'", NULL);
  char *a3[] = {"prog", "--cfl=7"};
  expect_args_error(2, a3, "argument 1", "key 'cfl'", "out of range [0, 1]", NULL);
  char *a4[] = {"prog", "--steps"};
  expect_args_error(2, a4, "argument 1", "key 'steps'", "needs a value", NULL);
  char *a5[] = {"prog", "a.in", "b.in"};
  expect_args_error(3, a5, "argument 2", "second deck", "a.in", NULL);
  char *a6[] = {"prog", "-x"};
  expect_args_error(2, a6, "argument 1", "unknown option", NULL);
  char *a7[] = {"prog", "limiter=minmod"};
  expect_args_error(2, a7, "argument 1", "key 'limiter'", "unknown choice 'minmod'", NULL);
  char *a8[] = {"prog", "--deck"};
  expect_args_error(2, a8, "argument 1", "--deck", "needs a file name", NULL);
  /* Errors in the deck itself still name the file and line. */
  write_text("over3.in", "steps = 5\nsteps = 6\n");
  char *a9[] = {"prog", "steps=9", "over3.in"};
  expect_args_error(3, a9, "over3.in:2", "duplicate key 'steps'", NULL);
}

static char *read_all(FILE *f)
{
  static char buf[65536];
  rewind(f);
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  return buf;
}

static void case_help(void)
{
  /* deck_parse_args prints --help to stdout: capture it in a file. */
  FILE *cap = tmpfile();
  CHECK(cap != NULL);
  if (cap == NULL)
    return;
  fflush(stdout);
  int saved = dup(1);
  CHECK(saved >= 0 && dup2(fileno(cap), 1) >= 0);
  char *argv[] = {"prog", "broken-deck-is-not-read.in", "--help", NULL};
  char err[256] = "";
  deck *d = new_deck();
  int rc = deck_parse_args(d, 3, argv, err, sizeof err);
  fflush(stdout);
  CHECK(dup2(saved, 1) >= 0);
  close(saved);
  CHECK(rc == DECK_HELP);
  const char *text = read_all(cap);
  CHECK_HAS(text, "usage: test", "key", "default", "allowed", "meaning");
  for (int i = 0; i < NKEYS; i++)
    CHECK_HAS(text, keys[i].key, keys[i].help, keys[i].default_value);
  CHECK_HAS(text, "[0, 1]", "[1, inf)", "none|minbee|vanleer|superbee", "\"outputs/test\"");
  fclose(cap);
  deck_free(d);

  /* --help-markdown prints the docs table instead. */
  cap = tmpfile();
  CHECK(cap != NULL);
  if (cap == NULL)
    return;
  fflush(stdout);
  saved = dup(1);
  CHECK(saved >= 0 && dup2(fileno(cap), 1) >= 0);
  char *argv2[] = {"prog", "--help-markdown", NULL};
  d = new_deck();
  rc = deck_parse_args(d, 2, argv2, err, sizeof err);
  fflush(stdout);
  CHECK(dup2(saved, 1) >= 0);
  close(saved);
  CHECK(rc == DECK_HELP);
  text = read_all(cap);
  CHECK_HAS(text, "### test", "| `steps` | int | `100` | `[1, 1000000]` | time steps to run |");
  fclose(cap);
  deck_free(d);
}

static void case_markdown(void)
{
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (f == NULL)
    return;
  deck_write_markdown(keys, NKEYS, "test", f);
  const char *text = read_all(f);
  CHECK_HAS(text, "### test", "| key | type | default | allowed | meaning |",
            "`none`, `minbee`, `vanleer`, `superbee`", "`[0, 1]`", "`0.9`",
            "`[1, inf)`", "`true`, `false`");
  for (int i = 0; i < NKEYS; i++)
    CHECK_HAS(text, keys[i].key);
  /* One table row per key plus header and rule: count the lines starting '|'. */
  int rows = 0;
  for (const char *p = text; *p; p++)
    if (*p == '|' && (p == text || p[-1] == '\n'))
      rows++;
  CHECK(rows == NKEYS + 2);
  fclose(f);
}

static void case_print_roundtrip(void)
{
  char err[1024] = "";
  char *argv[] = {"prog", "output=we \"quote\" \\ it", "cfl=0.1", "shift=1e-300", "ppm=no", NULL};
  deck *d = new_deck();
  CHECK(deck_parse_args(d, 5, argv, err, sizeof err) == DECK_OK);
  FILE *f = fopen("printed.in", "w");
  CHECK(f != NULL);
  if (f == NULL)
    return;
  deck_print(d, f);
  CHECK(fclose(f) == 0);
  deck *e = new_deck();
  int rc = deck_read_file(e, "printed.in", err, sizeof err);
  CHECK(rc == 0);
  if (rc != 0)
    fprintf(stderr, "  error: %s\n", err);
  CHECK(strcmp(deck_string(e, "output"), "we \"quote\" \\ it") == 0);
  CHECK(deck_real(e, "cfl") == 0.1);
  CHECK(deck_real(e, "shift") == 1e-300);
  CHECK(deck_bool(e, "ppm") == 0);
  CHECK(deck_int(e, "steps") == 100);
  deck_free(d);
  deck_free(e);
  f = fopen("printed.in", "r");
  CHECK(f != NULL);
  if (f != NULL) {
    CHECK_HAS(read_all(f), "# argument 2", "# default", "cfl      = 0.1    ");
    fclose(f);
  }
}

/* The printout of the effective parameters shows a value holding terminal
 * escapes as every message does (\xNN), never the raw bytes. */
static void case_print_escaped(void)
{
  char err[1024] = "";
  char *argv[] = {"prog", "output=out\x1b[2J\x07", NULL};
  deck *d = new_deck();
  CHECK(deck_parse_args(d, 2, argv, err, sizeof err) == DECK_OK);
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (f != NULL) {
    deck_print(d, f);
    const char *text = read_all(f);
    CHECK_HAS(text, "\"out\\x1b[2J\\x07\"");
    CHECK(strchr(text, '\x1b') == NULL && strchr(text, '\x07') == NULL);
    fclose(f);
  }
  deck_free(d);
}

static void case_bad_table(void)
{
  static const deck_key dup[] = {
    {"a", DECK_INT, "1", 0, 0, NULL, "x"},
    {"a", DECK_INT, "1", 0, 0, NULL, "y"},
  };
  static const deck_key bad_default[] = {{"a", DECK_REAL, "5", 0, 1, NULL, "x"}};
  static const deck_key no_choices[] = {{"a", DECK_CHOICE, "x", 0, 0, "x||y", "x"}};
  static const deck_key no_help[] = {{"a", DECK_INT, "1", 0, 0, NULL, NULL}};
  static const deck_key reserved[] = {{"deck", DECK_STRING, "", 0, 0, NULL, "x"}};
  static const deck_key ok[] = {{"a", DECK_STRING, "", 0, 0, NULL, "x"}};
  fprintf(stderr, "(five 'bad key table' messages are expected below)\n");
  CHECK(deck_new("t", dup, 2) == NULL);
  CHECK(deck_new("t", bad_default, 1) == NULL);
  CHECK(deck_new("t", no_choices, 1) == NULL);
  CHECK(deck_new("t", no_help, 1) == NULL);
  CHECK(deck_new("t", reserved, 1) == NULL);
  deck *d = deck_new("t", ok, 1);
  CHECK(d != NULL);
  deck_free(d);
}

static void case_json(void)
{
  /* Written here, parsed by python3 in the common.deck_json_parse test. */
  char err[256] = "";
  char *argv[] = {"prog", "output=tab\there \"q\" \\", NULL};
  deck *d = new_deck();
  CHECK(deck_parse_args(d, 2, argv, err, sizeof err) == DECK_OK);
  FILE *f = fopen("deck.json", "w");
  CHECK(f != NULL);
  if (f == NULL)
    return;
  deck_json(d, f);
  CHECK(fclose(f) == 0);
  deck_free(d);
}

/* Runs a getter that must abort in a child process, its stderr in a file,
 * and checks that it died of SIGABRT saying want. */
static void expect_abort(int which, const char *want)
{
  FILE *cap = tmpfile();
  CHECK(cap != NULL);
  if (cap == NULL)
    return;
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  CHECK(pid >= 0);
  if (pid == 0) {
    if (dup2(fileno(cap), 2) < 0)
      _exit(3);
    deck *d = new_deck();
    if (which == 0)
      printf("%g\n", deck_real(d, "steps"));
    else
      printf("%d\n", deck_int(d, "no_such_key"));
    _exit(0); /* not reached when the getter aborts */
  }
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
  CHECK_HAS(read_all(cap), want, "deck.c:");
  fclose(cap);
}

static void case_getter_misuse(void)
{
  expect_abort(0, "deck_real: test key 'steps' is of kind int, not real");
  expect_abort(1, "deck_int: test has no key 'no_such_key'");
}


/* Hostile input: no raw control byte reaches the message, no read grows
 * without bound, quoted command-line values mean what they mean in a deck. */
static void case_hostile(void)
{
  char err[1024] = "";
  /* /dev/zero (NUL bytes and no line end) and a named pipe (open(2) would
   * wait for a writer): not regular files, refused by kind. */
  deck *d = new_deck();
  CHECK(deck_read_file(d, "/dev/zero", err, sizeof err) == -1);
  CHECK_HAS(err, "/dev/zero: is a character device, not a regular file", "deck");
  remove("hostile_fifo.in");
  CHECK(mkfifo("hostile_fifo.in", 0600) == 0);
  CHECK(deck_read_file(d, "hostile_fifo.in", err, sizeof err) == -1);
  CHECK_HAS(err, "hostile_fifo.in: is a named pipe (FIFO)", "give the deck as a file");
  remove("hostile_fifo.in");
  /* Binary data in a file: refused at the first line. */
  FILE *z = fopen("hostile_nul.in", "wb");
  CHECK(z != NULL);
  if (z) {
    fwrite("key = 1\0\n", 1, 9, z);
    fclose(z);
  }
  CHECK(deck_read_file(d, "hostile_nul.in", err, sizeof err) == -1);
  CHECK_HAS(err, "hostile_nul.in:1:", "NUL byte");
  deck_free(d);
  /* A line longer than any deck's, and a directory. */
  FILE *f = fopen("hostile_long.in", "w");
  CHECK(f != NULL);
  if (f) {
    for (int k = 0; k < 20000; k++)
      fputc('x', f);
    fputc('\n', f);
    CHECK(fclose(f) == 0);
  }
  expect_file_error("hostile_long.in", NULL, "hostile_long.in:1", "line longer than", NULL);
  d = new_deck();
  CHECK(deck_read_file(d, ".", err, sizeof err) == -1);
  CHECK_HAS(err, "is a directory");
  deck_free(d);
  /* Terminal escapes and broken UTF-8 in a garbage deck come back escaped. */
  expect_file_error("hostile_bin.in", "\x1b[2J\x1b]0;owned\x07 = 1\n", "hostile_bin.in:1",
                    "\\x1b[2J", "\\x07", NULL);
  expect_file_error("hostile_bin2.in", "steps = \xff\xfe" "12\n", "key 'steps'", "\\xff\\xfe12", NULL);
  /* A 100 KB argument is shortened in the message, keeping both ends. */
  size_t n = 100000;
  char *big = malloc(n + 8);
  CHECK(big != NULL);
  if (big) {
    memcpy(big, "steps=", 6);
    memset(big + 6, '7', n);
    memcpy(big + n, "END", 4);
    char *a1[] = {"prog", big, NULL};
    d = new_deck();
    CHECK(deck_parse_args(d, 2, a1, err, sizeof err) == DECK_ERROR);
    CHECK(strlen(err) < sizeof err - 1);
    CHECK_HAS(err, "argument 1", "key 'steps'", "END'", "...");
    deck_free(d);
    free(big);
  }
  /* output='""' is the empty string (not a directory named ""), and quotes
   * on the command line follow the deck's rules. */
  char *a2[] = {"prog", "output=\"\"", "--limiter", "'vanleer'", NULL};
  d = new_deck();
  CHECK(deck_parse_args(d, 4, a2, err, sizeof err) == DECK_OK);
  CHECK(strcmp(deck_string(d, "output"), "") == 0);
  CHECK(strcmp(deck_string(d, "limiter"), "vanleer") == 0);
  deck_free(d);
  char *a3[] = {"prog", "output=\"a \\\"b\\\" c\"", NULL};
  d = new_deck();
  CHECK(deck_parse_args(d, 2, a3, err, sizeof err) == DECK_OK);
  CHECK(strcmp(deck_string(d, "output"), "a \"b\" c") == 0);
  deck_free(d);
  char *a4[] = {"prog", "output=\"open", NULL};
  expect_args_error(2, a4, "argument 1", "key 'output'", "unterminated quoted value", NULL);
  char *a5[] = {"prog", "output=\"a\"b", NULL};
  expect_args_error(2, a5, "argument 1", "unexpected text after the closing quote", NULL);
}

/* A file a deck names (DECK_INPUT_FILE) is taken from the deck's own folder
 * when it is there; from the current folder otherwise, and always when the
 * value comes from the command line or is absolute (docs/input-decks.md,
 * "Paths in a deck"). */
static void case_input_files(void)
{
  static const deck_key files[] = {
    {"mesh", DECK_STRING, "", 0, 0, DECK_INPUT_FILE, "a file the run reads"},
    {"matrix", DECK_STRING, "", 0, 0, DECK_INPUT_FILE, "another"},
    {"absent", DECK_STRING, "", 0, 0, DECK_INPUT_FILE, "a file not beside the deck"},
    {"absolute", DECK_STRING, "", 0, 0, DECK_INPUT_FILE, "an absolute path"},
    {"label", DECK_STRING, "", 0, 0, NULL, "a string that names no file"},
  };
  static const deck_key bad[] = {{"n", DECK_INT, "1", 0, 0, DECK_INPUT_FILE, "x"}};
  if (mkdir("input_files.d", 0755) != 0 && errno != EEXIST) {
    fprintf(stderr, "%s:%d: %s: cannot make input_files.d\n", __FILE__, __LINE__, __func__);
    exit(1);
  }
  write_text("input_files.d/m.dat", "a mesh\n");
  write_text("input_files.d/a.mtx", "a matrix\n");
  write_text("input_files.d/deck.in", "mesh = m.dat\nmatrix = a.mtx\nabsent = none.dat\n"
                                      "absolute = /dev/null\nlabel = m.dat\n");
  char err[512] = "";
  char *argv[] = {"test", "input_files.d/deck.in", "matrix=a.mtx", NULL};
  deck *d = deck_new("test", files, 5);
  CHECK(d != NULL);
  CHECK(deck_parse_args(d, 3, argv, err, sizeof err) == DECK_OK);
  CHECK(strcmp(deck_string(d, "mesh"), "input_files.d/m.dat") == 0);
  CHECK(strcmp(deck_string(d, "matrix"), "a.mtx") == 0); /* the command line's */
  CHECK(strcmp(deck_string(d, "absent"), "none.dat") == 0);
  CHECK(strcmp(deck_string(d, "absolute"), "/dev/null") == 0);
  CHECK(strcmp(deck_string(d, "label"), "m.dat") == 0);
  CHECK(strcmp(deck_origin(d, "mesh"), "input_files.d/deck.in:1") == 0);
  deck_free(d);
  fprintf(stderr, "(one 'bad key table' message is expected below)\n");
  CHECK(deck_new("t", bad, 1) == NULL);
}

typedef struct {
  const char *name;
  void (*run)(void);
} test_case;

static const test_case cases[] = {
  {"defaults", case_defaults},
  {"file", case_file},
  {"unknown_key", case_unknown_key},
  {"duplicate", case_duplicate},
  {"bad_number", case_bad_number},
  {"range", case_range},
  {"choice", case_choice},
  {"syntax", case_syntax},
  {"set", case_set},
  {"overrides", case_overrides},
  {"override_errors", case_override_errors},
  {"help", case_help},
  {"markdown", case_markdown},
  {"print_roundtrip", case_print_roundtrip},
  {"print_escaped", case_print_escaped},
  {"bad_table", case_bad_table},
  {"json", case_json},
  {"getter_misuse", case_getter_misuse},
  {"hostile", case_hostile},
  {"input_files", case_input_files},
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
  return check_exit("solver_deck");
}
