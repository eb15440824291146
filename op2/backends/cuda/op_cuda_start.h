/*
 * op_cuda_start.h - whether a CUDA program can run on this machine, from what
 * the CUDA runtime says of its devices at start-up. Plain C, so that the
 * rule is unit-tested without a GPU (op2/tests/test_cuda_plan.c).
 *
 * Exit 77 ("skipped" to ctest and the scripts) means one thing: there is no
 * CUDA device here to run on. Every other start-up error, a driver older than
 * the runtime among them, fails and names itself: a skip would hide it.
 */
#ifndef OP_CUDA_START_H
#define OP_CUDA_START_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The runtime's error numbers the rule tells apart (cudaError_t values; the
 * backend checks them against the runtime's header). */
#define OP_CUDA_ERR_SUCCESS 0
#define OP_CUDA_ERR_INSUFFICIENT_DRIVER 35
#define OP_CUDA_ERR_NO_DEVICE 100

typedef enum { OP_CUDA_START_RUN, OP_CUDA_START_SKIP, OP_CUDA_START_FAIL } op_cuda_start;

/* From cudaGetDeviceCount's error `err` (its message `message`) and count,
 * and whether a CUDA driver is installed: run, skip (no device: none found,
 * or no driver at all, which the runtime reports as an insufficient driver)
 * or fail. Writes the reason, for the message, into why. */
op_cuda_start op_cuda_start_verdict(int err, const char *message, int count, int driver_installed,
                                    char *why, size_t whylen);

/* Whether the CUDA driver library can be loaded (libcuda.so.1). */
int op_cuda_driver_library_loads(void);

#ifdef __cplusplus
}
#endif

#endif
