/*
 * op_cuda_emu.cpp - the CPU emulation of CUDA described in op_cuda_emu.h:
 * device memory with guards, events, function attributes, and kernels run
 * block after block with the block's threads as fibers (ucontext).
 */
#include "op_cuda_emu.h"

#include <sys/mman.h>
#include <time.h>
#include <ucontext.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <vector>

uint3 threadIdx, blockIdx;
dim3 blockDim, gridDim;

namespace {

const size_t kGuard = 64;
const unsigned char kGuardByte = 0xa5;
const uint64_t kMagic = 0x6f70326375646121ull;
const size_t kStack = 128 * 1024;
const int kMaxThreads = 1024;

std::map<void *, size_t> allocations; /* user pointer -> bytes */
std::map<const void *, int> dyn_limit; /* kernel -> dynamic shared memory allowed */
cudaError_t last_error = cudaSuccess;

enum State { RUNNABLE, AT_BLOCK, AT_WARP, DONE };
struct Fiber {
  ucontext_t ctx;
  State state;
};
Fiber fibers[kMaxThreads];
char *stacks;
ucontext_t sched_ctx;
int current;
int nthreads;
std::function<void()> *body;
unsigned char *dyn_shared;
uint64_t shfl_buf[kMaxThreads];
const char *kernel_name;
/* OP_CUDA_EMU_ORDER=reverse: blocks first to last and threads of each block
 * last to first in the first round (the default is the opposite of both).
 * A kernel whose result depends on the order of threads inside a phase or of
 * blocks inside a launch gives different results in the two orders. */
int reverse_order = -1;

int order_reversed() {
  if (reverse_order < 0) {
    const char *v = std::getenv("OP_CUDA_EMU_ORDER");
    if (!v || !*v || !std::strcmp(v, "default"))
      reverse_order = 0;
    else if (!std::strcmp(v, "reverse"))
      reverse_order = 1;
    else {
      std::fprintf(stderr, "CUDA emulation: OP_CUDA_EMU_ORDER=%s: expected default or reverse\n", v);
      std::exit(2);
    }
  }
  return reverse_order;
}

/* A device property the tests set through the environment (docs/cuda.md,
 * "Testing without a GPU"): `name` as an integer in [lo, hi], else `dflt`. */
long env_property(const char *name, long dflt, long lo, long hi) {
  const char *v = std::getenv(name);
  if (!v || !*v) return dflt;
  char *end;
  long x = std::strtol(v, &end, 10);
  if (*end || x < lo || x > hi) {
    std::fprintf(stderr, "CUDA emulation: %s=%s: expected an integer in [%ld, %ld]\n", name, v, lo,
                 hi);
    std::exit(2);
  }
  return x;
}
/* Threads per block a kernel's registers allow, and its static shared memory. */
int kernel_max_threads() {
  return (int)env_property("OP_CUDA_EMU_KERNEL_MAX_THREADS", kMaxThreads, 32, kMaxThreads);
}
size_t kernel_static_shared() {
  return (size_t)env_property("OP_CUDA_EMU_KERNEL_STATIC_SHARED", 0, 0, 48 * 1024);
}
/* Shared memory one block may have, static and dynamic together. */
size_t shared_optin() {
  return (size_t)env_property("OP_CUDA_EMU_SHARED_OPTIN", 227 * 1024, 48 * 1024, 227 * 1024);
}

[[noreturn]] void die(const char *what) {
  std::fprintf(stderr, "CUDA emulation: %s (kernel %s, block %u, thread %u)\n", what,
               kernel_name ? kernel_name : "-", blockIdx.x, threadIdx.x);
  std::abort();
}

void check_guards(void *p, size_t bytes) {
  const unsigned char *c = static_cast<unsigned char *>(p);
  const uint64_t *magic = reinterpret_cast<const uint64_t *>(c - 32);
  if (*magic != kMagic) die("device allocation header overwritten (write before the start)");
  for (size_t i = 0; i < kGuard; i++)
    if (c[bytes + i] != kGuardByte) die("write past the end of a device allocation");
}

void check_all_guards() {
  for (auto &a : allocations) check_guards(a.first, a.second);
}

double now() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void trampoline() {
  (*body)();
  fibers[current].state = DONE;
}

void yield(State s) {
  fibers[current].state = s;
  swapcontext(&fibers[current].ctx, &sched_ctx);
}

void run_block() {
  for (int i = 0; i < nthreads; i++) {
    Fiber &f = fibers[i];
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = stacks + (size_t)i * kStack;
    f.ctx.uc_stack.ss_size = kStack;
    f.ctx.uc_link = &sched_ctx;
    makecontext(&f.ctx, trampoline, 0);
    f.state = RUNNABLE;
  }
  for (int round = 0;; round++) {
    for (int k = 0; k < nthreads; k++) {
      /* Alternate the order from one round to the next. */
      int i = ((round + reverse_order) % 2 == 0) ? k : nthreads - 1 - k;
      if (fibers[i].state != RUNNABLE) continue;
      current = i;
      threadIdx = uint3(i, 0, 0);
      swapcontext(&sched_ctx, &fibers[i].ctx);
    }
    int done = 0, at_block = 0;
    for (int i = 0; i < nthreads; i++) {
      done += fibers[i].state == DONE;
      at_block += fibers[i].state == AT_BLOCK;
    }
    if (done == nthreads) return;
    bool released = false;
    for (int w = 0; w * 32 < nthreads; w++) {
      int lo = w * 32, hi = lo + 32 < nthreads ? lo + 32 : nthreads, n = 0;
      for (int i = lo; i < hi; i++) n += fibers[i].state == AT_WARP;
      if (n == hi - lo) {
        for (int i = lo; i < hi; i++) fibers[i].state = RUNNABLE;
        released = true;
      }
    }
    if (released) continue;
    if (at_block == nthreads) {
      for (int i = 0; i < nthreads; i++) fibers[i].state = RUNNABLE;
      continue;
    }
    threadIdx = uint3(0, 0, 0);
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  "barrier divergence: %d of %d threads finished, %d wait at __syncthreads, the "
                  "rest at __syncwarp",
                  done, nthreads, at_block);
    die(msg);
  }
}

}  // namespace

