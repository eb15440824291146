/*
 * op2-gpu-bandwidth - a STREAM-like probe of the GPU's memory bandwidth, the
 * yardstick for the achieved GB/s of the loops in op_timing_output:
 *
 *   copy   b[i] = a[i]                 (2 x 8 bytes per element)
 *   scale  b[i] = s * a[i]             (2 x 8)
 *   triad  c[i] = a[i] + s * b[i]      (3 x 8)
 *
 * op2-gpu-bandwidth [--mib N] [--reps R] [--csv]
 * Exits 77 when there is no CUDA device (reported as skipped by ctest); any
 * other start-up error fails, naming it (op_cuda_start.h).
 */
#include <cuda_runtime.h>

#include "op_cuda_start.h"
#include "op_version.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    cudaError_t e_ = (call);                                                             \
    if (e_ != cudaSuccess) {                                                             \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,               \
              cudaGetErrorString(e_));                                                   \
      exit(1);                                                                           \
    }                                                                                    \
  } while (0)

__global__ void init(double *a, double *b, double *c, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x) {
    a[i] = 1.0;
    b[i] = 2.0;
    c[i] = 0.0;
  }
}

__global__ void copy(const double *__restrict__ a, double *__restrict__ b, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    b[i] = a[i];
}

__global__ void scale(const double *__restrict__ a, double *__restrict__ b, double s, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    b[i] = s * a[i];
}

__global__ void triad(const double *__restrict__ a, const double *__restrict__ b,
                      double *__restrict__ c, double s, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
       i += (size_t)blockDim.x * gridDim.x)
    c[i] = a[i] + s * b[i];
}

int main(int argc, char **argv) {
  if (op_asks_version(argc, argv)) {
    op_print_version("op2-gpu-bandwidth");
    return 0;
  }
  size_t mib = 1024;
  int reps = 20, csv = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--mib") && i + 1 < argc)
      mib = (size_t)strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
      reps = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--csv"))
      csv = 1;
    else {
      const int help = !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h");
      fprintf(help ? stdout : stderr,
              "usage: op2-gpu-bandwidth [--mib N] [--reps R] [--csv]\n"
              "  N MiB per array (default 1024), R timed repetitions (default 20)\n");
      return help ? 0 : 2;
    }
  }
  if (mib < 1 || reps < 1) {
    fprintf(stderr, "op2-gpu-bandwidth: --mib and --reps must be positive\n");
    return 2;
  }
  int ndev = 0;
  const cudaError_t e = cudaGetDeviceCount(&ndev);
  char why[512];
  switch (op_cuda_start_verdict((int)e, cudaGetErrorString(e), ndev,
                                e == cudaErrorInsufficientDriver ? op_cuda_driver_library_loads() : 1,
                                why, sizeof why)) {
    case OP_CUDA_START_RUN: break;
    case OP_CUDA_START_SKIP: fprintf(stderr, "op2-gpu-bandwidth: %s: skipping\n", why); return 77;
    case OP_CUDA_START_FAIL: fprintf(stderr, "op2-gpu-bandwidth: %s\n", why); return 1;
  }
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  const size_t n = mib * 1024 * 1024 / sizeof(double);
  double *a, *b, *c;
  CHECK(cudaMalloc(&a, n * sizeof(double)));
  CHECK(cudaMalloc(&b, n * sizeof(double)));
  CHECK(cudaMalloc(&c, n * sizeof(double)));
  const int block = 256, grid = prop.multiProcessorCount * 8;
  init<<<grid, block>>>(a, b, c, n);
  CHECK(cudaGetLastError());
  cudaEvent_t t0, t1;
  CHECK(cudaEventCreate(&t0));
  CHECK(cudaEventCreate(&t1));
  const char *names[3] = {"copy", "scale", "triad"};
  const double bytes[3] = {16.0 * n, 16.0 * n, 24.0 * n};
  double best[3] = {1e30, 1e30, 1e30};
  for (int r = 0; r <= reps; r++) {
    for (int k = 0; k < 3; k++) {
      CHECK(cudaEventRecord(t0));
      if (k == 0) copy<<<grid, block>>>(a, b, n);
      if (k == 1) scale<<<grid, block>>>(a, b, 3.0, n);
      if (k == 2) triad<<<grid, block>>>(a, b, c, 3.0, n);
      CHECK(cudaGetLastError());
      CHECK(cudaEventRecord(t1));
      CHECK(cudaEventSynchronize(t1));
      float ms;
      CHECK(cudaEventElapsedTime(&ms, t0, t1));
      if (r > 0 && ms * 1e-3 < best[k]) best[k] = ms * 1e-3; /* repetition 0 warms up */
    }
  }
  /* Check the last results: b = 3 a = 3, c = a + 3 b = 10. */
  double hb, hc;
  CHECK(cudaMemcpy(&hb, b + n - 1, sizeof hb, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&hc, c + n - 1, sizeof hc, cudaMemcpyDeviceToHost));
  if (hb != 3.0 || hc != 10.0) {
    fprintf(stderr, "op2-gpu-bandwidth: wrong results (%g, %g)\n", hb, hc);
    return 1;
  }
  if (csv) printf("device,kernel,mib,seconds,gbs\n");
  else printf("%s: %zu MiB per array, best of %d\n", prop.name, mib, reps);
  for (int k = 0; k < 3; k++) {
    if (csv)
      printf("%s,%s,%zu,%.6e,%.1f\n", prop.name, names[k], mib, best[k], bytes[k] / best[k] * 1e-9);
    else
      printf("  %-6s %10.1f GB/s\n", names[k], bytes[k] / best[k] * 1e-9);
  }
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  return 0;
}
