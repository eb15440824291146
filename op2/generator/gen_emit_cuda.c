/*
 * gen_emit_cuda.c - loop code for the CUDA backend (op2/backends/cuda,
 * docs/cuda.md). For every loop the generated .cu holds a parameter struct,
 * the device kernels of the strategies the loop can use, and the host stub
 * op_par_loop_<kernel> that asks the backend for a configuration and launches:
 *
 *   direct loops    plain      one thread per element, grid-stride
 *                   coalesced  AoS dats staged through per-warp shared memory
 *                              (Giles, OP2 Developers Guide, 2011, section 4.1)
 *   indirect loops  staged     plan blocks with their indirect data in shared
 *                              memory, block colours across launches, thread
 *                              colours inside a block (Developers Guide, sections 2-5)
 *                   atomic     one thread per element, atomicAdd increments
 *                   colour     one launch per colour of a one-level colouring
 *
 * Reductions: per-thread partials, a block tree reduction, one partial per
 * CUDA block, combined on the host in block order (Giles, OP2 Developers Guide, 2011, section 6).
 * Constants live in constant memory; the file registers an updater that the
 * backend calls from op_decl_const.
 */
#include <stdio.h>
#include <string.h>

#include "gen.h"

/* Direct dats with a literal dim in this range go through shared memory in the
 * coalesced kernel; larger ones would need too much of it for too little gain. */
#define COALESCE_MAX_DIM 16

typedef enum { MODE_READ, MODE_INC, MODE_RW } group_mode;

typedef struct {
  const gen_loop *lp;
  int n;
  int indirect;          /* some dat through a map */
  int gind[GEN_MAX_ARGS];/* group of each indirect dat argument, else -1 */
  int ngroups;
  int group_arg[GEN_MAX_ARGS]; /* first argument of each group */
  group_mode mode[GEN_MAX_ARGS];
  int serial;            /* some group is written other than by increments */
  int has_staged, has_atomic, has_coalesced;
  int nred;              /* reductions */
} loop_info;

static int is_dir_dat(const gen_arg *a) { return a->kind == GEN_ARG_DAT && !a->indirect; }
static int coalesce_arg(const gen_arg *a) {
  return is_dir_dat(a) && a->dim >= 2 && a->dim <= COALESCE_MAX_DIM;
}

static void analyse(const gen_loop *lp, loop_info *L) {
  memset(L, 0, sizeof *L);
  L->lp = lp;
  L->n = lp->nargs;
  int inc_literal = 1;
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    L->gind[i] = -1;
    if (gen_is_part(a)) L->nred++;
    if (coalesce_arg(a)) L->has_coalesced = 1;
    if (!gen_is_ind_dat(a)) continue;
    L->indirect = 1;
    if (gen_is_inc(a) && a->dim < 0) inc_literal = 0;
    /* Group by the dat's source text, as the plan groups by dat; the backend
     * checks at run time that the two agree before it runs the staged kernel. */
    int g;
    for (g = 0; g < L->ngroups; g++) {
      const gen_arg *b = &lp->args[L->group_arg[g]];
      if (a->dat_text[0] && !strcmp(a->dat_text, b->dat_text)) break;
    }
    if (g == L->ngroups) {
      L->group_arg[g] = i;
      L->mode[g] = gen_is_read(a) ? MODE_READ : gen_is_inc(a) ? MODE_INC : MODE_RW;
      L->ngroups++;
    } else {
      group_mode m = gen_is_read(a) ? MODE_READ : gen_is_inc(a) ? MODE_INC : MODE_RW;
      if (m != L->mode[g]) L->mode[g] = MODE_RW;
    }
    L->gind[i] = g;
  }
  for (int g = 0; g < L->ngroups; g++)
    if (L->mode[g] == MODE_RW) L->serial = 1;
  if (L->indirect) {
    L->has_coalesced = 0;
    L->has_staged = inc_literal;
    /* For a loop that writes through a map other than by increments, the
     * atomic kernel writes in place: the backend runs it only where no two
     * elements write one datum (op_args_conflict_free). */
    L->has_atomic = inc_literal;
  }
}

/* The dim of argument i in a kernel: its literal, or the run-time value in
 * the parameter struct. */
static const char *ddim(const gen_arg *a, int i) { return gen_dim(a, i, "p.dim%d"); }

/* ---- the parameter struct ---------------------------------------------------------- */

