/* gen_emit_common.c - pieces of loop code every backend writes the same way,
 * and what the emitters ask of an argument (gen.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gen.h"

void gen_out(FILE *f, int indent, const char *fmt, ...) {
  fprintf(f, "%*s", indent, "");
  va_list ap;
  va_start(ap, fmt);
  vfprintf(f, fmt, ap);
  va_end(ap);
}

int gen_is_dat(const gen_arg *a) { return a->kind == GEN_ARG_DAT; }
int gen_is_ind_dat(const gen_arg *a) { return a->kind == GEN_ARG_DAT && a->indirect; }
int gen_is_mapped(const gen_arg *a) {
  return (a->kind == GEN_ARG_DAT || a->kind == GEN_ARG_IDX) && a->indirect;
}
int gen_is_read(const gen_arg *a) { return !strcmp(a->acc, "OP_READ"); }
int gen_is_inc(const gen_arg *a) { return !strcmp(a->acc, "OP_INC"); }
int gen_is_write(const gen_arg *a) { return !strcmp(a->acc, "OP_WRITE"); }
int gen_is_red(const gen_arg *a) { return a->kind == GEN_ARG_GBL && !gen_is_read(a); }
int gen_is_info(const gen_arg *a) { return a->kind == GEN_ARG_INFO; }
int gen_is_part(const gen_arg *a) { return gen_is_red(a) || gen_is_info(a); }
const char *gen_beats(const gen_arg *a) { return !strcmp(a->acc, "OP_MIN") ? "<" : ">"; }
int gen_is_info_of(const gen_loop *lp, int i, int red) {
  return gen_is_info(&lp->args[i]) && lp->args[i].ref == red;
}

const char *gen_dim(const gen_arg *a, int i, const char *runtime_fmt) {
  static char buf[16][32];
  static int k;
  k = (k + 1) % 16;
  if (a->dim > 0)
    snprintf(buf[k], sizeof buf[k], "%d", a->dim);
  else
    snprintf(buf[k], sizeof buf[k], runtime_fmt, i);
  return buf[k];
}

static const char *kind_enum(gen_arg_kind k) {
  switch (k) {
    case GEN_ARG_DAT: return "OP_ARG_DAT";
    case GEN_ARG_GBL: return "OP_ARG_GBL";
    case GEN_ARG_IDX: return "OP_ARG_IDX";
    case GEN_ARG_INFO: return "OP_ARG_INFO";
  }
  return "?";
}

/* `static const op_arg_sig sig[n] = {...};`: what the code was generated for. */
static void emit_sig(FILE *f, const gen_loop *lp) {
  fprintf(f, "  static const op_arg_sig sig[%d] = {\n", lp->nargs);
  for (int a = 0; a < lp->nargs; a++) {
    const gen_arg *g = &lp->args[a];
    fprintf(f, "      {%s, %d, %s, %s, %d, %d},\n", kind_enum(g->kind), g->indirect, g->type_enum,
            g->acc, g->dim, gen_is_info(g) ? g->ref : -1);
  }
  fprintf(f, "  };\n");
}

void gen_emit_loop_decl(FILE *f, const gen_loop *lp) {
  fprintf(f, "void op_par_loop_%s(const char *name, op_set set", lp->kernel);
  for (int a = 0; a < lp->nargs; a++) fprintf(f, ", op_arg arg%d", a);
  fprintf(f, ")");
}

void gen_emit_loop_open(FILE *f, const gen_loop *lp, const char *linkage) {
  fprintf(f, "%s", linkage);
  gen_emit_loop_decl(f, lp);
  fprintf(f, " {\n");
  fprintf(f, "  const op_arg args[%d] = {", lp->nargs);
  for (int a = 0; a < lp->nargs; a++) fprintf(f, "%sarg%d", a ? ", " : "", a);
  fprintf(f, "};\n");
  emit_sig(f, lp);
}

