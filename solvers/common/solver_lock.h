/*
 * solver_lock.h - one run at a time in an output folder (solver_output.h).
 *
 * A lock file, DIR/.lock, holding who has the folder ("pid P on host H, since
 * DATE"), locked with flock(2): the kernel releases the lock when its process
 * ends, however it ends, so a file a killed run left is no obstacle: the next
 * run takes it over and says so. A second run while the first holds it is
 * refused, naming the first.
 */
#ifndef SOLVER_COMMON_LOCK_H
#define SOLVER_COMMON_LOCK_H

#include <stddef.h>

#define SOLVER_LOCK_NAME ".lock"

/* Takes dir's lock for this process (solver names the program in notices,
 * shown is dir made safe to print). Returns 0 (also where the file system
 * has no locks: a note says nothing keeps a second run out), or -1 with the
 * message in err ("DIR is in use by another run (pid ...): ..."). */
int solver_lock_take(const char *solver, const char *dir, const char *shown, char *err,
                     size_t errlen);

/* Removes the lock file and releases the lock (nothing when none is held). */
void solver_lock_release(void);

/* The same from a signal handler: removes the lock file (the kernel releases
 * the lock as the process dies). */
void solver_lock_drop_signal_safe(void);

#endif
