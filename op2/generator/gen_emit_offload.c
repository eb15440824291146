/*
 * gen_emit_offload.c - loop code for the OpenMP target-offload backend
 * (op2/backends/offload, docs/offload.md). Every loop becomes one or more
 * `#pragma omp target teams distribute parallel for` regions (with `simd`
 * where the elements are independent and nothing is reduced) over device
 * copies that the backend keeps resident (is_device_ptr), one per strategy:
 *
 *   no indirect writes  parallel  one region over all elements, reductions
 *                                 by reduction(...) clauses
 *   indirect writes     atomic    one region, increments by `omp atomic`
 *                       colour    a region per colour of the plan's global
 *                                 colouring, over that colour's elements
 *                       mask      a region per colour over every element,
 *                                 skipping the other colours (a branch per
 *                                 element: Mattson et al.'s "branching" step)
 *   any loop            blocks    a region per block colour, a thread per
 *                                 plan block, its elements in order, per-block
 *                                 reduction partials combined on the host in
 *                                 block order: the CPU backends' order of
 *                                 operations, so the results are seq's bitwise
 *
 * Loops with multi-component dats get each region twice: dats AoS as on the
 * host (the kernel gets pointers into device memory), and a form whose
 * multi-component arguments go through registers with run-time strides, so
 * that dats may be SoA on the device (coalesced: Mattson et al.'s "memory access"
 * step, --op-offload-layout=soa).
 *
 * The kernel headers are compiled unchanged inside `omp declare target`;
 * op_decl_const constants are the file's own `declare target` copies, which
 * the backend updates through the function registered below.
 */
#include <stdio.h>
#include <string.h>

#include "gen.h"

typedef enum { S_PARALLEL, S_ATOMIC, S_COLOUR, S_MASK, S_BLOCKS } strategy;

typedef struct {
  const gen_loop *lp;
  int n;
  int ind_writes;  /* some dat written through a map */
  int atomic_ok;   /* those are increments only, literal dims, dats not otherwise touched */
  int blocks_only; /* op_arg_info, or a reduction of non-literal dim */
  int multi;       /* some dat argument has a literal dim above 1: an SoA form exists */
  int split;       /* seq's chunked form applies: literal dims for indirect dats and partials */
} loop_info;

static int is_gbl_read(const gen_arg *a) { return a->kind == GEN_ARG_GBL && gen_is_read(a); }
/* Goes through registers in the SoA form (and so may be SoA on the device). */
static int is_multi(const gen_arg *a) { return gen_is_dat(a) && a->dim > 1; }

static void analyse(const gen_loop *lp, loop_info *L) {
  memset(L, 0, sizeof *L);
  L->lp = lp;
  L->n = lp->nargs;
  L->split = 1;
  int inc_only = 1;
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    if (is_multi(a)) L->multi = 1;
    if (gen_is_info(a) || (gen_is_red(a) && a->dim <= 0)) L->blocks_only = 1;
    if ((gen_is_ind_dat(a) || gen_is_part(a)) && a->dim <= 0) L->split = 0;
    if (!gen_is_ind_dat(a) || gen_is_read(a)) continue;
    L->ind_writes = 1;
    if (!gen_is_inc(a) || a->dim <= 0) inc_only = 0;
    /* A dat incremented here and also read or written through a map (by its
     * source text, as the backend checks by identity at run time) cannot be
     * incremented atomically while others read it. */
    for (int k = 0; k < L->n; k++) {
      const gen_arg *b = &lp->args[k];
      if (k != i && gen_is_ind_dat(b) && !gen_is_inc(b) && a->dat_text[0] &&
          !strcmp(a->dat_text, b->dat_text))
        inc_only = 0;
    }
  }
  L->atomic_ok = L->ind_writes && inc_only;
}

/* The dim of argument i: its literal, or the local holding the run-time value. */
static const char *dim_of(const gen_arg *a, int i) { return gen_dim(a, i, "dim%d"); }

