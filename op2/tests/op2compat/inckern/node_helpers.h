/* node_helpers.h - a helper of inckern's kernels, beside them. */
#ifndef INCKERN_NODE_HELPERS_H
#define INCKERN_NODE_HELPERS_H

#include "node_kernels.h" /* back: a cycle of includes */

static inline double scaled(int v, double w) { return w * v; }

#endif
