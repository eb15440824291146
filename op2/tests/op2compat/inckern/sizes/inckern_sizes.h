/* inckern_sizes.h - the sizes inckern's constants are declared with, found
 * through the application's include directory (op2_application's
 * INCLUDE_DIRS), as an OP2 application's build passes -I. */
#ifndef INCKERN_SIZES_H
#define INCKERN_SIZES_H

#define NCOMP_BASE 2
#define NCOMP (NCOMP_BASE + 1) /* components of the node state */

/* The application's own declaration of its constant, sized by the macro: the
 * device backends' copies must agree with it. */
extern double weights[NCOMP];

#endif