static void emit_params(FILE *f, const loop_info *L) {
  const gen_loop *lp = L->lp;
  fprintf(f, "\n/* %s, from %s:%d */\nstruct op_cuda_p_%s {\n  int size;\n", lp->kernel, lp->file,
          lp->line, lp->kernel);
  /* Elements [owned, size) are the execute halo (many processes): their
   * reduction contributions are another process's. */
  if (L->nred) gen_out(f, 2, "int owned;\n");
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    if (gen_is_dat(a)) gen_out(f, 2, "%s *d%d;\n", a->type, i);
    if (gen_is_mapped(a)) gen_out(f, 2, "const int *m%d;\n  int mdim%d, midx%d;\n", i, i, i);
    if (a->kind != GEN_ARG_IDX && a->dim < 0) gen_out(f, 2, "int dim%d;\n", i);
    if (a->kind == GEN_ARG_GBL || gen_is_info(a)) gen_out(f, 2, "%s *g%d;\n", a->type, i);
    if (gen_is_part(a)) gen_out(f, 2, "%s *p%d;\n", a->type, i);
    /* op_arg_idx on many processes: the global numbers (NULL on one process). */
    if (a->kind == GEN_ARG_IDX) gen_out(f, 2, "const int *gid%d;\n", i);
  }
  if (L->has_staged) {
    gen_out(f, 2,
            "const int *blkmap, *offset, *nelems, *nthrcol, *thrcol, *ind_offs, *ind_sizes;\n");
    gen_out(f, 2, "int nblocks;\n");
    for (int g = 0; g < L->ngroups; g++) gen_out(f, 2, "const int *im%d;\n", g);
    for (int i = 0; i < L->n; i++)
      if (gen_is_ind_dat(&lp->args[i])) gen_out(f, 2, "const int *lm%d;\n", i);
  }
  if (L->indirect) gen_out(f, 2, "const int *gcol_elems;\n");
  fprintf(f, "};\n");
}

/* ---- pieces of kernels ---------------------------------------------------------------- */

/* The thread's partial results r<i>, and with halo (a kernel that may run
 * the execute halo: staged, atomic, colour) z<i>, where an execute-halo
 * element's contribution goes and is forgotten (emit_call). */
static void emit_red_init(FILE *f, const loop_info *L, int ind, int halo) {
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &L->lp->args[i];
    if (!gen_is_part(a)) continue;
    for (int z = 0; z <= halo; z++) {
      const char r = z ? 'z' : 'r';
      gen_out(f, ind, "%s %c%d[%s];\n", a->type, r, i, a->dim > 0 ? ddim(a, i) : "OP_MAX_GBL_DIM");
      if (gen_is_inc(a))
        gen_out(f, ind, "for (int d = 0; d < %s; d++) %c%d[d] = (%s)0;\n", ddim(a, i), r, i,
                a->type);
      else
        gen_out(f, ind, "for (int d = 0; d < %s; d++) %c%d[d] = p.g%d[d];\n", ddim(a, i), r, i, i);
    }
  }
}

static int has_info(const loop_info *L, int red) {
  for (int i = 0; i < L->n; i++)
    if (gen_is_info_of(L->lp, i, red)) return 1;
  return 0;
}

static void emit_red_finish(FILE *f, const loop_info *L, int ind, const char *part) {
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &L->lp->args[i];
    if (!gen_is_red(a)) continue;
    if (!has_info(L, i)) {
      gen_out(f, ind, "op_cuda_block_reduce<%s>(r%d, %s, p.p%d + (size_t)(%s) * (size_t)(%s));\n",
              a->acc, i, ddim(a, i), i, part, ddim(a, i));
      continue;
    }
    /* The thread whose value wins a component gives that component of the
     * op_arg_info values travelling with it (literal dims: the generator
     * requires them for op_arg_info). */
    gen_out(f, ind, "for (int d = 0; d < %d; d++) {\n", a->dim);
    gen_out(f, ind + 2, "const size_t at = (size_t)(%s) * %d + (size_t)d;\n", part, a->dim);
    gen_out(f, ind + 2, "const int w = op_cuda_block_argreduce<%s>(r%d[d], p.p%d + at);\n", a->acc,
            i, i);
    gen_out(f, ind + 2, "if ((int)threadIdx.x == w) {\n");
    for (int k = 0; k < L->n; k++)
      if (gen_is_info_of(L->lp, k, i)) gen_out(f, ind + 4, "p.p%d[at] = r%d[d];\n", k, k);
    gen_out(f, ind + 2, "}\n");
    gen_out(f, ind, "}\n");
  }
}

static void emit_idx(FILE *f, const loop_info *L, int ind) {
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &L->lp->args[i];
    if (a->kind != GEN_ARG_IDX) continue;
    /* The user's (global) number: not const, OP2 kernels may take int *. */
    if (a->indirect) {
      gen_out(f, ind, "int i%d = p.m%d[(size_t)n * (size_t)p.mdim%d + (size_t)p.midx%d];\n", i, i,
              i, i);
      gen_out(f, ind, "if (p.gid%d) i%d = p.gid%d[i%d];\n", i, i, i, i);
    } else {
      gen_out(f, ind, "int i%d = p.gid%d ? p.gid%d[n] : n;\n", i, i, i);
    }
  }
}

