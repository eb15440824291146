/*
 * solver_output.c - staged outputs, kept or set aside as a whole (see
 * solver_output.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#define _DEFAULT_SOURCE /* syscall(2), for the signal-safe clean-up */

#include "solver_output.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "op2.h"
#include "result_json.h"
#include "solver_interrupt.h"

#define STAGING_PREFIX ".run-"
#define FAILED_DIR "failed"
#define MAX_DIRECT 8


/* ---- clean-up: what a run leaves when it cannot finish ------------------------ */

/* Read by the signal handler: plain static storage, set before it is armed. */
static char kill_staging[SOLVER_OUTPUT_PATH + 128];
static char kill_tmp[MAX_DIRECT][SOLVER_OUTPUT_PATH + 8];
static volatile sig_atomic_t kill_ntmp;
static volatile sig_atomic_t armed;
static int atexit_registered;

/* Removes the files in dir, then dir (not recursive: staging directories are
 * flat). Returns 0 when dir is gone. Normal context only. */
static int remove_flat_dir(const char *dir) {
  DIR *dp = opendir(dir);
  if (!dp) return errno == ENOENT ? 0 : -1;
  struct dirent *e;
  char path[SOLVER_OUTPUT_PATH + 256];
  while ((e = readdir(dp)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) < (int)sizeof path)
      (void)unlink(path); /* best effort: rmdir below says whether all went */
  }
  closedir(dp);
  return rmdir(dir) == 0 || errno == ENOENT ? 0 : -1;
}

/* The same from a signal handler: open, getdents64, unlinkat and rmdir are
 * system calls, safe there (opendir/readdir are not). */
static void remove_staging_signal_safe(void) {
  for (int k = 0; k < kill_ntmp; k++) unlink(kill_tmp[k]);
#ifdef SYS_getdents64
  int fd = open(kill_staging, O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    char buf[4096] __attribute__((aligned(8)));
    for (int pass = 0; pass < 64; pass++) {
      long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
      if (n <= 0) break;
      for (long off = 0; off < n;) {
        /* struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2), d_type (1), d_name */
        unsigned short reclen;
        memcpy(&reclen, buf + off + 16, sizeof reclen);
        const char *name = buf + off + 19;
        if (strcmp(name, ".") != 0 && strcmp(name, "..") != 0) unlinkat(fd, name, 0);
        off += reclen;
      }
    }
    close(fd);
  }
#endif
  rmdir(kill_staging);
}

static void on_kill(void) {
  if (armed) remove_staging_signal_safe();
}

static void on_exit_cleanup(void) {
  if (!armed) return;
  armed = 0;
  for (int k = 0; k < kill_ntmp; k++) unlink(kill_tmp[k]);
  remove_flat_dir(kill_staging);
}

/* ---- opening ------------------------------------------------------------------- */

static void host_name(char *buf, size_t len) {
  if (gethostname(buf, len) != 0) snprintf(buf, len, "host");
  buf[len - 1] = '\0';
  for (char *p = buf; *p; p++) /* a file name part */
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
          *p == '-' || *p == '_'))
      *p = '_';
}

/* Removes the staging directories of runs on this host that are gone; counts
 * the live ones (other runs writing into the same output_dir). */
static int remove_stale(const solver_output *o, const char *host, int *live) {
  *live = 0;
  DIR *dp = opendir(o->dir);
  if (!dp) return -1;
  size_t plen = strlen(STAGING_PREFIX), hlen = strlen(host);
  struct dirent *e;
  char path[2 * SOLVER_OUTPUT_PATH];
  while ((e = readdir(dp)) != NULL) {
    const char *n = e->d_name;
    if (strncmp(n, STAGING_PREFIX, plen) != 0) continue;
    if (strncmp(n + plen, host, hlen) != 0 || n[plen + hlen] != '-') {
      ++*live; /* another host's: not ours to judge */
      continue;
    }
    char *end;
    long pid = strtol(n + plen + hlen + 1, &end, 10);
    if (*end != '\0' || pid <= 0) continue;
    if (pid == (long)getpid()) continue;
    if (kill((pid_t)pid, 0) == 0 || errno == EPERM) {
      ++*live;
      continue;
    }
    snprintf(path, sizeof path, "%s/%s", o->dir, n);
    if (remove_flat_dir(path) == 0)
      printf("%s: removed %s/%s, left by a run that was killed\n", o->solver, o->shown, n);
  }
  closedir(dp);
  return 0;
}

static int others_live;

static int open_root(solver_output *o, const char *solver, const char *output_dir, char *err,
                     size_t errlen);

