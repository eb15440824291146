/*
 * test_text.c - op_text: messages safe to print, and the bounded line reader;
 * op_number: the one number syntax.
 *
 * usage: io_test_text shown|reader|number OUTDIR
 */
#include "io_test.h"
#include "op_number.h"
#include "op_text.h"

#include <float.h>

#include <sys/stat.h>

static int shown(void) {
  char out[64];
  /* Printable ASCII and valid UTF-8 pass; controls and broken UTF-8 are escaped. */
  CHECK(strcmp(op_text_shown(out, sizeof out, "plain text"), "plain text") == 0);
  CHECK(strcmp(op_text_shown(out, sizeof out, "R\xC3\xA9sum\xC3\xA9"), "R\xC3\xA9sum\xC3\xA9") == 0);
  CHECK(strcmp(op_text_shown(out, sizeof out, "a\x1b[31mb"), "a\\x1b[31mb") == 0);
  CHECK(strcmp(op_text_shown(out, sizeof out, "\xff\xfe"), "\\xff\\xfe") == 0);
  CHECK(strcmp(op_text_shown(out, sizeof out, "\xC3"), "\\xc3") == 0);        /* cut sequence */
  CHECK(strcmp(op_text_shown(out, sizeof out, "\xED\xA0\x80"), "\\xed\\xa0\\x80") == 0); /* surrogate */
  CHECK(strcmp(op_text_shown(out, sizeof out, "\xC0\xAF"), "\\xc0\\xaf") == 0); /* overlong */
  CHECK(strcmp(op_text_shown(out, sizeof out, "tab\tnl\n\x7f"), "tab\tnl\n\\x7f") == 0);
  CHECK(strcmp(op_text_shown_n(out, sizeof out, "a\0b", 3), "a\\x00b") == 0);
  /* A 100 KB name keeps its start and end and fits the buffer. */
  size_t n = 100000;
  char *big = malloc(n + 1);
  CHECK(big != NULL);
  if (!big) return check_exit("io.text_shown");
  memset(big, 'x', n);
  memcpy(big, "/start/", 7);
  memcpy(big + n - 5, "e.dat", 5);
  big[n] = '\0';
  op_text_shown(out, sizeof out, big);
  printf("  100000-byte name shown as: %s\n", out);
  CHECK(strlen(out) <= sizeof out - 1 && strlen(out) > 40);
  CHECK(strncmp(out, "/start/", 7) == 0);
  CHECK(strstr(out, "...") != NULL);
  CHECK(strcmp(out + strlen(out) - 5, "e.dat") == 0);
  /* Shortening never splits an escape or a character. */
  for (size_t k = 0; k < n; k++) big[k] = k % 2 ? '\x01' : '\xC3';
  op_text_shown(out, sizeof out, big);
  char *dots = strstr(out, "...");
  CHECK(dots != NULL);
  for (char *p = out; dots && p < dots; p += 4) CHECK(p[0] == '\\' && p[1] == 'x');
  free(big);
  return check_exit("io.text_shown");
}

static void write_bytes(const char *path, const char *data, size_t n) {
  FILE *f = fopen(path, "wb");
  CHECK(f && fwrite(data, 1, n, f) == n && fclose(f) == 0);
}

/* Reads every line of path; returns the number read, or -1 with err. */
static int read_all(const char *path, size_t max_line, unsigned long long max_bytes, char *err,
                    size_t errlen, char lines[][64]) {
  op_text_reader r;
  if (op_text_open(&r, path, "test file", max_line, max_bytes, err, errlen) != 0) return -1;
  int k = 0, rc;
  char *line;
  size_t len;
  while ((rc = op_text_next(&r, &line, &len, err, errlen)) == 1) {
    CHECK(strlen(line) == len);
    if (lines && k < 8) snprintf(lines[k], 64, "%s", line);
    k++;
  }
  op_text_close(&r);
  return rc < 0 ? -1 : k;
}

