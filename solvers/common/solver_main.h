/*
 * solver_main.h - the start and the end that the solvers' mains share, so
 * that every solver reads its command line, takes its output folder, stops
 * on an I/O failure and hands over its results the same way.
 *
 *   const double t_start = op_wtime();
 *   int status;
 *   deck *d = solver_main_start("airfoil", keys, NKEYS, &argc, argv, &status);
 *   if (!d) return status;
 *   solver_io io; solver_io_init(&io); ... the solver's inputs and output names ...
 *   ... solver_main_outputs(...), the run, the verdicts printed ...
 *   status = solver_main_finish(&out, &verdicts, fill_result, &ctx, "history.csv, ...", err, len);
 *   op_exit(); ... frees ...; return status;
 *
 * heat's tutorial form (heat_<backend> [n [nsteps]]) reads its command line
 * its own way, and takes the outputs and the end from here.
 */
#ifndef SOLVER_COMMON_MAIN_H
#define SOLVER_COMMON_MAIN_H

#include <stddef.h>
#include <stdio.h>

#include "deck.h"
#include "solver_limits.h"
#include "solver_output.h"
#include "solver_verdict.h"

/* op_init_strip_options, noting first the file the library's options name
 * (--op-tune-file=F: the CUDA backend reads F at the start and writes it at
 * op_exit), an input of the run for solver_main_outputs. solver_main_start
 * calls it; a main that reads its command line its own way calls it in place
 * of op_init_strip_options. */
void solver_main_op_init(int *argc, char **argv);

/* op_init (the --op-... options taken out of argv), the deck from the rest
 * of the command line (--help followed by the OP2 options, --version), and
 * the effective parameters printed, a deck of their own. Returns the deck to
 * run with; or NULL, everything freed and op_exit called, with what main
 * returns in *status: 0 after --help or --version, 2 after an error (printed
 * "SOLVER: ..." on stderr). */
deck *solver_main_start(const char *solver, const deck_key *keys, int nkeys, int *argc, char **argv,
                        int *status);

/* Takes output_dir (solver_output_open), refusing a run whose outputs would
 * replace one of its inputs: those io declares, the deck and the tune file;
 * and checks that what the run needs (need, estimated beforehand) fits the
 * limits the deck sets and the machine (solver_limits_check). Returns 0, or
 * -1 with the message in err; the caller then ends with exit(2), not through
 * op_exit, which would write the tune file the refusal keeps. */
int solver_main_outputs(solver_output *out, const char *solver, const deck *d, const solver_io *io,
                        const solver_estimate *need, char *err, size_t errlen);

/* The end of a run: result.json written into the staging directory through
 * fill (solver_result_write), the outputs moved into place, output_dir when
 * every verdict passed, output_dir/failed otherwise (solver_output_finish),
 * and where they are printed, listing `what` (solver_output_report). Returns
 * the exit status (solver_exit_status), or -1 with the message in err when
 * result.json or the move fails. */
int solver_main_finish(solver_output *out, solver_verdicts *v, void (*fill)(FILE *f, void *ctx),
                       void *ctx, const char *what, char *err, size_t errlen);

/* Collective: each process says whether it refuses the run (found) and why
 * (message). On one process, the refusal is printed ("SOLVER: MESSAGE" on
 * stderr); on many, only the first process that found one prints its own,
 * the others stay silent, so that a refusal every process makes (a deck
 * key, a file all of them read) is printed once. Returns 1 on every process
 * when any refused, else 0; the caller then ends the run (exit 2). */
int solver_refuse_once(int found, const char *solver, const char *message);

/* Stops the run on a failed file operation: "SOLVER: cannot WHAT PATH:
 * strerror(errno)" on stderr (the path as op_text_shown shows it), exit 2. */
void solver_fail_io(const char *solver, const char *what, const char *path)
    __attribute__((noreturn));

#endif
