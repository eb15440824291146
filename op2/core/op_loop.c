/*
 * op_loop.c - the common part of every generated loop: argument checks, the
 * plan, the timer, and reductions combined in a fixed order.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_dat_handle.h"
#include "op_decl.h"
#include "op_dist.h"
#include "op_state.h"

static const char *access_name(op_access a) {
  switch (a) {
    case OP_READ: return "OP_READ";
    case OP_WRITE: return "OP_WRITE";
    case OP_RW: return "OP_RW";
    case OP_INC: return "OP_INC";
    case OP_MIN: return "OP_MIN";
    case OP_MAX: return "OP_MAX";
  }
  return "?";
}

static const char *kind_name(op_arg_kind k) {
  switch (k) {
    case OP_ARG_DAT: return "op_arg_dat";
    case OP_ARG_GBL: return "op_arg_gbl";
    case OP_ARG_IDX: return "op_arg_idx";
    case OP_ARG_INFO: return "op_arg_info";
  }
  return "?";
}

/* Fatal error about argument i of loop L. */
OP_NORETURN OP_PRINTF(3, 4) static void arg_fail(const op_loop_ctx *L, int i, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  op_fatal("loop \"%s\" (%s), argument %d: %s", L->name, L->where, i, msg);
}
#define ARG_FAIL(...) arg_fail(L, i, __VA_ARGS__)

/* The generated code was written for the arguments at the call in the
 * source; these must still be what arrives at run time. */
static void check_against_signature(const op_loop_ctx *L, int i, const op_arg_sig *s, int type) {
  const op_arg *a = &L->args[i];
  if (a->kind != s->kind)
    ARG_FAIL("the generated code expects %s but got %s (rebuild to regenerate the loop code)",
             kind_name(s->kind), kind_name(a->kind));
  if (a->kind == OP_ARG_DAT) {
    if (!a->dat) ARG_FAIL("op_arg_dat with a NULL dat");
    if (!!a->map != !!s->indirect)
      ARG_FAIL("the source passes %s for dat \"%s\" but a %s map arrived at run time",
               s->indirect ? "a map" : "OP_ID", a->dat->name, a->map ? "non-NULL" : "NULL");
  }
  if (a->kind == OP_ARG_IDX && !!a->map != !!s->indirect)
    ARG_FAIL("op_arg_idx: the source passes %s but a %s map arrived at run time",
             s->indirect ? "a map" : "OP_ID", a->map ? "non-NULL" : "NULL");
  if (s->dim >= 0 && a->dim != s->dim)
    ARG_FAIL("dim %d differs from the generated code's %d", a->dim, s->dim);
  if (a->kind == OP_ARG_GBL && a->dim > OP_MAX_GBL_DIM && a->acc != OP_READ)
    ARG_FAIL("a reduced global of dim %d exceeds the limit %d", a->dim, OP_MAX_GBL_DIM);
  if (a->kind == OP_ARG_GBL && !a->data) ARG_FAIL("op_arg_gbl with NULL data");
  if (a->kind == OP_ARG_INFO) {
    if (!a->data) ARG_FAIL("op_arg_info with NULL data");
    if (a->ref != s->ref)
      ARG_FAIL(
          "op_arg_info goes with argument %d but the generated code's with %d (rebuild "
          "to regenerate the loop code)",
          a->ref, s->ref);
    /* The generator checked the source; the values must agree with it. */
    if (s->ref < 0 || s->ref >= L->nargs) ARG_FAIL("op_arg_info refers to no argument");
    const op_arg *r = &L->args[s->ref];
    if (r->kind != OP_ARG_GBL || (r->acc != OP_MIN && r->acc != OP_MAX) || r->dim != a->dim)
      ARG_FAIL("op_arg_info needs argument %d to be an OP_MIN or OP_MAX op_arg_gbl of dim %d",
               s->ref, a->dim);
  }
  if (a->kind != OP_ARG_IDX && type != (int)s->type)
    ARG_FAIL("type \"%s\" differs from the generated code's", a->type_name ? a->type_name : "?");
}

/* A dat argument against the dat and the map as declared. */
static void check_dat_against_mesh(const op_loop_ctx *L, int i, int type) {
  const op_arg *a = &L->args[i];
  op_dat d = a->dat;
  if (d->freed) op_dat_require_live(d, "op_par_loop"); /* freed after its op_arg_dat */
  if (a->dim != d->dim) ARG_FAIL("dim %d but dat \"%s\" has dim %d", a->dim, d->name, d->dim);
  if (type != (int)d->type)
    ARG_FAIL("type \"%s\" but dat \"%s\" holds %s", a->type_name ? a->type_name : "(null)", d->name,
             d->type_name);
  if (a->acc == OP_MIN || a->acc == OP_MAX)
    ARG_FAIL("%s on dat \"%s\": MIN and MAX are for globals (op_arg_gbl)", access_name(a->acc),
             d->name);
  if (!a->map && d->set != L->set)
    ARG_FAIL("direct access (OP_ID) to dat \"%s\" on set \"%s\" in a loop over set \"%s\"", d->name,
             d->set->name, L->set->name);
  if (a->map && a->map->to != d->set)
    ARG_FAIL("map \"%s\" goes to set \"%s\" but dat \"%s\" is on set \"%s\"", a->map->name,
             a->map->to->name, d->name, d->set->name);
}