static int reader(const char *dir) {
  char err[512], lines[8][64];
  const char *p = io_path(dir, "text_lines.txt");
  write_bytes(p, "one\r\ntwo\n\nlast", 14);
  CHECK(read_all(p, 16, 0, err, sizeof err, lines) == 4);
  CHECK(!strcmp(lines[0], "one") && !strcmp(lines[1], "two") && !strcmp(lines[2], "") &&
        !strcmp(lines[3], "last"));
  /* A byte-order mark starts line 1 only: skipped there, kept elsewhere. */
  write_bytes(p, "\xEF\xBB\xBFone\n\xEF\xBB\xBFtwo\n", 14);
  CHECK(read_all(p, 16, 0, err, sizeof err, lines) == 2);
  CHECK(!strcmp(lines[0], "one") && !strcmp(lines[1], "\xEF\xBB\xBFtwo"));
  /* A line of exactly max_line bytes passes; one more byte does not. */
  write_bytes(p, "12345678\n", 9);
  CHECK(read_all(p, 8, 0, err, sizeof err, NULL) == 1);
  write_bytes(p, "ok\n123456789\n", 13);
  CHECK(read_all(p, 8, 0, err, sizeof err, NULL) == -1);
  CHECK(strstr(err, "text_lines.txt:2: line longer than 8 bytes") != NULL);
  /* A NUL byte is binary data. */
  write_bytes(p, "a\nb\0c\n", 6);
  CHECK(read_all(p, 64, 0, err, sizeof err, NULL) == -1);
  CHECK(strstr(err, "text_lines.txt:2: the line holds a NUL byte") != NULL);
  /* The cap on the whole file. */
  write_bytes(p, "a\nb\nc\nd\n", 8);
  CHECK(read_all(p, 64, 6, err, sizeof err, NULL) == -1);
  CHECK(strstr(err, "more than 6 bytes") != NULL);
  CHECK(read_all(p, 64, 8, err, sizeof err, NULL) == 4);
  /* Long lines spread over many buffer fills. */
  size_t big = 300000;
  char *data = malloc(big);
  CHECK(data != NULL);
  if (data) {
    memset(data, 'y', big);
    for (size_t k = 99999; k < big; k += 100000) data[k] = '\n';
    write_bytes(p, data, big);
    CHECK(read_all(p, 100000, 0, err, sizeof err, NULL) == 3);
    CHECK(read_all(p, 99998, 0, err, sizeof err, NULL) == -1);
    free(data);
  }
  /* A directory, a missing file; a device and a named pipe, refused by kind
   * (a pipe without a writer would make open(2) wait for ever: the test
   * would time out); a stream with no line end ever fails at once. */
  CHECK(read_all(dir, 64, 0, err, sizeof err, NULL) == -1);
  CHECK(strstr(err, "is a directory, not a test file") != NULL);
  CHECK(read_all(io_path(dir, "no_such_text"), 64, 0, err, sizeof err, NULL) == -1);
  CHECK(strstr(err, "cannot open the test file") != NULL);
  if (io_file_exists("/dev/zero")) {
    CHECK(read_all("/dev/zero", 4096, 0, err, sizeof err, NULL) == -1);
    CHECK(strstr(err, "/dev/zero: is a character device, not a regular file") != NULL);
    FILE *z = fopen("/dev/zero", "rb");
    op_text_reader r;
    char *line;
    size_t len;
    CHECK(z && op_text_attach(&r, z, "/dev/zero", "test file", 4096, 0, err, sizeof err) == 0);
    if (z) {
      CHECK(op_text_next(&r, &line, &len, err, sizeof err) == -1);
      CHECK(strstr(err, "/dev/zero:1:") != NULL);
      op_text_close(&r);
      fclose(z);
    }
  }
  const char *fifo = io_path(dir, "text_fifo");
  remove(fifo);
  CHECK(mkfifo(fifo, 0600) == 0);
  CHECK(read_all(fifo, 64, 0, err, sizeof err, NULL) == -1);
  CHECK(strstr(err, "is a named pipe (FIFO), not a regular file: give the test file as a file") !=
        NULL);
  CHECK(op_text_check_regular(fifo, "test file", err, sizeof err) == -1);
  CHECK(op_text_check_regular(io_path(dir, "no_such_text"), "test file", err, sizeof err) == 0);
  remove(fifo);
  printf("  last message: %s\n", err);
  return check_exit("io.text_reader");
}

/* The status of op_number_parse on the NUL-terminated s; *v its value. */
static op_number_status number(const char *s, double *v) {
  *v = -7.0;
  return op_number_parse(s, strlen(s), v);
}

static int numbers(void) {
  double v;
  CHECK(number("1.5", &v) == OP_NUMBER_OK && v == 1.5);
  CHECK(number("-2e3", &v) == OP_NUMBER_OK && v == -2000.0);
  CHECK(number(".5", &v) == OP_NUMBER_OK && v == 0.5);
  CHECK(number("5.", &v) == OP_NUMBER_OK && v == 5.0);
  CHECK(number("+0.0e-999", &v) == OP_NUMBER_OK && v == 0.0); /* zero written as zero */
  CHECK(number("2.2250738585072014e-308", &v) == OP_NUMBER_OK && v == DBL_MIN);
  /* Hexadecimal, blanks, a lone sign or point, a bare exponent: not decimal. */
  const char *bad[] = {"0x10", " 1", "1 ",  "",      "-",   ".",
                       "e5",   "1e", "1e+", "1.5.2", "1,5", "0x1p3"};
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
    CHECK(number(bad[k], &v) == OP_NUMBER_SYNTAX && v == -7.0);
  CHECK(number("nan", &v) == OP_NUMBER_NOT_FINITE);
  CHECK(number("-Infinity", &v) == OP_NUMBER_NOT_FINITE);
  CHECK(number("1e999", &v) == OP_NUMBER_OVERFLOW);
  CHECK(number("-1.8e308", &v) == OP_NUMBER_OVERFLOW);
  CHECK(number("1e-310", &v) == OP_NUMBER_UNDERFLOW && v == -7.0);   /* subnormal */
  CHECK(number("1e-999", &v) == OP_NUMBER_UNDERFLOW);                /* would round to zero */
  CHECK(op_number_parse("12x", 2, &v) == OP_NUMBER_OK && v == 12.0); /* n bytes only */
  CHECK(strstr(op_number_reason(OP_NUMBER_UNDERFLOW), "2.2e-308") != NULL);
  return check_exit("io.text_number");
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s shown|reader|number OUTDIR\n", argv[0]);
    return 2;
  }
  if (!strcmp(argv[1], "shown")) return shown();
  if (!strcmp(argv[1], "reader")) return reader(argv[2]);
  if (!strcmp(argv[1], "number")) return numbers();
  return 2;
}
