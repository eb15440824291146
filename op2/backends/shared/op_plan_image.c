/*
 * op_plan_image.c - a plan's arrays in one int buffer (op_plan_image.h):
 * one allocation and one copy move a whole plan to a device.
 */
#include "op_plan_image.h"

#include <stdlib.h>
#include <string.h>

#include "op2_error.h"

long op_plan_image_put(op_plan_image *img, const int *src, size_t count) {
  while (img->n % 4) img->n++;
  if (img->n + count + 4 > img->cap) {
    while (img->n + count + 4 > img->cap) img->cap = img->cap ? 2 * img->cap : 1024;
    img->ints = op_realloc(img->ints, sizeof(int) * img->cap);
  }
  long at = (long)img->n;
  if (count) {
    if (src)
      memcpy(img->ints + img->n, src, sizeof(int) * count);
    else
      memset(img->ints + img->n, 0, sizeof(int) * count);
  }
  img->n += count;
  return at;
}

void op_plan_image_finish(op_plan_image *img) {
  op_plan_image_put(img, NULL, 0);
  if (!img->ints) {
    img->ints = op_calloc(4, sizeof(int));
    img->cap = 4;
  }
  if (!img->n) img->n = 4;
}

void op_plan_image_free(op_plan_image *img) {
  free(img->ints);
  memset(img, 0, sizeof *img);
}