/* Pointer to argument i's data in global memory for element n. */
static void global_ptr(const gen_arg *a, int i, char *buf, size_t len) {
  if (a->indirect)
    snprintf(buf, len,
             "p.d%d + (size_t)p.m%d[(size_t)n * (size_t)p.mdim%d + (size_t)p.midx%d] * (size_t)(%s)",
             i, i, i, i, ddim(a, i));
  else
    snprintf(buf, len, "p.d%d + (size_t)n * (size_t)(%s)", i, ddim(a, i));
}

enum { V_PLAIN, V_COALESCED, V_STAGED, V_ATOMIC, V_COLOUR };

/* The call of the user kernel in variant v. */
static void emit_call(FILE *f, const loop_info *L, int ind, int v) {
  const gen_loop *lp = L->lp;
  gen_out(f, ind, "%s(", lp->kernel);
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    char buf[512];
    if (a->kind == GEN_ARG_IDX) {
      snprintf(buf, sizeof buf, "&i%d", i);
    } else if (a->kind == GEN_ARG_GBL || gen_is_info(a)) {
      if (gen_is_part(a) && (v == V_STAGED || v == V_ATOMIC || v == V_COLOUR))
        snprintf(buf, sizeof buf, "n < p.owned ? r%d : z%d", i, i);
      else if (gen_is_part(a))
        snprintf(buf, sizeof buf, "r%d", i);
      else
        snprintf(buf, sizeof buf, "p.g%d", i);
    } else if (v == V_COALESCED && coalesce_arg(a)) {
      snprintf(buf, sizeof buf, "l%d", i);
    } else if (v == V_STAGED && a->indirect) {
      if (gen_is_inc(a) && !L->serial)
        snprintf(buf, sizeof buf, "l%d", i);
      else
        snprintf(buf, sizeof buf, "s%d + (size_t)p.lm%d[n] * (size_t)(%s)", L->gind[i], i,
                 ddim(a, i));
    } else if (v == V_ATOMIC && a->indirect && gen_is_inc(a)) {
      snprintf(buf, sizeof buf, "l%d", i);
    } else {
      global_ptr(a, i, buf, sizeof buf);
    }
    fprintf(f, "%s\n%*s%s", i ? "," : "", ind + 4, "", buf);
  }
  fprintf(f, ");\n");
}

static void kernel_head(FILE *f, const loop_info *L, const char *variant, const char *extra) {
  fprintf(f, "\n__global__ void op_cuda_%s_%s(const struct op_cuda_p_%s p%s) {\n", L->lp->kernel,
          variant, L->lp->kernel, extra);
}

/* ---- the kernels ------------------------------------------------------------------------- */

/* Opens a kernel whose threads stride over VAR from 0 to BOUND by the size of
 * the grid (plain, atomic, colour), after its reduction partials. */
static void grid_kernel_begin(FILE *f, const loop_info *L, const char *variant, const char *extra,
                              const char *var, const char *bound, int halo) {
  kernel_head(f, L, variant, extra);
  if (!L->nred) gen_out(f, 2, "(void)part_base;\n");
  emit_red_init(f, L, 2, halo);
  gen_out(f, 2, "for (int %s = (int)(blockIdx.x * blockDim.x + threadIdx.x); %s < %s;\n", var, var,
          bound);
  gen_out(f, 7, "%s += (int)(blockDim.x * gridDim.x)) {\n", var);
}

/* Closes the element loop and the kernel, after the block's reduction step. */
static void grid_kernel_end(FILE *f, const loop_info *L) {
  gen_out(f, 2, "}\n");
  emit_red_finish(f, L, 2, "part_base + (int)blockIdx.x");
  fprintf(f, "}\n");
}

/* Registers for the increments of indirect dats, zeroed: the kernel adds into
 * them, and the caller adds them to the dat (atomically, or by thread colour). */
static void emit_inc_locals(FILE *f, const loop_info *L, int ind) {
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &L->lp->args[i];
    if (!gen_is_ind_dat(a) || !gen_is_inc(a)) continue;
    gen_out(f, ind, "%s l%d[%d];\n", a->type, i, a->dim);
    gen_out(f, ind, "for (int d = 0; d < %d; d++) l%d[d] = (%s)0;\n", a->dim, i, a->type);
  }
}

/* Adds the registers of emit_inc_locals to their data: in global memory
 * atomically (atomic), or in the block's shared memory (staged: the caller
 * runs it one thread colour at a time). */
static void emit_inc_apply(FILE *f, const loop_info *L, int ind, int v) {
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &L->lp->args[i];
    if (!gen_is_ind_dat(a) || !gen_is_inc(a)) continue;
    char ptr[512];
    if (v == V_STAGED)
      snprintf(ptr, sizeof ptr, "s%d + (size_t)p.lm%d[n] * %d", L->gind[i], i, a->dim);
    else
      global_ptr(a, i, ptr, sizeof ptr);
    gen_out(f, ind, "{\n");
    gen_out(f, ind + 2, "%s *t = %s;\n", a->type, ptr);
    if (v == V_STAGED)
      gen_out(f, ind + 2, "for (int d = 0; d < %d; d++) t[d] += l%d[d];\n", a->dim, i);
    else
      gen_out(f, ind + 2, "for (int d = 0; d < %d; d++) atomicAdd(t + d, l%d[d]);\n", a->dim, i);
    gen_out(f, ind, "}\n");
  }
}

