/*
 * op_cuda_loop.c - the CUDA backend's device: the device chosen at op_init,
 * the copies kept on it (dats, maps, global numbers, plans, the scratch of
 * global arguments and reduction partials) and the host side of every
 * generated loop (configuration, launches' bookkeeping, reductions, timing).
 * See docs/cuda.md.
 *
 * Data stays on the device between loops. A dat's `where` says which copy is
 * current: a loop uploads a dat whose device copy is stale, and leaves every
 * dat it writes current on the device only; op_fetch_data_ptr (core) calls
 * op_backend_dat_to_host when the application needs the host copy.
 *
 * Each call is timed by a pair of CUDA events. With --op-cuda-sync=loop (the
 * default) the host waits for every loop's stop event; with needed it waits
 * only where a value is needed on the host (a reduction's partials, a loop
 * the tuner is still timing) and reads the other calls' times in a batch
 * (a timing report, the end, or when every pair of events is in use).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_cuda.h"
#include "op_cuda_device.h"
#include "op_cuda_rt.h"
#include "op_decl.h"
#include "op_dist.h"

/* Halo rows on many processes (op_cuda_halo.cu). */
void op_cuda_rows_free(void);

/* Calls whose events are recorded and not yet read. */
#define TIMED_CALLS 256

static struct {
  int ready;
  int sync_needed;     /* --op-cuda-sync=needed */
  struct cudaDeviceProp prop;
  size_t shared_optin; /* dynamic + static shared memory one block may have */
  struct timed_call {
    cudaEvent_t start, stop;
    char *name;        /* the loop's name (tuner) */
    op_cuda_config cfg;
    int timer;         /* its row of the timing table, or -1 (host-timed) */
    int tune;          /* the time goes to the tuner (the loop ran some elements) */
  } calls[TIMED_CALLS];
  int ncalls_made;     /* event pairs created */
  int npending;        /* calls[0..npending) recorded, not read */
  void **map_d;        /* per map index */
  int nmap_d;
  void **gid_d;        /* per set index: its global numbers (many processes) */
  int ngid_d;
  struct plan_d {
    const op_plan *plan;
    int *buf;
    op_cuda_plan_d pd;
  } *plans;
  int nplans, cap_plans;
  struct kernel_info {
    const void *fn;
    int max_threads;
    size_t static_shared;
    size_t dyn_allowed;
  } *kernels;
  int nkernels, cap_kernels;
  char *gbl_d, *gbl_h;   /* op_arg_gbl values */
  size_t gbl_bytes;
  char *part_d, *part_h; /* reduction partials */
  size_t part_bytes;
} G;

static void plan_costs_free(void);

/* ---- the device ------------------------------------------------------------------------ */

void op_cuda_device_init(int device) {
  CK(cudaSetDevice(device), NULL);
  CK(cudaGetDeviceProperties(&G.prop, device), NULL);
  G.shared_optin = G.prop.sharedMemPerBlockOptin > G.prop.sharedMemPerBlock
                       ? G.prop.sharedMemPerBlockOptin
                       : G.prop.sharedMemPerBlock;
  G.ready = 1;
}

void op_cuda_device_sync_needed(int needed) { G.sync_needed = needed; }

/* Waits for the last pending call and hands every pending call's time to the
 * tuner and (for device-timed calls) to the timing table, in call order. */
static void timed_calls_read(void) {
  if (!G.npending) return;
  struct timed_call *last = &G.calls[G.npending - 1];
  /* Errors of the kernels themselves surface here, naming the last loop. */
  CK(cudaEventSynchronize(last->stop), last->name);
  for (int i = 0; i < G.npending; i++) {
    struct timed_call *c = &G.calls[i];
    float ms = 0.0f;
    CK(cudaEventElapsedTime(&ms, c->start, c->stop), c->name);
    if (c->tune) op_cuda_tune_record(c->name, c->cfg, (double)ms);
    if (c->timer >= 0) op_timer_add_seconds(c->timer, 1e-3 * (double)ms);
    free(c->name);
    c->name = NULL;
  }
  G.npending = 0;
}

