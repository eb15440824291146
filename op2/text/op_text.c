/*
 * op_text.c - bounded line reading and safe display of outside text (op_text.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "op_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- display ---------------------------------------------------------------- */

/* Length of the valid UTF-8 sequence of two or more bytes at s (n bytes
 * left), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n) {
  unsigned char c = s[0];
  size_t len;
  unsigned char lo = 0x80, hi = 0xBF;
  if (c >= 0xC2 && c <= 0xDF)
    len = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else
    return 0;
  if (n < len) return 0;
  if (s[1] < lo || s[1] > hi) return 0;
  for (size_t k = 2; k < len; k++)
    if (s[k] < 0x80 || s[k] > 0xBF) return 0;
  return len;
}

/* One unit of the shown text: a character as it is, or an escaped byte. */
typedef struct {
  size_t src, srclen; /* bytes of the input */
  size_t outlen;      /* bytes it takes when shown */
} unit;

static size_t next_unit(const unsigned char *s, size_t i, size_t n, unit *u) {
  u->src = i;
  unsigned char c = s[i];
  if (c >= 0x80) {
    size_t len = utf8_len(s + i, n - i);
    u->srclen = len ? len : 1;
    u->outlen = len ? len : 4;
  } else {
    u->srclen = 1;
    u->outlen = (c < 0x20 && c != '\n' && c != '\t') || c == 0x7F ? 4 : 1;
  }
  return i + u->srclen;
}

static size_t put_unit(char *out, const unsigned char *s, const unit *u) {
  if (u->outlen == 4 && u->srclen == 1) {
    static const char hex[] = "0123456789abcdef";
    out[0] = '\\';
    out[1] = 'x';
    out[2] = hex[s[u->src] >> 4];
    out[3] = hex[s[u->src] & 15];
  } else {
    memcpy(out, s + u->src, u->srclen);
  }
  return u->outlen;
}

const char *op_text_shown_n(char *out, size_t outlen, const char *str, size_t n) {
  if (!out || outlen == 0) return out;
  out[0] = '\0';
  if (!str) return out;
  const unsigned char *s = (const unsigned char *)str;
  size_t room = outlen - 1, total = 0;
  unit u;
  for (size_t i = 0; i < n;) {
    i = next_unit(s, i, n, &u);
    total += u.outlen;
  }
  size_t pos = 0;
  if (total <= room) {
    for (size_t i = 0; i < n;) {
      i = next_unit(s, i, n, &u);
      pos += put_unit(out + pos, s, &u);
    }
    out[pos] = '\0';
    return out;
  }
  /* Too long: the start and the end, "..." between. */
  static const char dots[] = "...";
  if (room < sizeof dots) {
    out[0] = '\0';
    return out;
  }
  size_t budget = room - (sizeof dots - 1);
  size_t head = budget * 2 / 3, tail = budget - head;
  size_t i = 0;
  for (;;) {
    size_t j = next_unit(s, i, n, &u);
    if (pos + u.outlen > head) break;
    pos += put_unit(out + pos, s, &u);
    i = j;
  }
  memcpy(out + pos, dots, sizeof dots - 1);
  pos += sizeof dots - 1;
  /* The tail: the last units that fit, found by walking forward from i. */
  size_t shown_after = 0, k = i, from = n;
  size_t tail_total = 0;
  for (size_t p = i; p < n;) p = next_unit(s, p, n, &u), tail_total += u.outlen;
  while (k < n && tail_total > tail) {
    k = next_unit(s, k, n, &u);
    tail_total -= u.outlen;
  }
  from = k;
  for (size_t p = from; p < n;) {
    p = next_unit(s, p, n, &u);
    shown_after += put_unit(out + pos + shown_after, s, &u);
  }
  out[pos + shown_after] = '\0';
  return out;
}

const char *op_text_shown(char *out, size_t outlen, const char *s) {
  return op_text_shown_n(out, outlen, s, s ? strlen(s) : 0);
}

void op_text_vformat(char *out, size_t outlen, const char *fmt, va_list ap) {
  if (!out || outlen == 0) return;
  va_list again;
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  char *raw = n >= 0 ? malloc((size_t)n + 1) : NULL;
  if (raw) {
    vsnprintf(raw, (size_t)n + 1, fmt, again);
    op_text_shown_n(out, outlen, raw, (size_t)n);
    free(raw);
  } else {
    vsnprintf(out, outlen, fmt, again); /* out of memory: the message as it comes */
  }
  va_end(again);
}

void op_text_format(char *out, size_t outlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  op_text_vformat(out, outlen, fmt, ap);
  va_end(ap);
}

