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
 * function; *spaced: it names its execution space already. */
static int function_start(const token_list *tl, int s, int e, int *spaced) {
  int at = s;
  if (is_ident(&tl->toks[s], "template") && s + 1 < e && is_punct(&tl->toks[s + 1], '<'))
    at = skip_group(tl, s + 1);
  *spaced = 0;
  for (int i = s; i < e; i++)
    if (is_space_word(&tl->toks[i])) *spaced = 1;
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

/* What the copy inserts: __device__ before a function, or around a function
 * body the names of the constants' device copies (below). */
typedef enum { EDIT_DEVICE, EDIT_RENAME, EDIT_RESTORE } edit_kind;
typedef struct {
  long pos;
  edit_kind kind;
  int line; /* EDIT_RENAME: the line it goes before; EDIT_RESTORE: the line after it */
} edit;

/* Byte offset of the start of the line holding byte pos, and of the line after it. */
static long line_start(const token_list *tl, long pos) {
  while (pos > 0 && tl->src[pos - 1] != '\n') pos--;
  return pos;
}
static long next_line(const token_list *tl, long pos) {
  while (pos < tl->len && tl->src[pos] != '\n') pos++;
  return pos < tl->len ? pos + 1 : tl->len;
}

/* The edits, in the order of the text: __device__ before every function that
 * names no execution space; with `rename`, every function definition
 * between a line that renames the constants and one that restores them. */
static int find_insertions(const token_list *tl, edit *ed, int max, int rename) {
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
    int spaced;
    const int at = i > s ? function_start(tl, s, i, &spaced) : -1;
    if (n + 3 > max)
      gen_error_at(tl->path, t->line, "more than %d functions in a kernel header", max / 3);
    const int body = at >= 0 && is_punct(t, '{') && rename;
    const long from = body ? line_start(tl, tl->toks[s].pos) : 0;
    if (body && n > 0 && ed[n - 1].kind == EDIT_RESTORE && ed[n - 1].pos > from)
      n--; /* on the line the previous function ends: the names stay renamed */
    else if (body)
      ed[n++] = (edit){from, EDIT_RENAME, tl->toks[s].line};
    if (at >= 0 && !spaced) ed[n++] = (edit){tl->toks[at].pos, EDIT_DEVICE, 0};
    i = is_punct(t, '{') ? skip_group(tl, i) : i + 1;
    if (body) {
      const token *close = &tl->toks[i - 1];
      ed[n++] = (edit){next_line(tl, close->pos), EDIT_RESTORE, close->line + 1};
    }
    s = i;
  }
  return n;
}

/* Inside the kernels of the copy, each constant's name is that of its device
 * copy (gen_emit_cuda.c: op2_dc_<name>, in constant memory), through a macro
 * defined just before the function and undefined after it: the application's
 * own declarations of the constants (extern double w[5], in a header the
 * kernels' header includes) stay host declarations, which nvcc would refuse
 * as redeclarations of a __constant__ variable of the same name; code the
 * kernel brings in with #include inside its body is renamed too. */
static void write_edit(FILE *f, const edit *e, const char *path, const gen_program *prog) {
  if (e->kind == EDIT_DEVICE) {
    fputs("__device__ ", f);
    return;
  }
  for (int c = 0; c < prog->nconsts; c++)
    if (e->kind == EDIT_RENAME)
      fprintf(f, "#define %s op2_dc_%s\n", prog->consts[c].name, prog->consts[c].name);
    else
      fprintf(f, "#undef %s\n", prog->consts[c].name);
  fprintf(f, "#line %d \"%s\"\n", e->line, path);
}

void gen_emit_device_header(FILE *f, const char *path, const gen_program *prog) {
  token_list tl;
  gen_lex_file(path, &tl);
  edit ed[3072];
  const int n = find_insertions(&tl, ed, 3072, prog->nconsts > 0);
  fprintf(f, "/* Generated by op2-gen: %s as device code (__device__ before its functions). */\n",
          path);
  fprintf(f, "#line 1 \"%s\"\n", path);
  /* The copy lives beside the loop code: its own includes are written as
   * the paths they resolve to from the header's place. */
  char *text = NULL;
  size_t len = 0;
  FILE *m = open_memstream(&text, &len);
  if (!m) {
    fprintf(stderr, "op2-gen: out of memory\n");
    exit(1);
  }
  long from = 0;
  /* A file that does not end its last line gets its newline first: the
   * restoring lines after a last function must start a line of their own. */
  for (int k = 0; k < n; k++) {
    fwrite(tl.src + from, 1, (size_t)(ed[k].pos - from), m);
    if (ed[k].kind == EDIT_RESTORE && ed[k].pos == tl.len && tl.len > 0 &&
        tl.src[tl.len - 1] != '\n')
      fputc('\n', m);
    write_edit(m, &ed[k], path, prog);
    from = ed[k].pos;
  }
  fwrite(tl.src + from, 1, (size_t)(tl.len - from), m);
  if (tl.len > 0 && tl.src[tl.len - 1] != '\n' && (n == 0 || ed[n - 1].pos < tl.len))
    fputc('\n', m);
  fclose(m);
  gen_write_resolved_includes(f, text, len, path, prog);
  free(text);
  gen_free_tokens(&tl);
}
