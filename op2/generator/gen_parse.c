/*
 * gen_parse.c - finds op_par_loop and op_decl_const calls in a token stream
 * and reads their arguments. Anything that cannot be turned into loop code is
 * refused with the file and line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen.h"

typedef struct {
  int begin, end; /* token range [begin, end) */
} range;

static int is_punct(const token *t, char c) { return t->kind == TOK_PUNCT && t->text[0] == c; }

/* Index of the ')' matching the '(' at `open`. */
static int match_paren(const token_list *tl, int open) {
  int depth = 0;
  for (int i = open; i < tl->ntoks; i++) {
    const token *t = &tl->toks[i];
    if (t->kind == TOK_END) break;
    if (is_punct(t, '(') || is_punct(t, '[') || is_punct(t, '{')) depth++;
    if (is_punct(t, ')') || is_punct(t, ']') || is_punct(t, '}')) {
      if (--depth == 0) return i;
    }
  }
  gen_error_at(tl->path, tl->toks[open].line, "unbalanced parentheses");
}

/* Splits the tokens between '(' at open and its ')' at top-level commas. */
static int split_args(const token_list *tl, int open, int close, range *out, int max) {
  int n = 0, depth = 0, start = open + 1;
  if (start == close) return 0;
  for (int i = open + 1; i <= close; i++) {
    const token *t = &tl->toks[i];
    if (i == close || (depth == 0 && is_punct(t, ','))) {
      if (n == max) gen_error_at(tl->path, t->line, "more than %d arguments", max);
      out[n].begin = start;
      out[n].end = i;
      n++;
      start = i + 1;
      continue;
    }
    if (is_punct(t, '(') || is_punct(t, '[') || is_punct(t, '{')) depth++;
    if (is_punct(t, ')') || is_punct(t, ']') || is_punct(t, '}')) depth--;
  }
  for (int k = 0; k < n; k++)
    if (out[k].begin == out[k].end) gen_error_at(tl->path, tl->toks[open].line, "empty argument");
  return n;
}

static void range_text(const token_list *tl, range r, char *buf, size_t len) {
  buf[0] = '\0';
  size_t used = 0;
  for (int i = r.begin; i < r.end; i++) {
    const char *s = tl->toks[i].text;
    size_t n = strlen(s);
    if (used + n + 1 >= len) break;
    memcpy(buf + used, s, n);
    used += n;
    buf[used] = '\0';
  }
}

static int single(range r) { return r.end - r.begin == 1; }

/* A literal integer dimension, or -1 for an expression. */
static int literal_dim(const token_list *tl, range r) {
  if (!single(r) || tl->toks[r.begin].kind != TOK_NUMBER) return -1;
  char *end;
  long v = strtol(tl->toks[r.begin].text, &end, 10);
  if (*end || v <= 0 || v > 1000000) return -1;
  return (int)v;
}

/* OP2's spellings of the element types the backends compute with, as the
 * library reads them (op_type_from_name), each also with the suffix ":soa". */
static const struct {
  const char *name, *type, *type_enum;
} type_names[] = {
    {"double", "double", "OP_TYPE_DOUBLE"},     {"real(8)", "double", "OP_TYPE_DOUBLE"},
    {"r8", "double", "OP_TYPE_DOUBLE"},         {"real*8", "double", "OP_TYPE_DOUBLE"},
    {"double precision", "double", "OP_TYPE_DOUBLE"},
    {"float", "float", "OP_TYPE_FLOAT"},        {"real(4)", "float", "OP_TYPE_FLOAT"},
    {"r4", "float", "OP_TYPE_FLOAT"},           {"real*4", "float", "OP_TYPE_FLOAT"},
    {"real", "float", "OP_TYPE_FLOAT"},
    {"int", "int", "OP_TYPE_INT"},              {"integer(4)", "int", "OP_TYPE_INT"},
    {"i4", "int", "OP_TYPE_INT"},               {"integer*4", "int", "OP_TYPE_INT"},
    {"integer", "int", "OP_TYPE_INT"},          {"int(4)", "int", "OP_TYPE_INT"},
};