/* Index of component `comp` of element `elem` of argument i's device copy. */
static const char *at(const gen_arg *a, int i, const char *elem, const char *comp, int soa) {
  static char buf[4][160];
  static int k;
  k = (k + 1) % 4;
  if (soa && is_multi(a))
    snprintf(buf[k], sizeof buf[k], "(size_t)(%s) * (size_t)es%d + (size_t)(%s) * (size_t)cs%d",
             elem, i, comp, i);
  else
    snprintf(buf[k], sizeof buf[k], "(size_t)(%s) * (size_t)(%s) + (size_t)(%s)", elem,
             dim_of(a, i), comp);
  return buf[k];
}

/* The element whose data argument i touches: n, or its map entry. */
static const char *elem_of(const gen_arg *a, int i) {
  static char buf[4][16];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], a->indirect ? "j%d" : "n", i);
  return buf[k];
}

/* ---- one element ---------------------------------------------------------------------- */

/* Increments through a map go to zeroed registers, added afterwards (atomically
 * or not): with literal dims, always; else (colour, mask, blocks) straight
 * into the data, as seq does then. */
static int inc_in_registers(const loop_info *L, const gen_arg *a, strategy s) {
  if (!gen_is_ind_dat(a) || !gen_is_inc(a) || a->dim <= 0) return 0;
  return s != S_BLOCKS || L->split;
}

/* Reductions in blocks go to per-element temporaries as in seq's chunked form. */
static int part_in_temps(const loop_info *L, const gen_arg *a, strategy s) {
  return s == S_BLOCKS && L->split && gen_is_part(a);
}

static void emit_element(FILE *f, const loop_info *L, strategy s, int soa, int ind) {
  const gen_loop *lp = L->lp;
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    if (gen_is_mapped(a))
      gen_out(f, ind, "const int j%d = m%d[(size_t)n * (size_t)mdim%d + (size_t)midx%d];\n", i, i,
              i, i);
    if (a->kind == GEN_ARG_IDX)
      gen_out(f, ind, "int i%d = %s; /* not const: OP2 kernels may take int * */\n", i,
              elem_of(a, i));
  }
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    const char *D = dim_of(a, i);
    if (inc_in_registers(L, a, s)) {
      gen_out(f, ind, "%s t%d[%s];\n", a->type, i, D);
      gen_out(f, ind, "for (int d = 0; d < %s; d++) t%d[d] = (%s)0;\n", D, i, a->type);
    } else if (gen_is_dat(a) && soa && is_multi(a)) {
      /* Gathered whatever the access: a kernel need not write every component. */
      gen_out(f, ind, "%s l%d[%s];\n", a->type, i, D);
      gen_out(f, ind, "for (int d = 0; d < %s; d++) l%d[d] = d%d[%s];\n", D, i, i,
              at(a, i, elem_of(a, i), "d", soa));
    } else if (part_in_temps(L, a, s)) {
      gen_out(f, ind, "%s u%d[%s];\n", a->type, i, D);
      if (gen_is_inc(a))
        gen_out(f, ind, "for (int d = 0; d < %s; d++) u%d[d] = (%s)0;\n", D, i, a->type);
      else
        gen_out(f, ind, "for (int d = 0; d < %s; d++) u%d[d] = r%d[d];\n", D, i, i);
    }
  }
  gen_out(f, ind, "%s(", lp->kernel);
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    char buf[256];
    if (a->kind == GEN_ARG_IDX)
      snprintf(buf, sizeof buf, "&i%d", i);
    else if (is_gbl_read(a))
      snprintf(buf, sizeof buf, "g%d", i);
    else if (gen_is_part(a))
      snprintf(buf, sizeof buf, part_in_temps(L, a, s) ? "u%d" : "r%d", i);
    else if (inc_in_registers(L, a, s))
      snprintf(buf, sizeof buf, "t%d", i);
    else if (soa && is_multi(a))
      snprintf(buf, sizeof buf, "l%d", i);
    else
      snprintf(buf, sizeof buf, "d%d + %s", i, at(a, i, elem_of(a, i), "0", 0));
    fprintf(f, "%s\n%*s%s", i ? "," : "", ind + 4, "", buf);
  }
  fprintf(f, ");\n");
  /* Afterwards, in argument order as seq applies them. */
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    const char *D = dim_of(a, i);
    if (inc_in_registers(L, a, s)) {
      gen_out(f, ind, "for (int d = 0; d < %s; d++) {\n", D);
      if (s == S_ATOMIC) gen_out(f, ind + 2, "#pragma omp atomic update\n");
      gen_out(f, ind + 2, "d%d[%s] += t%d[d];\n", i, at(a, i, elem_of(a, i), "d", soa), i);
      gen_out(f, ind, "}\n");
    } else if (gen_is_dat(a) && soa && is_multi(a) && !gen_is_read(a)) {
      gen_out(f, ind, "for (int d = 0; d < %s; d++) d%d[%s] = l%d[d];\n", D, i,
              at(a, i, elem_of(a, i), "d", soa), i);
    } else if (part_in_temps(L, a, s) && gen_is_red(a)) {
      if (gen_is_inc(a)) {
        gen_out(f, ind, "for (int d = 0; d < %s; d++) r%d[d] += u%d[d];\n", D, i, i);
        continue;
      }
      /* The element wins only when strictly better, and takes the op_arg_info
       * values that travel with it along. */
      gen_out(f, ind, "for (int d = 0; d < %s; d++)\n", D);
      gen_out(f, ind + 2, "if (u%d[d] %s r%d[d]) {\n", i, gen_beats(a), i);
      gen_out(f, ind + 4, "r%d[d] = u%d[d];\n", i, i);
      for (int k = 0; k < L->n; k++)
        if (gen_is_info_of(lp, k, i)) gen_out(f, ind + 4, "r%d[d] = u%d[d];\n", k, k);
      gen_out(f, ind + 2, "}\n");
    }
  }
}

