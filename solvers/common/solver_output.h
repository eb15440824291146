/*
 * solver_output.h - where a run writes, so that a run that fails never
 * destroys the results of the last one that passed.
 *
 * A run takes output_dir for itself (a lock file, output_dir/.lock, holding
 * its pid and host: a second run on the same folder is refused naming the
 * first; the lock of a run that is gone is taken over with a notice), then
 * writes all its outputs into a staging directory of its own inside
 * output_dir (".run-HOST-PID"); nothing of output_dir is touched while it
 * runs. When it ends:
 *   - every verdict passed: each file is renamed into output_dir (one
 *     rename(2) each, so a reader sees the old file or the new one; in name
 *     order, result.json last); when one cannot be (a directory of that
 *     name), the ones moved are moved back, the earlier files restored, and
 *     the run's files go to output_dir/failed; files an earlier run wrote and
 *     this one did not (by the earlier result.json's list of its files) are
 *     moved into output_dir/earlier, so that output_dir holds one run's set;
 *   - a verdict failed (diverged, not converged, interrupted): the staging
 *     directory becomes output_dir/failed (replacing an earlier failed run's),
 *     and the solver says so; the last good results stay where they were;
 *   - an error stops the run (a write fails, the disk is full, bad input found
 *     late): the staging directory is removed at exit(), and by the signal
 *     handlers when the run is killed by SIGINT, SIGTERM or SIGHUP;
 *   - a run killed outright (SIGKILL, a crash) leaves it behind: the next run
 *     with the same output_dir on this host removes the staging directories
 *     of processes that are gone.
 * A run whose outputs would replace one of its own inputs (solver_io.h) is
 * refused before it starts; when it passes, what earlier runs left that is
 * one of its inputs stays where it is.
 * Files meant to survive a failed run (airfoil's checkpoints) are written
 * straight into output_dir, each atomically, through solver_output_direct;
 * the one an earlier run left there is moved into output_dir/earlier before
 * the first write, unless it is the input the run continues (a restart).
 * When output_dir/failed cannot be replaced (a file of that name in the
 * way), the failed run's results go to a folder of their own,
 * output_dir/failed-XXXXXX, which no later run removes.
 * Temporaries are the process's own (op_tmpname.h): a killed run's are
 * removed by the next run that opens output_dir.
 */
#ifndef SOLVER_COMMON_OUTPUT_H
#define SOLVER_COMMON_OUTPUT_H

#include <stddef.h>

#include "op_text.h"
#include "solver_io.h"

#define SOLVER_OUTPUT_PATH 4096

typedef struct {
  const char *solver;
  char dir[SOLVER_OUTPUT_PATH];     /* output_dir */
  char shown[OP_TEXT_SHOWN];        /* output_dir, safe to print */
  char staging[SOLVER_OUTPUT_PATH + 128]; /* where the run writes: the outdir its code uses */
  /* After solver_output_finish: output_dir, .../failed or .../failed-XXXXXX. */
  char final[SOLVER_OUTPUT_PATH + 32];
  int open;
} solver_output;

/* Creates output_dir (and its parents), refuses a run whose outputs would
 * replace one of the inputs io declares (NULL: none declared), takes the
 * lock, creates the staging directory, removes what runs that are gone left
 * there, and arms the clean-up at exit and on signals. An empty or unusable
 * output_dir is an error. Returns 0, or -1 with the message in err
 * ("<output_dir>: ..."). */
int solver_output_open(solver_output *o, const char *solver, const char *output_dir,
                       const solver_io *io, char *err, size_t errlen);

/* dir/name for a file written straight into output_dir (not staged); its
 * temporary (op_tmp_name) is removed if the run is killed while writing it.
 * The first time a name is asked for, the file of that name an earlier run
 * left is moved into output_dir/earlier (saying so), unless it is the input
 * the run continues (solver_input.continued_as). Returns the path in buf, or
 * NULL (err set) when it does not fit or the earlier file cannot be set
 * aside. At most 8 names. Collective. */
const char *solver_output_direct(solver_output *o, const char *name, char *buf, size_t len,
                                 char *err, size_t errlen);

/* The paths of the files registered with solver_output_direct (at most max),
 * for result.json's list of the run's files. */
int solver_output_direct_files(const char **paths, int max);

/* The temporary to write path under (op_tmp_name: path.<host>-<pid>.tmp),
 * for a file outside output_dir that is renamed into place (a generated
 * mesh): it is removed if the run is killed or ends before the rename, and
 * those killed runs of this host left beside path are removed now (saying
 * so). Returns buf, or NULL when it does not fit or too many are registered
 * (16). Call after solver_output_open. */
const char *solver_output_temporary(const char *path, char *buf, size_t len);

/* Removes the temporaries of path (path.<host>-<pid>.tmp) that runs of this
 * host that are gone left beside it, saying so: every run that names the file
 * calls it, whether it writes the file or reads it, so that a run killed
 * while it wrote one (SIGKILL, which no handler sees) leaves it only until
 * the next run that uses the file. */
void solver_output_sweep_beside(const char *path);

/* Bytes free in output_dir's file system (for unprivileged users), or -1. */
double solver_output_free_bytes(const solver_output *o);

/* Checks that `bytes` (what is about to be written, known in advance) fit in
 * the free space; -1 with "<output_dir>: WHAT needs ... but only ... are free". */
int solver_output_reserve(const solver_output *o, double bytes, const char *what, char *err,
                          size_t errlen);

/* Moves the run's files into place: output_dir when passed, else
 * output_dir/failed (o->final says which). Returns 0, or -1 with the message
 * (the files then stay in the staging directory, named in it). */
int solver_output_finish(solver_output *o, int passed, char *err, size_t errlen);

/* Prints where the results are: "results in DIR (what)" for a run that
 * passed; for one that failed, that its results are in DIR/failed and that
 * output_dir keeps the last good ones. */
void solver_output_report(const solver_output *o, int passed, const char *what);

/* "1.5 GB", "320 MB", "12 KB": a size for a message. */
const char *solver_output_bytes(double bytes, char *buf, size_t len);

#endif
