/*
 * test_emu_order.cpp - the emulation's two orders (OP_CUDA_EMU_ORDER) expose
 * a kernel that depends on the order of threads inside a phase or of blocks
 * inside a launch, and leave a kernel that does not alone. Each planted
 * dependence must give different results in the two orders; the same kernels
 * with the barrier that orders them correctly must give the same.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "op_cuda_emu.h"

namespace {

const int kThreads = 64, kBlocks = 8;
int failures = 0;

/* Each thread writes its value to shared memory and reads its neighbour's;
 * with_barrier puts __syncthreads between the two. */
void neighbour(double *out, int with_barrier) {
  double *s = static_cast<double *>(op_emu_dynamic_shared());
  const int t = (int)threadIdx.x;
  s[t] = 1.0 + t + 100.0 * blockIdx.x;
  if (with_barrier) __syncthreads();
  out[blockIdx.x * blockDim.x + t] = s[(t + 1) % (int)blockDim.x];
}

/* Block b reads what block b - 1 writes in the same launch (wrong on a GPU:
 * blocks of a launch run in any order), unless the reads go to a second
 * launch. */
void chain_write(double *a) { a[blockIdx.x] = 10.0 + blockIdx.x; }
void chain_read(double *a, double *out) {
  out[blockIdx.x] = blockIdx.x > 0 ? a[blockIdx.x - 1] : 0.0;
}
void chain_both(double *a, double *out) {
  if (threadIdx.x == 0) {
    out[blockIdx.x] = blockIdx.x > 0 ? a[blockIdx.x - 1] : 0.0;
    a[blockIdx.x] = 10.0 + blockIdx.x;
  }
}

std::vector<double> run_neighbour(int reversed, int with_barrier) {
  op_emu_set_order(reversed);
  const size_t n = (size_t)kThreads * kBlocks;
  double *d = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&d), n * sizeof(double)) != cudaSuccess) std::abort();
  op_emu_launch((const void *)neighbour, "neighbour", dim3(kBlocks), dim3(kThreads),
                kThreads * sizeof(double), [&] { neighbour(d, with_barrier); });
  std::vector<double> h(n);
  if (cudaMemcpy(h.data(), d, n * sizeof(double), cudaMemcpyDeviceToHost) != cudaSuccess)
    std::abort();
  cudaFree(d);
  return h;
}

std::vector<double> run_chain(int reversed, int one_launch) {
  op_emu_set_order(reversed);
  double *a = nullptr, *out = nullptr;
  if (cudaMalloc(reinterpret_cast<void **>(&a), kBlocks * sizeof(double)) != cudaSuccess ||
      cudaMalloc(reinterpret_cast<void **>(&out), kBlocks * sizeof(double)) != cudaSuccess)
    std::abort();
  std::vector<double> zero(kBlocks, 0.0), h(kBlocks);
  if (cudaMemcpy(a, zero.data(), kBlocks * sizeof(double), cudaMemcpyHostToDevice) != cudaSuccess)
    std::abort();
  if (one_launch) {
    op_emu_launch((const void *)chain_both, "chain_both", dim3(kBlocks), dim3(32), 0,
                  [&] { chain_both(a, out); });
  } else {
    op_emu_launch((const void *)chain_write, "chain_write", dim3(kBlocks), dim3(32), 0,
                  [&] { chain_write(a); });
    op_emu_launch((const void *)chain_read, "chain_read", dim3(kBlocks), dim3(32), 0,
                  [&] { chain_read(a, out); });
  }
  if (cudaMemcpy(h.data(), out, kBlocks * sizeof(double), cudaMemcpyDeviceToHost) != cudaSuccess)
    std::abort();
  cudaFree(a);
  cudaFree(out);
  return h;
}

/* Bitwise: a never-written value reads as NaN, which == would call unequal to itself. */
bool same(const std::vector<double> &a, const std::vector<double> &b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

void expect(bool ok, const char *what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    failures++;
  }
}

}  // namespace

int main() {
  expect(!same(run_neighbour(0, 0), run_neighbour(1, 0)),
         "a read of another thread's write in the same phase gave the same result in both orders");
  expect(same(run_neighbour(0, 1), run_neighbour(1, 1)),
         "the same exchange across __syncthreads depends on the order");
  expect(!same(run_chain(0, 1), run_chain(1, 1)),
         "a block reading another block's write in one launch gave the same result in both orders");
  expect(same(run_chain(0, 0), run_chain(1, 0)), "the same exchange across two launches depends on the order");
  std::printf("emulation orders: %s\n", failures ? "FAILED" : "all checks passed");
  return failures ? 1 : 0;
}
