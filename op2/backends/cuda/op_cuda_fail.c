/*
 * op_cuda_fail.c - the CUDA backend's one fatal error: a failed CUDA call,
 * named with the call, the loop, the file and line, and CUDA's own message.
 * Every part of the backend that calls CUDA (the hooks, the loops, the halo
 * rows) stops through it; see docs/cuda.md.
 */
#include "op2_error.h"
#include "op_cuda.h"
#include "op_cuda_rt.h"

void op_cuda_fail(int err, const char *call, const char *loop, const char *file, int line) {
  op_fatal_at(file, line, "cuda", "CUDA call %s failed%s%s%s: %s (error %d)", call,
              loop ? " in loop \"" : "", loop ? loop : "", loop ? "\"" : "",
              cudaGetErrorString((cudaError_t)err), err);
}
