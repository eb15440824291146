/*
 * op_cuda_kernel.h - what generated CUDA files include before the kernels:
 * launch and shared-memory macros, the checked-call macro, block reductions
 * and atomic increments. With OP_CUDA_EMULATE the same code compiles as host
 * C++ against the CPU emulation in emu/ (docs/cuda.md, "Testing without a GPU").
 */
#ifndef OP_CUDA_KERNEL_H
#define OP_CUDA_KERNEL_H

#ifdef OP_CUDA_EMULATE
#include "op_cuda_emu.h"
#else
#include <cuda_runtime.h>
#endif

#include "op2.h"
#include "op2_loop.h"
#include "op_cuda.h"

/* Every CUDA call in generated code: a failure names file, line, the call and the loop. */
#define OP_CUDA_CHECK(call, loop)                                                \
  do {                                                                           \
    cudaError_t e_ = (call);                                                     \
    if (e_ != cudaSuccess) op_cuda_fail((int)e_, #call, (loop), __FILE__, __LINE__); \
  } while (0)

#ifdef OP_CUDA_EMULATE
#define OP_CUDA_LAUNCH(kernel, grid, block, shared, ...) \
  op_emu_launch((const void *)(kernel), #kernel, (grid), (block), (shared), [=]() { kernel(__VA_ARGS__); })
/* The block's dynamic shared memory, 16-byte aligned. */
#define OP_CUDA_DYNAMIC_SHARED(name) char *name = (char *)op_emu_dynamic_shared()
#else
#define OP_CUDA_LAUNCH(kernel, grid, block, shared, ...) \
  kernel<<<(grid), (block), (shared)>>>(__VA_ARGS__)
#define OP_CUDA_DYNAMIC_SHARED(name)                                  \
  extern __shared__ __align__(16) unsigned char op_cuda_dyn_shared_[]; \
  char *name = (char *)op_cuda_dyn_shared_
#endif

/* Combining two values of a reduction: OP_INC, OP_MIN or OP_MAX, as the host's
 * op_reduce_blocks_* does. */
template <int ACC, typename T> __device__ __forceinline__ T op_cuda_combine(T a, T b) {
  if (ACC == OP_INC) return a + b;
  if (ACC == OP_MIN) return b < a ? b : a;
  return b > a ? b : a;
}

/* Reduces red[0..dim) over the threads of the block and writes the block's
 * result to out[0..dim) (thread 0). Every thread of the block must call it;
 * blockDim.x is a multiple of 32. The order of combination depends only on
 * the block size, so a given configuration is deterministic. */
template <int ACC, typename T>
__device__ void op_cuda_block_reduce(const T *red, int dim, T *out) {
  __shared__ T warp_part[32];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  for (int d = 0; d < dim; d++) {
    T v = red[d];
    for (int s = 16; s > 0; s >>= 1) v = op_cuda_combine<ACC>(v, __shfl_down_sync(0xffffffffu, v, s));
    __syncthreads(); /* warp_part is free again (previous component) */
    if (lane == 0) warp_part[warp] = v;
    __syncthreads();
    if (warp == 0) {
      /* Lanes past the last warp repeat warp 0's value: neutral for MIN and
       * MAX; for INC they add zero. */
      T w = lane < nwarps ? warp_part[lane] : (ACC == OP_INC ? (T)0 : warp_part[0]);
      for (int s = 16; s > 0; s >>= 1) w = op_cuda_combine<ACC>(w, __shfl_down_sync(0xffffffffu, w, s));
      if (lane == 0) out[d] = w;
    }
  }
}

/* A warp's shuffle reduction of (value, thread) pairs for OP_MIN or OP_MAX:
 * lane 0 ends with the best value and, of the threads that have it, the
 * lowest (so the winner does not depend on the shape of the tree). */
template <int ACC, typename T> __device__ __forceinline__ void op_cuda_warp_argreduce(T &v, int &who) {
  const int lane = threadIdx.x & 31;
  for (int s = 16; s > 0; s >>= 1) {
    const T ov = __shfl_down_sync(0xffffffffu, v, s);
    const int ow = __shfl_down_sync(0xffffffffu, who, s);
    if (lane + s < 32 && ((ACC == OP_MIN ? ov < v : ov > v) || (ov == v && ow < who))) {
      v = ov;
      who = ow;
    }
  }
}

/* One component of an OP_MIN/OP_MAX reduction that op_arg_info values travel
 * with: reduces v over the threads of the block, thread 0 writes the result
 * to *out, and every thread gets back the index of the thread whose value won
 * (of equal values, the lower thread's), which then writes its op_arg_info
 * values. Every thread of the block must call it; blockDim.x is a multiple of 32. */
template <int ACC, typename T> __device__ int op_cuda_block_argreduce(T v, T *out) {
  __shared__ T warp_val[32];
  __shared__ int warp_who[32];
  __shared__ int winner;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
  int who = (int)threadIdx.x;
  op_cuda_warp_argreduce<ACC>(v, who);
  __syncthreads(); /* the shared values are free again (previous component) */
  if (lane == 0) {
    warp_val[warp] = v;
    warp_who[warp] = who;
  }
  __syncthreads();
  if (warp == 0) {
    /* Lanes past the last warp repeat warp 0's pair, a candidate already. */
    T w = lane < nwarps ? warp_val[lane] : warp_val[0];
    int ww = lane < nwarps ? warp_who[lane] : warp_who[0];
    op_cuda_warp_argreduce<ACC>(w, ww);
    if (lane == 0) {
      *out = w;
      winner = ww;
    }
  }
  __syncthreads();
  return winner;
}

/* Rounds a shared-memory byte offset up to 8, as op_plan's nshared does. */
__device__ __forceinline__ size_t op_cuda_round8(size_t bytes) { return (bytes + 7) & ~(size_t)7; }

#endif
