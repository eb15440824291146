/*
 * op_offload_loop.c - the offload backend's device copies (dats, maps, plans,
 * reduction partials) and the host side of every generated loop.
 *
 * Data stays on the device between loops (Mattson et al.'s "target data region"):
 * a dat's `where` (op2.h) says which copy is current; a loop copies a dat to
 * the device when the device copy is stale and leaves every dat it writes
 * current on the device only; the host copy is refreshed only when the
 * application asks (op_fetch_data*, and so output and checkpoints), and
 * op_host_data_changed makes the next loop copy it back. With
 * --op-offload-data=loop every loop instead copies its dats in, and the ones
 * it wrote out, and frees the device copies (Mattson et al.'s "target directive per
 * loop").
 *
 * Device memory is allocated and copied with the OpenMP runtime calls
 * (omp_target_alloc, omp_target_memcpy: the call forms of `target enter data`
 * and `target update`), because they return a status to check, where a failed
 * directive stops the program inside the OpenMP runtime without saying which
 * dat; and because on the host (no device) they still make and copy separate
 * buffers, so that the host runs every copy a GPU would need and a missing one
 * shows as a wrong result in the tests.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_decl.h"
#include "op_offload.h"
#include "op_offload_device.h"
#include "op_plan_image.h"

typedef struct {
  char *d;      /* device copy, NULL when there is none */
  size_t bytes; /* its size */
  int soa;      /* its layout: component by component (SoA) or as on the host */
} dev_dat;

typedef struct {
  const op_plan *plan;
  int *buf;                  /* one device buffer for every array below */
  const int *gcol_elems, *elem_colour, *blkmap, *offset, *nelems;
} dev_plan;

static struct {
  int device, host;          /* OpenMP device numbers: where the loops run, the host */
  const op_offload_options *opt;
  dev_dat *dats;
  int ndats;
  int **maps;                /* per map index */
  int nmaps;
  dev_plan *plans;
  int nplans, cap_plans;
  char *part_d, *part_h;     /* reduction partials (blocks) */
  size_t part_bytes;
} D;

int op_offload_device(void) { return D.device; }
int op_offload_on_host(void) { return D.device == D.host; }

/* ---- checked allocation and copies --------------------------------------------------- */

static void *dev_alloc(size_t bytes, const char *what, const char *loop) {
  void *p = omp_target_alloc(bytes ? bytes : 8, D.device);
  if (!p)
    op_fatal("%s%s%s: cannot allocate %zu bytes on OpenMP device %d for %s (out of device memory?)",
             loop ? "loop \"" : "", loop ? loop : "op_offload", loop ? "\"" : "", bytes, D.device,
             what);
  return p;
}

static void dev_free(void *p) {
  if (p) omp_target_free(p, D.device);
}

/* to_device: host -> device, else device -> host. */
static void dev_copy(void *dst, const void *src, size_t bytes, int to_device, const char *what,
                     const char *loop) {
  if (bytes == 0) return;
  int rc = omp_target_memcpy(dst, (void *)src, bytes, 0, 0, to_device ? D.device : D.host,
                             to_device ? D.host : D.device);
  if (rc != 0)
    op_fatal("%s%s%s: omp_target_memcpy of %zu bytes %s device %d failed for %s (status %d)",
             loop ? "loop \"" : "", loop ? loop : "op_offload", loop ? "\"" : "", bytes,
             to_device ? "to" : "from", D.device, what, rc);
}

/* ---- dats ------------------------------------------------------------------------------ */

static size_t dat_bytes(op_dat d) { return (size_t)d->set->size * (size_t)d->size; }

static dev_dat *dev_of(op_dat d) {
  if (d->index >= D.ndats) {
    int n = d->index + 16;
    D.dats = op_realloc(D.dats, sizeof(*D.dats) * (size_t)n);
    memset(D.dats + D.ndats, 0, sizeof(*D.dats) * (size_t)(n - D.ndats));
    D.ndats = n;
  }
  return &D.dats[d->index];
}

/* AoS <-> SoA: component c of element e is at e * dim + c on the host and at
 * c * n + e on the device. */
static void transpose(char *dst, const char *src, op_dat d, int to_soa) {
  const size_t n = (size_t)d->set->size, dim = (size_t)d->dim, eb = (size_t)d->elem_bytes;
  for (size_t e = 0; e < n; e++)
    for (size_t c = 0; c < dim; c++) {
      size_t aos = (e * dim + c) * eb, soa = (c * n + e) * eb;
      memcpy(dst + (to_soa ? soa : aos), src + (to_soa ? aos : soa), eb);
    }
}

