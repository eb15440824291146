/* user_types.h - types and helpers shared by the application and its kernels,
 * in OP2's convention: op2-gen includes this file in the loop code of every
 * backend, and its functions carry OP_FUN_PREFIX, which the CUDA loop code
 * defines as __host__ __device__ (elsewhere it is empty). No include guard, as
 * in OP2's own applications: it is included once per translation unit. */
#ifndef OP_FUN_PREFIX
#define OP_FUN_PREFIX
#endif

/* The precision of the node fields. */
typedef float op2app_real;

/* A value made unique by the element it belongs to: ties between elements
 * would leave the winner of a MIN/MAX to the order of evaluation. */
static inline OP_FUN_PREFIX op2app_real op2app_keyed(op2app_real v, int element) {
  return v + (op2app_real)element / (op2app_real)1024;
}
