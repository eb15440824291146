/*
 * solver_io.h - the files a run reads and the names it writes into
 * output_dir, declared before it starts, so that a run whose outputs would
 * replace one of its own inputs is refused before it starts (exit 2,
 * docs/errors.md).
 *
 * A run replaces, in output_dir: the files of its output names (moved into
 * place at the end, or written there directly, as airfoil's checkpoints);
 * output_dir/failed as a whole (where a failed run's results go); and files
 * in output_dir/earlier (where it sets aside what earlier runs left). An
 * input at one of those places is refused, whether it is named directly,
 * through a symbolic link, or through another spelling of the folder (./, a
 * link to it): folders are compared by device and inode where they exist,
 * by the path they resolve to otherwise (a mesh still to be generated).
 */
#ifndef SOLVER_COMMON_IO_H
#define SOLVER_COMMON_IO_H

#include <stddef.h>

#define SOLVER_IO_MAX_INPUTS 8
#define SOLVER_IO_MAX_OUTPUTS 24
#define SOLVER_IO_NAME 64

typedef struct {
  const char *what;         /* "mesh", "deck", "restart", ...: how messages name it */
  const char *path;         /* as given; must outlive the run (a deck string, argv) */
  const char *continued_as; /* NULL, or the output name whose file continues this
                               input and may replace it (the checkpoint a restart
                               goes on writing) */
} solver_input;

typedef struct {
  solver_input in[SOLVER_IO_MAX_INPUTS];
  int nin;
  char out[SOLVER_IO_MAX_OUTPUTS][SOLVER_IO_NAME]; /* fnmatch(3) patterns */
  int nout;
} solver_io;

/* No input; the outputs every run writes (result.json, the lock file). */
void solver_io_init(solver_io *io);

/* Declares an input; a NULL or empty path declares nothing. More than
 * SOLVER_IO_MAX_INPUTS is a programming error (message on stderr, abort). */
void solver_io_input(solver_io *io, const char *what, const char *path, const char *continued_as);

/* Declares the name (an fnmatch(3) pattern: "u_*.h5") of files the run writes
 * into output_dir. Too many or too long is a programming error. */
void solver_io_output(solver_io *io, const char *pattern);

/* Checks every input against output_dir (which exists). Returns 0, or -1
 * with the message in err naming the input and what would replace it. */
int solver_io_check(const solver_io *io, const char *output_dir, const char *shown_dir, char *err,
                    size_t errlen);

/* 1 when dir/name is one of the inputs (named so, or reached through a
 * link); *continued_as (when not NULL) gets that input's continued_as. */
int solver_io_input_at(const solver_io *io, const char *dir, const char *name,
                       const char **continued_as);

/* 1 when name matches one of the declared output names. */
int solver_io_declares(const solver_io *io, const char *name);

#endif