static void read_type(const token_list *tl, range r, const char *what, char *type, char *type_enum) {
  int line = tl->toks[r.begin].line;
  if (!single(r) || tl->toks[r.begin].kind != TOK_STRING)
    gen_error_at(tl->path, line, "%s: the type must be a string literal such as \"double\"", what);
  const char *s = tl->toks[r.begin].text;
  /* The literal without its quotes and without OP2's layout suffix ":soa". */
  size_t n = strlen(s) - 2;
  if (n > 4 && !strncmp(s + 1 + n - 4, ":soa", 4)) n -= 4;
  for (size_t i = 0; i < sizeof type_names / sizeof *type_names; i++)
    if (strlen(type_names[i].name) == n && !strncmp(s + 1, type_names[i].name, n)) {
      strcpy(type, type_names[i].type);
      strcpy(type_enum, type_names[i].type_enum);
      return;
    }
  gen_error_at(tl->path, line,
               "%s: unsupported type %s (use \"double\", \"float\" or \"int\", OP2's other "
               "spellings of them such as \"real(8)\", or any of them with \":soa\")",
               what, s);
}

static void read_access(const token_list *tl, range r, const char *what, char *acc) {
  static const char *modes[] = {"OP_READ", "OP_WRITE", "OP_RW", "OP_INC", "OP_MIN", "OP_MAX"};
  int line = tl->toks[r.begin].line;
  if (single(r) && tl->toks[r.begin].kind == TOK_IDENT)
    for (size_t m = 0; m < sizeof modes / sizeof *modes; m++)
      if (!strcmp(tl->toks[r.begin].text, modes[m])) {
        strcpy(acc, modes[m]);
        return;
      }
  char text[GEN_NAME];
  range_text(tl, r, text, sizeof text);
  gen_error_at(tl->path, line,
               "%s: the access mode must be written as one of OP_READ, OP_WRITE, OP_RW, OP_INC, "
               "OP_MIN, OP_MAX (found \"%s\")",
               what, text);
}

static void parse_loop_arg(const token_list *tl, range r, int argno, gen_arg *a) {
  const token *t = &tl->toks[r.begin];
  char what[64];
  snprintf(what, sizeof what, "op_par_loop argument %d", argno);
  if (t->kind != TOK_IDENT || r.end - r.begin < 3 || !is_punct(&tl->toks[r.begin + 1], '('))
    gen_error_at(tl->path, t->line,
                 "%s must be a call of op_arg_dat, op_arg_gbl, op_arg_idx or op_arg_info "
                 "written in the op_par_loop call itself",
                 what);
  int close = match_paren(tl, r.begin + 1);
  if (close != r.end - 1)
    gen_error_at(tl->path, t->line, "%s: unexpected tokens after the %s(...) call", what, t->text);
  range p[8];
  int np = split_args(tl, r.begin + 1, close, p, 8);
  memset(a, 0, sizeof *a);
  if (!strcmp(t->text, "op_arg_dat")) {
    if (np != 6)
      gen_error_at(tl->path, t->line,
                   "%s: op_arg_dat takes 6 arguments (dat, idx, map, dim, type, access), found %d",
                   what, np);
    a->kind = GEN_ARG_DAT;
    range_text(tl, p[0], a->dat_text, sizeof a->dat_text);
    a->indirect = !(single(p[2]) && !strcmp(tl->toks[p[2].begin].text, "OP_ID"));
    a->dim = literal_dim(tl, p[3]);
    read_type(tl, p[4], what, a->type, a->type_enum);
    read_access(tl, p[5], what, a->acc);
    if (!strcmp(a->acc, "OP_MIN") || !strcmp(a->acc, "OP_MAX"))
      gen_error_at(tl->path, t->line, "%s: %s is for globals (op_arg_gbl), not dats", what, a->acc);
  } else if (!strcmp(t->text, "op_arg_gbl")) {
    if (np != 4)
      gen_error_at(tl->path, t->line,
                   "%s: op_arg_gbl takes 4 arguments (data, dim, type, access), found %d", what, np);
    a->kind = GEN_ARG_GBL;
    a->dim = literal_dim(tl, p[1]);
    read_type(tl, p[2], what, a->type, a->type_enum);
    read_access(tl, p[3], what, a->acc);
    if (!strcmp(a->acc, "OP_WRITE") || !strcmp(a->acc, "OP_RW"))
      gen_error_at(tl->path, t->line,
                   "%s: a global can be read (OP_READ) or reduced (OP_INC, OP_MIN, OP_MAX) in a "
                   "parallel loop, not %s",
                   what, a->acc);
  } else if (!strcmp(t->text, "op_arg_idx")) {
    if (np != 2)
      gen_error_at(tl->path, t->line, "%s: op_arg_idx takes 2 arguments (idx, map), found %d",
                   what, np);
    a->kind = GEN_ARG_IDX;
    a->indirect = !(single(p[1]) && !strcmp(tl->toks[p[1].begin].text, "OP_ID"));
    a->dim = 1;
    strcpy(a->type, "int");
    strcpy(a->type_enum, "OP_TYPE_INT");
    strcpy(a->acc, "OP_READ");
  } else if (!strcmp(t->text, "op_arg_info")) {
    if (np != 4)
      gen_error_at(tl->path, t->line,
                   "%s: op_arg_info takes 4 arguments (data, dim, type, position of the MIN/MAX "
                   "global it goes with), found %d",
                   what, np);
    a->kind = GEN_ARG_INFO;
    a->dim = literal_dim(tl, p[1]);
    if (a->dim < 0)
      gen_error_at(tl->path, t->line, "%s: the dim of op_arg_info must be a literal integer", what);
    read_type(tl, p[2], what, a->type, a->type_enum);
    strcpy(a->acc, "OP_READ");
    char *end = NULL;
    const char *ref = tl->toks[p[3].begin].text;
    long v = single(p[3]) && tl->toks[p[3].begin].kind == TOK_NUMBER ? strtol(ref, &end, 10) : -1;
    if (v < 0 || !end || *end || v >= GEN_MAX_ARGS)
      gen_error_at(tl->path, t->line,
                   "%s: the last argument of op_arg_info must be a literal argument position "
                   "(0-based) of the loop's OP_MIN or OP_MAX global",
                   what);
    a->ref = (int)v;
  } else {
    gen_error_at(tl->path, t->line,
                 "%s must be op_arg_dat, op_arg_gbl, op_arg_idx or op_arg_info, not %s", what,
                 t->text);
  }
}