void op_cuda_timing_collect(void) {
  if (G.ready) timed_calls_read();
}

int op_cuda_device_ready(void) { return G.ready; }

const char *op_cuda_device_name(void) { return G.prop.name; }

void op_cuda_device_describe(int device) {
  printf("OP2 CUDA: device %d, %s, compute capability %d.%d, %d SMs, %.1f GiB, %zu bytes of "
         "shared memory per block\n",
         device, G.prop.name, G.prop.major, G.prop.minor, G.prop.multiProcessorCount,
         (double)G.prop.totalGlobalMem / (1024.0 * 1024.0 * 1024.0), G.shared_optin);
}

void op_cuda_device_exit(void) {
  if (!G.ready) return;
  timed_calls_read();
  /* The dats' data is the library's own (declarations copy), freed right
   * after this: nothing to bring back to the host. */
  for (int i = 0; i < op_num_dats(); i++) {
    op_dat d = op_dat_at(i);
    if (!d) continue; /* a freed temporary */
    if (d->data_d) CK(cudaFree(d->data_d), d->name);
    d->data_d = NULL;
    d->where = OP_DAT_HOST_CURRENT;
  }
  for (int i = 0; i < G.nmap_d; i++)
    if (G.map_d[i]) CK(cudaFree(G.map_d[i]), NULL);
  free(G.map_d);
  for (int i = 0; i < G.ngid_d; i++)
    if (G.gid_d[i]) CK(cudaFree(G.gid_d[i]), NULL);
  free(G.gid_d);
  op_cuda_rows_free();
  plan_costs_free();
  for (int i = 0; i < G.nplans; i++) CK(cudaFree(G.plans[i].buf), NULL);
  free(G.plans);
  free(G.kernels);
  if (G.gbl_d) CK(cudaFree(G.gbl_d), NULL);
  if (G.part_d) CK(cudaFree(G.part_d), NULL);
  free(G.gbl_h);
  free(G.part_h);
  for (int i = 0; i < G.ncalls_made; i++) {
    CK(cudaEventDestroy(G.calls[i].start), NULL);
    CK(cudaEventDestroy(G.calls[i].stop), NULL);
  }
  memset(&G, 0, sizeof G);
}

void op_cuda_dat_forget(op_dat dat) {
  if (dat->data_d) CK(cudaFree(dat->data_d), dat->name);
  dat->data_d = NULL;
}

/* Rows for every element held here: on many processes the halos too. */
static size_t dat_bytes(op_dat d) { return (size_t)op_set_held(d->set) * (size_t)d->size; }

void op_backend_dat_to_host(op_dat dat) {
  if (!dat->data_d || !(dat->where & OP_DAT_DEVICE_CURRENT) || dat_bytes(dat) == 0) return;
  CK(cudaMemcpy(dat->data, dat->data_d, dat_bytes(dat), cudaMemcpyDeviceToHost), dat->name);
}

/* ---- device copies -------------------------------------------------------------------- */

static void dat_to_device(op_dat d, const char *loop) {
  size_t bytes = dat_bytes(d);
  if (!d->data_d) CK(cudaMalloc((void **)&d->data_d, bytes ? bytes : 8), loop);
  if (!(d->where & OP_DAT_DEVICE_CURRENT)) {
    if (bytes) CK(cudaMemcpy(d->data_d, d->data, bytes, cudaMemcpyHostToDevice), loop);
    d->where |= OP_DAT_DEVICE_CURRENT;
  }
}

void *op_cuda_dat_d(op_dat dat) { return dat ? dat->data_d : NULL; }

static void map_to_device(op_map m, const char *loop) {
  if (m->index >= G.nmap_d) {
    int n = m->index + 16;
    G.map_d = op_realloc(G.map_d, sizeof(void *) * (size_t)n);
    for (int i = G.nmap_d; i < n; i++) G.map_d[i] = NULL;
    G.nmap_d = n;
  }
  if (G.map_d[m->index]) return;
  /* Rows for the elements a loop runs: on many processes the execute halo too. */
  size_t bytes = sizeof(int) * (size_t)(m->from->size + m->from->exec_size) * (size_t)m->dim;
  CK(cudaMalloc(&G.map_d[m->index], bytes ? bytes : 8), loop);
  if (bytes) CK(cudaMemcpy(G.map_d[m->index], m->map, bytes, cudaMemcpyHostToDevice), loop);
}