static void emit_plain(FILE *f, const loop_info *L) {
  grid_kernel_begin(f, L, "plain", ", const int part_base", "n", "p.size", 0);
  emit_idx(f, L, 4);
  emit_call(f, L, 4, V_PLAIN);
  grid_kernel_end(f, L);
}

static void emit_coalesced(FILE *f, const loop_info *L) {
  const gen_loop *lp = L->lp;
  kernel_head(f, L, "coalesced", ", const int part_base, const int scratch");
  if (!L->nred) gen_out(f, 2, "(void)part_base;\n");
  gen_out(f, 2, "OP_CUDA_DYNAMIC_SHARED(op_sh);\n");
  gen_out(f, 2, "const int lane = (int)(threadIdx.x & 31u), warp = (int)(threadIdx.x >> 5);\n");
  gen_out(f, 2, "char *ws = op_sh + (size_t)warp * (size_t)scratch; /* this warp's scratch */\n");
  emit_red_init(f, L, 2, 0);
  gen_out(f, 2,
          "for (int base = (int)(blockIdx.x * (blockDim.x >> 5) + (unsigned)warp) * 32; "
          "base < p.size;\n");
  gen_out(f, 7, "base += (int)(gridDim.x * blockDim.x)) {\n");
  gen_out(f, 4, "const int nel = p.size - base < 32 ? p.size - base : 32;\n");
  gen_out(f, 4, "const int n = base + lane;\n");
  gen_out(f, 4, "(void)n;\n");
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    if (!coalesce_arg(a)) continue;
    gen_out(f, 4, "%s l%d[%d];\n", a->type, i, a->dim);
    if (gen_is_write(a)) continue;
    gen_out(f, 4, "{ /* arg %d in: coalesced reads into shared memory, then per thread */\n", i);
    gen_out(f, 6, "%s *w = (%s *)ws;\n", a->type, a->type);
    gen_out(f, 6, "const %s *g = p.d%d + (size_t)base * %d;\n", a->type, i, a->dim);
    gen_out(f, 6, "for (int k = lane; k < nel * %d; k += 32) w[k] = g[k];\n", a->dim);
    gen_out(f, 6, "__syncwarp();\n");
    gen_out(f, 6, "for (int d = 0; d < %d; d++) l%d[d] = lane < nel ? w[lane * %d + d] : (%s)0;\n",
            a->dim, i, a->dim, a->type);
    gen_out(f, 6, "__syncwarp();\n");
    gen_out(f, 4, "}\n");
  }
  gen_out(f, 4, "if (lane < nel) {\n");
  emit_idx(f, L, 6);
  emit_call(f, L, 6, V_COALESCED);
  gen_out(f, 4, "}\n");
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &lp->args[i];
    if (!coalesce_arg(a) || gen_is_read(a)) continue;
    gen_out(f, 4, "{ /* arg %d out: per thread into shared memory, then coalesced writes */\n", i);
    gen_out(f, 6, "%s *w = (%s *)ws;\n", a->type, a->type);
    gen_out(f, 6, "%s *g = p.d%d + (size_t)base * %d;\n", a->type, i, a->dim);
    gen_out(f, 6, "if (lane < nel)\n");
    gen_out(f, 8, "for (int d = 0; d < %d; d++) w[lane * %d + d] = l%d[d];\n", a->dim, a->dim, i);
    gen_out(f, 6, "__syncwarp();\n");
    gen_out(f, 6, "for (int k = lane; k < nel * %d; k += 32) g[k] = w[k];\n", a->dim);
    gen_out(f, 6, "__syncwarp();\n");
    gen_out(f, 4, "}\n");
  }
  grid_kernel_end(f, L);
}

static void emit_atomic(FILE *f, const loop_info *L) {
  grid_kernel_begin(f, L, "atomic", ", const int part_base", "n", "p.size", 1);
  emit_idx(f, L, 4);
  emit_inc_locals(f, L, 4);
  emit_call(f, L, 4, V_ATOMIC);
  emit_inc_apply(f, L, 4, V_ATOMIC);
  grid_kernel_end(f, L);
}

static void emit_colour(FILE *f, const loop_info *L) {
  grid_kernel_begin(f, L, "colour", ", const int cstart, const int ccount, const int part_base",
                    "j", "ccount", 1);
  gen_out(f, 4, "const int n = p.gcol_elems[cstart + j];\n");
  emit_idx(f, L, 4);
  emit_call(f, L, 4, V_COLOUR);
  grid_kernel_end(f, L);
}