/* ---- regions ------------------------------------------------------------------------------ */

/* The operator of reduction a's reduction clause. */
static const char *reduction_op(const gen_arg *a) {
  return gen_is_inc(a) ? "+" : !strcmp(a->acc, "OP_MIN") ? "min" : "max";
}

/* Whether a region's elements may also be run as SIMD lanes: every element
 * independent of the others in the region (parallel: no indirect writes;
 * colour and mask: one colour's elements share no datum written), no `omp
 * atomic` (atomic) and no reduction (its lanes would sum in another order,
 * and the results are to stay the same bits). Blocks run a block's elements
 * in order by design. */
static int region_simd(const loop_info *L, strategy s) {
  if (s != S_PARALLEL && s != S_COLOUR && s != S_MASK) return 0;
  for (int i = 0; i < L->n; i++)
    if (gen_is_part(&L->lp->args[i])) return 0;
  return 1;
}

/* `#pragma omp target teams distribute parallel for [simd]` with its clauses:
 * the device, the device copies (is_device_ptr), the globals read (mapped per
 * region: they are small), and the reductions of the non-blocks strategies. */
static void emit_pragma(FILE *f, const loop_info *L, strategy s, int host) {
  const gen_loop *lp = L->lp;
  if (host) {
    /* The same loop as an ordinary parallel loop, for the host. */
    fprintf(f, "#pragma omp parallel for");
    for (int i = 0; i < L->n; i++) {
      const gen_arg *a = &lp->args[i];
      if (s != S_BLOCKS && gen_is_red(a))
        fprintf(f, " reduction(%s: r%d[0:%s])", reduction_op(a), i, dim_of(a, i));
    }
    fprintf(f, "\n");
    return;
  }
  char list[4096] = "";
  size_t used = 0;
#define ADD(...) used += (size_t)snprintf(list + used, sizeof list - used, __VA_ARGS__)
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    if (gen_is_dat(a)) ADD("%sd%d", used ? ", " : "", i);
    if (gen_is_mapped(a)) ADD("%sm%d", used ? ", " : "", i);
    if (s == S_BLOCKS && gen_is_part(a)) ADD("%sp%d", used ? ", " : "", i);
  }
  if (s == S_COLOUR) ADD("%sgcol", used ? ", " : "");
  if (s == S_MASK) ADD("%secol", used ? ", " : "");
  if (s == S_BLOCKS) ADD("%sblkmap, boff, bnel", used ? ", " : "");