const int *op_cuda_map_d(op_map map) {
  return map && map->index < G.nmap_d ? (const int *)G.map_d[map->index] : NULL;
}

const int *op_cuda_gid_d(op_set set) {
  if (!set || !set->gid) return NULL; /* one process: the index is the number */
  if (set->index >= G.ngid_d) {
    int n = set->index + 16;
    G.gid_d = op_realloc(G.gid_d, sizeof(void *) * (size_t)n);
    for (int i = G.ngid_d; i < n; i++) G.gid_d[i] = NULL;
    G.ngid_d = n;
  }
  if (!G.gid_d[set->index]) {
    size_t bytes = sizeof(int) * (size_t)op_set_held(set);
    CK(cudaMalloc(&G.gid_d[set->index], bytes ? bytes : 8), set->name);
    if (bytes) CK(cudaMemcpy(G.gid_d[set->index], set->gid, bytes, cudaMemcpyHostToDevice), set->name);
  }
  return (const int *)G.gid_d[set->index];
}

static const op_cuda_plan_d *plan_to_device(const op_plan *p, const char *loop) {
  for (int i = 0; i < G.nplans; i++)
    if (G.plans[i].plan == p) return &G.plans[i].pd;
  op_cuda_plan_image img;
  op_cuda_plan_pack(p, &img);
  if (G.nplans == G.cap_plans) {
    G.cap_plans = G.cap_plans ? 2 * G.cap_plans : 16;
    G.plans = op_realloc(G.plans, sizeof(*G.plans) * (size_t)G.cap_plans);
  }
  struct plan_d *pd = &G.plans[G.nplans++];
  pd->plan = p;
  CK(cudaMalloc((void **)&pd->buf, sizeof(int) * img.nints), loop);
  CK(cudaMemcpy(pd->buf, img.image, sizeof(int) * img.nints, cudaMemcpyHostToDevice), loop);
  op_cuda_plan_pointers(&img, pd->buf, &pd->pd);
  op_cuda_plan_image_free(&img);
  return &pd->pd;
}

/* Grows a device (and matching host) scratch buffer. */
static void grow(char **dev, char **host, size_t *have, size_t need, const char *loop) {
  if (need <= *have) return;
  size_t n = *have ? *have : 4096;
  while (n < need) n *= 2;
  if (*dev) CK(cudaFree(*dev), loop);
  CK(cudaMalloc((void **)dev, n), loop);
  free(*host);
  *host = op_malloc(n);
  *have = n;
}

/* What the runtime says of a kernel (threads per block its registers allow,
 * static shared memory), asked once per kernel. */
static struct kernel_info *kernel_info(const void *kernel, const char *loop) {
  for (int i = 0; i < G.nkernels; i++)
    if (G.kernels[i].fn == kernel) return &G.kernels[i];
  struct cudaFuncAttributes attr;
  CK(cudaFuncGetAttributes(&attr, kernel), loop);
  if (G.nkernels == G.cap_kernels) {
    G.cap_kernels = G.cap_kernels ? 2 * G.cap_kernels : 32;
    G.kernels = op_realloc(G.kernels, sizeof(*G.kernels) * (size_t)G.cap_kernels);
  }
  struct kernel_info *k = &G.kernels[G.nkernels++];
  k->fn = kernel;
  k->max_threads = attr.maxThreadsPerBlock;
  k->static_shared = attr.sharedSizeBytes;
  k->dyn_allowed = 48 * 1024 - (attr.sharedSizeBytes < 48 * 1024 ? attr.sharedSizeBytes : 0);
  return k;
}

/* ---- what a loop may do ------------------------------------------------------------------ */

