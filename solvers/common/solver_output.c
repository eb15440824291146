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
#include "op_tmpname.h"
#include "result_json.h"
#include "solver_files.h"
#include "solver_interrupt.h"
#include "solver_lock.h"

#define STAGING_PREFIX ".run-"
#define FAILED_DIR "failed"
#define EARLIER_DIR "earlier"
#define REPLACED_PREFIX ".replaced-"
#define MAX_DIRECT 8
#define MAX_TEMP 16


/* ---- clean-up: what a run leaves when it cannot finish ------------------------ */

/* Read by the signal handler: plain static storage, set before it is armed.
 * kill_tmp holds the temporaries the run may be writing outside its staging
 * directory (the direct files' and solver_output_temporary's). */
static char kill_staging[SOLVER_OUTPUT_PATH + 128];
static char kill_tmp[MAX_TEMP][SOLVER_OUTPUT_PATH + 192];
static volatile sig_atomic_t kill_ntmp;
static volatile sig_atomic_t armed;
static int atexit_registered;
/* The files written straight into output_dir (solver_output_direct). */
static char direct_path[MAX_DIRECT][SOLVER_OUTPUT_PATH + 64];
static int ndirect;
/* The run's inputs and output names (solver_output_open's io). */
static solver_io run_io;

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
  solver_lock_drop_signal_safe();
}

static void on_exit_cleanup(void) {
  if (armed) {
    armed = 0;
    for (int k = 0; k < kill_ntmp; k++) unlink(kill_tmp[k]);
    remove_flat_dir(kill_staging);
  }
  solver_lock_release();
}

/* Registers a temporary for removal if the run ends before it is renamed
 * into place (unlinking it once renamed removes nothing: the name is this
 * process's alone). */
static int register_temporary(const char *tmp) {
  for (int k = 0; k < kill_ntmp; k++)
    if (!strcmp(kill_tmp[k], tmp)) return 0;
  if (kill_ntmp >= MAX_TEMP || strlen(tmp) >= sizeof kill_tmp[0]) return -1;
  memcpy(kill_tmp[kill_ntmp], tmp, strlen(tmp) + 1);
  kill_ntmp = kill_ntmp + 1;
  return 0;
}

/* ---- opening ------------------------------------------------------------------- */

/* Removes the staging directories of runs on this host that are gone (the
 * lock keeps live ones out; another host's are not ours to judge). */
static int remove_stale(const solver_output *o, const char *host) {
  DIR *dp = opendir(o->dir);
  if (!dp) return -1;
  size_t plen = strlen(STAGING_PREFIX), hlen = strlen(host);
  struct dirent *e;
  char path[2 * SOLVER_OUTPUT_PATH];
  while ((e = readdir(dp)) != NULL) {
    const char *n = e->d_name;
    if (strncmp(n, STAGING_PREFIX, plen) != 0) continue;
    if (strncmp(n + plen, host, hlen) != 0 || n[plen + hlen] != '-') continue;
    char *end;
    long pid = strtol(n + plen + hlen + 1, &end, 10);
    if (*end != '\0' || pid <= 0) continue;
    if (pid == (long)getpid()) continue;
    if (kill((pid_t)pid, 0) == 0 || errno == EPERM) continue;
    snprintf(path, sizeof path, "%s/%s", o->dir, n);
    if (remove_flat_dir(path) == 0)
      printf("%s: removed %s/%s, left by a run that was killed\n", o->solver, o->shown, n);
  }
  closedir(dp);
  return 0;
}

/* The solver's name, for the messages of the clean-up. */
static const char *solver_name = "solver";

/* Says what op_tmp_sweep removed (a temporary a killed run left). */
static void removed_temporary(const char *path, void *ctx) {
  (void)ctx;
  char shown[OP_TEXT_SHOWN];
  printf("%s: removed %s, left by a run that was killed\n", solver_name,
         op_text_shown(shown, sizeof shown, path));
}

static int open_root(solver_output *o, const char *solver, const char *output_dir, char *err,
                     size_t errlen);

/* On many processes the root makes the directories, writes every file and
 * moves them into place; the others hold the same names and write nothing. */