#undef ADD
  /* num_teams and thread_limit from the options; 0 is the runtime's own
   * choice, as without the clauses (GCC's libgomp reads a count of at most 0
   * as its default, on the host and in its nvptx plugin: docs/offload.md). */
  fprintf(f,
          "#pragma omp target teams distribute parallel for%s device(dev) num_teams(C.teams) "
          "thread_limit(C.thread_limit)",
          region_simd(L, s) ? " simd" : "");
  if (used) fprintf(f, " is_device_ptr(%s)", list);
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    const char *D = dim_of(a, i);
    if (is_gbl_read(a) || (s == S_BLOCKS && gen_is_part(a) && !gen_is_inc(a)))
      fprintf(f, " map(to: g%d[0:%s])", i, D);
    if (s != S_BLOCKS && gen_is_red(a))
      fprintf(f, " map(tofrom: r%d[0:%s]) reduction(%s: r%d[0:%s])", i, D, reduction_op(a), i, D);
  }
  fprintf(f, "\n");
}

/* A region over elements: all of them (parallel, atomic), one colour's list
 * (colour), or all of them skipping other colours (mask). */
static void emit_element_region(FILE *f, const loop_info *L, strategy s, int soa, int host,
                                int ind) {
  if (s == S_COLOUR || s == S_MASK) {
    gen_out(f, ind, "for (int col = 0; col < C.plan->gcolors; col++) {\n");
    if (s == S_COLOUR) {
      gen_out(f, ind + 2, "const int cstart = C.plan->gcol_offset[col];\n");
      gen_out(f, ind + 2, "const int ccount = C.plan->gcol_offset[col + 1] - cstart;\n");
      gen_out(f, ind + 2, "if (ccount == 0) continue;\n");
    }
    ind += 2;
  } else {
    gen_out(f, ind, "if (size > 0) {\n");
    ind += 2;
  }
  emit_pragma(f, L, s, host);
  if (s == S_COLOUR) {
    gen_out(f, ind, "for (int k = 0; k < ccount; k++) {\n");
    gen_out(f, ind + 2, "const int n = gcol[cstart + k];\n");
  } else {
    gen_out(f, ind, "for (int n = 0; n < size; n++) {\n");
    if (s == S_MASK) gen_out(f, ind + 2, "if (ecol[n] != col) continue;\n");
  }
  emit_element(f, L, s, soa, ind + 2);
  gen_out(f, ind, "}\n");
  gen_out(f, ind - 2, "}\n");
}

/* Blocks: a thread per plan block, in block colours; per-block partials. */
static void emit_blocks_region(FILE *f, const loop_info *L, int soa, int host, int ind) {
  const gen_loop *lp = L->lp;
  gen_out(f, ind, "for (int col = 0; col < C.plan->ncolors; col++) {\n");
  gen_out(f, ind + 2,
          "const int first = C.plan->colblk_offset[col], count = C.plan->ncolblk[col];\n");
  gen_out(f, ind + 2, "if (count == 0) continue;\n");
  emit_pragma(f, L, S_BLOCKS, host);
  gen_out(f, ind + 2, "for (int jb = 0; jb < count; jb++) {\n");
  gen_out(f, ind + 4, "const int blk = blkmap[first + jb];\n");
  gen_out(f, ind + 4, "const int start = boff[blk], end = start + bnel[blk];\n");
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    if (!gen_is_part(a)) continue;
    const char *D = dim_of(a, i);
    gen_out(f, ind + 4, "%s r%d[%s];\n", a->type, i, a->dim > 0 ? D : "OP_MAX_GBL_DIM");
    if (gen_is_inc(a))
      gen_out(f, ind + 4, "for (int d = 0; d < %s; d++) r%d[d] = (%s)0;\n", D, i, a->type);
    else
      gen_out(f, ind + 4, "for (int d = 0; d < %s; d++) r%d[d] = g%d[d];\n", D, i, i);
  }
  gen_out(f, ind + 4, "for (int n = start; n < end; n++) {\n");
  emit_element(f, L, S_BLOCKS, soa, ind + 6);
  gen_out(f, ind + 4, "}\n");
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    if (!gen_is_part(a)) continue;
    const char *D = dim_of(a, i);
    gen_out(f, ind + 4,
            "for (int d = 0; d < %s; d++) p%d[(size_t)blk * (size_t)(%s) + (size_t)d] = r%d[d];\n",
            D, i, D, i);
  }
  gen_out(f, ind + 2, "}\n");
  gen_out(f, ind, "}\n");
}