/* Records and waits: an event is complete once a wait came after its record.
 * A wait counts when the device had work queued since the last one (a launch
 * or an event): what would stall the host on a GPU. */
static long records, waited_through, host_waits, launches;
static int queued;

static void host_wait(void) {
  if (queued) host_waits++;
  queued = 0;
  waited_through = records;
}

namespace {
struct report_at_exit {
  ~report_at_exit() {
    const char *r = std::getenv("OP_CUDA_EMU_REPORT");
    if (r && !std::strcmp(r, "1"))
      std::fprintf(stderr, "cuda emulation: %ld launches, %ld host waits\n", launches, host_waits);
  }
} report;
}  // namespace

void op_emu_launch(const void *fn, const char *name, dim3 grid, dim3 block, size_t shared,
                   std::function<void()> kernel) {
  kernel_name = name;
  launches++;
  queued = 1;
  if (grid.x < 1 || grid.y != 1 || grid.z != 1 || block.x < 1 ||
      block.x > (unsigned)kernel_max_threads() || block.y != 1 || block.z != 1) {
    last_error = cudaErrorInvalidConfiguration;
    return;
  }
  int allowed = 48 * 1024 - (int)kernel_static_shared();
  auto it = dyn_limit.find(fn);
  if (it != dyn_limit.end() && it->second > allowed) allowed = it->second;
  if (shared > (size_t)allowed || shared + kernel_static_shared() > shared_optin()) {
    last_error = cudaErrorInvalidValue;
    return;
  }
  if (!stacks) {
    void *p = mmap(nullptr, kStack * kMaxThreads, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) die("cannot map fiber stacks");
    stacks = static_cast<char *>(p);
  }
  body = &kernel;
  nthreads = (int)block.x;
  blockDim = block;
  gridDim = grid;
  dyn_shared = static_cast<unsigned char *>(std::malloc(shared + kGuard));
  if (!dyn_shared) die("out of memory for shared memory");
  /* Blocks of one launch run concurrently on a GPU: run them last to first
   * (first to last with OP_CUDA_EMU_ORDER=reverse). */
  const int rev = order_reversed();
  for (int j = 0; j < (int)grid.x; j++) {
    const int b = rev ? j : (int)grid.x - 1 - j;
    blockIdx = uint3((unsigned)b, 0, 0);
    std::memset(dyn_shared, 0xff, shared);
    std::memset(dyn_shared + shared, kGuardByte, kGuard);
    run_block();
    for (size_t i = 0; i < kGuard; i++)
      if (dyn_shared[shared + i] != kGuardByte) die("write past the end of dynamic shared memory");
  }
  std::free(dyn_shared);
  dyn_shared = nullptr;
  check_all_guards();
  kernel_name = nullptr;
}

void *op_emu_dynamic_shared(void) { return dyn_shared; }

void op_emu_set_order(int reversed) { reverse_order = reversed ? 1 : 0; }

void __syncthreads(void) { yield(AT_BLOCK); }
void __syncwarp(unsigned mask) {
  if (mask != 0xffffffffu) die("__syncwarp with a partial mask is not emulated");
  yield(AT_WARP);
}

uint64_t op_emu_shfl_down(uint64_t bits, unsigned delta) {
  unsigned lane = threadIdx.x & 31u, base = threadIdx.x & ~31u;
  shfl_buf[threadIdx.x] = bits;
  __syncwarp();
  unsigned src = lane + delta;
  uint64_t r = (src < 32 && base + src < blockDim.x) ? shfl_buf[base + src] : bits;
  __syncwarp();
  return r;
}

/* ---- the runtime API ---- */

struct op_emu_event {
  double t;
  long recorded; /* the number of the record, 0 never recorded */
};


