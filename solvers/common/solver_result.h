/*
 * solver_result.h - the part of result.json every solver writes the same way.
 */
#ifndef SOLVER_COMMON_RESULT_H
#define SOLVER_COMMON_RESULT_H

#include <stdio.h>

#include "deck.h"
#include "result_json.h"

/* Starts result.json on f: opens the top-level object and writes solver,
 * backend, threads, part_size, deck and parameters. The solver then adds its
 * own keys and closes the object. */
void solver_result_begin(json_writer *w, FILE *f, const char *solver, const deck *d);

#endif