/* The staged kernel's loop over the values of indirect dat group g's copy in
 * shared memory (stage-in, write-back), and the datum in global memory of
 * its value k (the group's dat is argument i's). */
static void staged_values_loop(FILE *f, int g, const char *D) {
  gen_out(f, 2, "for (int k = (int)threadIdx.x; k < size%d * (%s); k += (int)blockDim.x)\n", g, D);
}
static const char *staged_global(int i, int g, const char *D) {
  static char buf[256];
  snprintf(buf, sizeof buf, "p.d%d[(size_t)imap%d[k / (%s)] * (size_t)(%s) + (size_t)(k %% (%s))]",
           i, g, D, D, D);
  return buf;
}

/* The staged kernel's rounds of a block's elements run one thread colour at
 * a time inside these (a comment says what for); every thread reaches the
 * __syncthreads. */
static void thread_colours_open(FILE *f, const char *why) {
  gen_out(f, 4, "/* %s */\n", why);
  gen_out(f, 4, "for (int c = 0; c < ncol; c++) {\n");
  gen_out(f, 6, "if (col == c) {\n");
}
static void thread_colours_close(FILE *f) {
  gen_out(f, 6, "}\n");
  gen_out(f, 6, "__syncthreads();\n");
  gen_out(f, 4, "}\n");
}

static void emit_staged(FILE *f, const loop_info *L) {
  const gen_loop *lp = L->lp;
  kernel_head(f, L, "staged", ", const int first");
  gen_out(f, 2, "OP_CUDA_DYNAMIC_SHARED(op_sh);\n");
  gen_out(f, 2,
          "/* One plan block per CUDA block; `first` is this block colour's place in blkmap. */\n");
  gen_out(f, 2, "const int blk = p.blkmap[first + (int)blockIdx.x];\n");
  gen_out(f, 2,
          "const int offset = p.offset[blk], nelem = p.nelems[blk], ncol = p.nthrcol[blk];\n");
  gen_out(f, 2, "size_t soff = 0;\n");
  for (int g = 0; g < L->ngroups; g++) {
    int i = L->group_arg[g];
    const gen_arg *a = &lp->args[i];
    gen_out(f, 2, "/* indirect dat %d (%s): %s */\n", g, a->dat_text[0] ? a->dat_text : "?",
            L->mode[g] == MODE_READ  ? "read: staged in"
            : L->mode[g] == MODE_INC ? "incremented: zeroed, added back"
                                     : "written: staged in and written back");
    gen_out(f, 2, "const int size%d = p.ind_sizes[%d * p.nblocks + blk];\n", g, g);
    gen_out(f, 2, "const int *imap%d = p.im%d + p.ind_offs[%d * p.nblocks + blk];\n", g, g, g);
    gen_out(f, 2, "%s *s%d = (%s *)(op_sh + soff);\n", a->type, g, a->type);
    gen_out(f, 2, "soff += op_cuda_round8((size_t)size%d * (size_t)(%s) * sizeof(%s));\n", g,
            ddim(a, i), a->type);
  }
  gen_out(f, 2, "(void)soff;\n");
  for (int g = 0; g < L->ngroups; g++) {
    int i = L->group_arg[g];
    const gen_arg *a = &lp->args[i];
    const char *D = ddim(a, i);
    staged_values_loop(f, g, D);
    if (L->mode[g] == MODE_INC)
      gen_out(f, 4, "s%d[k] = (%s)0;\n", g, a->type);
    else
      gen_out(f, 4, "s%d[k] = %s;\n", g, staged_global(i, g, D));
  }
  gen_out(f, 2, "__syncthreads();\n");
  emit_red_init(f, L, 2, 1);
  gen_out(f, 2,
          "/* Every thread runs the same number of rounds: __syncthreads below is reached "
          "by all. */\n");
  gen_out(f, 2, "for (int n0 = 0; n0 < nelem; n0 += (int)blockDim.x) {\n");
  gen_out(f, 4, "const int nl = n0 + (int)threadIdx.x;\n");
  gen_out(f, 4, "const int n = offset + nl; /* the element, in the whole set */\n");
  gen_out(f, 4, "const int col = nl < nelem ? p.thrcol[n] : -1;\n");
  if (!L->serial) {
    emit_inc_locals(f, L, 4);
    gen_out(f, 4, "if (nl < nelem) {\n");
    emit_idx(f, L, 6);
    emit_call(f, L, 6, V_STAGED);
    gen_out(f, 4, "}\n");
    thread_colours_open(f, "Increments into shared memory one thread colour at a time.");
    emit_inc_apply(f, L, 8, V_STAGED);
    thread_colours_close(f);
  } else {
    thread_colours_open(
        f, "Indirect data is written in place: the elements run one thread colour at a time.");
    emit_idx(f, L, 8);
    emit_call(f, L, 8, V_STAGED);
    thread_colours_close(f);
  }
  gen_out(f, 2, "}\n");
  for (int g = 0; g < L->ngroups; g++) {
    if (L->mode[g] == MODE_READ) continue;
    int i = L->group_arg[g];
    const gen_arg *a = &lp->args[i];
    const char *D = ddim(a, i);
    staged_values_loop(f, g, D);
    gen_out(f, 4, "%s %s s%d[k];\n", staged_global(i, g, D), L->mode[g] == MODE_INC ? "+=" : "=",
            g);
  }
  emit_red_finish(f, L, 2, "first + (int)blockIdx.x");
  fprintf(f, "}\n");
}

