/*
 * result_json.c - streaming JSON writer, atomic file writes, mkdir -p.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "result_json.h"
#include "op_tmpname.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define SRC_FILE (strrchr(__FILE__, '/') ? strrchr(__FILE__, '/') + 1 : __FILE__)

/* ---- the writer ------------------------------------------------------- */

static void misuse(json_writer *w, const char *func, const char *what)
{
  if (!w->error)
    fprintf(stderr, "%s:%d: %s: JSON writer misuse: %s\n", SRC_FILE, __LINE__, func, what);
  w->error = 1;
}

static void newline_indent(json_writer *w, int depth)
{
  if (!w->pretty)
    return;
  fputc('\n', w->f);
  for (int i = 0; i < depth; i++)
    fputs("  ", w->f);
}

/* Writes what must come before the next value and checks it may come here.
 * Returns 0 when the value may be written. */
static int begin_value(json_writer *w, const char *func)
{
  if (w->error)
    return -1;
  if (w->done) {
    misuse(w, func, "a second top-level value");
    return -1;
  }
  if (w->after_key) {
    w->after_key = 0;
    return 0;
  }
  if (w->depth > 0) {
    if (w->is_object[w->depth - 1]) {
      misuse(w, func, "a value inside an object without a key");
      return -1;
    }
    if (w->has_items[w->depth - 1])
      fputc(',', w->f);
    w->has_items[w->depth - 1] = 1;
    newline_indent(w, w->depth);
  }
  return 0;
}

static void end_value(json_writer *w)
{
  if (w->depth == 0)
    w->done = 1;
}

void json_init(json_writer *w, FILE *f, int pretty)
{
  memset(w, 0, sizeof *w);
  w->f = f;
  w->pretty = pretty;
}

static void begin_container(json_writer *w, int object, const char *func)
{
  if (begin_value(w, func) != 0)
    return;
  if (w->depth >= JSON_MAX_DEPTH) {
    misuse(w, func, "nesting deeper than JSON_MAX_DEPTH");
    return;
  }
  fputc(object ? '{' : '[', w->f);
  w->is_object[w->depth] = (unsigned char)object;
  w->has_items[w->depth] = 0;
  w->depth++;
}

static void end_container(json_writer *w, int object, const char *func)
{
  if (w->error)
    return;
  if (w->depth == 0 || w->is_object[w->depth - 1] != object) {
    misuse(w, func, object ? "no open object to end" : "no open array to end");
    return;
  }
  if (w->after_key) {
    misuse(w, func, "a key without a value");
    return;
  }
  w->depth--;
  if (w->has_items[w->depth])
    newline_indent(w, w->depth);
  fputc(object ? '}' : ']', w->f);
  end_value(w);
}

void json_begin_object(json_writer *w) { begin_container(w, 1, __func__); }
void json_end_object(json_writer *w) { end_container(w, 1, __func__); }
void json_begin_array(json_writer *w) { begin_container(w, 0, __func__); }
void json_end_array(json_writer *w) { end_container(w, 0, __func__); }

/* Length of the valid UTF-8 sequence at s, or 0 when it is not one. */
static int utf8_length(const unsigned char *s)
{
  unsigned char c = s[0];
  int n;
  unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
  if (c < 0x80)
    return 1;
  if (c >= 0xC2 && c <= 0xDF)
    n = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0)
      lo = 0xA0; /* overlong */
    if (c == 0xED)
      hi = 0x9F; /* surrogates */
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0)
      lo = 0x90; /* overlong */
    if (c == 0xF4)
      hi = 0x8F; /* beyond U+10FFFF */
  } else
    return 0;
  if (s[1] < lo || s[1] > hi)
    return 0;
  for (int i = 2; i < n; i++)
    if (s[i] < 0x80 || s[i] > 0xBF)
      return 0;
  return n;
}

