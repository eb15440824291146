/*
 * op_cuda_plan.c - the image of a plan that CUDA kernels read: every array of
 * the plan they index, concatenated into one int buffer so that one copy moves
 * it to the device (Giles, OP2 Developers Guide, 2011, section 3.5: "copies
 * the plan arrays over onto the GPU"), in ../shared/op_plan_image.c's buffer as offload's plans
 * are. Plain C: the unit tests check the image without a GPU.
 */
#include <stdlib.h>
#include <string.h>

#include "op2_error.h"
#include "op_cuda.h"
#include "op_plan_image.h"

void op_cuda_plan_pack(const op_plan *p, op_cuda_plan_image *img) {
  memset(img, 0, sizeof *img);
  op_plan_image b = {NULL, 0, 0};
  const size_t nb = (size_t)p->nblocks;
  img->blkmap = op_plan_image_put(&b, p->blkmap, nb);
  img->offset = op_plan_image_put(&b, p->offset, nb);
  img->nelems = op_plan_image_put(&b, p->nelems, nb);
  img->nthrcol = img->thrcol = img->ind_offs = img->ind_sizes = img->gcol_elems = -1;
  for (int i = 0; i < OP_CUDA_MAX_ARGS; i++) img->ind_maps[i] = img->loc_maps[i] = -1;
  OP_CHECK(p->nargs <= OP_CUDA_MAX_ARGS, "loop \"%s\": %d arguments, the CUDA backend takes %d",
           p->loop_name, p->nargs, OP_CUDA_MAX_ARGS);
  if (p->what & OP_PLAN_STAGED) {
    img->nthrcol = op_plan_image_put(&b, p->nthrcol, nb);
    img->thrcol = op_plan_image_put(&b, p->thrcol, (size_t)p->set_size);
    img->ind_offs = op_plan_image_put(&b, p->ind_offs, (size_t)p->ninds * nb);
    img->ind_sizes = op_plan_image_put(&b, p->ind_sizes, (size_t)p->ninds * nb);
    for (int k = 0; k < p->ninds; k++) {
      size_t total = 0;
      for (size_t blk = 0; blk < nb; blk++) total += (size_t)p->ind_sizes[(size_t)k * nb + blk];
      img->ind_maps[k] = op_plan_image_put(&b, p->ind_maps[k], total);
    }
    for (int i = 0; i < p->nargs; i++)
      if (p->loc_maps[i])
        img->loc_maps[i] = op_plan_image_put(&b, p->loc_maps[i], (size_t)p->set_size);
  }
  if (p->what & OP_PLAN_GLOBAL_COLOURS)
    img->gcol_elems = op_plan_image_put(&b, p->gcol_elems, (size_t)p->set_size);
  op_plan_image_finish(&b);
  img->image = b.ints;
  img->nints = b.n;
}

void op_cuda_plan_image_free(op_cuda_plan_image *img) {
  free(img->image);
  img->image = NULL;
}

static const int *at(const int *base, long off) { return off < 0 ? NULL : base + off; }

void op_cuda_plan_pointers(const op_cuda_plan_image *img, const int *base, op_cuda_plan_d *pd) {
  memset(pd, 0, sizeof *pd);
  pd->blkmap = at(base, img->blkmap);
  pd->offset = at(base, img->offset);
  pd->nelems = at(base, img->nelems);
  pd->nthrcol = at(base, img->nthrcol);
  pd->thrcol = at(base, img->thrcol);
  pd->ind_offs = at(base, img->ind_offs);
  pd->ind_sizes = at(base, img->ind_sizes);
  pd->gcol_elems = at(base, img->gcol_elems);
  for (int i = 0; i < OP_CUDA_MAX_ARGS; i++) {
    pd->ind_maps[i] = at(base, img->ind_maps[i]);
    pd->loc_maps[i] = at(base, img->loc_maps[i]);
  }
}