/* op_arg_info must name an OP_MIN/OP_MAX global of the same loop with its dim. */
static void check_info_args(const gen_loop *l) {
  for (int i = 0; i < l->nargs; i++) {
    const gen_arg *a = &l->args[i];
    if (a->kind != GEN_ARG_INFO) continue;
    const gen_arg *r = a->ref < l->nargs ? &l->args[a->ref] : NULL;
    if (!r || r->kind != GEN_ARG_GBL || (strcmp(r->acc, "OP_MIN") && strcmp(r->acc, "OP_MAX")))
      gen_error_at(l->file, l->line,
                   "op_par_loop argument %d: op_arg_info refers to argument %d, which is not an "
                   "op_arg_gbl with OP_MIN or OP_MAX",
                   i, a->ref);
    if (r->dim != a->dim)
      gen_error_at(l->file, l->line,
                   "op_par_loop argument %d: op_arg_info has dim %d but the global it goes with "
                   "(argument %d) has %s %d",
                   i, a->dim, a->ref, r->dim < 0 ? "no literal dim, not" : "dim", r->dim);
  }
}

static int same_signature(const gen_loop *a, const gen_loop *b) {
  if (a->nargs != b->nargs) return 0;
  for (int i = 0; i < a->nargs; i++) {
    const gen_arg *x = &a->args[i], *y = &b->args[i];
    if (x->kind != y->kind || x->indirect != y->indirect || strcmp(x->type, y->type) ||
        strcmp(x->acc, y->acc) || x->dim != y->dim || x->ref != y->ref)
      return 0;
  }
  return 1;
}

static void add_loop(gen_program *prog, const gen_loop *l) {
  for (int i = 0; i < prog->nloops; i++) {
    gen_loop *o = &prog->loops[i];
    if (strcmp(o->kernel, l->kernel) != 0) continue;
    if (!same_signature(o, l))
      gen_error_at(l->file, l->line,
                   "kernel %s is used here with arguments that differ (in number, kind, map, "
                   "type, access or dim) from its use at %s:%d; give each use its own kernel",
                   l->kernel, o->file, o->line);
    /* Pointer sharing relies on the dat expressions: keep only what agrees. */
    for (int a = 0; a < l->nargs; a++)
      if (strcmp(o->args[a].dat_text, l->args[a].dat_text) != 0) o->args[a].dat_text[0] = '\0';
    return;
  }
  if (prog->nloops == prog->cap_loops) {
    prog->cap_loops = prog->cap_loops ? 2 * prog->cap_loops : 16;
    prog->loops = realloc(prog->loops, sizeof(gen_loop) * (size_t)prog->cap_loops);
    if (!prog->loops) gen_error_at(l->file, l->line, "out of memory");
  }
  prog->loops[prog->nloops++] = *l;
}

