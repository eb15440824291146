/*
 * op_at_exit.h - op_exit's teardown, as a list the core's modules join. Not
 * for applications.
 *
 * A module that holds memory until op_exit (the registry, the plan cache,
 * what plans learnt of the maps' affine runs, interleaved runs and columns,
 * the numberings of op_renumber, the timing table, the profile's regions) joins
 * the list where it first allocates, with the function that frees what it
 * holds; op_exit runs the list once and empties it, so op_exit needs to know
 * no module by name, a module that allocated nothing is not run, and a module
 * joins again when it allocates after the next op_init.
 *
 * Order: the reverse of joining, as atexit's. The registry joins at the
 * first declaration, before anything can hold its sets, maps or dats (a plan,
 * a numbering, what the plans learnt of a map), so it is torn down after all
 * of them. The teardowns of today read no other module's state (each frees
 * its own arrays), so the order changes no result; it keeps a teardown that
 * would read an earlier module's state safe.
 */
#ifndef OP_AT_EXIT_H
#define OP_AT_EXIT_H

/* Most modules the list holds at once (the core has eight; one more than
 * this fails loudly where it first allocates, in every build). */
#define OP_AT_EXIT_MAX 16

typedef void (*op_teardown_fn)(void);

/* Joins fn (named `name`, a string that outlives the list) to op_exit's
 * teardown. A function already on the list keeps its place and runs once. */
void op_at_exit(op_teardown_fn fn, const char *name);

/* Runs the list, the last to join first, and empties it (op_exit). A module
 * that joins while the list runs is run in its turn, before this returns. */
void op_at_exit_run(void);

/* The modules on the list now, in the order they joined: how many, and the
 * name of the i-th (NULL outside [0, count)). For tests and diagnostics. */
int op_at_exit_count(void);
const char *op_at_exit_name(int i);

#endif
