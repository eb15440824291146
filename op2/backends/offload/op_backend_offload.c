/*
 * op_backend_offload.c - the OpenMP target-offload backend: the library's
 * hooks, the choice of device, constants. Device copies and the host side of
 * every generated loop are in op_offload_loop.c. See docs/offload.md.
 *
 * The device is OpenMP's default device (or --op-device=N). With none (no
 * GPU, no driver, or OMP_TARGET_OFFLOAD=DISABLED) every region runs on the
 * host and the "device" copies are host buffers of their own; with
 * OMP_TARGET_OFFLOAD=MANDATORY and no device the program exits 77 (skipped,
 * for ctest), since there is nothing to test there.
 */
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_offload.h"
#include "op_offload_device.h"
#include "op_omp_threads.h"
#include "op_text.h"

enum { MODE_DEFAULT = 0, MODE_MANDATORY = 1, MODE_DISABLED = 2 };

static struct {
  int ready;
  op_offload_options opt;
  op_offload_const_updater updater;
  op_offload_probe probe;
} B = {.opt = {.device = -1, .strategy = -1}};

const char *op_backend_name(void) { return "offload"; }
/* Host threads when the regions run on the host; one device otherwise. */
int op_num_threads(void) { return op_offload_on_host() ? omp_get_max_threads() : 1; }
/* Elements per plan block: the blocks strategy runs a thread per block, the
 * others use the plan's colours only; 256 keeps blocks many and colours few. */
int op_backend_default_part_size(void) { return 256; }

int op_backend_option(const char *arg) { return op_offload_parse_option(&B.opt, arg); }

const char *op_backend_usage(void) {
  return "  --op-device=N       OpenMP device number (default: OpenMP's default device)\n"
         "  --op-offload-data=resident|loop\n"
         "                      dats stay on the device between loops (default), or are\n"
         "                      copied in and out around every loop (Mattson et al.'s first step)\n"
         "  --op-offload-strategy=atomic|colour|mask|blocks\n"
         "                      loops that write through a map: omp atomic increments\n"
         "                      (default where the loop only increments), the plan's global\n"
         "                      colouring, the same by a branch per element, or a thread per\n"
         "                      plan block (the CPU backends' order: seq's results bitwise)\n"
         "  --op-offload-layout=aos|soa\n"
         "                      multi-component dats on the device as on the host, or\n"
         "                      component by component (coalesced accesses)\n"
         "  --op-offload-host=parallel|target\n"
         "                      without a device: ordinary parallel loops (default), or\n"
         "                      the target regions by OpenMP's host fallback (slow: for\n"
         "                      testing that code path)\n"
         "  --op-offload-teams=N, --op-offload-thread-limit=N\n"
         "                      num_teams and thread_limit of the target regions (default\n"
         "                      0: the OpenMP runtime's choice)\n" OP_OMP_THREADS_USAGE
         "                      (without a device; the host fallback takes OMP_NUM_THREADS)\n";
}

void op_offload_register_app(op_offload_const_updater updater, op_offload_probe probe) {
  B.updater = updater;
  B.probe = probe;
}

static void push_const(const char *name, const void *data, size_t bytes) {
  char err[512];
  if (!B.updater) op_fatal("op_decl_const(%s): no offload code registered its constants", name);
  if (B.updater(op_offload_device(), name, data, bytes, err, sizeof err) != 0)
    op_fatal("op_decl_const(%s): %s", name, err);
}

/* Why OpenMP sees no device, for the message: the pieces GCC's offloading to
 * NVIDIA GPUs needs at run time. */
static const char *why_no_device(int mode) {
  if (mode == MODE_DISABLED) return "OMP_TARGET_OFFLOAD=DISABLED";
  void *h = dlopen("libgomp-plugin-nvptx.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!h) return "libgomp's nvptx plugin (libgomp-plugin-nvptx1) is not installed";
  dlclose(h);
  h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!h) return "no NVIDIA driver (libcuda.so.1 cannot be loaded)";
  dlclose(h);
  return "the NVIDIA driver reports no usable GPU";
}

void op_backend_init(void) {
  const char *env = getenv("OMP_TARGET_OFFLOAD");
  int mode = op_offload_target_offload_mode(env);
  if (mode < 0) {
    char shown[64];
    op_fatal("environment variable OMP_TARGET_OFFLOAD=\"%s\" is not DEFAULT, MANDATORY or "
             "DISABLED (OpenMP would ignore it with a warning)",
             op_text_shown(shown, sizeof shown, env));
  }
  op_omp_threads_apply(B.opt.threads);
  const int ndev = mode == MODE_DISABLED ? 0 : omp_get_num_devices();
  if (ndev == 0 && mode == MODE_MANDATORY) {
    fprintf(stderr, "no offload device: skipping (OMP_TARGET_OFFLOAD=MANDATORY, and OpenMP finds "
                    "no device: %s)\n",
            why_no_device(mode));
    exit(77);
  }
  if (ndev > 0 && B.opt.device >= ndev)
    op_fatal("option --op-device=%d: OpenMP finds %d device(s), numbered from 0", B.opt.device, ndev);
  int device = ndev == 0               ? omp_get_initial_device()
               : B.opt.device >= 0     ? B.opt.device
                                       : omp_get_default_device();
  if (ndev > 0 && B.probe && B.probe(device)) {
    /* Regions fall back to the host when the executable holds no code for
     * the device: then the data must live on the host too. */
    if (mode == MODE_MANDATORY)
      op_fatal("OMP_TARGET_OFFLOAD=MANDATORY, but a region for device %d ran on the host: the "
               "executable holds no code for that device (built without -foffload?)",
               device);
    op_warn("a region for device %d ran on the host: the executable holds no code for that "
            "device; running every loop on the host",
            device);
    device = omp_get_initial_device();
  }
  op_offload_device_init(device, &B.opt);
  if (op_offload_on_host() && mode == MODE_DEFAULT)
    fprintf(stderr, "offload: no device (%s): the loops run on the host (set "
                    "OMP_TARGET_OFFLOAD=DISABLED to silence this, MANDATORY to refuse)\n",
            why_no_device(mode));
  if (op_diags_level() >= 1)
    printf("OP2 offload: %d device(s); loops on %s (OpenMP device %d); data %s, layout %s, "
           "strategy %s\n",
           ndev, op_offload_on_host() ? "the host" : "the device", device,
           B.opt.per_loop ? "copied around every loop" : "resident", B.opt.soa ? "SoA" : "AoS",
           B.opt.strategy < 0 ? "default" : op_offload_strategy_name(B.opt.strategy));
  B.ready = 1;
}

/* op_decl_const needs op_init (core), so the device is chosen by now. */
void op_backend_const_declared(const char *name, const void *data, size_t bytes) {
  OP_CHECK(B.ready, "op_decl_const(%s) before op_init", name);
  push_const(name, data, bytes);
}

void op_backend_dat_declared(op_dat dat) { (void)dat; }
void op_backend_dat_freed(op_dat dat) { op_offload_dat_forget(dat); }

void op_backend_exit(void) {
  op_offload_device_exit();
  B.ready = 0;
}