static void write_escaped(FILE *f, const char *str)
{
  const unsigned char *s = (const unsigned char *)str;
  fputc('"', f);
  while (*s) {
    unsigned char c = *s;
    switch (c) {
    case '"': fputs("\\\"", f); s++; continue;
    case '\\': fputs("\\\\", f); s++; continue;
    case '\b': fputs("\\b", f); s++; continue;
    case '\f': fputs("\\f", f); s++; continue;
    case '\n': fputs("\\n", f); s++; continue;
    case '\r': fputs("\\r", f); s++; continue;
    case '\t': fputs("\\t", f); s++; continue;
    default: break;
    }
    if (c < 0x20) {
      fprintf(f, "\\u%04x", c);
      s++;
      continue;
    }
    int n = utf8_length(s);
    if (n == 0) {
      fputs("\\ufffd", f);
      s++;
      continue;
    }
    fwrite(s, 1, (size_t)n, f);
    s += n;
  }
  fputc('"', f);
}

void json_key(json_writer *w, const char *key)
{
  if (w->error)
    return;
  if (w->depth == 0 || !w->is_object[w->depth - 1]) {
    misuse(w, __func__, "a key outside an object");
    return;
  }
  if (w->after_key) {
    misuse(w, __func__, "two keys in a row");
    return;
  }
  if (key == NULL) {
    misuse(w, __func__, "a NULL key");
    return;
  }
  if (w->has_items[w->depth - 1])
    fputc(',', w->f);
  w->has_items[w->depth - 1] = 1;
  newline_indent(w, w->depth);
  write_escaped(w->f, key);
  fputs(w->pretty ? ": " : ":", w->f);
  w->after_key = 1;
}

void json_string(json_writer *w, const char *s)
{
  if (begin_value(w, __func__) != 0)
    return;
  if (s == NULL)
    fputs("null", w->f);
  else
    write_escaped(w->f, s);
  end_value(w);
}

void json_number(json_writer *w, double v)
{
  if (begin_value(w, __func__) != 0)
    return;
  if (!isfinite(v)) {
    fputs("null", w->f);
  } else {
    char buf[40];
    for (int prec = 1; prec <= 17; prec++) {
      snprintf(buf, sizeof buf, "%.*g", prec, v);
      if (strtod(buf, NULL) == v)
        break;
    }
    /* Keep a double recognisable as one (and -0 as -0): "100" would read
     * back as an integer in many JSON libraries. */
    if (strpbrk(buf, ".eE") == NULL && strlen(buf) + 2 < sizeof buf)
      strcat(buf, ".0");
    fputs(buf, w->f);
  }
  end_value(w);
}

void json_int(json_writer *w, long long v)
{
  if (begin_value(w, __func__) != 0)
    return;
  fprintf(w->f, "%lld", v);
  end_value(w);
}

void json_bool(json_writer *w, int v)
{
  if (begin_value(w, __func__) != 0)
    return;
  fputs(v ? "true" : "false", w->f);
  end_value(w);
}

void json_null(json_writer *w)
{
  if (begin_value(w, __func__) != 0)
    return;
  fputs("null", w->f);
  end_value(w);
}

void json_raw(json_writer *w, const char *json_text)
{
  if (begin_value(w, __func__) != 0)
    return;
  fputs(json_text ? json_text : "null", w->f);
  end_value(w);
}

FILE *json_raw_value(json_writer *w)
{
  /* On misuse the caller still gets a stream; the document is already
   * marked bad and json_finish will say so. */
  if (begin_value(w, __func__) == 0)
    end_value(w);
  return w->f;
}

void json_kv_string(json_writer *w, const char *key, const char *s)
{
  json_key(w, key);
  json_string(w, s);
}

void json_kv_number(json_writer *w, const char *key, double v)
{
  json_key(w, key);
  json_number(w, v);
}

void json_kv_int(json_writer *w, const char *key, long long v)
{
  json_key(w, key);
  json_int(w, v);
}

void json_kv_bool(json_writer *w, const char *key, int v)
{
  json_key(w, key);
  json_bool(w, v);
}