int op_text_fail(char *out, size_t outlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  op_text_vformat(out, outlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* ---- the reader ---------------------------------------------------------------- */


enum { CHUNK = 1 << 16 };

static int setup(op_text_reader *r, FILE *f, int own, const char *name, const char *what,
                 size_t max_line, unsigned long long max_bytes, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  r->f = f;
  r->own = own;
  r->what = what ? what : "file";
  op_text_shown(r->shown, sizeof r->shown, name ? name : "(stream)");
  r->max_line = max_line ? max_line : 1;
  r->max_bytes = max_bytes;
  r->cap = (r->max_line + 2 > CHUNK ? r->max_line + 2 : CHUNK) + 1;
  r->buf = malloc(r->cap);
  if (!r->buf) {
    if (own) fclose(f);
    r->f = NULL;
    return op_text_fail(err, errlen, "%s: out of memory for a read buffer of %zu bytes", r->shown, r->cap);
  }
  return 0;
}

const char *op_text_file_kind(unsigned mode) {
  if (S_ISREG(mode)) return NULL;
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/* The refusal of a file of another kind (kind from op_text_file_kind). */
static int refuse_kind(const char *shown, const char *kind, const char *what, char *err,
                       size_t errlen) {
  if (!strcmp(kind, "a directory"))
    return op_text_fail(err, errlen, "%s: is a directory, not a %s", shown, what);
  return op_text_fail(err, errlen, "%s: is %s, not a regular file: give the %s as a file", shown,
                      kind, what);
}

FILE *op_text_fopen_regular(const char *path, const char *what, char *err, size_t errlen) {
  char shown[OP_TEXT_SHOWN];
  op_text_shown(shown, sizeof shown, path ? path : "");
  if (!path || !path[0]) {
    op_text_fail(err, errlen, "no file name given for the %s", what);
    return NULL;
  }
  /* O_NONBLOCK: open(2) of a named pipe returns at once instead of waiting
   * for a writer; the kind is then known from the descriptor itself. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    op_text_fail(err, errlen, "%s: cannot open the %s: %s", shown, what, strerror(errno));
    return NULL;
  }
  struct stat st;
  const char *kind = NULL;
  if (fstat(fd, &st) != 0 || (kind = op_text_file_kind(st.st_mode)) != NULL) {
    if (kind)
      refuse_kind(shown, kind, what, err, errlen);
    else
      op_text_fail(err, errlen, "%s: cannot examine the %s: %s", shown, what, strerror(errno));
    close(fd);
    return NULL;
  }
  int flags = fcntl(fd, F_GETFL);
  FILE *f = NULL;
  if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0 || !(f = fdopen(fd, "rb"))) {
    op_text_fail(err, errlen, "%s: cannot open the %s: %s", shown, what, strerror(errno));
    close(fd);
  }
  return f;
}

int op_text_check_regular(const char *path, const char *what, char *err, size_t errlen) {
  struct stat st;
  const char *kind;
  if (!path || stat(path, &st) != 0 || (kind = op_text_file_kind(st.st_mode)) == NULL) return 0;
  char shown[OP_TEXT_SHOWN];
  return refuse_kind(op_text_shown(shown, sizeof shown, path), kind, what, err, errlen);
}

int op_text_open(op_text_reader *r, const char *path, const char *what, size_t max_line,
                 unsigned long long max_bytes, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  FILE *f = op_text_fopen_regular(path, what, err, errlen);
  if (!f) return -1;
  return setup(r, f, 1, path, what, max_line, max_bytes, err, errlen);
}

int op_text_attach(op_text_reader *r, FILE *f, const char *name, const char *what,
                   size_t max_line, unsigned long long max_bytes, char *err, size_t errlen) {
  return setup(r, f, 0, name, what, max_line, max_bytes, err, errlen);
}

void op_text_set_max_bytes(op_text_reader *r, unsigned long long max_bytes) {
  r->max_bytes = max_bytes;
}

/* Tops up the buffer; returns bytes added, 0 at the end, -1 on an error. */
static long refill(op_text_reader *r) {
  if (r->eof) return 0;
  if (r->start > 0) {
    memmove(r->buf, r->buf + r->start, r->end - r->start);
    r->end -= r->start;
    r->start = 0;
  }
  size_t want = r->cap - 1 - r->end;
  if (want == 0) return 0;
  size_t got = fread(r->buf + r->end, 1, want, r->f);
  if (got < want) {
    if (ferror(r->f)) return -1;
    r->eof = 1;
  }
  r->end += got;
  r->bytes += got;
  return (long)got;
}

int op_text_next(op_text_reader *r, char **line, size_t *len, char *err, size_t errlen) {
  if (!r->buf) return op_text_fail(err, errlen, "%s: the reader is not open", r->shown);
  size_t scanned = 0;
  for (;;) {
    char *b = r->buf + r->start;
    size_t have = r->end - r->start;
    char *nl = memchr(b + scanned, '\n', have - scanned);
    size_t n = nl ? (size_t)(nl - b) : have;
    if (memchr(b + scanned, '\0', (nl ? n + 1 : have) - scanned))
      return op_text_fail(err, errlen, "%s:%ld: the line holds a NUL byte (binary data: is this a %s?)",
                  r->shown, r->line + 1, r->what);
    if (n > r->max_line + (n > 0 && b[n - 1] == '\r'))
      return op_text_fail(err, errlen, "%s:%ld: line longer than %zu bytes (is this a %s?)", r->shown,
                  r->line + 1, r->max_line, r->what);
    if (r->max_bytes && r->bytes > r->max_bytes)
      return op_text_fail(err, errlen, "%s: more than %llu bytes: too long for a %s", r->shown,
                  r->max_bytes, r->what);
    if (nl || (r->eof && have > 0)) {
      size_t consumed = nl ? n + 1 : n;
      if (n > 0 && b[n - 1] == '\r') n--;
      b[n] = '\0';
      r->start += consumed;
      r->line++;
      /* A UTF-8 byte-order mark, as some editors write, is not text of the
       * first line: every reader skips it. */
      if (r->line == 1 && n >= 3 && memcmp(b, "\xEF\xBB\xBF", 3) == 0) b += 3, n -= 3;
      *line = b;
      *len = n;
      return 1;
    }
    if (r->eof) return 0;
    scanned = have;
    long got = refill(r);
    if (got < 0)
      return op_text_fail(err, errlen, "%s:%ld: cannot read the %s: %s", r->shown, r->line + 1, r->what,
                  strerror(errno ? errno : EIO));
    scanned = r->end - r->start - (size_t)got;
  }
}

void op_text_close(op_text_reader *r) {
  if (r->own && r->f) fclose(r->f); /* opened for reading: nothing is lost if this fails */
  free(r->buf);
  r->f = NULL;
  r->buf = NULL;
}