/* The reductions of the non-blocks strategies: local arrays reduced by the
 * regions' clauses, starting from 0 (INC) or the global's value (MIN, MAX). */
static void emit_red_begin(FILE *f, const loop_info *L, int ind) {
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &L->lp->args[i];
    if (!gen_is_red(a)) continue;
    gen_out(f, ind, "%s r%d[%d];\n", a->type, i, a->dim);
    if (gen_is_inc(a))
      gen_out(f, ind, "for (int d = 0; d < %d; d++) r%d[d] = (%s)0;\n", a->dim, i, a->type);
    else
      gen_out(f, ind, "for (int d = 0; d < %d; d++) r%d[d] = ((const %s *)arg%d.data)[d];\n",
              a->dim, i, a->type, i);
  }
}

static void emit_red_end(FILE *f, const loop_info *L, int ind) {
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &L->lp->args[i];
    if (!gen_is_red(a)) continue;
    gen_out(f, ind, "for (int d = 0; d < %d; d++) ((%s *)arg%d.data)[d] %s r%d[d];\n", a->dim,
            a->type, i, gen_is_inc(a) ? "+=" : "=", i);
  }
}

static void emit_case(FILE *f, const loop_info *L, strategy s, int soa, int host, int ind) {
  gen_out(f, ind, "{\n");
  if (s == S_BLOCKS) {
    emit_blocks_region(f, L, soa, host, ind + 2);
    gen_out(f, ind + 2, "op_offload_loop_partials(&C);\n");
    char in[64];
    snprintf(in, sizeof in, "%*s", ind + 2, "");
    /* The owned blocks only, as the CPU backends combine them (the plan's
     * execute-halo blocks come last; the offload backend has no MPI
     * executable, so there are none yet). */
    for (int i = 0; i < L->n; i++)
      if (gen_is_red(&L->lp->args[i]))
        gen_emit_reduce(f, L->lp, i, in, "C.part_h[%d]", "C.plan->nblocks_owned");
  } else {
    emit_red_begin(f, L, ind + 2);
    emit_element_region(f, L, s, soa, host, ind + 2);
    emit_red_end(f, L, ind + 2);
  }
  gen_out(f, ind + 2, "break;\n");
  gen_out(f, ind, "}\n");
}

