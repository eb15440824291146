/*
 * solver_files.c - result.json's list of the files of a run (solver_files.h).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "solver_files.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "op_text.h"
#include "solver_sha256.h"

int solver_files_is_result(const char *name) {
  size_t n = strlen(name);
  return name[0] != '.' && strcmp(name, "result.json") != 0 &&
         !(n >= 4 && strcmp(name + n - 4, ".tmp") == 0);
}

static int by_name(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void file_entry(json_writer *w, const char *path, const char *name) {
  char hex[65];
  long long bytes = 0;
  const int ok = solver_sha256_file(path, hex, &bytes) == 0;
  json_begin_object(w);
  json_kv_string(w, "name", name);
  json_kv_int(w, "bytes", bytes);
  json_key(w, "sha256");
  if (ok)
    json_string(w, hex);
  else
    json_null(w);
  json_end_object(w);
}

void solver_files_json(json_writer *w, const char *dir, const char *const *extra,
                       const char *const *extra_names, int nextra) {
  json_begin_array(w);
  char **names = NULL;
  size_t n = 0, cap = 0;
  DIR *dp = opendir(dir);
  struct dirent *e;
  char path[8192];
  while (dp && (e = readdir(dp)) != NULL) {
    struct stat st;
    if (!solver_files_is_result(e->d_name)) continue;
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >= (int)sizeof path ||
        stat(path, &st) != 0 || !S_ISREG(st.st_mode))
      continue;
    if (n == cap) {
      char **more = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);
      if (!more) break;
      names = more;
    }
    if (!(names[n] = strdup(e->d_name))) break;
    n++;
  }
  if (dp) closedir(dp);
  if (n) qsort(names, n, sizeof *names, by_name);
  for (size_t i = 0; i < n; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, names[i]);
    file_entry(w, path, names[i]);
    free(names[i]);
  }
  free(names);
  for (int i = 0; i < nextra; i++) {
    struct stat st;
    if (stat(extra[i], &st) == 0 && S_ISREG(st.st_mode)) file_entry(w, extra[i], extra_names[i]);
  }
  json_end_array(w);
}

/* ---- reading the list back -------------------------------------------------------- */

/* The JSON string starting at *p (after its opening quote) into out (at most
 * len bytes, escapes \" and \\ undone, others kept as written); *p is left
 * after the closing quote. Returns 0, or -1 on an unterminated string. */
static int read_string(const char **p, char *out, size_t len) {
  size_t k = 0;
  for (const char *s = *p; *s; s++) {
    if (*s == '"') {
      out[k < len ? k : len - 1] = '\0';
      *p = s + 1;
      return 0;
    }
    char c = *s;
    if (c == '\\' && (s[1] == '"' || s[1] == '\\')) c = *++s;
    if (k + 1 < len) out[k++] = c;
  }
  return -1;
}

void solver_files_free(char **names, int n) {
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
}

int solver_files_listed(const char *path, char ***names) {
  *names = NULL;
  op_text_reader r;
  char err[256];
  /* result.json is small: a megabyte holds thousands of files and loops. */
  if (op_text_open(&r, path, "result.json", 1 << 20, 16u << 20, err, sizeof err) != 0) return -1;
  size_t cap = 1 << 16, len = 0;
  char *text = malloc(cap), *line;
  size_t n;
  int got;
  while (text && (got = op_text_next(&r, &line, &n, err, sizeof err)) == 1) {
    if (len + n + 2 > cap) {
      char *more = realloc(text, cap = 2 * (len + n + 2));
      if (!more) {
        free(text);
        text = NULL;
        break;
      }
      text = more;
    }
    memcpy(text + len, line, n);
    len += n;
    text[len++] = '\n';
  }
  op_text_close(&r);
  if (!text) return -1;
  text[len] = '\0';
  /* The top-level key: the writer puts it on a line of its own. */
  const char *p = strstr(text, "\n  \"files\": [");
  if (!p) {
    free(text);
    return -1;
  }
  p = strchr(p, '[') + 1;
  int count = 0, cap2 = 0;
  char **list = NULL;
  /* Objects of the array until its closing bracket; "name" values only. */
  for (int depth = 0; *p && !(depth == 0 && *p == ']');) {
    if (*p == '{') depth++, p++;
    else if (*p == '}') depth--, p++;
    else if (*p == '"') {
      char key[64], value[4096];
      p++;
      if (read_string(&p, key, sizeof key) != 0) break;
      while (*p == ' ' || *p == '\n') p++;
      if (*p != ':' || strcmp(key, "name") != 0) continue;
      p++;
      while (*p == ' ' || *p == '\n') p++;
      if (*p != '"') continue;
      p++;
      if (read_string(&p, value, sizeof value) != 0) break;
      if (strchr(value, '/') || value[0] == '.' || !value[0]) continue; /* this directory's only */
      if (count == cap2) {
        char **more = realloc(list, (size_t)(cap2 = cap2 ? 2 * cap2 : 16) * sizeof *list);
        if (!more) break;
        list = more;
      }
      if (!(list[count] = strdup(value))) break;
      count++;
    } else {
      p++;
    }
  }
  free(text);
  *names = list;
  return count;
}
