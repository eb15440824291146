/*
 * solver_io.c - a run's inputs held against the places its outputs go
 * (solver_io.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#define _DEFAULT_SOURCE /* realpath(3) with its PATH_MAX buffer */

#include "solver_io.h"

#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "op_text.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif
#define IO_PATH (PATH_MAX + 64)

static void misuse(const char *what) {
  fprintf(stderr, "solver_io: %s (a programming error in the solver)\n", what);
  abort();
}

void solver_io_init(solver_io *io) {
  memset(io, 0, sizeof *io);
  solver_io_output(io, "result.json");
  solver_io_output(io, ".lock");
}

void solver_io_input(solver_io *io, const char *what, const char *path, const char *continued_as) {
  if (!path || !path[0]) return;
  if (io->nin >= SOLVER_IO_MAX_INPUTS) misuse("more inputs than SOLVER_IO_MAX_INPUTS");
  io->in[io->nin++] = (solver_input){what, path, continued_as};
}

void solver_io_output(solver_io *io, const char *pattern) {
  if (io->nout >= SOLVER_IO_MAX_OUTPUTS) misuse("more output names than SOLVER_IO_MAX_OUTPUTS");
  if (strlen(pattern) >= SOLVER_IO_NAME) misuse("an output name longer than SOLVER_IO_NAME");
  memcpy(io->out[io->nout++], pattern, strlen(pattern) + 1);
}

int solver_io_declares(const solver_io *io, const char *name) {
  for (int k = 0; k < io->nout; k++)
    if (fnmatch(io->out[k], name, 0) == 0) return 1;
  return 0;
}

/* ---- where a path leads ---------------------------------------------------------- */

/* path made absolute, the part of it that exists resolved by realpath(3)
 * (links, ".", ".."), the rest, which does not exist yet, appended as
 * written ("." and ".." taken as they read). Returns 0, or -1 when it cannot
 * be resolved (too long, a folder that cannot be searched). */
static int resolve(const char *path, char *out, size_t len) {
  const size_t n = strlen(path);
  char head[IO_PATH], real[PATH_MAX];
  if (n == 0 || n >= sizeof head) return -1;
  size_t cut = n; /* path[0, cut) is resolved, path[cut, n) appended */
  for (;;) {
    if (cut == 0)
      snprintf(head, sizeof head, "%s", path[0] == '/' ? "/" : ".");
    else
      snprintf(head, sizeof head, "%.*s", (int)cut, path);
    if (realpath(head, real)) break;
    if ((errno != ENOENT && errno != ENOTDIR) || cut == 0) return -1;
    while (cut > 0 && path[cut - 1] == '/') cut--;
    while (cut > 0 && path[cut - 1] != '/') cut--;
  }
  if (strlen(real) >= len) return -1;
  memcpy(out, real, strlen(real) + 1);
  for (const char *p = path + cut; *p;) {
    while (*p == '/') p++;
    const char *e = p;
    while (*e && *e != '/') e++;
    const size_t k = (size_t)(e - p);
    if (k == 2 && p[0] == '.' && p[1] == '.') {
      char *slash = strrchr(out, '/');
      if (slash) slash[slash == out ? 1 : 0] = '\0';
    } else if (k > 0 && !(k == 1 && p[0] == '.')) {
      size_t m = strlen(out);
      if (m + k + 2 > len) return -1;
      if (!(m == 1 && out[0] == '/')) out[m++] = '/';
      memcpy(out + m, p, k);
      out[m + k] = '\0';
    }
    p = e;
  }
  return 0;
}

/* The folder and name of an absolute path (dir gets "/" for "/name"). */
static void split(const char *full, char *dir, size_t len, const char **name) {
  const char *slash = strrchr(full, '/');
  *name = slash ? slash + 1 : full;
  const size_t k = slash && slash != full ? (size_t)(slash - full) : 1;
  snprintf(dir, len, "%.*s", (int)k, slash ? full : "/");
}

/* The directory entry path names, its folder resolved (a link as the last
 * component is not followed: its own name is what a rename replaces).
 * -1 when path names a folder ("", ".", "..", a trailing '/'). */
static int entry_of(const char *path, char *out, size_t len) {
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  if (!name[0] || !strcmp(name, ".") || !strcmp(name, "..")) return -1;
  char dir[IO_PATH];
  if (slash)
    snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
  else
    snprintf(dir, sizeof dir, ".");
  if (resolve(dir, out, len) != 0) return -1;
  const size_t m = strlen(out);
  if (m + strlen(name) + 2 > len) return -1;
  snprintf(out + m, len - m, "%s%s", m == 1 && out[0] == '/' ? "" : "/", name);
  return 0;
}