static void parse_par_loop(const token_list *tl, int at, gen_program *prog) {
  int line = tl->toks[at].line;
  int close = match_paren(tl, at + 1);
  range r[GEN_MAX_ARGS + 3];
  int n = split_args(tl, at + 1, close, r, GEN_MAX_ARGS + 3);
  if (n < 4)
    gen_error_at(tl->path, line,
                 "op_par_loop needs a kernel, a name, a set and at least one argument");
  if (!single(r[0]) || tl->toks[r[0].begin].kind != TOK_IDENT)
    gen_error_at(tl->path, line, "the first argument of op_par_loop must be the kernel's name");
  gen_loop l;
  memset(&l, 0, sizeof l);
  snprintf(l.kernel, sizeof l.kernel, "%s", tl->toks[r[0].begin].text);
  snprintf(l.file, sizeof l.file, "%s", tl->path);
  l.line = line;
  l.nargs = n - 3;
  for (int i = 0; i < l.nargs; i++) parse_loop_arg(tl, r[i + 3], i, &l.args[i]);
  check_info_args(&l);
  add_loop(prog, &l);
}

static void parse_decl_const(const token_list *tl, int at, gen_program *prog) {
  int line = tl->toks[at].line;
  int close = match_paren(tl, at + 1);
  range r[4];
  int n = split_args(tl, at + 1, close, r, 4);
  if (n != 3)
    gen_error_at(tl->path, line, "op_decl_const takes 3 arguments (dim, type, variable), found %d",
                 n);
  gen_const c;
  memset(&c, 0, sizeof c);
  char type_enum[24];
  read_type(tl, r[1], "op_decl_const", c.type, type_enum);
  c.dim = literal_dim(tl, r[0]);
  if (c.dim < 0 && single(r[0]) && tl->toks[r[0].begin].kind == TOK_IDENT)
    snprintf(c.dim_macro, sizeof c.dim_macro, "%s", tl->toks[r[0].begin].text);
  const token *v = &tl->toks[r[2].begin];
  if (r[2].end - r[2].begin == 2 && is_punct(v, '&') && tl->toks[r[2].begin + 1].kind == TOK_IDENT) {
    c.scalar = 1;
    snprintf(c.name, sizeof c.name, "%s", tl->toks[r[2].begin + 1].text);
  } else if (single(r[2]) && v->kind == TOK_IDENT) {
    c.scalar = 0;
    snprintf(c.name, sizeof c.name, "%s", v->text);
  } else {
    gen_error_at(tl->path, line,
                 "op_decl_const: the variable must be written as &name (a scalar) or name (an "
                 "array) so that kernels can refer to it by name");
  }
  if (c.scalar && c.dim != 1)
    gen_error_at(tl->path, line, "op_decl_const: &%s is a scalar, so its dim must be the literal 1",
                 c.name);
  snprintf(c.file, sizeof c.file, "%s", tl->path);
  c.line = line;
  for (int i = 0; i < prog->nconsts; i++) {
    gen_const *o = &prog->consts[i];
    if (strcmp(o->name, c.name) != 0) continue;
    if (strcmp(o->type, c.type) || o->scalar != c.scalar || o->dim != c.dim)
      gen_error_at(tl->path, line, "constant %s is declared differently at %s:%d", c.name, o->file,
                   o->line);
    return; /* declared again (e.g. after a change of value) */
  }
  if (prog->nconsts == prog->cap_consts) {
    prog->cap_consts = prog->cap_consts ? 2 * prog->cap_consts : 16;
    prog->consts = realloc(prog->consts, sizeof(gen_const) * (size_t)prog->cap_consts);
    if (!prog->consts) gen_error_at(tl->path, line, "out of memory");
  }
  prog->consts[prog->nconsts++] = c;
}

void gen_parse(const token_list *tl, gen_program *prog) {
  for (int i = 0; i + 1 < tl->ntoks; i++) {
    const token *t = &tl->toks[i];
    if (t->kind != TOK_IDENT) continue;
    int call = is_punct(&tl->toks[i + 1], '(');
    if (!strcmp(t->text, "op_par_loop")) {
      if (!call) gen_error_at(tl->path, t->line, "op_par_loop used but not called");
      parse_par_loop(tl, i, prog);
    } else if (!strcmp(t->text, "op_decl_const") && call) {
      parse_decl_const(tl, i, prog);
    }
  }
}