/* ---- the host stub ------------------------------------------------------------------------ */

static void emit_launch(FILE *f, const loop_info *L, int ind, const char *variant,
                        const char *shared, const char *grid, const char *args) {
  gen_out(f, ind, "OP_CUDA_LAUNCH(op_cuda_%s_%s, %s, C.block, %s, %s);\n", L->lp->kernel, variant,
          grid, shared, args);
  gen_out(f, ind, "OP_CUDA_LAUNCHED(&C);\n");
}

static void emit_parts(FILE *f, const loop_info *L, int ind) {
  for (int i = 0; i < L->n; i++)
    if (gen_is_part(&L->lp->args[i]))
      gen_out(f, ind, "p.p%d = (%s *)C.part_d[%d];\n", i, L->lp->args[i].type, i);
}

/* A strategy's case of the stub's switch: case_open, what the strategy sets
 * up before the loop starts, case_start, its launches, case_close. The
 * backend's default strategy (the one every loop has) takes `default`. */
static void case_open(FILE *f, const char *strategy, int is_default) {
  if (is_default)
    gen_out(f, 4, "default: { /* %s */\n", strategy);
  else
    gen_out(f, 4, "case %s: {\n", strategy);
}

/* The kernel's configuration (with `shared` bytes of dynamic shared memory),
 * the loop's start, and the device pointers of the per-block partials. */
static void case_start(FILE *f, const loop_info *L, const char *variant, const char *shared) {
  gen_out(f, 6, "op_cuda_loop_kernel(&C, (const void *)op_cuda_%s_%s, %s);\n", L->lp->kernel,
          variant, shared);
  gen_out(f, 6, "op_cuda_loop_start(&C);\n");
  emit_parts(f, L, 6);
}

static void case_close(FILE *f) {
  gen_out(f, 6, "break;\n");
  gen_out(f, 4, "}\n");
}

/* One launch over every element of the loop (grid-stride). */
static void launch_all(FILE *f, const loop_info *L, const char *variant, const char *shared,
                       const char *args) {
  gen_out(f, 6, "const int grid = op_cuda_grid(&C, p.size);\n");
  gen_out(f, 6, "if (grid > 0) {\n");
  emit_launch(f, L, 8, variant, shared, "grid", args);
  gen_out(f, 6, "}\n");
}

/* A strategy that sets nothing up and launches once over every element,
 * without dynamic shared memory: plain, atomic. */
static void emit_case_all(FILE *f, const loop_info *L, const char *strategy, int is_default,
                          const char *variant) {
  case_open(f, strategy, is_default);
  case_start(f, L, variant, "0");
  launch_all(f, L, variant, "0", "p, 0");
  case_close(f);
}

/* Coalesced: one launch over every element, each warp with scratch for the
 * widest coalesced dat. */
static void emit_case_coalesced(FILE *f, const loop_info *L) {
  const char *shared = "(size_t)(C.block / 32) * (size_t)scratch";
  int maxbytes = 0;
  for (int i = 0; i < L->n; i++) {
    const gen_arg *a = &L->lp->args[i];
    if (!coalesce_arg(a)) continue;
    int b = a->dim * (strcmp(a->type, "double") ? 4 : 8);
    if (b > maxbytes) maxbytes = b;
  }
  case_open(f, "OP_CUDA_COALESCED", 0);
  gen_out(f, 6, "const int scratch = (int)OP_CUDA_WARP_SCRATCH(%d);\n", maxbytes);
  case_start(f, L, "coalesced", shared);
  launch_all(f, L, "coalesced", shared, "p, 0, scratch");
  case_close(f);
}

/* Staged: the plan's device arrays, then a launch per block colour, a CUDA
 * block per plan block. */
