/*
 * solver_result.h - the part of result.json every solver writes the same way.
 */
#ifndef SOLVER_COMMON_RESULT_H
#define SOLVER_COMMON_RESULT_H

#include <stdio.h>

#include "deck.h"
#include "result_json.h"
#include "solver_verdict.h"

/* Starts result.json on f: opens the top-level object and writes solver,
 * backend, threads, part_size, deck and parameters. The solver then adds its
 * own keys and closes the object. */
void solver_result_begin(json_writer *w, FILE *f, const char *solver, const deck *d);

/* Ends result.json: the per-loop timings ("loops"), the verdicts
 * ("validation"), the closing of the top-level object. */
void solver_result_end(json_writer *w, const solver_verdicts *v);

/* Writes OUTDIR/result.json through fill (which calls begin and end),
 * atomically. Returns 0, or -1 with the reason in err. */
int solver_result_write(const char *outdir, void (*fill)(FILE *f, void *ctx), void *ctx,
                        char *err, size_t errlen);

#endif