/* A map argument (op_arg_dat or op_arg_idx through a map) against the loop. */
static void check_map_against_loop(const op_loop_ctx *L, int i) {
  const op_arg *a = &L->args[i];
  const op_map m = a->map;
  const char *what = a->kind == OP_ARG_DAT ? a->dat->name : "op_arg_idx";
  if (m->from != L->set)
    ARG_FAIL("map \"%s\" goes from set \"%s\" but the loop is over set \"%s\" (%s)", m->name,
             m->from->name, L->set->name, what);
  if (a->idx < 0 || a->idx >= m->dim)
    ARG_FAIL("index %d is outside map \"%s\" of dim %d (%s)", a->idx, m->name, m->dim, what);
}

/* A global (op_arg_gbl, op_arg_info) against its type string and the
 * variable passed: the kernel reads and reduces it as the string says. */
static void check_global(const op_loop_ctx *L, int i, int type) {
  const op_arg *a = &L->args[i];
  const char *named = a->type_name ? a->type_name : "(null)";
  if (a->kind == OP_ARG_GBL && (a->acc == OP_WRITE || a->acc == OP_RW))
    ARG_FAIL(
        "%s on a global: a parallel loop can only read (OP_READ) or reduce (OP_INC, "
        "OP_MIN, OP_MAX) a global",
        access_name(a->acc));
  if (a->var_type && op_type_from_name(a->var_type) != type)
    ARG_FAIL("type \"%s\" but the variable passed is %s", named, a->var_type);
  const int bytes = op_type_bytes((op_type)type);
  if (a->dim > 0 && a->size != a->dim * bytes)
    ARG_FAIL("type \"%s\" has %d bytes but the variable passed has elements of %d", named, bytes,
             a->size / a->dim);
}

/* Every argument against what the generator read and against the declared
 * mesh: a few comparisons an argument, so always on, whatever --op-diags
 * says (docs/op2-library.md); a loop that got past them reads and writes
 * only within its dats and globals. Fatal, naming the loop, the argument
 * and what differs. */
static void check_args(const op_loop_ctx *L, const op_arg_sig *sig) {
  for (int i = 0; i < L->nargs; i++) {
    const op_arg *a = &L->args[i];
    const int type = a->kind == OP_ARG_IDX ? (int)OP_TYPE_INT : op_type_from_name(a->type_name);
    if (type < 0)
      ARG_FAIL("unknown type \"%s\" (use double, float or int, or OP2's other spellings of them)",
               a->type_name ? a->type_name : "(null)");
    check_against_signature(L, i, &sig[i], type);
    if (a->kind == OP_ARG_DAT) check_dat_against_mesh(L, i, type);
    if ((a->kind == OP_ARG_DAT || a->kind == OP_ARG_IDX) && a->map) check_map_against_loop(L, i);
    if (a->kind == OP_ARG_GBL || a->kind == OP_ARG_INFO) check_global(L, i, type);
  }
}

/* The loop's name, set and arguments, which the checks' messages name. */
static void start_ctx(op_loop_ctx *L, const char *name, op_set set, int nargs, const op_arg *args,
                      const char *kernel, const char *where) {
  L->name = name ? name : kernel;
  L->kernel = kernel;
  L->where = where;
  if (!op_g.initialised)
    op_fatal("op_par_loop \"%s\" (%s) called %s", L->name, where,
             op_g.exited ? "after op_exit" : "before op_init");
  OP_CHECK(set, "op_par_loop \"%s\" (%s): the iteration set is NULL", L->name, where);
  L->set = set;
  L->nargs = nargs;
  L->args = args;
}

void op_loop_check_args(const char *name, op_set set, int nargs, const op_arg *args,
                        const op_arg_sig *sig, const char *kernel, const char *where) {
  op_loop_ctx L;
  memset(&L, 0, sizeof L);
  start_ctx(&L, name, set, nargs, args, kernel, where);
  check_args(&L, sig);
}

void op_loop_begin_part(op_loop_ctx *L, const char *name, op_set set, int nargs, const op_arg *args,
                        const op_arg_sig *sig, const char *kernel, const char *where, int part_size,
                        unsigned plan_parts) {
  start_ctx(L, name, set, nargs, args, kernel, where);
  check_args(L, sig);
  L->timer = op_timer_find(L->name);
  L->t0 = op_wtime();
  L->halo_waited = 0;
  L->device_timed = 0;
  L->t_halo = 0.0;
  /* Many processes: partitioned by now, the halo exchanges this loop needs
   * in flight while the core blocks run. */
  if (op_dist) {
    L->size = op_dist->loop_begin(L);
    L->t_halo = op_wtime() - L->t0;
  } else {
    L->size = set->size;
  }
  L->plan = op_plan_get(L->name, set, part_size, nargs, args, plan_parts);
  if (L->plan->set_size != L->size)
    op_fatal("loop \"%s\" (%s): its plan covers %d elements but the loop runs %d", L->name,
             L->where, L->plan->set_size, L->size);
}