/* On many processes the root makes the directories, writes every file and
 * moves them into place; the others hold the same names and write nothing. */
int solver_output_open(solver_output *o, const char *solver, const char *output_dir, char *err,
                       size_t errlen) {
  int rc = op_is_root() ? open_root(o, solver, output_dir, err, errlen) : 0;
  if (op_root_status(rc) != 0) return -1;
  if (!op_is_root()) {
    memset(o, 0, sizeof *o);
    o->solver = solver;
  }
  op_broadcast(o->dir, sizeof o->dir);
  op_broadcast(o->shown, sizeof o->shown);
  op_broadcast(o->staging, sizeof o->staging);
  o->open = 1;
  return 0;
}

static int open_root(solver_output *o, const char *solver, const char *output_dir, char *err,
                     size_t errlen) {
  memset(o, 0, sizeof *o);
  o->solver = solver;
  op_text_shown(o->shown, sizeof o->shown, output_dir ? output_dir : "");
  if (!output_dir || !output_dir[0]) {
    op_text_format(err, errlen, "output_dir is empty: name the directory for the results (e.g. "
                         "outputs/%s)", solver);
    return -1;
  }
  size_t n = strlen(output_dir);
  if (n + 64 >= sizeof o->dir) {
    op_text_format(err, errlen, "output_dir '%s' is too long (%zu bytes; at most %zu)", o->shown, n,
            sizeof o->dir - 64);
    return -1;
  }
  memcpy(o->dir, output_dir, n + 1);
  if (make_dirs(o->dir) != 0) {
    op_text_format(err, errlen, "%s: cannot create the output directory: %s", o->shown, strerror(errno));
    return -1;
  }
  if (access(o->dir, W_OK | X_OK) != 0) {
    op_text_format(err, errlen, "%s: cannot write into the output directory: %s", o->shown,
            strerror(errno));
    return -1;
  }
  char host[64];
  host_name(host, sizeof host);
  if (remove_stale(o, host, &others_live) != 0) {
    op_text_format(err, errlen, "%s: cannot list the output directory: %s", o->shown, strerror(errno));
    return -1;
  }
  snprintf(o->staging, sizeof o->staging, "%s/%s%s-%ld", o->dir, STAGING_PREFIX, host,
           (long)getpid());
  if (mkdir(o->staging, 0777) != 0 && !(errno == EEXIST && remove_flat_dir(o->staging) == 0 &&
                                          mkdir(o->staging, 0777) == 0)) {
    op_text_format(err, errlen, "%s: cannot create the run's directory %s: %s", o->shown,
            o->staging + strlen(o->dir) + 1, strerror(errno));
    return -1;
  }
  memcpy(kill_staging, o->staging, sizeof kill_staging);
  kill_ntmp = 0;
  armed = 1;
  if (!atexit_registered && atexit(on_exit_cleanup) == 0) atexit_registered = 1;
  solver_interrupt_on_kill(on_kill);
  o->open = 1;
  return 0;
}

const char *solver_output_direct(solver_output *o, const char *name, char *buf, size_t len,
                                 char *err, size_t errlen) {
  if (snprintf(buf, len, "%s/%s", o->dir, name) >= (int)len || kill_ntmp >= MAX_DIRECT) {
    op_text_format(err, errlen, "%s/%s: path too long", o->shown, name);
    return NULL;
  }
  for (int k = 0; k < kill_ntmp; k++)
    if (!strncmp(kill_tmp[k], buf, strlen(buf)) && !strcmp(kill_tmp[k] + strlen(buf), ".tmp"))
      return buf;
  char *slot = kill_tmp[kill_ntmp];
  snprintf(slot, sizeof kill_tmp[0], "%s.tmp", buf);
  if (!others_live && op_is_root()) (void)unlink(slot); /* a killed run's half-written file */
  kill_ntmp = kill_ntmp + 1;
  return buf;
}

/* ---- space ------------------------------------------------------------------------- */

const char *solver_output_bytes(double bytes, char *buf, size_t len) {
  static const char *const unit[] = {"bytes", "KB", "MB", "GB", "TB", "PB"};
  int u = 0;
  while (bytes >= 1000.0 && u < 5) {
    bytes /= 1000.0;
    u++;
  }
  if (u == 0)
    snprintf(buf, len, "%.0f %s", bytes, unit[u]);
  else
    snprintf(buf, len, "%.*f %s", bytes < 10 ? 2 : bytes < 100 ? 1 : 0, bytes, unit[u]);
  return buf;
}