extern "C" {

/* OP_CUDA_EMU_DEVICES=0 plays a machine without a device, and
 * OP_CUDA_EMU_START_ERROR=N a runtime that fails with error N at start-up. */
cudaError_t cudaGetDeviceCount(int *count) {
  const long err = env_property("OP_CUDA_EMU_START_ERROR", 0, 0, 100000);
  *count = err ? 0 : (int)env_property("OP_CUDA_EMU_DEVICES", 1, 0, 1);
  return (cudaError_t)err;
}

/* OP_CUDA_EMU_DRIVER=0 plays a machine with no CUDA driver installed. */
int op_cuda_emu_driver_installed(void) {
  return (int)env_property("OP_CUDA_EMU_DRIVER", 1, 0, 1);
}

cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : cudaErrorInvalidDevice; }

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device) {
  if (device != 0) return cudaErrorInvalidDevice;
  std::memset(p, 0, sizeof *p);
  std::snprintf(p->name, sizeof p->name, "CUDA emulation on the CPU (op2 emu)");
  p->totalGlobalMem = (size_t)16 << 30;
  p->sharedMemPerBlock = 48 * 1024;
  p->sharedMemPerBlockOptin = shared_optin();
  p->warpSize = 32;
  p->maxThreadsPerBlock = kMaxThreads;
  p->multiProcessorCount = 4;
  p->major = 9;
  p->minor = 0;
  return cudaSuccess;
}

cudaError_t cudaMalloc(void **ptr, size_t bytes) {
  unsigned char *raw = static_cast<unsigned char *>(std::malloc(32 + bytes + kGuard));
  if (!raw) return cudaErrorMemoryAllocation;
  unsigned char *p = raw + 32;
  *reinterpret_cast<uint64_t *>(p - 32) = kMagic;
  std::memset(p, 0xff, bytes); /* never-written device memory reads as NaN / -1 */
  std::memset(p + bytes, kGuardByte, kGuard);
  allocations[p] = bytes;
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void *ptr) {
  if (!ptr) return cudaSuccess;
  auto it = allocations.find(ptr);
  if (it == allocations.end()) return cudaErrorInvalidValue;
  check_guards(ptr, it->second);
  allocations.erase(it);
  std::free(static_cast<unsigned char *>(ptr) - 32);
  return cudaSuccess;
}

static bool inside_allocation(const void *p, size_t bytes) {
  const unsigned char *c = static_cast<const unsigned char *>(p);
  auto it = allocations.upper_bound(const_cast<void *>(p));
  if (it == allocations.begin()) return false;
  --it;
  const unsigned char *start = static_cast<const unsigned char *>(it->first);
  return c >= start && c + bytes <= start + it->second;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0) return cudaSuccess;
  if (!dst || !src) return cudaErrorInvalidValue;
  /* The copy must stay inside the device allocation it names. */
  if ((kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice) &&
      !inside_allocation(dst, bytes))
    return cudaErrorInvalidValue;
  if ((kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice) &&
      !inside_allocation(src, bytes))
    return cudaErrorInvalidValue;
  std::memcpy(dst, src, bytes);
  if (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDefault) host_wait();
  return cudaSuccess;
}

cudaError_t cudaMemset(void *dst, int value, size_t bytes) {
  if (bytes && !inside_allocation(dst, bytes)) return cudaErrorInvalidValue;
  std::memset(dst, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) {
  host_wait();
  return cudaSuccess;
}

cudaError_t cudaGetLastError(void) {
  cudaError_t e = last_error;
  last_error = cudaSuccess;
  return e;
}

const char *cudaGetErrorString(cudaError_t err) {
  switch (err) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorLaunchFailure: return "unspecified launch failure";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInsufficientDriver:
      return "CUDA driver version is insufficient for CUDA runtime version";
  }
  return "unknown error";
}

cudaError_t cudaEventCreate(cudaEvent_t *ev) {
  *ev = new op_emu_event{0.0, 0};
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t ev) {
  delete ev;
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t ev, cudaStream_t stream) {
  (void)stream;
  ev->t = now();
  ev->recorded = ++records;
  queued = 1;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t ev) {
  if (!ev->recorded) return cudaErrorInvalidValue;
  if (ev->recorded > waited_through) host_wait();
  return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop) {
  if (!start->recorded || !stop->recorded) return cudaErrorInvalidValue;
  if (start->recorded > waited_through || stop->recorded > waited_through) return cudaErrorNotReady;
  *ms = (float)((stop->t - start->t) * 1e3);
  return cudaSuccess;
}

cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func) {
  if (!func) return cudaErrorInvalidValue;
  attr->sharedSizeBytes = kernel_static_shared();
  attr->maxThreadsPerBlock = kernel_max_threads();
  attr->numRegs = 32;
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value) {
  if (!func || attr != cudaFuncAttributeMaxDynamicSharedMemorySize || value < 0 ||
      (size_t)value + kernel_static_shared() > shared_optin())
    return cudaErrorInvalidValue;
  dyn_limit[func] = value;
  return cudaSuccess;
}

}  // extern "C"
