/* gen_lex.c - a small C tokenizer: enough to find and split op2 calls. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

void gen_error_at(const char *file, int line, const char *fmt, ...) {
  va_list ap;
  fprintf(stderr, "%s:%d: error: ", file, line);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n");
  exit(1);
}

static char *read_whole_file(const char *path, long *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "op2-gen: cannot open %s\n", path);
    exit(1);
  }
  if (fseek(f, 0, SEEK_END) != 0 || (*len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
    fprintf(stderr, "op2-gen: cannot read %s\n", path);
    exit(1);
  }
  char *buf = malloc((size_t)*len + 1);
  if (!buf || fread(buf, 1, (size_t)*len, f) != (size_t)*len) {
    fprintf(stderr, "op2-gen: cannot read %s\n", path);
    exit(1);
  }
  buf[*len] = '\0';
  fclose(f);
  return buf;
}

static void push(token_list *tl, int *cap, tok_kind kind, const char *s, size_t n, int line) {
  const long pos = (long)(s - tl->src);
  if (tl->ntoks == *cap) {
    *cap = *cap ? 2 * *cap : 1024;
    tl->toks = realloc(tl->toks, sizeof(token) * (size_t)*cap);
    if (!tl->toks) {
      fprintf(stderr, "op2-gen: out of memory\n");
      exit(1);
    }
  }
  token *t = &tl->toks[tl->ntoks++];
  t->kind = kind;
  t->line = line;
  t->pos = pos;
  t->text = malloc(n + 1);
  if (!t->text) {
    fprintf(stderr, "op2-gen: out of memory\n");
    exit(1);
  }
  memcpy(t->text, s, n);
  t->text[n] = '\0';
}

void gen_lex_file(const char *path, token_list *tl) {
  long len;
  char *src = read_whole_file(path, &len);
  int cap = 0, line = 1, at_line_start = 1;
  tl->path = path;
  tl->toks = NULL;
  tl->ntoks = 0;
  tl->src = src;
  tl->real = NULL;
  tl->len = len;
  const char *p = src, *end = src + len;
  while (p < end) {
    char c = *p;
    if (c == '\n') {
      line++;
      at_line_start = 1;
      p++;
      continue;
    }
    if (isspace((unsigned char)c)) {
      p++;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '/') {
      while (p < end && *p != '\n') p++;
      continue;
    }
    if (c == '/' && p + 1 < end && p[1] == '*') {
      int start_line = line;
      p += 2;
      while (p + 1 < end && !(p[0] == '*' && p[1] == '/')) {
        if (*p == '\n') line++;
        p++;
      }
      if (p + 1 >= end) gen_error_at(path, start_line, "unterminated comment");
      p += 2;
      continue;
    }
    if (c == '#' && at_line_start) {
      /* A preprocessor line, with its continuations. */
      while (p < end && *p != '\n') {
        if (*p == '\\' && p + 1 < end && p[1] == '\n') {
          line++;
          p++;
        }
        p++;
      }
      continue;
    }
    at_line_start = 0;
    if (isalpha((unsigned char)c) || c == '_') {
      const char *s = p;
      while (p < end && (isalnum((unsigned char)*p) || *p == '_')) p++;
      push(tl, &cap, TOK_IDENT, s, (size_t)(p - s), line);
    } else if (isdigit((unsigned char)c) || (c == '.' && p + 1 < end && isdigit((unsigned char)p[1]))) {
      const char *s = p;
      while (p < end && (isalnum((unsigned char)*p) || *p == '.' || *p == '_' ||
                         ((*p == '+' || *p == '-') && (p[-1] == 'e' || p[-1] == 'E'))))
        p++;
      push(tl, &cap, TOK_NUMBER, s, (size_t)(p - s), line);
    } else if (c == '"' || c == '\'') {
      const char *s = p++;
      while (p < end && *p != c) {
        if (*p == '\\' && p + 1 < end) p++;
        if (*p == '\n') gen_error_at(path, line, "unterminated %s literal", c == '"' ? "string" : "character");
        p++;
      }
      if (p >= end) gen_error_at(path, line, "unterminated literal");
      p++;
      push(tl, &cap, c == '"' ? TOK_STRING : TOK_CHAR, s, (size_t)(p - s), line);
    } else {
      push(tl, &cap, TOK_PUNCT, p, 1, line);
      p++;
    }
  }
  push(tl, &cap, TOK_END, end, 0, line);
}

void gen_free_tokens(token_list *tl) {
  for (int i = 0; i < tl->ntoks; i++) free(tl->toks[i].text);
  free(tl->toks);
  free(tl->src);
  tl->toks = NULL;
  tl->ntoks = 0;
  tl->src = NULL;
}
