/*
 * op_cuda_options.c - the CUDA backend's --op-... options: the device, the
 * host's threads, and the tuner's (op_cuda_tune.c).
 */
#include <stdlib.h>
#include <string.h>

#include "op2_error.h"
#include "op_cuda.h"
#include "op_cuda_device.h"
#include "op_omp_threads.h"

int op_cuda_parse_option(op_cuda_options *o, const char *arg) {
  if (!strncmp(arg, "--op-device=", 12)) {
    char *end;
    long v = strtol(arg + 12, &end, 10);
    if (end == arg + 12 || *end || v < 0 || v > 255)
      op_fatal("option %s: the device number must be an integer in [0, 255]", arg);
    o->device = (int)v;
    o->device_given = 1;
    return 1;
  }
  if (!strncmp(arg, "--op-cuda-sync=", 15)) {
    if (!strcmp(arg + 15, "loop"))
      o->sync_needed = 0;
    else if (!strcmp(arg + 15, "needed"))
      o->sync_needed = 1;
    else
      op_fatal("option %s: expected loop or needed", arg);
    return 1;
  }
  if (op_omp_threads_option(arg, &o->host_threads)) return 1;
  return op_cuda_tune_option(arg);
}
