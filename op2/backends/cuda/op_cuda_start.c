/*
 * op_cuda_start.c - the start-up rule of op_cuda_start.h.
 */
#include "op_cuda_start.h"

#include <dlfcn.h>
#include <stdio.h>

op_cuda_start op_cuda_start_verdict(int err, const char *message, int count, int driver_installed,
                                    char *why, size_t whylen) {
  if (!message) message = "?";
  if (err == OP_CUDA_ERR_SUCCESS && count > 0) {
    snprintf(why, whylen, "%d CUDA device(s)", count);
    return OP_CUDA_START_RUN;
  }
  if (err == OP_CUDA_ERR_SUCCESS || err == OP_CUDA_ERR_NO_DEVICE) {
    snprintf(why, whylen, "no CUDA device (%s)", err ? message : "the runtime found none");
    return OP_CUDA_START_SKIP;
  }
  if (err == OP_CUDA_ERR_INSUFFICIENT_DRIVER && !driver_installed) {
    snprintf(why, whylen, "no CUDA device (no CUDA driver installed: %s)", message);
    return OP_CUDA_START_SKIP;
  }
  if (err == OP_CUDA_ERR_INSUFFICIENT_DRIVER)
    snprintf(why, whylen,
             "cudaGetDeviceCount failed: %s (error %d): the installed CUDA driver is older than "
             "the CUDA runtime this program was built with; update the driver",
             message, err);
  else
    snprintf(why, whylen, "cudaGetDeviceCount failed: %s (error %d)", message, err);
  return OP_CUDA_START_FAIL;
}

int op_cuda_driver_library_loads(void) {
  void *h = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!h) return 0;
  dlclose(h);
  return 1;
}
