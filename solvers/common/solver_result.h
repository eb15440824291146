/*
 * solver_result.h - the part of result.json every solver writes the same way
 * (docs/result-json.md: the format and its JSON schema).
 */
#ifndef SOLVER_COMMON_RESULT_H
#define SOLVER_COMMON_RESULT_H

#include <stdio.h>

#include "deck.h"
#include "result_json.h"
#include "solver_verdict.h"

/* The format's name and version in every result.json. The version goes up
 * when a key every solver writes changes meaning or goes away. */
#define SOLVER_RESULT_FORMAT "op2suite-result"
#define SOLVER_RESULT_FORMAT_VERSION 1

/* The wall times every solver reports under the same keys. */
typedef struct {
  double total;     /* from the start of main to the writing of result.json */
  double main_loop; /* the timed iterations or time steps, without output */
} solver_wall;

/* Starts result.json on f: opens the top-level object and writes format,
 * format_version, solver, backend, threads, part_size, deck, parameters,
 * build, machine and date. The solver then adds its own keys. */
void solver_result_begin(json_writer *w, FILE *f, const char *solver, const deck *d);

/* Ends result.json: wall_seconds_total and wall_seconds_main_loop, the
 * per-loop timings ("loops"), the verdicts ("validation"), the run's files
 * with their sizes and SHA-256 ("files": those in the directory result.json
 * is written into by solver_result_write, so write it after the others, and
 * those of solver_output_direct), and the closing of the top-level object. */
void solver_result_end(json_writer *w, const solver_verdicts *v, const solver_wall *wall);

/* Writes OUTDIR/result.json through fill (which calls begin and end),
 * atomically. Returns 0, or -1 with the reason in err. */
int solver_result_write(const char *outdir, void (*fill)(FILE *f, void *ctx), void *ctx,
                        char *err, size_t errlen);

#endif