int json_finish(json_writer *w)
{
  if (!w->error && !w->done)
    misuse(w, __func__, w->depth > 0 ? "unclosed object or array" : "empty document");
  fputc('\n', w->f);
  if (fflush(w->f) != 0 || ferror(w->f)) {
    fprintf(stderr, "%s:%d: %s: writing JSON failed: %s\n", SRC_FILE, __LINE__, __func__,
            strerror(errno));
    return -1;
  }
  return w->error ? -1 : 0;
}

/* ---- files ------------------------------------------------------------ */

static void set_err(char *err, size_t errlen, int line, const char *func, const char *fmt, ...)
  __attribute__((format(printf, 5, 6)));

static void set_err(char *err, size_t errlen, int line, const char *func, const char *fmt, ...)
{
  if (err == NULL || errlen == 0)
    return;
  int n = snprintf(err, errlen, "%s:%d: %s: ", SRC_FILE, line, func);
  if (n < 0 || (size_t)n >= errlen)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
  va_end(ap);
}

int write_file_atomically(const char *path, void (*fill)(FILE *f, void *ctx), void *ctx,
                          char *err, size_t errlen)
{
  /* This process's own temporary: two runs writing one file never write
   * into one temporary (op_tmpname.h). */
  size_t len = strlen(path) + 128;
  char *tmp = malloc(len);
  if (tmp == NULL) {
    set_err(err, errlen, __LINE__, __func__, "out of memory for '%s'", path);
    return -1;
  }
  if (!op_tmp_name(path, tmp, len)) {
    set_err(err, errlen, __LINE__, __func__, "file name too long: '%s'", path);
    free(tmp);
    return -1;
  }

  FILE *f = fopen(tmp, "w");
  if (f == NULL) {
    set_err(err, errlen, __LINE__, __func__, "cannot create '%s': %s", tmp, strerror(errno));
    free(tmp);
    return -1;
  }
  fill(f, ctx);
  int failed = 0;
  if (fflush(f) != 0 || ferror(f)) {
    set_err(err, errlen, __LINE__, __func__, "cannot write '%s': %s", tmp,
            errno ? strerror(errno) : "stream error");
    failed = 1;
  } else if (fsync(fileno(f)) != 0 && errno != EINVAL && errno != EROFS) {
    /* EINVAL/EROFS: the file lives where syncing is not supported (a pipe,
     * some special file systems): not an error for our purpose. */
    set_err(err, errlen, __LINE__, __func__, "cannot sync '%s': %s", tmp, strerror(errno));
    failed = 1;
  }
  if (fclose(f) != 0 && !failed) {
    set_err(err, errlen, __LINE__, __func__, "cannot close '%s': %s", tmp, strerror(errno));
    failed = 1;
  }
  if (!failed && rename(tmp, path) != 0) {
    set_err(err, errlen, __LINE__, __func__, "cannot rename '%s' to '%s': %s", tmp, path,
            strerror(errno));
    failed = 1;
  }
  if (failed)
    (void)remove(tmp); /* best effort: the error already reported is the one that matters */
  free(tmp);
  return failed ? -1 : 0;
}

int make_dirs(const char *path)
{
  if (path == NULL || path[0] == '\0') {
    errno = EINVAL;
    return -1;
  }
  size_t len = strlen(path);
  char *p = malloc(len + 1);
  if (p == NULL) {
    errno = ENOMEM;
    return -1;
  }
  memcpy(p, path, len + 1);
  /* Create every prefix that ends before a '/', then the whole path. */
  for (size_t i = 1; i <= len; i++) {
    if (p[i] != '/' && p[i] != '\0')
      continue;
    if (p[i - 1] == '/')
      continue; /* "a//b" */
    char saved = p[i];
    p[i] = '\0';
    if (mkdir(p, 0777) != 0 && errno != EEXIST) {
      int e = errno;
      free(p);
      errno = e;
      return -1;
    }
    p[i] = saved;
  }
  struct stat st;
  int rc = stat(p, &st);
  int e = errno;
  free(p);
  if (rc != 0) {
    errno = e;
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  return 0;
}