void op_loop_begin(op_loop_ctx *L, const char *name, op_set set, int nargs, const op_arg *args,
                   const op_arg_sig *sig, const char *kernel, const char *where) {
  /* The CPU backends' generated code runs affine runs of a block directly. */
  op_loop_begin_part(L, name, set, nargs, args, sig, kernel, where, op_g.part_size,
                     OP_PLAN_AFFINE_RUNS);
}

void op_loop_wait(op_loop_ctx *L) {
  if (op_dist && !L->halo_waited) {
    const double t = op_wtime();
    op_dist->loop_wait(L);
    L->t_halo += op_wtime() - t;
  }
  L->halo_waited = 1;
}

int op_args_increments_only(int nargs, const op_arg *args) {
  for (int i = 0; i < nargs; i++) {
    const op_arg *a = &args[i];
    if (a->kind != OP_ARG_DAT || !a->map) continue;
    if (!a->dat) return 0;
    if (a->acc == OP_WRITE || a->acc == OP_RW) return 0;
    if (a->acc != OP_INC) continue;
    for (int j = 0; j < nargs; j++)
      if (args[j].kind == OP_ARG_DAT && args[j].dat == a->dat && args[j].acc != OP_INC) return 0;
  }
  return 1;
}

void op_loop_end(op_loop_ctx *L) {
  if (op_dist) {
    /* The halos first (if the loop did not wait), then what the layer does
     * after a loop: dirty bits and, above all, the reductions' combination. */
    op_loop_wait(L);
    const double t = op_wtime();
    op_dist->loop_end(L);
    op_timer_add_mpi(L->timer, L->t_halo, op_wtime() - t);
  }
  op_timer_add(L->timer, L->device_timed ? 0.0 : op_wtime() - L->t0,
               L->plan ? L->plan->bytes_moved : 0.0);
}

/* ---- reductions ------------------------------------------------------------------ */

#define SCRATCH_SLOTS 64
static void *scratch[SCRATCH_SLOTS];
static size_t scratch_bytes[SCRATCH_SLOTS];

void *op_loop_scratch(int arg, size_t bytes) {
  OP_CHECK(arg >= 0 && arg < SCRATCH_SLOTS, "argument number %d beyond %d", arg, SCRATCH_SLOTS);
  if (scratch_bytes[arg] < bytes) {
    free(scratch[arg]);
    scratch[arg] = op_malloc(bytes);
    scratch_bytes[arg] = bytes;
  }
  return scratch[arg];
}

#define DEFINE_REDUCE(T, SUFFIX)                                                             \
  void op_reduce_blocks_##SUFFIX(op_access acc, T *gbl, const T *part, int nblocks, int dim) { \
    for (int b = 0; b < nblocks; b++) {                                                      \
      const T *p = part + (size_t)b * (size_t)dim;                                           \
      for (int d = 0; d < dim; d++) {                                                        \
        if (acc == OP_INC)                                                                   \
          gbl[d] += p[d];                                                                    \
        else if (acc == OP_MIN)                                                              \
          gbl[d] = p[d] < gbl[d] ? p[d] : gbl[d];                                            \
        else if (acc == OP_MAX)                                                              \
          gbl[d] = p[d] > gbl[d] ? p[d] : gbl[d];                                            \
      }                                                                                      \
    }                                                                                        \
  }

DEFINE_REDUCE(double, double)
DEFINE_REDUCE(float, float)
DEFINE_REDUCE(int, int)

#define DEFINE_REDUCE_INFO(T, SUFFIX)                                                         \
  void op_reduce_blocks_info_##SUFFIX(op_access acc, T *gbl, const T *part, int nblocks,      \
                                      int dim, int ninfo, char *const *info,                  \
                                      const char *const *info_part, const int *info_bytes) {  \
    for (int b = 0; b < nblocks; b++) {                                                       \
      const T *p = part + (size_t)b * (size_t)dim;                                            \
      for (int d = 0; d < dim; d++) {                                                         \
        if (acc == OP_MIN ? !(p[d] < gbl[d]) : !(p[d] > gbl[d])) continue;                     \
        gbl[d] = p[d];                                                                        \
        for (int j = 0; j < ninfo; j++) {                                                     \
          const size_t eb = (size_t)info_bytes[j];                                            \
          memcpy(info[j] + (size_t)d * eb, info_part[j] + ((size_t)b * (size_t)dim + d) * eb, \
                 eb);                                                                         \
        }                                                                                     \
      }                                                                                       \
    }                                                                                         \
  }

DEFINE_REDUCE_INFO(double, double)
DEFINE_REDUCE_INFO(float, float)
DEFINE_REDUCE_INFO(int, int)