int solver_output_open(solver_output *o, const char *solver, const char *output_dir,
                       const solver_io *io, char *err, size_t errlen) {
  if (io)
    run_io = *io;
  else
    solver_io_init(&run_io);
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
  solver_name = solver;
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
  /* Before the lock file and the clean-up touch anything there. */
  if (solver_io_check(&run_io, o->dir, o->shown, err, errlen) != 0) return -1;
  if (!atexit_registered && atexit(on_exit_cleanup) == 0) atexit_registered = 1;
  solver_interrupt_on_kill(on_kill);
  if (solver_lock_take(o->solver, o->dir, o->shown, err, errlen) != 0) return -1;
  const char *host = op_tmp_host();
  if (remove_stale(o, host) != 0) {
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
  /* Temporaries killed runs left in output_dir (the direct files'). */
  op_tmp_sweep(o->dir, "", removed_temporary, NULL);
  memcpy(kill_staging, o->staging, sizeof kill_staging);
  kill_ntmp = 0;
  ndirect = 0;
  armed = 1;
  o->open = 1;
  return 0;
}

/* Moves output_dir/name into output_dir/earlier, replacing one an
 * earlier run set aside there; 0, or -1 with errno set. */
static int move_to_earlier(const solver_output *o, const char *name) {
  char to[3 * SOLVER_OUTPUT_PATH], from[3 * SOLVER_OUTPUT_PATH];
  snprintf(to, sizeof to, "%s/%s", o->dir, EARLIER_DIR);
  if (mkdir(to, 0777) != 0 && errno != EEXIST) return -1;
  snprintf(from, sizeof from, "%s/%s", o->dir, name);
  snprintf(to, sizeof to, "%s/%s/%s", o->dir, EARLIER_DIR, name);
  return rename(from, to);
}

/* The file an earlier run wrote straight into output_dir under name (a
 * checkpoint of another run, perhaps of far more iterations) is not replaced
 * without a word: it goes into output_dir/earlier first, unless it is the
 * input this run continues (it resumes from that checkpoint and goes on). */
static int set_aside_direct(const solver_output *o, const char *name, char *err, size_t errlen) {
  char path[3 * SOLVER_OUTPUT_PATH], shown[OP_TEXT_SHOWN];
  struct stat st;
  const char *continued = NULL;
  snprintf(path, sizeof path, "%s/%s", o->dir, name);
  if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0; /* none; a folder fails the write */
  if (solver_io_input_at(&run_io, o->dir, name, &continued) && continued &&
      strcmp(continued, name) == 0)
    return 0;
  op_text_shown(shown, sizeof shown, name);
  if (move_to_earlier(o, name) != 0) {
    op_text_format(err, errlen,
                   "%s: cannot move the earlier run's %s into %s/%s before this run "
                   "writes its own: %s",
                   o->shown, shown, o->shown, EARLIER_DIR, strerror(errno));
    return -1;
  }
  printf(
      "%s: %s/%s, written by an earlier run, moved to %s/%s/%s before this run writes its "
      "own\n",
      o->solver, o->shown, shown, o->shown, EARLIER_DIR, shown);
  fflush(stdout);
  return 0;
}

const char *solver_output_direct(solver_output *o, const char *name, char *buf, size_t len,
                                 char *err, size_t errlen) {
  char tmp[SOLVER_OUTPUT_PATH + 192];
  if (snprintf(buf, len, "%s/%s", o->dir, name) >= (int)len || strlen(buf) >= sizeof direct_path[0] ||
      !op_tmp_name(buf, tmp, sizeof tmp)) {
    op_text_format(err, errlen, "%s/%s: path too long", o->shown, name);
    return NULL;
  }
  for (int k = 0; k < ndirect; k++)
    if (!strcmp(direct_path[k], buf)) return buf;
  if (ndirect >= MAX_DIRECT || register_temporary(tmp) != 0) {
    op_text_format(err, errlen, "%s/%s: more files written straight into output_dir than the %d "
                   "the run can keep track of", o->shown, name, MAX_DIRECT);
    return NULL;
  }
  memcpy(direct_path[ndirect++], buf, strlen(buf) + 1);
  /* A half-written "name.tmp" of a killed run of an earlier version (the
   * temporaries are this process's own now): under the lock, nobody's. */
  if (op_is_root() && snprintf(tmp, sizeof tmp, "%s.tmp", buf) < (int)sizeof tmp) (void)unlink(tmp);
  if (op_is_root() && !solver_io_declares(&run_io, name))
    fprintf(stderr,
            "%s: warning: %s is not among the output names the solver declares "
            "(solver_io_output)\n",
            o->solver, name);
  const int rc = op_is_root() ? set_aside_direct(o, name, err, errlen) : 0;
  return op_root_status(rc) == 0 ? buf : NULL;
}

int solver_output_direct_files(const char **paths, int max) {
  int n = 0;
  for (int k = 0; k < ndirect && n < max; k++) paths[n++] = direct_path[k];
  return n;
}

const char *solver_output_temporary(const char *path, char *buf, size_t len) {
  if (!op_tmp_name(path, buf, len) || register_temporary(buf) != 0) return NULL;
  solver_output_sweep_beside(path);
  return buf;
}

void solver_output_sweep_beside(const char *path) {
  char dir[SOLVER_OUTPUT_PATH + 64];
  const char *slash = strrchr(path, '/');
  if (snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".") <
      (int)sizeof dir) {
    char prefix[1024];
    snprintf(prefix, sizeof prefix, "%s.", slash ? slash + 1 : path);
    op_tmp_sweep(dir, prefix, removed_temporary, NULL);
  }
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

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names of the staging directory's files, sorted, result.json last (a
 * reader that sees the new result.json sees the whole set beside it). */