static void emit_case_staged(FILE *f, const loop_info *L) {
  case_open(f, "OP_CUDA_STAGED", 0);
  gen_out(f, 6, "const op_cuda_plan_d *pd = C.pd;\n");
  gen_out(f, 6, "p.blkmap = pd->blkmap, p.offset = pd->offset, p.nelems = pd->nelems;\n");
  gen_out(f, 6, "p.nthrcol = pd->nthrcol, p.thrcol = pd->thrcol;\n");
  gen_out(f, 6,
          "p.ind_offs = pd->ind_offs, p.ind_sizes = pd->ind_sizes, p.nblocks = C.plan->nblocks;\n");
  for (int g = 0; g < L->ngroups; g++) gen_out(f, 6, "p.im%d = pd->ind_maps[%d];\n", g, g);
  for (int i = 0; i < L->n; i++)
    if (gen_is_ind_dat(&L->lp->args[i])) gen_out(f, 6, "p.lm%d = pd->loc_maps[%d];\n", i, i);
  case_start(f, L, "staged", "C.plan->nshared");
  gen_out(f, 6,
          "/* One launch per block colour: blocks of a colour never share written data. */\n");
  gen_out(f, 6, "for (int col = 0; col < C.plan->ncolors; col++) {\n");
  gen_out(f, 8, "const int first = C.plan->colblk_offset[col], count = C.plan->ncolblk[col];\n");
  gen_out(f, 8, "if (count == 0) continue;\n");
  emit_launch(f, L, 8, "staged", "C.plan->nshared", "count", "p, first");
  gen_out(f, 6, "}\n");
  case_close(f);
}

/* Colour: the elements of the one-level colouring, then a launch per colour
 * over its elements; the partials of each launch after the previous one's. */
static void emit_case_colour(FILE *f, const loop_info *L) {
  case_open(f, "OP_CUDA_COLOUR", 1);
  gen_out(f, 6, "p.gcol_elems = C.pd->gcol_elems;\n");
  case_start(f, L, "colour", "0");
  gen_out(f, 6, "int part_base = 0;\n");
  gen_out(f, 6, "for (int col = 0; col < C.plan->gcolors; col++) {\n");
  gen_out(f, 8, "const int cstart = C.plan->gcol_offset[col];\n");
  gen_out(f, 8, "const int count = C.plan->gcol_offset[col + 1] - cstart;\n");
  gen_out(f, 8, "const int grid = op_cuda_grid(&C, count);\n");
  gen_out(f, 8, "if (grid == 0) continue;\n");
  emit_launch(f, L, 8, "colour", "0", "grid", "p, cstart, count, part_base");
  gen_out(f, 8, "part_base += grid;\n");
  gen_out(f, 6, "}\n");
  case_close(f);
}

static void emit_stub(FILE *f, const loop_info *L) {
  const gen_loop *lp = L->lp;
  const int n = L->n;
  const char *K = lp->kernel;
  fprintf(f, "\n");
  gen_emit_loop_open(f, lp, "extern \"C\" ");
  gen_out(f, 2, "static const int gind[%d] = {", n);
  for (int i = 0; i < n; i++) fprintf(f, "%s%d", i ? ", " : "", L->gind[i]);
  fprintf(f, "};\n");
  gen_out(
      f, 2,
      "static const op_cuda_loop_desc desc = {\"%s\", \"%s:%d\", %d, %d, %d, %d, %d, %d, gind, ", K,
      lp->file, lp->line, n, L->indirect, L->has_coalesced, L->has_staged, L->has_atomic,
      L->ngroups);
  if (L->has_staged)
    fprintf(f, "(const void *)op_cuda_%s_staged};\n", K);
  else
    fprintf(f, "NULL};\n");
  gen_out(f, 2, "op_cuda_loop C;\n");
  gen_out(f, 2, "op_cuda_loop_begin(&C, &desc, name, set, %d, args, sig);\n", n);
  gen_out(f, 2, "struct op_cuda_p_%s p;\n", K);
  gen_out(f, 2, "memset(&p, 0, sizeof p);\n");
  /* The elements the loop runs (on many processes the execute halo too). */
  gen_out(f, 2, "p.size = C.L.size;\n");
  if (L->nred) gen_out(f, 2, "p.owned = set->size < C.L.size ? set->size : C.L.size;\n");
  for (int i = 0; i < n; i++) {
    const gen_arg *a = &lp->args[i];
    if (gen_is_dat(a)) gen_out(f, 2, "p.d%d = (%s *)op_cuda_dat_d(arg%d.dat);\n", i, a->type, i);
    if (gen_is_mapped(a))
      gen_out(
          f, 2,
          "p.m%d = op_cuda_map_d(arg%d.map), p.mdim%d = arg%d.map->dim, p.midx%d = arg%d.idx;\n", i,
          i, i, i, i, i);
    if (a->kind != GEN_ARG_IDX && a->dim < 0) gen_out(f, 2, "p.dim%d = arg%d.dim;\n", i, i);
    if (a->kind == GEN_ARG_GBL || gen_is_info(a))
      gen_out(f, 2, "p.g%d = (%s *)C.gbl_d[%d];\n", i, a->type, i);
    if (a->kind == GEN_ARG_IDX && a->indirect)
      gen_out(f, 2, "p.gid%d = op_cuda_gid_d(arg%d.map->to);\n", i, i);
    else if (a->kind == GEN_ARG_IDX)
      gen_out(f, 2, "p.gid%d = op_cuda_gid_d(set);\n", i);
  }
  gen_out(f, 2, "switch (C.cfg.strategy) {\n");
  if (L->indirect) {
    if (L->has_staged) emit_case_staged(f, L);
    if (L->has_atomic) emit_case_all(f, L, "OP_CUDA_ATOMIC", 0, "atomic");
    emit_case_colour(f, L);
  } else {
    if (L->has_coalesced) emit_case_coalesced(f, L);
    emit_case_all(f, L, "OP_CUDA_PLAIN", 1, "plain");
  }
  gen_out(f, 2, "}\n");
  gen_out(f, 2, "op_cuda_loop_finish(&C);\n");
  for (int i = 0; i < n; i++)
    if (gen_is_red(&lp->args[i])) gen_emit_reduce(f, lp, i, "  ", "C.part_h[%d]", "C.nparts");
  gen_out(f, 2, "op_cuda_loop_end(&C);\n");
  fprintf(f, "}\n");
}