static void dat_upload(op_dat d, dev_dat *dd, const char *loop) {
  if (!dd->soa) {
    dev_copy(dd->d, d->data, dd->bytes, 1, d->name, loop);
    return;
  }
  char *stage = op_malloc(dd->bytes ? dd->bytes : 1);
  transpose(stage, d->data, d, 1);
  dev_copy(dd->d, stage, dd->bytes, 1, d->name, loop);
  free(stage);
}

static void dat_download(op_dat d, dev_dat *dd, const char *loop) {
  if (!dd->soa) {
    dev_copy(d->data, dd->d, dd->bytes, 0, d->name, loop);
    return;
  }
  char *stage = op_malloc(dd->bytes ? dd->bytes : 1);
  dev_copy(stage, dd->d, dd->bytes, 0, d->name, loop);
  transpose(d->data, stage, d, 0);
  free(stage);
}

void op_backend_dat_to_host(op_dat dat) {
  dev_dat *dd = dev_of(dat);
  if (dd->d && (dat->where & OP_DAT_DEVICE_CURRENT)) dat_download(dat, dd, NULL);
}

/* Frees the device copy, first bringing the host copy up to date. */
static void dat_release(op_dat d, const char *loop) {
  dev_dat *dd = dev_of(d);
  if (!dd->d) return;
  if (!(d->where & OP_DAT_HOST_CURRENT)) dat_download(d, dd, loop);
  dev_free(dd->d);
  dd->d = NULL;
  d->data_d = NULL;
  d->where = OP_DAT_HOST_CURRENT;
}

void op_offload_dat_forget(op_dat d) {
  if (d->index >= D.ndats) return;
  dev_free(D.dats[d->index].d);
  memset(&D.dats[d->index], 0, sizeof D.dats[d->index]);
  d->data_d = NULL;
}

/* Makes the device copy current, allocating it the first time: SoA when asked
 * for (the option, or the dat's declaration), the dat has several components
 * and the loop allows it (a dim that is
 * not a literal reaches the kernel as a pointer into the device copy, which
 * must then be AoS). */
static void dat_to_device(op_dat d, const char *loop, int allow_soa) {
  dev_dat *dd = dev_of(d);
  if (dd->d && dd->soa && !allow_soa) dat_release(d, loop);
  if (!dd->d) {
    dd->bytes = dat_bytes(d);
    /* SoA for every such dat with --op-offload-layout=soa, or for one
     * declared so (OP2's "double:soa"). */
    dd->soa = allow_soa && (D.opt->soa || d->soa) && d->dim > 1;
    if (dd->soa && !D.opt->soa && op_diags_level() >= 1)
      printf("OP2 offload: dat \"%s\" held component by component on the device (declared with "
             "\":soa\")\n",
             d->name);
    dd->d = dev_alloc(dd->bytes, d->name, loop);
    d->data_d = dd->d;
    d->where &= ~OP_DAT_DEVICE_CURRENT;
  }
  if (!(d->where & OP_DAT_DEVICE_CURRENT)) {
    dat_upload(d, dd, loop);
    d->where |= OP_DAT_DEVICE_CURRENT;
  }
}

/* ---- maps, plans, partials ----------------------------------------------------------------- */

static const int *map_to_device(op_map m, const char *loop) {
  if (m->index >= D.nmaps) {
    int n = m->index + 16;
    D.maps = op_realloc(D.maps, sizeof(*D.maps) * (size_t)n);
    for (int i = D.nmaps; i < n; i++) D.maps[i] = NULL;
    D.nmaps = n;
  }
  if (!D.maps[m->index]) {
    size_t bytes = sizeof(int) * (size_t)m->from->size * (size_t)m->dim;
    D.maps[m->index] = dev_alloc(bytes, m->name, loop);
    dev_copy(D.maps[m->index], m->map, bytes, 1, m->name, loop);
  }
  return D.maps[m->index];
}

static void map_release(op_map m) {
  if (m->index < D.nmaps && D.maps[m->index]) {
    dev_free(D.maps[m->index]);
    D.maps[m->index] = NULL;
  }
}

/* The plan arrays the regions read, in one device buffer (one copy), once per
 * plan; the buffer is ../shared/op_plan_image.c's, as CUDA's plans are. */
