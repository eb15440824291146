/*
 * solver_history.h - a run's history (one CSV row per step or iteration, or
 * per output), kept in memory and written whole through
 * write_file_atomically: a reader never sees half a file, and a run stopped
 * between two writes leaves the history of the last one.
 */
#ifndef SOLVER_COMMON_HISTORY_H
#define SOLVER_COMMON_HISTORY_H

#include <stddef.h>

typedef struct {
  char *text; /* the header line, then the rows */
  size_t len, cap;
  int failed; /* out of memory: rows were lost (solver_history_write says so) */
} solver_history;

/* header: the column names, comma-separated, without the newline. */
void solver_history_init(solver_history *h, const char *header);
void solver_history_add(solver_history *h, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Writes the history to path (atomically). Returns 0, or -1 with the reason
 * in err. */
int solver_history_write(const solver_history *h, const char *path, char *err, size_t errlen);
void solver_history_free(solver_history *h);

#endif