/* Every strategy the loop can run, switched on the backend's choice. */
static void emit_strategies(FILE *f, const loop_info *L, int soa, int host, int ind) {
  gen_out(f, ind, "switch (C.strategy) {\n");
  if (L->blocks_only) {
    gen_out(f, ind + 2,
            "default: /* OP_OFFLOAD_BLOCKS: op_arg_info or a reduction of run-time dim */\n");
    emit_case(f, L, S_BLOCKS, soa, host, ind + 4);
  } else {
    gen_out(f, ind + 2, "case OP_OFFLOAD_BLOCKS:\n");
    emit_case(f, L, S_BLOCKS, soa, host, ind + 4);
    if (L->ind_writes) {
      if (L->atomic_ok) {
        gen_out(f, ind + 2, "case OP_OFFLOAD_ATOMIC:\n");
        emit_case(f, L, S_ATOMIC, soa, host, ind + 4);
      }
      gen_out(f, ind + 2, "case OP_OFFLOAD_MASK:\n");
      emit_case(f, L, S_MASK, soa, host, ind + 4);
      gen_out(f, ind + 2, "default: /* OP_OFFLOAD_COLOUR */\n");
      emit_case(f, L, S_COLOUR, soa, host, ind + 4);
    } else {
      gen_out(f, ind + 2, "default: /* OP_OFFLOAD_PARALLEL */\n");
      emit_case(f, L, S_PARALLEL, soa, host, ind + 4);
    }
  }
  gen_out(f, ind, "}\n");
}

/* ---- the loop function ---------------------------------------------------------------------- */

static void emit_loop(FILE *f, const gen_loop *lp) {
  loop_info L;
  analyse(lp, &L);
  const int n = L.n;
  fprintf(f, "\n/* %s, from %s:%d */\n", lp->kernel, lp->file, lp->line);
  gen_emit_loop_open(f, lp, "");
  gen_out(f, 2, "static const op_offload_loop_desc desc = {\"%s\", \"%s:%d\", %d, %d, %d, %d};\n",
          lp->kernel, lp->file, lp->line, n, L.ind_writes, L.atomic_ok, L.blocks_only);
  gen_out(f, 2, "op_offload_loop C;\n");
  gen_out(f, 2, "op_offload_loop_begin(&C, &desc, name, set, %d, args, sig);\n", n);
  gen_out(f, 2, "const int dev = C.device, size = set->size;\n");
  gen_out(f, 2, "(void)size;\n");
  for (int i = 0; i < n; i++) {
    const gen_arg *a = &lp->args[i];
    if (a->kind != GEN_ARG_IDX && a->dim <= 0)
      gen_out(f, 2, "const int dim%d = arg%d.dim;\n", i, i);
    if (gen_is_dat(a)) gen_out(f, 2, "%s *d%d = (%s *)C.dat[%d];\n", a->type, i, a->type, i);
    if (is_multi(a))
      gen_out(f, 2, "const int es%d = C.es[%d], cs%d = C.cs[%d]; /* SoA form only */\n", i, i, i,
              i);
    if (is_multi(a)) gen_out(f, 2, "(void)es%d, (void)cs%d;\n", i, i);
    if (gen_is_mapped(a))
      gen_out(f, 2, "const int *m%d = C.map[%d], mdim%d = arg%d.map->dim, midx%d = arg%d.idx;\n", i,
              i, i, i, i, i);
    if (is_gbl_read(a) || (gen_is_part(a) && !gen_is_inc(a)))
      gen_out(f, 2, "%s *g%d = (%s *)arg%d.data;\n", a->type, i, a->type, i);
    if (gen_is_part(a)) gen_out(f, 2, "%s *p%d = (%s *)C.part_d[%d];\n", a->type, i, a->type, i);
  }
  gen_out(f, 2, "const int *blkmap = C.blkmap, *boff = C.offset, *bnel = C.nelems;\n");
  if (L.ind_writes && !L.blocks_only)
    gen_out(f, 2, "const int *gcol = C.gcol_elems, *ecol = C.elem_colour;\n");
  /* On the host, ordinary parallel loops: the host fallback of a target
   * region starts and ends its threads at every region (docs/offload.md). */
  for (int soa = L.multi; soa >= 0; soa--) {
    if (L.multi) gen_out(f, 2, soa ? "if (C.soa) {\n" : "} else {\n");
    gen_out(f, 2 + 2 * L.multi, "if (C.host) {\n");
    emit_strategies(f, &L, soa, 1, 4 + 2 * L.multi);
    gen_out(f, 2 + 2 * L.multi, "} else {\n");
    emit_strategies(f, &L, soa, 0, 4 + 2 * L.multi);
    gen_out(f, 2 + 2 * L.multi, "}\n");
  }
  if (L.multi) gen_out(f, 2, "}\n");
  gen_out(f, 2, "op_offload_loop_end(&C);\n");
  fprintf(f, "}\n");
}