static const dev_plan *plan_to_device(const op_plan *p, const char *loop) {
  for (int i = 0; i < D.nplans; i++)
    if (D.plans[i].plan == p) return &D.plans[i];
  const size_t nel = p->gcolors > 0 ? (size_t)p->set_size : 0, nb = (size_t)p->nblocks;
  op_plan_image img = {NULL, 0, 0};
  long gcol = -1, ecol = -1;
  if (nel) {
    gcol = op_plan_image_put(&img, p->gcol_elems, nel);
    ecol = op_plan_image_put(&img, NULL, nel);
    int *colour = img.ints + ecol;
    for (int c = 0; c < p->gcolors; c++)
      for (int k = p->gcol_offset[c]; k < p->gcol_offset[c + 1]; k++) colour[p->gcol_elems[k]] = c;
  }
  const long blkmap = op_plan_image_put(&img, p->blkmap, nb);
  const long offset = op_plan_image_put(&img, p->offset, nb);
  const long nelems = op_plan_image_put(&img, p->nelems, nb);
  op_plan_image_finish(&img);
  if (D.nplans == D.cap_plans) {
    D.cap_plans = D.cap_plans ? 2 * D.cap_plans : 16;
    D.plans = op_realloc(D.plans, sizeof(*D.plans) * (size_t)D.cap_plans);
  }
  dev_plan *dp = &D.plans[D.nplans++];
  dp->plan = p;
  dp->buf = dev_alloc(sizeof(int) * img.n, "a plan", loop);
  dev_copy(dp->buf, img.ints, sizeof(int) * img.n, 1, "a plan", loop);
  op_plan_image_free(&img);
  dp->gcol_elems = nel ? dp->buf + gcol : NULL;
  dp->elem_colour = nel ? dp->buf + ecol : NULL;
  dp->blkmap = dp->buf + blkmap;
  dp->offset = dp->buf + offset;
  dp->nelems = dp->buf + nelems;
  return dp;
}

/* Has per-block partials in the blocks strategy: a reduction, or an op_arg_info. */
static int is_partial(const op_arg *a) {
  return (a->kind == OP_ARG_GBL && a->acc != OP_READ) || a->kind == OP_ARG_INFO;
}

static size_t round16(size_t b) { return (b + 15) & ~(size_t)15; }

static void partials_for(op_offload_loop *C) {
  size_t bytes = 0;
  for (int i = 0; i < C->L.nargs; i++)
    if (is_partial(&C->L.args[i]))
      bytes += round16((size_t)C->L.args[i].size * (size_t)C->plan->nblocks);
  if (!bytes) return;
  if (bytes > D.part_bytes) {
    size_t n = D.part_bytes ? D.part_bytes : 4096;
    while (n < bytes) n *= 2;
    dev_free(D.part_d);
    free(D.part_h);
    D.part_d = dev_alloc(n, "reduction partials", C->name);
    D.part_h = op_malloc(n);
    D.part_bytes = n;
  }
  size_t off = 0;
  for (int i = 0; i < C->L.nargs; i++) {
    if (!is_partial(&C->L.args[i])) continue;
    C->part_d[i] = D.part_d + off;
    C->part_h[i] = D.part_h + off;
    off += round16((size_t)C->L.args[i].size * (size_t)C->plan->nblocks);
  }
}

/* ---- the loop ------------------------------------------------------------------------------- */