/* ---- constants ------------------------------------------------------------------------------ */

static void emit_consts(FILE *f, const gen_program *prog, const char *app) {
  fprintf(f,
          "\n/* Constants read by the kernels (op_decl_const), in constant memory, named\n"
          " * op2_dc_<name>: the kernels' copies say so (gen_device.c). */\n");
  for (int c = 0; c < prog->nconsts; c++)
    gen_emit_const_copy(f, &prog->consts[c], "__constant__ ", "op2_dc_", "OP_CUDA_MAX_CONST_DIM");
  fprintf(f,
          "\n/* Called by the backend from op_decl_const: copies a constant to the device. */\n"
          "static int op_cuda_const_update_%s(const char *name, const void *data, size_t bytes,\n"
          "                                   char *err, size_t errlen) {\n",
          app);
  for (int c = 0; c < prog->nconsts; c++) {
    const gen_const *k = &prog->consts[c];
    gen_emit_const_branch_open(f, k, "op2_dc_");
    fprintf(f, "    const cudaError_t e = cudaMemcpyToSymbol(op2_dc_%s, data, bytes);\n", k->name);
    fprintf(f, "    if (e != cudaSuccess) snprintf(err, errlen, \"cudaMemcpyToSymbol: %%s\", "
               "cudaGetErrorString(e));\n");
    fprintf(f, "    return e != cudaSuccess;\n  }\n");
  }
  gen_emit_const_unknown(f, "CUDA", app);
  fprintf(f,
          "\n/* Registration before main: the backend library is built before this file. */\n"
          "namespace {\n"
          "struct op_cuda_const_registration {\n"
          "  op_cuda_const_registration() { op_cuda_register_const_updater(op_cuda_const_update_%s); }\n"
          "} op_cuda_const_registration_instance;\n"
          "}  // namespace\n",
          app);
}

void gen_emit_cuda(FILE *f, const gen_program *prog, const char *app) {
  fprintf(f, "/* Generated by op2-gen for %s, CUDA backend. Do not edit: rebuild instead. */\n", app);
  gen_emit_libc_includes(f);
  fprintf(f,
          "#include \"op_lib_core.h\"\n#include \"op2_loop.h\"\n#include \"op_cuda_kernel.h\"\n");
  fprintf(f,
          "\n/* The system headers the kernel headers include, before `inline` is redefined. */\n");
  gen_emit_system_includes(f, prog);
  emit_consts(f, prog, app);
  if (prog->user_types)
    fprintf(f,
            "\n/* OP2's user_types.h: its functions say OP_FUN_PREFIX where they must run on\n"
            " * both sides. */\n"
            "#ifndef OP_FUN_PREFIX\n#define OP_FUN_PREFIX __host__ __device__\n#endif\n"
            "#include \"user_types.h\"\n");
  fprintf(f,
          "\n/* The user kernels as device functions: `inline` functions (those of headers\n"
          " * the kernels include too) become `__device__ inline` while they are included,\n"
          " * and each kernel header comes as a copy with __device__ before its other\n"
          " * functions (op2-gen, gen_device.c). */\n"
          "#define inline __device__ __attribute__((always_inline)) inline\n"
          "#define restrict __restrict__\n");
  for (int l = 0; l < prog->nloops; l++)
    fprintf(f, "#include \"%s_cuda_%s.h\"\n", app, prog->loops[l].kernel);
  fprintf(f, "#undef restrict\n#undef inline\n");
  for (int l = 0; l < prog->nloops; l++) {
    loop_info L;
    analyse(&prog->loops[l], &L);
    emit_params(f, &L);
    if (L.indirect) {
      if (L.has_staged) emit_staged(f, &L);
      if (L.has_atomic) emit_atomic(f, &L);
      emit_colour(f, &L);
    } else {
      emit_plain(f, &L);
      if (L.has_coalesced) emit_coalesced(f, &L);
    }
    emit_stub(f, &L);
  }
}
