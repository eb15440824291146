/* node_kernels.h - two of inckern's kernels in one header, neither named
 * after it, with a helper they share, a system header of the C++ library
 * (which must not see the device backends' redefinitions) and a header
 * that includes this one back (a cycle, broken by the include guards). */
#ifndef INCKERN_NODE_KERNELS_H
#define INCKERN_NODE_KERNELS_H

#include <iostream>

#include "node_helpers.h"
#include "inckern_sizes.h"

inline void init_node(const int *id, double *q) {
  for (int k = 0; k < NCOMP; k++) q[k] = scaled(*id + k, weights[k]);
}

inline void sum_node(const double *q, double *total) {
  for (int k = 0; k < NCOMP; k++) *total += q[k];
}

#endif