void op_offload_loop_begin(op_offload_loop *C, const op_offload_loop_desc *desc, const char *name,
                           op_set set, int nargs, const op_arg *args, const op_arg_sig *sig) {
  memset(C, 0, sizeof *C);
  C->desc = desc;
  /* The arguments first: the choice of strategy reads them. */
  op_loop_check_args(name, set, nargs, args, sig, desc->kernel, desc->where);
  OP_CHECK(D.opt, "op_par_loop \"%s\" (%s) called before op_init", name ? name : desc->kernel,
           desc->where);
  OP_CHECK(nargs <= OP_OFFLOAD_MAX_ARGS, "loop \"%s\": %d arguments, the offload backend takes %d",
           name ? name : desc->kernel, nargs, OP_OFFLOAD_MAX_ARGS);
  const int asked = D.opt->strategy;
  C->strategy = op_offload_strategy_for(desc, op_args_increments_only(nargs, args), asked);
  if (asked == OP_OFFLOAD_ATOMIC && desc->ind_writes && C->strategy != OP_OFFLOAD_ATOMIC) {
    static int warned;
    if (!warned++)
      op_warn("loop \"%s\" writes through a map other than by increments (or reads what it "
              "increments): %s instead of atomic",
              name ? name : desc->kernel, op_offload_strategy_name(C->strategy));
  }
  const unsigned parts =
      C->strategy == OP_OFFLOAD_COLOUR || C->strategy == OP_OFFLOAD_MASK ? OP_PLAN_GLOBAL_COLOURS : 0u;
  op_loop_begin_part(&C->L, name, set, nargs, args, sig, desc->kernel, desc->where, op_part_size(),
                     parts);
  C->name = C->L.name;
  C->plan = C->L.plan;
  C->device = D.device;
  C->soa = D.opt->soa;
  C->teams = D.opt->teams;
  C->thread_limit = D.opt->thread_limit;
  C->host = op_offload_on_host() && !D.opt->host_target;
  /* Dats that some argument passes with a dim that is not a literal first
   * (made AoS), so that no pointer taken below is freed by a later argument. */
  for (int i = 0; i < nargs; i++)
    if (args[i].kind == OP_ARG_DAT && sig[i].dim < 0) dat_to_device(args[i].dat, C->name, 0);
  for (int i = 0; i < nargs; i++) {
    const op_arg *a = &args[i];
    if (a->kind == OP_ARG_DAT) {
      dev_dat *dd = dev_of(a->dat);
      dat_to_device(a->dat, C->name, 1);
      C->dat[i] = dd->d;
      C->es[i] = dd->soa ? 1 : a->dat->dim;
      C->cs[i] = dd->soa ? a->dat->set->size : 1;
      /* A dat held SoA takes the SoA regions, whose strides suit AoS dats too. */
      if (dd->soa) C->soa = 1;
    }
    if (a->kind != OP_ARG_GBL && a->kind != OP_ARG_INFO && a->map) C->map[i] = map_to_device(a->map, C->name);
  }
  const dev_plan *dp = plan_to_device(C->plan, C->name);
  C->gcol_elems = dp->gcol_elems;
  C->elem_colour = dp->elem_colour;
  C->blkmap = dp->blkmap;
  C->offset = dp->offset;
  C->nelems = dp->nelems;
  if (C->strategy == OP_OFFLOAD_BLOCKS) partials_for(C);
}

void op_offload_loop_partials(op_offload_loop *C) {
  size_t bytes = 0;
  for (int i = 0; i < C->L.nargs; i++)
    if (is_partial(&C->L.args[i]))
      bytes += round16((size_t)C->L.args[i].size * (size_t)C->plan->nblocks);
  dev_copy(D.part_h, D.part_d, bytes, 0, "reduction partials", C->name);
}

void op_offload_loop_end(op_offload_loop *C) {
  const int n = C->L.nargs;
  const op_arg *args = C->L.args;
  for (int i = 0; i < n; i++)
    if (args[i].kind == OP_ARG_DAT && args[i].acc != OP_READ)
      args[i].dat->where = OP_DAT_DEVICE_CURRENT;
  if (D.opt->per_loop) {
    /* Everything the loop mapped goes back (what it wrote) and is freed. */
    for (int i = 0; i < n; i++) {
      if (args[i].kind == OP_ARG_DAT) dat_release(args[i].dat, C->name);
      if (args[i].kind != OP_ARG_GBL && args[i].kind != OP_ARG_INFO && args[i].map)
        map_release(args[i].map);
    }
  }
  op_loop_end(&C->L);
}

/* ---- start and end ---------------------------------------------------------------------------- */

void op_offload_device_init(int device, const op_offload_options *opt) {
  D.device = device;
  D.host = omp_get_initial_device();
  D.opt = opt;
}

void op_offload_device_exit(void) {
  if (!D.opt) return;
  /* The dats' data is the library's own (declarations copy), freed right
   * after this: nothing to bring back to the host. */
  for (int i = 0; i < op_num_dats(); i++) {
    op_dat d = op_dat_at(i);
    if (!d) continue; /* a freed temporary (op_offload_dat_forget) */
    if (d->index < D.ndats) dev_free(D.dats[d->index].d);
    d->data_d = NULL;
    d->where = OP_DAT_HOST_CURRENT;
  }
  free(D.dats);
  for (int i = 0; i < D.nmaps; i++) dev_free(D.maps[i]);
  free(D.maps);
  for (int i = 0; i < D.nplans; i++) dev_free(D.plans[i].buf);
  free(D.plans);
  dev_free(D.part_d);
  free(D.part_h);
  memset(&D, 0, sizeof D);
}