/* ---- constants and registration -------------------------------------------------------------- */

static void emit_consts(FILE *f, const gen_program *prog) {
  fprintf(f, "\n/* Constants read by the kernels (op_decl_const): this file's own copies, on\n"
             " * the host and on the device, updated by op_offload_const_update below. */\n");
  fprintf(f, "#pragma omp declare target\n");
  for (int c = 0; c < prog->nconsts; c++)
    gen_emit_const_copy(f, &prog->consts[c], "", "", "OP_OFFLOAD_MAX_CONST_DIM");
  fprintf(f, "#pragma omp end declare target\n");
}

static void emit_registration(FILE *f, const gen_program *prog, const char *app) {
  fprintf(f,
          "\n/* Called by the backend from op_decl_const: the host copy, then the device's. */\n"
          "static int op_offload_const_update_%s(int dev, const char *name, const void *data,\n"
          "                                      size_t bytes, char *err, size_t errlen) {\n"
          "  (void)dev;\n",
          app);
  for (int c = 0; c < prog->nconsts; c++) {
    const gen_const *k = &prog->consts[c];
    const int exact = k->scalar || k->dim > 0;
    gen_emit_const_branch_open(f, k, "");
    fprintf(f, "    memcpy(%s%s, data, bytes);\n", k->scalar ? "&" : "", k->name);
    if (exact)
      fprintf(f, "#pragma omp target update to(%s) device(dev)\n", k->name);
    else
      fprintf(f, "#pragma omp target update to(%s[0:OP_OFFLOAD_MAX_CONST_DIM]) device(dev)\n",
              k->name);
    fprintf(f, "    return 0;\n  }\n");
  }
  gen_emit_const_unknown(f, "offload", app);
  fprintf(f,
          "\n/* Whether a region on device `dev` runs there, or on the host for want of code\n"
          " * for that device in this executable. */\n"
          "static int op_offload_probe_%s(int dev) {\n"
          "  int on_host = 1;\n"
          "#pragma omp target device(dev) map(from: on_host)\n"
          "  on_host = omp_is_initial_device();\n"
          "  return on_host;\n}\n",
          app);
  fprintf(f,
          "\n/* Registration before main: the backend library is built before this file. */\n"
          "__attribute__((constructor)) static void op_offload_register_%s(void) {\n"
          "  op_offload_register_app(op_offload_const_update_%s, op_offload_probe_%s);\n}\n",
          app, app, app);
}

void gen_emit_offload(FILE *f, const gen_program *prog, const char *app) {
  fprintf(f, "/* Generated by op2-gen for %s, OpenMP offload backend. Do not edit: rebuild instead. */\n",
          app);
  gen_emit_libc_includes(f);
  fprintf(f,
          "#include <omp.h>\n#include \"op_lib_core.h\"\n#include \"op2_loop.h\"\n"
          "#include \"op_offload.h\"\n");
  fprintf(f, "\n/* The system headers the kernel headers include, outside `declare target`. */\n");
  gen_emit_system_includes(f, prog);
  emit_consts(f, prog);
  fprintf(f,
          "\n/* The user kernels, compiled unchanged for the host and the device. */\n"
          "#ifndef OP_FUN_PREFIX\n#define OP_FUN_PREFIX\n#endif\n"
          "#pragma omp declare target\n");
  if (prog->user_types) fprintf(f, "#include \"user_types.h\"\n");
  for (int l = 0; l < prog->nloops; l++) fprintf(f, "#include \"%s\"\n", prog->loops[l].header);
  fprintf(f, "#pragma omp end declare target\n");
  for (int l = 0; l < prog->nloops; l++) emit_loop(f, &prog->loops[l]);
  emit_registration(f, prog, app);
}
