/*
 * op_cuda_device.h - inside the CUDA backend: its options
 * (op_cuda_options.c), the device chosen at op_init and the copies kept on it
 * (op_cuda_loop.c), for the hooks in op_backend_cuda.c; and the checked
 * runtime call they use.
 */
#ifndef OP_CUDA_DEVICE_H
#define OP_CUDA_DEVICE_H

#include "op_cuda.h"
#include "op_cuda_rt.h"

/* A CUDA runtime call, checked: a failure stops the program naming the call,
 * the loop (or NULL) and where (op_cuda_fail). */
#define CK(call, loop)                                                               \
  do {                                                                               \
    cudaError_t e_ = (call);                                                         \
    if (e_ != cudaSuccess) op_cuda_fail((int)e_, #call, (loop), __FILE__, __LINE__); \
  } while (0)

typedef struct {
  int device;       /* --op-device=N (default 0) */
  int device_given; /* 1 when --op-device was given */
  int host_threads; /* --op-threads: the host's share (plans, declarations) */
  int sync_needed;  /* --op-cuda-sync=needed: the host waits only where a value is needed */
} op_cuda_options;

/* Applies one --op-... option; returns 1 when it was one of the backend's
 * (fatal on a bad value), 0 when unknown. */
int op_cuda_parse_option(op_cuda_options *o, const char *arg);

/* Starts using CUDA device `device` (a valid number): its properties, the
 * loops' timing events. */
void op_cuda_device_init(int device);
/* --op-cuda-sync: 0 (loop) the host waits for every loop; 1 (needed) only
 * for a reduction, a host read or the tuner, reading the other loops' event
 * times in a batch. */
void op_cuda_device_sync_needed(int needed);
/* Reads the times of the calls not yet read (op_timing_collect). */
void op_cuda_timing_collect(void);
/* 1 between op_cuda_device_init and op_cuda_device_exit. */
int op_cuda_device_ready(void);
/* The device's name, for the tuner's file. */
const char *op_cuda_device_name(void);
/* The line --op-diags prints: the device, its size and shared memory. */
void op_cuda_device_describe(int device);
/* Frees the device copy of a dat about to be freed (op_free_dat_temp). */
void op_cuda_dat_forget(op_dat dat);
/* Frees every device copy (dats, maps, plans, scratch) and the events. */
void op_cuda_device_exit(void);

#endif
