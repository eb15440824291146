/*
 * gen_device.c - a kernel header as CUDA device code.
 *
 * The generated .cu includes every kernel header under
 * `#define inline __device__ ... inline`, which makes the kernels and their
 * `static inline` helpers (also those of headers they include) device
 * functions. A function the header defines without `inline` - OP2 kernel
 * headers may have a file-scope `static double helper(...)` - would stay a
 * host function that device code cannot call; so the CUDA build includes a
 * copy of each kernel header with `__device__ ` written before every function
 * declared or defined at file scope that has no execution space of its own.
 * Nothing else changes: lines stay where they were, and a #line directive
 * makes compiler messages name the user's header.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

static int is_punct(const token *t, char c) { return t->kind == TOK_PUNCT && t->text[0] == c; }
static int is_ident(const token *t, const char *s) {
  return t->kind == TOK_IDENT && !strcmp(t->text, s);
}

/* Index past the group that opens at i ('(' '[' '{' or '<' for templates). */
static int skip_group(const token_list *tl, int i) {
  const char open = tl->toks[i].text[0];
  const char close = open == '(' ? ')' : open == '[' ? ']' : open == '{' ? '}' : '>';
  int depth = 0;
  for (; tl->toks[i].kind != TOK_END; i++) {
    if (is_punct(&tl->toks[i], open)) depth++;
    if (is_punct(&tl->toks[i], close) && --depth == 0) return i + 1;
  }
  gen_error_at(tl->path, tl->toks[i].line, "unbalanced '%c' in the kernel header", open);
}

/* Words that open a parenthesised group in a declaration without being its name. */
static int is_attribute_word(const token *t) {
  static const char *words[] = {"__attribute__", "__declspec", "alignas", "_Alignas",
                                "decltype",      "__align__",  "noexcept", "throw"};
  for (size_t k = 0; k < sizeof words / sizeof *words; k++)
    if (is_ident(t, words[k])) return 1;
  return 0;
}

/* Execution space written already (or through OP2's OP_FUN_PREFIX). */
static int is_space_word(const token *t) {
  return is_ident(t, "__device__") || is_ident(t, "__host__") || is_ident(t, "__global__") ||
         is_ident(t, "OP_FUN_PREFIX");
}

/* Looks at the declaration [s, e) that ends at ';' or '{' (the token at e):
 * returns the token before which __device__ goes, or -1 when it is not a
 * function or already names its execution space. */
static int device_insertion(const token_list *tl, int s, int e) {
  int at = s;
  if (is_ident(&tl->toks[s], "template") && s + 1 < e && is_punct(&tl->toks[s + 1], '<'))
    at = skip_group(tl, s + 1);
  for (int i = s; i < e; i++)
    if (is_space_word(&tl->toks[i])) return -1;
  for (int i = at; i < e; i++) {
    const token *t = &tl->toks[i];
    if (is_punct(t, '=')) return -1; /* a variable with an initialiser */
    if (is_punct(t, '(') || is_punct(t, '[')) {
      const int named = i > at && tl->toks[i - 1].kind == TOK_IDENT &&
                        !is_attribute_word(&tl->toks[i - 1]);
      if (!is_punct(t, '(') || !named) {
        i = skip_group(tl, i) - 1;
        continue;
      }
      /* name(...): a function when only qualifiers follow up to ';' or '{'
       * (not "double x(3.0);", a variable). */
      const token *first = &tl->toks[i + 1];
      if (first->kind == TOK_NUMBER || first->kind == TOK_STRING) return -1;
      for (int j = skip_group(tl, i); j < e; j++) {
        const token *q = &tl->toks[j];
        if (is_attribute_word(q) && j + 1 < e && is_punct(&tl->toks[j + 1], '(')) {
          j = skip_group(tl, j + 1) - 1;
        } else if (!(is_ident(q, "const") || is_ident(q, "volatile") || is_ident(q, "override") ||
                     is_punct(q, '&'))) {
          return -1;
        }
      }
      return at;
    }
  }
  return -1;
}

/* Positions (byte offsets) where __device__ goes, in increasing order. */
static int find_insertions(const token_list *tl, long *pos, int max) {
  int n = 0, s = 0, transparent = 0;
  int i = 0;
  while (tl->toks[i].kind != TOK_END) {
    const token *t = &tl->toks[i];
    if (is_punct(t, '}') && transparent > 0) { /* end of a namespace or extern "C" block */
      transparent--;
      s = ++i;
      continue;
    }
    if (is_punct(t, '(') || is_punct(t, '[')) {
      i = skip_group(tl, i);
      continue;
    }
    if (!is_punct(t, ';') && !is_punct(t, '{')) {
      i++;
      continue;
    }
    /* A declaration [s, i) ends here. */
    if (is_punct(t, '{') && i > s &&
        (is_ident(&tl->toks[s], "namespace") ||
         (is_ident(&tl->toks[s], "extern") && tl->toks[s + 1].kind == TOK_STRING))) {
      transparent++; /* its contents are declarations at file scope too */
      s = ++i;
      continue;
    }
    if (i > s) {
      const int at = device_insertion(tl, s, i);
      if (at >= 0) {
        if (n == max) gen_error_at(tl->path, t->line, "more than %d functions in a kernel header", max);
        pos[n++] = tl->toks[at].pos;
      }
    }
    i = is_punct(t, '{') ? skip_group(tl, i) : i + 1;
    s = i;
  }
  return n;
}

void gen_emit_device_header(FILE *f, const char *path) {
  token_list tl;
  gen_lex_file(path, &tl);
  long pos[1024];
  const int n = find_insertions(&tl, pos, 1024);
  fprintf(f, "/* Generated by op2-gen: %s as device code (__device__ before its functions). */\n",
          path);
  fprintf(f, "#line 1 \"%s\"\n", path);
  long from = 0;
  for (int k = 0; k < n; k++) {
    fwrite(tl.src + from, 1, (size_t)(pos[k] - from), f);
    fputs("__device__ ", f);
    from = pos[k];
  }
  fwrite(tl.src + from, 1, (size_t)(tl.len - from), f);
  if (tl.len > 0 && tl.src[tl.len - 1] != '\n') fputc('\n', f);
  gen_free_tokens(&tl);
}