/* The root's file system (it writes everything); collective. */
double solver_output_free_bytes(const solver_output *o) {
  struct statvfs st;
  double v = -1.0;
  if (op_is_root() && statvfs(o->open ? o->staging : o->dir, &st) == 0)
    v = (double)st.f_bavail * (double)st.f_frsize;
  op_broadcast(&v, sizeof v);
  return v;
}

int solver_output_reserve(const solver_output *o, double bytes, const char *what, char *err,
                          size_t errlen) {
  double avail = solver_output_free_bytes(o);
  int rc = 0;
  if (avail >= 0.0 && bytes > avail) { /* unknown: the writes will tell */
    char need[32], have[32];
    op_text_format(err, errlen, "%s: %s needs %s but only %s are free on its file system", o->shown,
                   what, solver_output_bytes(bytes, need, sizeof need),
                   solver_output_bytes(avail, have, sizeof have));
    rc = -1;
  }
  return op_root_status(rc);
}

/* ---- the end ------------------------------------------------------------------------ */

static void sync_dir(const char *dir) {
  int fd = open(dir, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return;
  (void)fsync(fd); /* durability of the renames; EINVAL where unsupported */
  close(fd);
}

static int move_files_into(const solver_output *o, char *err, size_t errlen) {
  DIR *dp = opendir(o->staging);
  if (!dp) {
    op_text_format(err, errlen, "%s: cannot list %s: %s", o->shown, o->staging, strerror(errno));
    return -1;
  }
  struct dirent *e;
  char from[3 * SOLVER_OUTPUT_PATH], to[3 * SOLVER_OUTPUT_PATH];
  int rc = 0;
  while (rc == 0 && (e = readdir(dp)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    snprintf(from, sizeof from, "%s/%s", o->staging, e->d_name);
    snprintf(to, sizeof to, "%s/%s", o->dir, e->d_name);
    if (rename(from, to) != 0) {
      char shown[OP_TEXT_SHOWN];
      op_text_format(err, errlen, "%s: cannot move %s into place: %s (this run's files are in %s)",
              o->shown, op_text_shown(shown, sizeof shown, e->d_name), strerror(errno),
              o->staging);
      rc = -1;
    }
  }
  closedir(dp);
  if (rc == 0 && rmdir(o->staging) != 0) {
    op_text_format(err, errlen, "%s: cannot remove %s: %s", o->shown, o->staging, strerror(errno));
    rc = -1;
  }
  return rc;
}

static int finish_root(solver_output *o, int passed, char *err, size_t errlen);

int solver_output_finish(solver_output *o, int passed, char *err, size_t errlen) {
  int rc = op_is_root() ? finish_root(o, passed, err, errlen) : 0;
  if (!op_is_root()) {
    o->open = 0;
    snprintf(o->final, sizeof o->final, passed ? "%s" : "%s/" FAILED_DIR, o->dir);
  }
  return op_root_status(rc);
}

static int finish_root(solver_output *o, int passed, char *err, size_t errlen) {
  if (!o->open) {
    op_text_format(err, errlen, "%s: the output directory was not opened", o->shown);
    return -1;
  }
  armed = 0; /* from here on the files are results, not debris */
  o->open = 0;
  int rc;
  if (passed) {
    snprintf(o->final, sizeof o->final, "%s", o->dir);
    rc = move_files_into(o, err, errlen);
  } else {
    snprintf(o->final, sizeof o->final, "%s/%s", o->dir, FAILED_DIR);
    if (remove_flat_dir(o->final) != 0) {
      op_text_format(err, errlen, "%s: cannot replace %s/%s: %s (this run's files are in %s)", o->shown,
              o->shown, FAILED_DIR, strerror(errno), o->staging);
      return -1;
    }
    rc = rename(o->staging, o->final) == 0 ? 0 : -1;
    if (rc != 0)
      op_text_format(err, errlen, "%s: cannot rename %s to %s/%s: %s", o->shown, o->staging, o->shown,
              FAILED_DIR, strerror(errno));
  }
  sync_dir(o->dir);
  return rc;
}

void solver_output_report(const solver_output *o, int passed, const char *what) {
  char shown[OP_TEXT_SHOWN];
  op_text_shown(shown, sizeof shown, o->final);
  if (passed)
    printf("results in %s (%s)\n", shown, what);
  else
    printf("%s: the run did not pass: its results (%s) are in %s; %s keeps the results of the "
           "last run that passed\n",
           o->solver, what, shown, o->shown);
  fflush(stdout);
}
