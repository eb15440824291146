/*
 * gen_source_const.c - how the application's sources define a constant.
 *
 * Kernels read op_decl_const's constants by their C names. The CPU loop code
 * is compiled apart from the application and declares them `extern`, which
 * reaches the application's own variables, unless the application defines
 * one with internal linkage: `static`, or `const` at file scope in C++ (OP2's
 * tutorial steps 4 and 5 declare `const double gam = ...`). Such a constant
 * gets a copy of its own in the loop code, which op_decl_const fills, as the
 * device backends' copies are filled.
 */
#include <string.h>

#include "gen.h"

static int is_punct(const token *t, char c) { return t->kind == TOK_PUNCT && t->text[0] == c; }

int gen_source_const_internal(const token_list *tl, const char *name, int cxx) {
  int depth = 0, parens = 0, decl_start = 0;
  for (int i = 0; tl->toks[i].kind != TOK_END; i++) {
    const token *t = &tl->toks[i];
    if (is_punct(t, '{')) depth++;
    if (is_punct(t, '}') && depth > 0 && --depth == 0) decl_start = i + 1;
    if (depth > 0) continue;
    if (is_punct(t, '(')) parens++;
    if (is_punct(t, ')') && parens > 0) parens--;
    if (is_punct(t, ';')) {
      decl_start = i + 1;
      continue;
    }
    /* The name declared at file scope: `name =`, `name;`, `name[`, `name,`. */
    if (parens || t->kind != TOK_IDENT || strcmp(t->text, name) != 0) continue;
    const token *next = &tl->toks[i + 1];
    if (!is_punct(next, '=') && !is_punct(next, ';') && !is_punct(next, '[') && !is_punct(next, ','))
      continue;
    int is_static = 0, is_const = 0, is_extern = 0;
    for (int k = decl_start; k < i; k++) {
      const token *q = &tl->toks[k];
      if (q->kind != TOK_IDENT) continue;
      is_static |= !strcmp(q->text, "static");
      is_const |= !strcmp(q->text, "const") || !strcmp(q->text, "constexpr");
      is_extern |= !strcmp(q->text, "extern");
    }
    if (is_extern) continue;
    return is_static || (cxx && is_const);
  }
  return 0;
}