void gen_emit_reduce(FILE *f, const gen_loop *lp, int a, const char *indent, const char *part_fmt,
                     const char *nparts) {
  const gen_arg *g = &lp->args[a];
  const char *dim = gen_dim(g, a, "arg%d.dim");
  char part[64];
  snprintf(part, sizeof part, part_fmt, a);
  int ninfo = 0;
  for (int i = 0; i < lp->nargs; i++)
    if (gen_is_info_of(lp, i, a)) ninfo++;
  if (!ninfo) {
    fprintf(f, "%sop_reduce_blocks_%s(%s, (%s *)arg%d.data, (const %s *)%s, %s, %s);\n", indent,
            g->type, g->acc, g->type, a, g->type, part, nparts, dim);
    return;
  }
  /* The op_arg_info arguments that travel with this one: their variables,
   * partials and element sizes, in argument order. */
  fprintf(f, "%s{\n", indent);
  fprintf(f, "%s  char *info[%d] = {", indent, ninfo);
  for (int i = 0, k = 0; i < lp->nargs; i++)
    if (gen_is_info_of(lp, i, a)) fprintf(f, "%s(char *)arg%d.data", k++ ? ", " : "", i);
  fprintf(f, "};\n%s  const char *info_part[%d] = {", indent, ninfo);
  for (int i = 0, k = 0; i < lp->nargs; i++)
    if (gen_is_info_of(lp, i, a)) {
      snprintf(part, sizeof part, part_fmt, i);
      fprintf(f, "%s(const char *)%s", k++ ? ", " : "", part);
    }
  fprintf(f, "};\n%s  const int info_bytes[%d] = {", indent, ninfo);
  for (int i = 0, k = 0; i < lp->nargs; i++)
    if (gen_is_info_of(lp, i, a))
      fprintf(f, "%s(int)sizeof(%s)", k++ ? ", " : "", lp->args[i].type);
  snprintf(part, sizeof part, part_fmt, a);
  fprintf(f, "};\n");
  fprintf(f,
          "%s  op_reduce_blocks_info_%s(%s, (%s *)arg%d.data, (const %s *)%s, %s, %s, %d, info, "
          "info_part, info_bytes);\n",
          indent, g->type, g->acc, g->type, a, g->type, part, nparts, dim, ninfo);
  fprintf(f, "%s}\n", indent);
}

void gen_emit_halo_wait(FILE *f, const char *indent, const char *col_var) {
  fprintf(f, "%sif (%s == plan->ncolors_core) op_loop_wait(&L);\n", indent, col_var);
}

void gen_emit_const_branch_open(FILE *f, const gen_const *k, const char *prefix) {
  const int exact = k->scalar || k->dim > 0;
  fprintf(f, "  if (!strcmp(name, \"%s\")) {\n", k->name);
  fprintf(f, "    if (bytes %s sizeof(%s%s)) {\n", exact ? "!=" : ">", prefix, k->name);
  fprintf(
      f,
      "      snprintf(err, errlen, \"%%zu bytes where the generated code holds %s%%zu\", bytes,\n"
      "               sizeof(%s%s));\n",
      exact ? "" : "at most ", prefix, k->name);
  fprintf(f, "      return 1;\n    }\n");
}

void gen_emit_const_copy(FILE *f, const gen_const *k, const char *space, const char *prefix,
                         const char *max_dim) {
  if (k->scalar)
    fprintf(f, "static %s%s %s%s;\n", space, k->type, prefix, k->name);
  else if (k->dim > 0)
    fprintf(f, "static %s%s %s%s[%d];\n", space, k->type, prefix, k->name, k->dim);
  else
    fprintf(f, "static %s%s %s%s[%s]; /* dim not a literal */\n", space, k->type, prefix, k->name,
            max_dim);
}

void gen_emit_libc_includes(FILE *f) {
  fprintf(f,
          "#include <float.h>\n#include <limits.h>\n#include <math.h>\n#include <stddef.h>\n"
          "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n");
}

void gen_emit_const_unknown(FILE *f, const char *backend_name, const char *app) {
  fprintf(f,
          "  snprintf(err, errlen, \"constant %%s is unknown to the %s code generated for %s \"\n"
          "           \"(op2-gen found no op_decl_const for it in the sources)\", name);\n"
          "  return 1;\n}\n",
          backend_name, app);
}

const char *gen_idx_text(int a, int indirect, const char *at) {
  static char buf[256];
  if (indirect)
    snprintf(buf, sizeof buf, "op_global_index(arg%d.map->to, %s)", a, at);
  else
    snprintf(buf, sizeof buf, "op_global_index(set, %s)", at);
  return buf;
}
