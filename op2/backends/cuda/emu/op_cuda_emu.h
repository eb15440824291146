/*
 * op_cuda_emu.h - a CPU emulation of the part of CUDA that the backend and
 * the generated loop code use, so that the generated kernels run (slowly) on
 * a machine without a GPU, in the unit tests.
 *
 * Not a CUDA implementation: one block runs at a time, its threads as
 * cooperative fibers on one host thread. They switch only at __syncthreads,
 * __syncwarp and shuffles, so data races inside a phase go unseen (that is
 * compute-sanitizer's job on a GPU). What it does catch: wrong indexing,
 * reading shared or device memory that was never written (both start filled
 * with 0xff bytes: NaN for floating point), overruns of device allocations and
 * of dynamic shared memory (guard bytes), barriers not reached by every thread
 * (a fatal "barrier divergence"), launches CUDA would refuse (block size,
 * shared memory above 48 KiB without cudaFuncSetAttribute), and dependence on
 * the order of blocks (blocks of a launch run last to first). With
 * OP_CUDA_EMU_ORDER=reverse, blocks run first to last and the threads of a
 * block in the opposite order in every round: a run in each order giving
 * different results shows a dependence on the order of threads inside a phase
 * (a read of what another thread writes in the same phase) or of blocks.
 * The device it plays is set by the environment for tests at a device's
 * limits (no device, a start-up error, no driver, fewer threads per block,
 * kernels' static shared memory, less shared memory per block): the
 * OP_CUDA_EMU_* variables of docs/cuda.md, "Testing without a GPU".
 * The host waits as it would on a GPU: an event recorded is complete only
 * after a call that waits for the device (cudaEventSynchronize of it or of a
 * later event, cudaDeviceSynchronize, a copy to the host); its time read
 * before that is cudaErrorNotReady, as on a GPU whose kernels still run.
 * With OP_CUDA_EMU_REPORT=1 the program ends by printing its launches and
 * host waits (the count a GPU would wait that many times).
 */
#ifndef OP_CUDA_EMU_H
#define OP_CUDA_EMU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInsufficientDriver = 35,
  cudaErrorInvalidDevice = 101,
  cudaErrorNoDevice = 100,
  cudaErrorNotReady = 600,
  cudaErrorLaunchFailure = 719
} cudaError_t;

typedef enum {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4
} cudaMemcpyKind;

enum cudaFuncAttribute { cudaFuncAttributeMaxDynamicSharedMemorySize = 8 };

struct cudaDeviceProp {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  size_t sharedMemPerBlockOptin;
  int warpSize;
  int maxThreadsPerBlock;
  int multiProcessorCount;
  int major, minor;
};

struct cudaFuncAttributes {
  size_t sharedSizeBytes;
  int maxThreadsPerBlock;
  int numRegs;
};

typedef struct op_emu_event *cudaEvent_t;
typedef struct op_emu_stream *cudaStream_t;

cudaError_t cudaGetDeviceCount(int *count);
/* Whether a CUDA driver is installed (the real backend asks the dynamic loader). */
int op_cuda_emu_driver_installed(void);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaMalloc(void **ptr, size_t bytes);
cudaError_t cudaFree(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemset(void *dst, int value, size_t bytes);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaGetLastError(void);
const char *cudaGetErrorString(cudaError_t err);
cudaError_t cudaEventCreate(cudaEvent_t *ev);
cudaError_t cudaEventDestroy(cudaEvent_t ev);
cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t ev);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop);
cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value);

#ifdef __cplusplus
}

/* ---- the device side, for generated code compiled as host C++ ---- */
#include <cstdint>
#include <cstring>
#include <functional>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __shared__ static
#define __constant__

struct dim3 {
  unsigned x, y, z;
  dim3(unsigned a = 1, unsigned b = 1, unsigned c = 1) : x(a), y(b), z(c) {}
};
typedef dim3 uint3;

extern uint3 threadIdx, blockIdx;
extern dim3 blockDim, gridDim;

void op_emu_launch(const void *fn, const char *name, dim3 grid, dim3 block, size_t shared,
                   std::function<void()> body);
void *op_emu_dynamic_shared(void);
/* For tests: the order of OP_CUDA_EMU_ORDER (0 default, 1 reverse). */
void op_emu_set_order(int reversed);
void __syncthreads(void);
void __syncwarp(unsigned mask = 0xffffffffu);
/* Exchanges 8 bytes through the warp: the value of lane (lane + delta). */
uint64_t op_emu_shfl_down(uint64_t bits, unsigned delta);

template <typename T> T __shfl_down_sync(unsigned mask, T v, unsigned delta) {
  (void)mask;
  uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof v);
  bits = op_emu_shfl_down(bits, delta);
  T r;
  std::memcpy(&r, &bits, sizeof r);
  return r;
}

/* Fibers never interleave between switches: a plain update is atomic. */
template <typename T> T atomicAdd(T *addr, T v) {
  T old = *addr;
  *addr = old + v;
  return old;
}

template <typename T>
cudaError_t cudaMemcpyToSymbol(T &symbol, const void *src, size_t bytes, size_t offset = 0,
                               cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
  (void)kind;
  if (offset + bytes > sizeof(T)) return cudaErrorInvalidValue;
  std::memcpy(reinterpret_cast<char *>(&symbol) + offset, src, bytes);
  return cudaSuccess;
}

#endif

#endif