static int staged_names(const solver_output *o, char ***names, char *err, size_t errlen) {
  *names = NULL;
  DIR *dp = opendir(o->staging);
  if (!dp) {
    op_text_format(err, errlen, "%s: cannot list %s: %s", o->shown, o->staging, strerror(errno));
    return -1;
  }
  int n = 0, cap = 0;
  char **list = NULL;
  struct dirent *e;
  while ((e = readdir(dp)) != NULL) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    if (n == cap) {
      char **more = realloc(list, (size_t)(cap = cap ? 2 * cap : 16) * sizeof *list);
      if (!more) break;
      list = more;
    }
    if (!(list[n] = strdup(e->d_name))) break;
    n++;
  }
  closedir(dp);
  if (n) qsort(list, (size_t)n, sizeof *list, by_name);
  for (int k = 0; k + 1 < n; k++)
    if (!strcmp(list[k], "result.json")) {
      char *r = list[k];
      memmove(list + k, list + k + 1, (size_t)(n - k - 1) * sizeof *list);
      list[n - 1] = r;
      break;
    }
  *names = list;
  return n;
}

/* Moves the staged files into output_dir, each by one rename(2), setting
 * aside the earlier file of the same name first (into the staging directory,
 * as .replaced-NAME). When a move fails part-way, everything moved so far is
 * moved back and the earlier files restored: output_dir is as it was, and
 * the run's files are all in the staging directory again. */
static int move_into_place(const solver_output *o, char **names, int n, char *err, size_t errlen) {
  char from[3 * SOLVER_OUTPUT_PATH], to[3 * SOLVER_OUTPUT_PATH], old[3 * SOLVER_OUTPUT_PATH];
  char *backed = calloc((size_t)n + 1, 1);
  if (!backed) {
    op_text_format(err, errlen, "%s: out of memory moving the results", o->shown);
    return -1;
  }
  int moved = 0, rc = 0;
  for (int k = 0; k < n && rc == 0; k++) {
    char shown[OP_TEXT_SHOWN];
    op_text_shown(shown, sizeof shown, names[k]);
    snprintf(from, sizeof from, "%s/%s", o->staging, names[k]);
    snprintf(to, sizeof to, "%s/%s", o->dir, names[k]);
    snprintf(old, sizeof old, "%s/%s%s", o->staging, REPLACED_PREFIX, names[k]);
    struct stat st;
    if (lstat(to, &st) == 0) {
      if (S_ISDIR(st.st_mode)) {
        op_text_format(err, errlen, "%s: cannot put this run's %s there: %s/%s is a directory "
                       "(remove or rename it)", o->shown, shown, o->shown, shown);
        rc = -1;
        break;
      }
      if (rename(to, old) != 0) {
        op_text_format(err, errlen, "%s: cannot set the earlier %s aside: %s", o->shown, shown,
                       strerror(errno));
        rc = -1;
        break;
      }
      backed[k] = 1;
    }
    if (rename(from, to) != 0) {
      op_text_format(err, errlen, "%s: cannot move %s into place: %s", o->shown, shown,
                     strerror(errno));
      if (backed[k] && rename(old, to) == 0) backed[k] = 0;
      rc = -1;
      break;
    }
    moved = k + 1;
  }
  if (rc != 0) {
    /* Undo, newest first; a step that fails is said, the rest still done. */
    for (int k = moved - 1; k >= 0; k--) {
      snprintf(from, sizeof from, "%s/%s", o->staging, names[k]);
      snprintf(to, sizeof to, "%s/%s", o->dir, names[k]);
      snprintf(old, sizeof old, "%s/%s%s", o->staging, REPLACED_PREFIX, names[k]);
      int bad = rename(to, from) != 0;
      if (!bad && backed[k]) bad = rename(old, to) != 0;
      if (bad) {
        char shown[OP_TEXT_SHOWN];
        size_t used = strlen(err);
        op_text_format(err + used, errlen - used, "; and %s could not be put back (%s): %s holds "
                       "a mix of this run's files and the earlier ones", op_text_shown(shown,
                       sizeof shown, names[k]), strerror(errno), o->shown);
      }
    }
    for (int k = 0; k < n; k++) { /* an earlier file set aside before the failed move */
      snprintf(old, sizeof old, "%s/%s%s", o->staging, REPLACED_PREFIX, names[k]);
      snprintf(to, sizeof to, "%s/%s", o->dir, names[k]);
      if (k >= moved && backed[k]) (void)rename(old, to);
    }
  }
  free(backed);
  return rc;
}

