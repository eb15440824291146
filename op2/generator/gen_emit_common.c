/* gen_emit_common.c - pieces of loop code every backend writes the same way. */
#include <stdio.h>
#include <string.h>

#include "gen.h"

static const char *kind_enum(gen_arg_kind k) {
  switch (k) {
    case GEN_ARG_DAT: return "OP_ARG_DAT";
    case GEN_ARG_GBL: return "OP_ARG_GBL";
    case GEN_ARG_IDX: return "OP_ARG_IDX";
    case GEN_ARG_INFO: return "OP_ARG_INFO";
  }
  return "?";
}

void gen_emit_sig(FILE *f, const gen_loop *lp) {
  fprintf(f, "  static const op_arg_sig sig[%d] = {\n", lp->nargs);
  for (int a = 0; a < lp->nargs; a++) {
    const gen_arg *g = &lp->args[a];
    fprintf(f, "      {%s, %d, %s, %s, %d, %d},\n", kind_enum(g->kind), g->indirect, g->type_enum,
            g->acc, g->dim, g->kind == GEN_ARG_INFO ? g->ref : -1);
  }
  fprintf(f, "  };\n");
}

void gen_emit_reduce(FILE *f, const gen_loop *lp, int a, const char *indent, const char *part_fmt,
                     const char *nparts) {
  const gen_arg *g = &lp->args[a];
  char dim[32], part[64];
  if (g->dim > 0)
    snprintf(dim, sizeof dim, "%d", g->dim);
  else
    snprintf(dim, sizeof dim, "arg%d.dim", a);
  snprintf(part, sizeof part, part_fmt, a);
  int ninfo = 0;
  for (int i = 0; i < lp->nargs; i++)
    if (lp->args[i].kind == GEN_ARG_INFO && lp->args[i].ref == a) ninfo++;
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
    if (lp->args[i].kind == GEN_ARG_INFO && lp->args[i].ref == a)
      fprintf(f, "%s(char *)arg%d.data", k++ ? ", " : "", i);
  fprintf(f, "};\n%s  const char *info_part[%d] = {", indent, ninfo);
  for (int i = 0, k = 0; i < lp->nargs; i++)
    if (lp->args[i].kind == GEN_ARG_INFO && lp->args[i].ref == a) {
      snprintf(part, sizeof part, part_fmt, i);
      fprintf(f, "%s(const char *)%s", k++ ? ", " : "", part);
    }
  fprintf(f, "};\n%s  const int info_bytes[%d] = {", indent, ninfo);
  for (int i = 0, k = 0; i < lp->nargs; i++)
    if (lp->args[i].kind == GEN_ARG_INFO && lp->args[i].ref == a)
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

void gen_emit_const_branch_open(FILE *f, const gen_const *k) {
  const int exact = k->scalar || k->dim > 0;
  fprintf(f, "  if (!strcmp(name, \"%s\")) {\n", k->name);
  fprintf(f, "    if (bytes %s sizeof(%s)) {\n", exact ? "!=" : ">", k->name);
  fprintf(f,
          "      snprintf(err, errlen, \"%%zu bytes where the generated code holds %s%%zu\", bytes,\n"
          "               sizeof(%s));\n",
          exact ? "" : "at most ", k->name);
  fprintf(f, "      return 1;\n    }\n");
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
