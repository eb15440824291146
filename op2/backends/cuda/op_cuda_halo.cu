/*
 * op_cuda_halo.cu - halo rows of dats kept on the device, for the MPI layer's
 * exchanges (op_dist.h, op_device_rows_ops): the rows a neighbour needs are
 * gathered on the device into one buffer, copied to the host in one transfer
 * and put in place in the host copy, from which the layer sends them; the
 * rows received are one contiguous range (the halos), copied back in one
 * transfer. With OP_CUDA_EMULATE it compiles as host C++ against the CPU
 * emulation (emu/), so that the tests run it without a GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "op_cuda_kernel.h"
#include "op_dist.h"

/* out[k] = data[rows[k / size] * size + k % size]: byte by byte, n rows. */
__global__ void op_cuda_gather_rows(const char *data, const int *rows, int n, int size, char *out) {
  const size_t total = (size_t)n * (size_t)size;
  for (size_t k = (size_t)blockIdx.x * blockDim.x + threadIdx.x; k < total;
       k += (size_t)gridDim.x * blockDim.x)
    out[k] = data[(size_t)rows[k / (size_t)size] * (size_t)size + k % (size_t)size];
}

/* Device and host staging, grown as needed; the last row list copied to the
 * device, by its host address (a set's export list does not change). */
static struct {
  char *buf_d, *buf_h;
  size_t bytes;
  int *rows_d;
  const int *rows_h;
  int nrows, cap_rows;
} S;

static void grow_staging(size_t bytes, const char *what) {
  if (bytes <= S.bytes) return;
  if (S.buf_d) OP_CUDA_CHECK(cudaFree(S.buf_d), what);
  free(S.buf_h);
  OP_CUDA_CHECK(cudaMalloc((void **)&S.buf_d, bytes), what);
  S.buf_h = (char *)op_malloc(bytes);
  S.bytes = bytes;
}

static void rows_to_device_list(const int *rows, int n, const char *what) {
  if (rows == S.rows_h && n == S.nrows) return;
  if (n > S.cap_rows) {
    if (S.rows_d) OP_CUDA_CHECK(cudaFree(S.rows_d), what);
    OP_CUDA_CHECK(cudaMalloc((void **)&S.rows_d, sizeof(int) * (size_t)n), what);
    S.cap_rows = n;
  }
  OP_CUDA_CHECK(cudaMemcpy(S.rows_d, rows, sizeof(int) * (size_t)n, cudaMemcpyHostToDevice), what);
  S.rows_h = rows;
  S.nrows = n;
}

static void rows_to_host(op_dat d, const int *rows, int n) {
  const size_t bytes = (size_t)n * (size_t)d->size;
  grow_staging(bytes, d->name);
  rows_to_device_list(rows, n, d->name);
  const int block = 256;
  int grid = (int)((bytes + block - 1) / block);
  if (grid > 65535) grid = 65535;
  OP_CUDA_LAUNCH(op_cuda_gather_rows, grid, block, 0, (const char *)d->data_d, S.rows_d, n,
                 d->size, S.buf_d);
  OP_CUDA_CHECK(cudaGetLastError(), d->name);
  OP_CUDA_CHECK(cudaMemcpy(S.buf_h, S.buf_d, bytes, cudaMemcpyDeviceToHost), d->name);
  for (int k = 0; k < n; k++)
    memcpy(d->data + (size_t)rows[k] * (size_t)d->size, S.buf_h + (size_t)k * (size_t)d->size,
           (size_t)d->size);
}

static void rows_to_device(op_dat d, int first, int n) {
  const size_t off = (size_t)first * (size_t)d->size, bytes = (size_t)n * (size_t)d->size;
  OP_CUDA_CHECK(cudaMemcpy(d->data_d + off, d->data + off, bytes, cudaMemcpyHostToDevice), d->name);
}

/* extern "C" alone: a const object at namespace scope is otherwise local to the file. */
extern "C" const op_device_rows_ops op_cuda_device_rows = {rows_to_host, rows_to_device};

extern "C" void op_cuda_rows_free(void) {
  if (S.buf_d) OP_CUDA_CHECK(cudaFree(S.buf_d), NULL);
  if (S.rows_d) OP_CUDA_CHECK(cudaFree(S.rows_d), NULL);
  free(S.buf_h);
  memset(&S, 0, sizeof S);
}
