/*
 * op_backend_cuda.c - the CUDA backend's hooks (op2/include/op2_loop.h): its
 * options, device selection at op_init, constants, and the end. The device
 * copies and the host side of every generated loop are op_cuda_loop.c's.
 * See docs/cuda.md.
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
#include "op_cuda_start.h"
#include "op_dist.h"
#include "op_omp_threads.h"
#include "op_parallel.h"

/* Halo rows on many processes (op_cuda_halo.cu). */
extern const op_device_rows_ops op_cuda_device_rows;

static struct {
  op_cuda_options opt;
  op_cuda_const_updater updater;
  struct pending_const {
    char *name;
    void *data;
    size_t bytes;
  } *pending;
  int npending;
} G = {.opt = {.device = 0}};

/* ---- backend hooks ------------------------------------------------------------------- */

const char *op_backend_name(void) { return "cuda"; }
int op_num_threads(void) { return 1; }
/* Elements per plan block: one per thread of a 256-thread block (staged). */
int op_backend_default_part_size(void) { return 256; }

int op_backend_option(const char *arg) { return op_cuda_parse_option(&G.opt, arg); }

const char *op_backend_usage(void) {
  static char text[4096];
  snprintf(text, sizeof text, "%s%s",
           "  --op-device=N       CUDA device number (default 0; on many processes, each\n"
           "                      process's rank on its machine modulo the devices)\n"
           "  --op-threads=N      host threads for the library's own work: plans,\n"
           "                      declarations (default: OMP_NUM_THREADS or all cores)\n"
           "  --op-cuda-sync=loop|needed  CUDA: the host waits for every loop (loop, default)\n"
           "                      or only where it needs a value: a reduction, a host read,\n"
           "                      the tuner (needed; loop times read in a batch)\n",
           op_cuda_tune_usage());
  return text;
}

static void push_const(const char *name, const void *data, size_t bytes) {
  char err[512];
  if (G.updater(name, data, bytes, err, sizeof err) != 0) op_fatal("op_decl_const(%s): %s", name, err);
}

_Static_assert((int)cudaSuccess == OP_CUDA_ERR_SUCCESS &&
                   (int)cudaErrorInsufficientDriver == OP_CUDA_ERR_INSUFFICIENT_DRIVER &&
                   (int)cudaErrorNoDevice == OP_CUDA_ERR_NO_DEVICE,
               "op_cuda_start.h's error numbers are the runtime's");

static int driver_installed(void) {
#ifdef OP_CUDA_EMULATE
  return op_cuda_emu_driver_installed();
#else
  return op_cuda_driver_library_loads();
#endif
}

void op_backend_init(void) {
  /* Plans and declarations of big meshes are host work: over the host's
   * cores, as the OpenMP backend does it. */
  op_omp_threads_apply(G.opt.host_threads);
  op_set_parallel_for(op_omp_parallel_for);
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  char why[512];
  switch (op_cuda_start_verdict((int)e, cudaGetErrorString(e), n,
                                e == cudaErrorInsufficientDriver ? driver_installed() : 1, why,
                                sizeof why)) {
    case OP_CUDA_START_RUN: break;
    case OP_CUDA_START_SKIP:
      fprintf(stderr, "%s: skipping\n", why);
      exit(77);
    case OP_CUDA_START_FAIL: op_fatal("CUDA start-up: %s", why);
  }
  /* Many processes on a machine share its devices, one each in turn. */
  if (!G.opt.device_given && op_dist) G.opt.device = op_dist->local_rank % n;
  if (G.opt.device >= n)
    op_fatal("option --op-device=%d: only %d CUDA device(s)", G.opt.device, n);
  op_device_rows = &op_cuda_device_rows;
  op_cuda_device_init(G.opt.device);
  op_cuda_device_sync_needed(G.opt.sync_needed);
  op_timing_collect = op_cuda_timing_collect;
  op_cuda_tune_init();
  if (op_diags_level() >= 1) op_cuda_device_describe(G.opt.device);
  if (G.updater)
    for (int i = 0; i < G.npending; i++)
      push_const(G.pending[i].name, G.pending[i].data, G.pending[i].bytes);
}

void op_cuda_register_const_updater(op_cuda_const_updater fn) { G.updater = fn; }

void op_backend_const_declared(const char *name, const void *data, size_t bytes) {
  if (op_cuda_device_ready() && G.updater) {
    push_const(name, data, bytes);
    return;
  }
  /* Not yet possible: keep the latest value and push it once the device is up. */
  int i;
  for (i = 0; i < G.npending; i++)
    if (!strcmp(G.pending[i].name, name)) break;
  if (i == G.npending) {
    G.pending = op_realloc(G.pending, sizeof(*G.pending) * (size_t)(G.npending + 1));
    G.pending[i].name = op_strdup(name);
    G.pending[i].data = NULL;
    G.npending++;
  }
  free(G.pending[i].data);
  G.pending[i].data = op_malloc(bytes ? bytes : 1);
  memcpy(G.pending[i].data, data, bytes);
  G.pending[i].bytes = bytes;
}

void op_backend_dat_declared(op_dat dat) { (void)dat; }
void op_backend_dat_freed(op_dat dat) { op_cuda_dat_forget(dat); }

void op_backend_exit(void) {
  if (!op_cuda_device_ready()) return;
  op_cuda_timing_collect();
  op_timing_collect = NULL;
  op_cuda_tune_exit(op_diags_level(), op_cuda_device_name());
  op_cuda_device_exit();
  for (int i = 0; i < G.npending; i++) {
    free(G.pending[i].name);
    free(G.pending[i].data);
  }
  free(G.pending);
  op_cuda_tune_reset();
  op_cuda_const_updater keep = G.updater;
  memset(&G, 0, sizeof G);
  G.updater = keep;
}