/* Has per-CUDA-block partials: a reduction, or an op_arg_info travelling with one. */
static int is_reduction(const op_arg *a) {
  return (a->kind == OP_ARG_GBL && a->acc != OP_READ) || a->kind == OP_ARG_INFO;
}
/* Has a device copy of the user's value (read, or a reduction's start). */
static int is_global(const op_arg *a) { return a->kind == OP_ARG_GBL || a->kind == OP_ARG_INFO; }

/* The staged kernel indexes indirect dats as the generator grouped them (by
 * source text); the plan groups them by dat. They must agree. */
static int grouping_matches(const op_cuda_loop_desc *d, int nargs, const op_arg *args) {
  int first_arg[OP_CUDA_MAX_ARGS];
  int ngroups = 0;
  for (int i = 0; i < nargs; i++) {
    const op_arg *a = &args[i];
    int ind = a->kind == OP_ARG_DAT && a->map;
    if (ind && !a->dat) return 0;
    if (!ind) {
      if (d->gind[i] >= 0) return 0;
      continue;
    }
    int k;
    for (k = 0; k < ngroups; k++)
      if (args[first_arg[k]].dat == a->dat) break;
    if (k == ngroups) first_arg[ngroups++] = i;
    if (d->gind[i] != k) return 0;
  }
  return ngroups == d->ngind;
}

/* What each strategy's kernels read of a plan: one thread per element needs
 * no blocks at all (only the bytes counted for the timing table). */
static unsigned plan_parts(int strategy) {
  return strategy == OP_CUDA_STAGED   ? OP_PLAN_STAGED
         : strategy == OP_CUDA_COLOUR ? OP_PLAN_GLOBAL_COLOURS
                                      : OP_PLAN_SIZE_ONLY;
}

/* What the tuner's staged and colour candidates would cost to plan, in map
 * entries read, estimated from one look at the loop (remembered per loop):
 * a staged plan reads its indirect arguments' entries twice to renumber and
 * once per 32 element colours; a colour plan once per 32 colours of the
 * whole set. A loop needs at least as many colours as the most references
 * one written datum has (dense Jacobi: 4096 per row); a loop with no
 * clashes needs one. */
static struct loop_cost {
  char *name;
  int rows;
  long long staged, colour;
  int conflict_free;
} *known;
static int nknown, cap_known;

static void plan_costs_free(void) {
  for (int i = 0; i < nknown; i++) free(known[i].name);
  free(known);
  known = NULL;
  nknown = cap_known = 0;
}

static void plan_costs(const char *name, op_cuda_traits *t, int rows, int nargs,
                       const op_arg *args, int part) {
  for (int i = 0; i < nknown; i++)
    if (known[i].rows == rows && !strcmp(known[i].name, name)) {
      t->staged_cost = known[i].staged;
      t->colour_cost = known[i].colour;
      t->conflict_free = known[i].conflict_free;
      return;
    }
  int nind = 0, nwritten = 0;
  for (int i = 0; i < nargs; i++)
    if (args[i].kind == OP_ARG_DAT && args[i].map) {
      nind++;
      for (int j = 0; j < nargs; j++)
        if (args[j].kind == OP_ARG_DAT && args[j].map && args[j].dat == args[i].dat &&
            args[j].acc != OP_READ) {
          nwritten++;
          break;
        }
    }
  const int conflict_free = op_args_conflict_free(nargs, args, rows, 0);
  long most = 1; /* references of one written datum */
  if (!conflict_free) {
    for (int i = 0; i < nargs; i++) {
      const op_arg *a = &args[i];
      if (a->kind != OP_ARG_DAT || !a->map || a->acc == OP_READ) continue;
      int first = 1; /* count each dat once, over all its mapped arguments */
      for (int j = 0; j < i; j++)
        if (args[j].kind == OP_ARG_DAT && args[j].map && args[j].dat == a->dat &&
            args[j].acc != OP_READ)
          first = 0;
      if (!first) continue;
      int *refs = op_calloc((size_t)op_set_held(a->dat->set) + 1, sizeof(int));
      for (int j = 0; j < nargs; j++) {
        const op_arg *b = &args[j];
        if (b->kind != OP_ARG_DAT || !b->map || b->dat != a->dat) continue;
        for (long n = 0; n < rows; n++) {
          const int c = ++refs[b->map->map[n * b->map->dim + b->idx]];
          if (c > most) most = c;
        }
      }
      free(refs);
    }
  }
  const long block_colours = most < part ? most : part;
  struct loop_cost k;
  k.name = op_strdup(name);
  k.rows = rows;
  k.conflict_free = conflict_free;
  k.staged = (long long)rows * nind * (2 + (block_colours + 31) / 32);
  k.colour = (long long)rows * (1 + (long long)nwritten * ((most + 31) / 32));
  if (nknown == cap_known) {
    cap_known = cap_known ? 2 * cap_known : 16;
    known = op_realloc(known, sizeof(*known) * (size_t)cap_known);
  }
  known[nknown++] = k;
  t->staged_cost = k.staged;
  t->colour_cost = k.colour;
  t->conflict_free = conflict_free;
}