/* 1 when folders a and b are one: the same device and inode where both
 * exist, else the same resolved path. */
static int same_dir(const char *a, const char *b) {
  struct stat sa, sb;
  if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
    return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  return strcmp(a, b) == 0;
}

/* 1 when folder dir is folder `in` or inside it. */
static int within(const char *dir, const char *in) {
  char d[IO_PATH];
  snprintf(d, sizeof d, "%s", dir);
  for (;;) {
    if (same_dir(d, in)) return 1;
    char *slash = strrchr(d, '/');
    if (!slash || (slash == d && d[1] == '\0')) return 0;
    slash[slash == d ? 1 : 0] = '\0';
  }
}

/* The places input path names: the entry as given, and where links lead
 * (when elsewhere). Returns how many (0 to 2). */
static int places_of(const char *path, char place[2][IO_PATH]) {
  int n = 0;
  if (entry_of(path, place[0], IO_PATH) == 0) n++;
  if (resolve(path, place[n], IO_PATH) == 0 && (n == 0 || strcmp(place[0], place[1]) != 0)) n++;
  return n;
}

int solver_io_input_at(const solver_io *io, const char *dir, const char *name,
                       const char **continued_as) {
  for (int i = 0; i < io->nin; i++) {
    char place[2][IO_PATH], pdir[IO_PATH];
    const int n = places_of(io->in[i].path, place);
    for (int k = 0; k < n; k++) {
      const char *pname;
      split(place[k], pdir, sizeof pdir, &pname);
      if (strcmp(pname, name) == 0 && same_dir(pdir, dir)) {
        if (continued_as) *continued_as = io->in[i].continued_as;
        return 1;
      }
    }
  }
  return 0;
}

/* ---- the check ------------------------------------------------------------------- */

/* "the mesh PATH" and, when PATH leads elsewhere through a link, where. */
static void describe(const solver_input *in, const char *place, char *buf, size_t len) {
  char shown[OP_TEXT_SHOWN], where[OP_TEXT_SHOWN], entry[IO_PATH];
  op_text_shown(shown, sizeof shown, in->path);
  if (entry_of(in->path, entry, sizeof entry) == 0 && strcmp(entry, place) != 0)
    snprintf(buf, len, "the %s %s (a link to %s)", in->what, shown,
             op_text_shown(where, sizeof where, place));
  else
    snprintf(buf, len, "the %s %s", in->what, shown);
}

int solver_io_check(const solver_io *io, const char *output_dir, const char *shown_dir, char *err,
                    size_t errlen) {
  char out[IO_PATH], failed[IO_PATH + 16], earlier[IO_PATH + 16], path[IO_PATH + 16];
  if (resolve(output_dir, out, sizeof out) != 0) return 0; /* its own checks speak for it */
  snprintf(path, sizeof path, "%s/failed", out);
  if (resolve(path, failed, sizeof failed) != 0) snprintf(failed, sizeof failed, "%s", path);
  snprintf(path, sizeof path, "%s/earlier", out);
  if (resolve(path, earlier, sizeof earlier) != 0) snprintf(earlier, sizeof earlier, "%s", path);
  for (int i = 0; i < io->nin; i++) {
    const solver_input *in = &io->in[i];
    char place[2][IO_PATH], dir[IO_PATH], what[3 * OP_TEXT_SHOWN], name[OP_TEXT_SHOWN];
    const int n = places_of(in->path, place);
    for (int k = 0; k < n; k++) {
      const char *pname;
      split(place[k], dir, sizeof dir, &pname);
      describe(in, place[k], what, sizeof what);
      op_text_shown(name, sizeof name, pname);
      if (same_dir(dir, out) && solver_io_declares(io, pname) &&
          !(in->continued_as && strcmp(pname, in->continued_as) == 0)) {
        op_text_format(err, errlen,
                       "%s would be replaced by this run's %s (output_dir %s): a run "
                       "never replaces its own input; choose another output_dir, or move the %s "
                       "out of %s",
                       what, name, shown_dir, in->what, shown_dir);
        return -1;
      }
      const int in_failed = within(dir, failed);
      if (in_failed || within(dir, earlier)) {
        op_text_format(err, errlen,
                       "%s is in %s/%s, %s: a run never replaces its own input; "
                       "choose another output_dir, or move the %s out of %s/%s",
                       what, shown_dir, in_failed ? "failed" : "earlier",
                       in_failed ? "which this run replaces with its results if it does not pass"
                                 : "where this run sets aside the files earlier runs left there",
                       in->what, shown_dir, in_failed ? "failed" : "earlier");
        return -1;
      }
    }
  }
  return 0;
}
