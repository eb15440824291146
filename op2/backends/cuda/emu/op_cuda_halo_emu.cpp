/* The halo rows of op_cuda_halo.cu over the CPU emulation (op2_cuda_emu). */
#include "../op_cuda_halo.cu"