/* ---- the loop ----------------------------------------------------------------------------- */

void op_cuda_loop_begin(op_cuda_loop *C, const op_cuda_loop_desc *desc, const char *name,
                        op_set set, int nargs, const op_arg *args, const op_arg_sig *sig) {
  memset(C, 0, sizeof *C);
  C->desc = desc;
  C->name = name ? name : desc->kernel;
  /* The arguments first: what follows reads their maps. */
  op_loop_check_args(name, set, nargs, args, sig, desc->kernel, desc->where);
  OP_CHECK(G.ready, "op_par_loop \"%s\" (%s) called before op_init", C->name, desc->where);
  OP_CHECK(nargs <= OP_CUDA_MAX_ARGS, "loop \"%s\": %d arguments, the CUDA backend takes %d",
           C->name, nargs, OP_CUDA_MAX_ARGS);
  /* The device code passes op_arg_idx the library's own numbers; after
   * op_renumber they are not the user's (the CPU backends translate them). */
  for (int i = 0; i < nargs; i++)
    if (args[i].kind == OP_ARG_IDX && op_set_user_ids(args[i].map ? args[i].map->to : set))
      op_fatal("loop \"%s\" (%s), argument %d: op_arg_idx on a renumbered set is not supported "
               "by the CUDA backend (run without op_renumber)",
               C->name, desc->where, i);
  op_cuda_traits t;
  memset(&t, 0, sizeof t);
  t.indirect = desc->indirect;
  t.coalesced_ok = desc->has_coalesced;
  t.staged_ok = desc->has_staged && grouping_matches(desc, nargs, args);
  OP_CHECK(!desc->has_staged || desc->staged_kernel,
           "loop \"%s\" (%s): its generated code does not name its staged kernel; generate it "
           "again with this version's op2-gen",
           C->name, desc->where);
  /* One thread per element, increments atomic: right when no two elements
   * write one datum other than by increments (a write through a one-to-one
   * map column, as a structured grid's loop writes its own cell). */
  const int dpart = op_part_size();
  const int rows = op_loop_set_size(set, nargs, args);
  t.atomic_ok = desc->has_atomic && op_args_conflict_free(nargs, args, rows, 1);
  if (t.indirect) plan_costs(C->name, &t, rows, nargs, args, dpart);
  int begun = 0;
  for (;;) {
    op_cuda_config cfg = op_cuda_tune_choose(C->name, &t, dpart);
    int part = cfg.strategy == OP_CUDA_STAGED ? cfg.part : dpart;
    if (!begun) {
      op_loop_begin_part(&C->L, name, set, nargs, args, sig, desc->kernel, desc->where, part,
                         plan_parts(cfg.strategy));
      begun = 1;
    } else {
      C->L.plan = op_plan_get(C->L.name, set, part, nargs, args, plan_parts(cfg.strategy));
    }
    C->cfg = cfg;
    /* A staged block holds its partition's indirect data in dynamic shared
     * memory beside the kernel's static shared memory (its block reductions). */
    if (cfg.strategy == OP_CUDA_STAGED &&
        C->L.plan->nshared + kernel_info(desc->staged_kernel, C->name)->static_shared >
            G.shared_optin) {
      if (op_cuda_tune_is_fixed(C->name)) {
        /* Forced or default: run it another way rather than fail, and say
         * so once (later calls ask for the other way: op_cuda_tune_ran_as). */
        op_cuda_config alt = {t.atomic_ok ? OP_CUDA_ATOMIC : OP_CUDA_COLOUR, cfg.block, 0};
        op_warn("loop \"%s\": partition size %d needs %zu bytes of shared memory and the kernel "
                "%zu more, beyond the device's %zu; using %s instead (choose a smaller "
                "--op-part-size)",
                C->name, part, C->L.plan->nshared,
                kernel_info(desc->staged_kernel, C->name)->static_shared, G.shared_optin,
                op_cuda_strategy_name(alt.strategy));
        C->L.plan = op_plan_get(C->L.name, set, dpart, nargs, args, plan_parts(alt.strategy));
        op_cuda_tune_ran_as(C->name, cfg, alt);
        C->cfg = alt;
        break;
      }
      op_cuda_tune_reject(C->name, cfg);
      continue;
    }
    break;
  }
  C->plan = C->L.plan;
  C->block = C->cfg.block;
  C->max_grid = G.prop.multiProcessorCount * 2048 / (C->block > 0 ? C->block : 256) * 2;
  if (C->max_grid < 1) C->max_grid = 1;

  /* Dats, maps and plan on the device. */
  for (int i = 0; i < nargs; i++) {
    const op_arg *a = &args[i];
    if (a->kind == OP_ARG_DAT) dat_to_device(a->dat, C->name);
    if (a->kind != OP_ARG_GBL && a->map) map_to_device(a->map, C->name);
  }
  if (C->cfg.strategy == OP_CUDA_STAGED || C->cfg.strategy == OP_CUDA_COLOUR)
    C->pd = plan_to_device(C->plan, C->name);
  /* Many processes: the halos this loop reads, received and on the device
   * before any kernel runs (the kernels do not yet run the core elements
   * while halos are in flight, as the CPU backends do). */
  op_loop_wait(&C->L);

  /* Globals (read values and reductions' starting values) in one copy. */
  size_t gbytes = 0;
  for (int i = 0; i < nargs; i++)
    if (is_global(&args[i])) gbytes += ((size_t)args[i].size + 15) & ~(size_t)15;
  if (gbytes) {
    grow(&G.gbl_d, &G.gbl_h, &G.gbl_bytes, gbytes, C->name);
    size_t off = 0;
    for (int i = 0; i < nargs; i++) {
      if (!is_global(&args[i])) continue;
      memcpy(G.gbl_h + off, args[i].data, (size_t)args[i].size);
      C->gbl_d[i] = G.gbl_d + off;
      off += ((size_t)args[i].size + 15) & ~(size_t)15;
    }
    CK(cudaMemcpy(G.gbl_d, G.gbl_h, gbytes, cudaMemcpyHostToDevice), C->name);
  }
}