/* 1 when name is one of this run's: staged, or written straight into
 * output_dir. */
static int of_this_run(const char *name, char **staged, int nstaged) {
  for (int k = 0; k < nstaged; k++)
    if (!strcmp(staged[k], name)) return 1;
  for (int k = 0; k < ndirect; k++) {
    const char *slash = strrchr(direct_path[k], '/');
    if (!strcmp(slash ? slash + 1 : direct_path[k], name)) return 1;
  }
  return 0;
}

/* The files an earlier run left in output_dir that this one did not write:
 * those the earlier result.json listed are moved into output_dir/earlier
 * (the folder then holds one run's set); without such a list (a result.json
 * from before the lists, or none) the other files are named in a note. */
static void set_aside_earlier(const solver_output *o, char **staged, int nstaged, char **listed,
                              int nlisted) {
  char list[1024] = "", path[3 * SOLVER_OUTPUT_PATH];
  int count = 0, failed = 0;
  char **names = listed;
  int nnames = nlisted;
  DIR *dp = NULL;
  if (nlisted < 0) { /* no list: whatever regular file is not this run's */
    names = NULL;
    nnames = 0;
    dp = opendir(o->dir);
  }
  for (int k = 0;; k++) {
    const char *name;
    if (dp) {
      struct dirent *e = readdir(dp);
      if (!e) break;
      name = e->d_name;
    } else {
      if (k >= nnames) break;
      name = names[k];
    }
    struct stat st;
    if (!solver_files_is_result(name) || of_this_run(name, staged, nstaged)) continue;
    /* One of this run's inputs (a restart's checkpoint) stays where the
     * run's command names it. */
    if (solver_io_input_at(&run_io, o->dir, name, NULL)) continue;
    snprintf(path, sizeof path, "%s/%s", o->dir, name);
    if (lstat(path, &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (!dp) {
      if (move_to_earlier(o, name) != 0) {
        char shown[OP_TEXT_SHOWN];
        printf("%s: warning: %s/%s, written by an earlier run and not by this one, could not be "
               "moved to %s/%s: %s\n", o->solver, o->shown, op_text_shown(shown, sizeof shown, name),
               o->shown, EARLIER_DIR, strerror(errno));
        failed++;
        continue;
      }
    }
    char shown[OP_TEXT_SHOWN];
    size_t used = strlen(list);
    if (used < sizeof list - OP_TEXT_SHOWN - 8)
      snprintf(list + used, sizeof list - used, "%s%s", count ? ", " : "",
               op_text_shown(shown, sizeof shown, name));
    else if (!strstr(list, ", ..."))
      snprintf(list + used, sizeof list - used, ", ...");
    count++;
  }
  if (dp) closedir(dp);
  (void)failed;
  if (count == 0) return;
  if (nlisted >= 0)
    printf("%s: %s (written by an earlier run, not by this one) moved to %s/%s, so that %s holds "
           "this run's files alone\n", o->solver, list, o->shown, EARLIER_DIR, o->shown);
  else
    printf("%s: note: %s also holds %s, not written by this run (left by an earlier run whose "
           "result.json did not list its files?)\n", o->solver, o->shown, list);
}

static int finish_root(solver_output *o, int passed, char *err, size_t errlen);

int solver_output_finish(solver_output *o, int passed, char *err, size_t errlen) {
  int rc = op_is_root() ? finish_root(o, passed, err, errlen) : 0;
  if (!op_is_root()) o->open = 0;
  /* The others wait in op_root_status for the root to end a failed job. */
  if (op_root_status(rc) != 0) return -1;
  op_broadcast(o->final, sizeof o->final); /* output_dir, failed, or a folder of their own */
  return 0;
}

/* When output_dir/failed cannot take the run's results: they go to a
 * folder of their own, output_dir/failed-XXXXXX (mkdtemp(3): a name no other
 * run has, and not a staging directory's, so no clean-up of killed runs ever
 * removes it), and the run says so. Returns 0, or -1 with the reason added
 * to err (the results then stay in the staging directory, armed no more:
 * the next run in output_dir removes it, which err says). */
static int to_kept(solver_output *o, char *err, size_t errlen) {
  char kept[SOLVER_OUTPUT_PATH + 32], shown[OP_TEXT_SHOWN];
  snprintf(kept, sizeof kept, "%s/%s-XXXXXX", o->dir, FAILED_DIR);
  const int made = mkdtemp(kept) != NULL;
  if (!made || rename(o->staging, kept) != 0) {
    const int e = errno;
    if (made) (void)rmdir(kept);
    size_t used = strlen(err);
    op_text_format(err + used, errlen - used,
                   "; nor could they go to a folder of their own (%s): "
                   "this run's results are in %s, which the next run in %s removes: move them out "
                   "first",
                   strerror(e), o->staging, o->shown);
    return -1;
  }
  snprintf(o->final, sizeof o->final, "%s", kept);
  printf("%s: warning: %s; this run's results are in %s instead, which no run removes\n", o->solver,
         err, op_text_shown(shown, sizeof shown, kept));
  fflush(stdout);
  return 0;
}

/* The staging directory becomes output_dir/failed, replacing an earlier
 * failed run's (or, when that cannot be, a folder of its own: to_kept). */
static int to_failed(solver_output *o, char *err, size_t errlen) {
  snprintf(o->final, sizeof o->final, "%s/%s", o->dir, FAILED_DIR);
  if (remove_flat_dir(o->final) != 0) {
    op_text_format(err, errlen, "%s: cannot replace %s/%s: %s", o->shown, o->shown, FAILED_DIR,
                   strerror(errno));
    return to_kept(o, err, errlen);
  }
  if (rename(o->staging, o->final) != 0) {
    op_text_format(err, errlen, "%s: cannot rename %s to %s/%s: %s", o->shown, o->staging, o->shown,
                   FAILED_DIR, strerror(errno));
    return to_kept(o, err, errlen);
  }
  return 0;
}

static int finish_root(solver_output *o, int passed, char *err, size_t errlen) {
  if (!o->open) {
    op_text_format(err, errlen, "%s: the output directory was not opened", o->shown);
    return -1;
  }
  armed = 0; /* from here on the files are results, not debris */
  o->open = 0;
  int rc = 0;
  if (passed) {
    snprintf(o->final, sizeof o->final, "%s", o->dir);
    char path[SOLVER_OUTPUT_PATH + 32], **staged = NULL, **listed = NULL;
    snprintf(path, sizeof path, "%s/result.json", o->dir);
    const int nlisted = solver_files_listed(path, &listed); /* the earlier run's, before it goes */
    const int nstaged = staged_names(o, &staged, err, errlen);
    for (int k = 0; k < nstaged; k++)
      if (solver_files_is_result(staged[k]) && !solver_io_declares(&run_io, staged[k]))
        fprintf(stderr,
                "%s: warning: %s is not among the output names the solver declares "
                "(solver_io_output)\n",
                o->solver, staged[k]);
    rc = nstaged < 0 ? -1 : move_into_place(o, staged, nstaged, err, errlen);
    if (rc == 0) {
      set_aside_earlier(o, staged, nstaged, listed, nlisted);
      rc = remove_flat_dir(o->staging); /* the earlier files replaced, set aside there */
      if (rc != 0)
        op_text_format(err, errlen, "%s: cannot remove %s: %s", o->shown, o->staging,
                       strerror(errno));
    } else if (nstaged >= 0) {
      /* Nothing of output_dir changed: the run's results, whole, go where a
       * failed run's go rather than be lost. */
      size_t used = strlen(err);
      char why[SOLVER_OUTPUT_PATH + 1024], shown[OP_TEXT_SHOWN];
      if (to_failed(o, why, sizeof why) == 0)
        op_text_format(err + used, errlen - used,
                       "; the files moved before it were put back, "
                       "and this run's results are in %s",
                       op_text_shown(shown, sizeof shown, o->final));
      else
        op_text_format(err + used, errlen - used, "; %s", why);
    }
    solver_files_free(staged, nstaged > 0 ? nstaged : 0);
    solver_files_free(listed, nlisted > 0 ? nlisted : 0);
  } else {
    rc = to_failed(o, err, errlen);
  }
  sync_dir(o->dir);
  solver_lock_release();
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
