/*
 * solver_lock.c - the lock of an output folder (solver_lock.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#define _DEFAULT_SOURCE /* flock(2) */

#include "solver_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "op_text.h"
#include "op_tmpname.h"

static char lock_path[8192];
static int lock_fd = -1;
static volatile sig_atomic_t lock_held; /* read by the signal handler */

/* The first line of the lock file: who holds (or held) it. */
static void read_holder(int fd, char *holder, size_t len) {
  ssize_t got = pread(fd, holder, len - 1, 0);
  holder[got > 0 ? got : 0] = '\0';
  holder[strcspn(holder, "\n")] = '\0';
}

/* The holder removes the file before it releases the lock: a run that opened
 * the file just before is told by its inode that the file it then locks is
 * no longer the lock, and tries again. */
int solver_lock_take(const char *solver, const char *dir, const char *shown, char *err,
                     size_t errlen) {
  if (snprintf(lock_path, sizeof lock_path, "%s/%s", dir, SOLVER_LOCK_NAME) >=
      (int)sizeof lock_path) {
    op_text_format(err, errlen, "%s: path too long for its lock file", shown);
    return -1;
  }
  for (int tries = 0; tries < 10; tries++) {
    int fd = open(lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) {
      op_text_format(err, errlen, "%s: cannot create the lock file %s: %s", shown,
                     SOLVER_LOCK_NAME, strerror(errno));
      return -1;
    }
    char holder[256], said[OP_TEXT_SHOWN];
    read_holder(fd, holder, sizeof holder);
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int e = errno;
      close(fd);
      if (e == EWOULDBLOCK) {
        op_text_format(err, errlen,
                       "%s is in use by another run (%s): two runs writing into one output_dir "
                       "would mix their results; wait for that one to end, or give this run "
                       "another output_dir",
                       shown, holder[0] ? op_text_shown(said, sizeof said, holder) : "unknown");
        return -1;
      }
      if (e == ENOLCK || e == EOPNOTSUPP || e == EINVAL) {
        printf("%s: note: %s cannot be locked on its file system (%s): nothing keeps a second "
               "run out of it\n",
               solver, shown, strerror(e));
        return 0;
      }
      op_text_format(err, errlen, "%s: cannot lock %s: %s", shown, SOLVER_LOCK_NAME, strerror(e));
      return -1;
    }
    struct stat mine, now;
    if (fstat(fd, &mine) != 0 || stat(lock_path, &now) != 0 || mine.st_ino != now.st_ino ||
        mine.st_dev != now.st_dev) {
      close(fd); /* removed by the run that held it, between our open and our lock */
      continue;
    }
    read_holder(fd, holder, sizeof holder); /* under the lock: what a run that is gone left */
    if (holder[0])
      printf("%s: took over the lock of %s, left by a run that is gone (%s)\n", solver, shown,
             op_text_shown(said, sizeof said, holder));
    char since[32] = "unknown", line[256];
    time_t t = time(NULL);
    struct tm tm;
    if (t != (time_t)-1 && gmtime_r(&t, &tm)) strftime(since, sizeof since, "%Y-%m-%dT%H:%M:%SZ", &tm);
    int len = snprintf(line, sizeof line, "pid %ld on host %s, since %s\n", (long)getpid(),
                       op_tmp_host(), since);
    /* Who holds it, for the message of a run refused: best effort (on a full
     * disk the lock holds without it, and the run's own checks say what is
     * wrong). */
    if (ftruncate(fd, 0) != 0 || pwrite(fd, line, (size_t)len, 0) != len) (void)ftruncate(fd, 0);
    lock_fd = fd;
    lock_held = 1;
    return 0;
  }
  op_text_format(err, errlen, "%s: cannot take the lock %s: it keeps being replaced", shown,
                 SOLVER_LOCK_NAME);
  return -1;
}

void solver_lock_release(void) {
  if (lock_fd < 0) return;
  lock_held = 0;
  (void)unlink(lock_path); /* before the lock goes: see solver_lock_take */
  close(lock_fd);
  lock_fd = -1;
}

void solver_lock_drop_signal_safe(void) {
  if (lock_held) unlink(lock_path);
}