int op_cuda_grid(const op_cuda_loop *C, int count) {
  if (count <= 0) return 0;
  int g = (count - 1) / C->block + 1;
  return g < C->max_grid ? g : C->max_grid;
}

void op_cuda_loop_kernel(op_cuda_loop *C, const void *kernel, size_t shared) {
  struct kernel_info *k = kernel_info(kernel, C->name);
  if (C->block > k->max_threads) {
    /* The kernel's registers allow fewer threads: it runs, and is timed and
     * reported, with as many as it can have. */
    C->block = k->max_threads / 32 * 32;
    C->max_grid = G.prop.multiProcessorCount * 2048 / C->block * 2;
    op_cuda_config ran = C->cfg;
    ran.block = C->block;
    op_cuda_tune_ran_as(C->name, C->cfg, ran);
    C->cfg = ran;
  }
  if (shared > k->dyn_allowed) {
    if (shared + k->static_shared > G.shared_optin)
      op_fatal("loop \"%s\": %zu bytes of shared memory needed, the device allows %zu", C->name,
               shared + k->static_shared, G.shared_optin);
    CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)shared),
       C->name);
    k->dyn_allowed = shared;
  }
}

void op_cuda_loop_start(op_cuda_loop *C) {
  const op_plan *p = C->plan;
  int nparts = 0;
  switch (C->cfg.strategy) {
    case OP_CUDA_STAGED: nparts = p->nblocks; break;
    case OP_CUDA_COLOUR:
      for (int c = 0; c < p->gcolors; c++)
        nparts += op_cuda_grid(C, p->gcol_offset[c + 1] - p->gcol_offset[c]);
      break;
    default: nparts = op_cuda_grid(C, p->set_size); break;
  }
  C->nparts = nparts;
  size_t bytes = 0;
  for (int i = 0; i < C->L.nargs; i++)
    if (is_reduction(&C->L.args[i]))
      bytes += ((size_t)C->L.args[i].size * (size_t)nparts + 15) & ~(size_t)15;
  if (bytes) {
    grow(&G.part_d, &G.part_h, &G.part_bytes, bytes, C->name);
    size_t off = 0;
    for (int i = 0; i < C->L.nargs; i++) {
      if (!is_reduction(&C->L.args[i])) continue;
      C->part_d[i] = G.part_d + off;
      C->part_h[i] = G.part_h + off;
      off += ((size_t)C->L.args[i].size * (size_t)nparts + 15) & ~(size_t)15;
    }
  }
  if (G.npending == TIMED_CALLS) timed_calls_read();
  if (G.npending == G.ncalls_made) {
    CK(cudaEventCreate(&G.calls[G.ncalls_made].start), C->name);
    CK(cudaEventCreate(&G.calls[G.ncalls_made].stop), C->name);
    G.ncalls_made++;
  }
  struct timed_call *c = &G.calls[G.npending++];
  c->name = op_strdup(C->name);
  c->cfg = C->cfg;
  c->tune = C->L.set->size > 0;
  /* Many processes: the halo exchanges are host work after every loop, so
   * the host waits anyway and its clock times the call, as with loop. */
  C->L.device_timed = G.sync_needed && !op_dist;
  c->timer = C->L.device_timed ? C->L.timer : -1;
  CK(cudaEventRecord(c->start, 0), C->name);
  C->timing = 1;
}

