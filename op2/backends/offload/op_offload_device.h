/*
 * op_offload_device.h - inside the offload backend: the device chosen at
 * op_init and the copies kept on it (op_offload_loop.c).
 */
#ifndef OP_OFFLOAD_DEVICE_H
#define OP_OFFLOAD_DEVICE_H

#include "op_offload.h"

/* Starts using OpenMP device `device` (the initial device: the host) with
 * the options given (kept by reference). */
void op_offload_device_init(int device, const op_offload_options *opt);
/* Frees every device copy. */
void op_offload_device_exit(void);
/* Frees the device copy of a dat about to be freed (op_free_dat_temp). */
void op_offload_dat_forget(op_dat d);
int op_offload_device(void);
/* 1 when the regions run on the host. */
int op_offload_on_host(void);

#endif
