/*
 * op_cuda_rt.h - the CUDA runtime API as the backend's host code sees it: the
 * real one, or (OP_CUDA_EMULATE) the CPU emulation in emu/ that runs the
 * generated kernels on the host for tests without a GPU (docs/cuda.md).
 */
#ifndef OP_CUDA_RT_H
#define OP_CUDA_RT_H

#ifdef OP_CUDA_EMULATE
#include "op_cuda_emu.h"
#else
#include <cuda_runtime_api.h>
#endif

#endif