void op_cuda_loop_launched(op_cuda_loop *C, const char *file, int line) {
  C->launches++;
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) op_cuda_fail((int)e, "<<<kernel launch>>>", C->name, file, line);
}

void op_cuda_loop_finish(op_cuda_loop *C) {
  if (C->timing) CK(cudaEventRecord(G.calls[G.npending - 1].stop, 0), C->name);
  size_t bytes = 0;
  for (int i = 0; i < C->L.nargs; i++)
    if (is_reduction(&C->L.args[i]))
      bytes += ((size_t)C->L.args[i].size * (size_t)C->nparts + 15) & ~(size_t)15;
  /* The host waits for this loop when it is told to wait for every loop,
   * when it needs the loop's reduction partials (the copy waits; errors of
   * the kernels surface there or at the stop event, naming the loop), or
   * when the tuner needs the time to choose the next call's configuration. */
  if (bytes) CK(cudaMemcpy(G.part_h, G.part_d, bytes, cudaMemcpyDeviceToHost), C->name);
  if (!C->L.device_timed || bytes || !op_cuda_tune_settled(C->name, NULL)) timed_calls_read();
}

void op_cuda_loop_end(op_cuda_loop *C) {
  for (int i = 0; i < C->L.nargs; i++) {
    const op_arg *a = &C->L.args[i];
    if (a->kind == OP_ARG_DAT && a->acc != OP_READ) a->dat->where = OP_DAT_DEVICE_CURRENT;
  }
  op_loop_end(&C->L);
}
