/*
 * op_tmpname.c - process-unique temporary names (op_tmpname.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "op_tmpname.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *op_tmp_host(void) {
  static char host[65];
  if (host[0]) return host;
  char name[256];
  if (gethostname(name, sizeof name) != 0 || !name[0]) snprintf(name, sizeof name, "host");
  name[sizeof name - 1] = '\0';
  size_t n = 0;
  for (const char *p = name; *p && n < sizeof host - 1; p++)
    host[n++] = ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                 *p == '-' || *p == '_')
                    ? *p
                    : '_';
  host[n] = '\0';
  return host;
}

char *op_tmp_name(const char *path, char *buf, size_t len) {
  int n = snprintf(buf, len, "%s.%s-%ld.tmp", path, op_tmp_host(), (long)getpid());
  return n >= 0 && (size_t)n < len ? buf : NULL;
}

int op_tmp_is_stale(const char *name) {
  size_t n = strlen(name);
  if (n < 5 || strcmp(name + n - 4, ".tmp") != 0) return 0;
  /* ".<host>-<pid>.tmp" at the end: the pid's digits, then "<host>-". */
  size_t end = n - 4, start = end;
  while (start > 0 && name[start - 1] >= '0' && name[start - 1] <= '9') start--;
  if (start == end || end - start > 18 || start == 0 || name[start - 1] != '-') return 0;
  const char *host = op_tmp_host();
  size_t h = strlen(host);
  if (start - 1 < h + 1 || strncmp(name + start - 1 - h, host, h) != 0 ||
      name[start - 2 - h] != '.')
    return 0;
  long pid = strtol(name + start, NULL, 10);
  if (pid <= 0 || pid == (long)getpid()) return 0;
  return kill((pid_t)pid, 0) != 0 && errno == ESRCH;
}

int op_tmp_sweep(const char *dir, const char *prefix, void (*removed)(const char *path, void *ctx),
                 void *ctx) {
  DIR *dp = opendir(dir);
  if (!dp) return 0;
  size_t plen = prefix ? strlen(prefix) : 0;
  int count = 0;
  struct dirent *e;
  char path[8192];
  while ((e = readdir(dp)) != NULL) {
    if (plen && strncmp(e->d_name, prefix, plen) != 0) continue;
    if (!op_tmp_is_stale(e->d_name)) continue;
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path) continue;
    if (unlink(path) == 0) {
      count++;
      if (removed) removed(path, ctx);
    }
  }
  closedir(dp);
  return count;
}
