/*
 * op_plan_image.h - a plan's arrays laid end to end in one int buffer, each
 * at an offset, for the backends that copy a plan to a device in a single
 * transfer (cuda, offload). Host-side only: which arrays go in, and the copy
 * to the device, are each backend's own.
 */
#ifndef OP_PLAN_IMAGE_H
#define OP_PLAN_IMAGE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  int *ints;
  size_t n, cap; /* ints in use, ints allocated */
} op_plan_image;

/* Appends count ints at the next 16-byte-aligned offset and returns that
 * offset: copied from src, or zeros for the caller to fill (src NULL; fill
 * before the next put, which may move the buffer). */
long op_plan_image_put(op_plan_image *img, const int *src, size_t count);
/* Pads the end to 16 bytes and makes sure there is a buffer (4 ints when
 * nothing was put), so that a device copy always has something to hold. */
void op_plan_image_finish(op_plan_image *img);
void op_plan_image_free(op_plan_image *img);

#ifdef __cplusplus
}
#endif

#endif
