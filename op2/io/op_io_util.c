/*
 * op_io_util.c - error reporting, text buffers, atomic file replacement and
 * path helpers shared by the OP2 I/O modules.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "op_io_util.h"
#include "op_tmpname.h"
#include "op_dist.h"

#include "op2_error.h"
#include "op_decl.h"
#include "op_text.h"

#include <errno.h>
#include <fcntl.h>
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *op_io_strerror(int code) {
  switch (code) {
  case OP_IO_OK: return "success";
  case OP_IO_EARG: return "invalid argument";
  case OP_IO_ENOFILE: return "file missing or cannot be opened";
  case OP_IO_EFORMAT: return "not a valid file (wrong format, truncated or corrupt)";
  case OP_IO_ENOENT: return "dataset, attribute or scalar missing";
  case OP_IO_ESHAPE: return "wrong shape";
  case OP_IO_ETYPE: return "wrong element type";
  case OP_IO_ERANGE: return "map entry out of range";
  case OP_IO_EIO: return "I/O error";
  case OP_IO_ENOMEM: return "out of memory";
  default: return "unknown error";
  }
}

/* ---- errors ------------------------------------------------------------------- */

typedef struct {
  char desc[256];
  int found;
} h5_detail;

/* Called innermost record first (H5E_WALK_UPWARD): keep the first one that
 * has a description. */
static herr_t h5_detail_cb(unsigned n, const H5E_error2_t *e, void *data) {
  (void)n;
  h5_detail *d = data;
  if (!d->found && e && e->desc && e->desc[0]) {
    snprintf(d->desc, sizeof d->desc, "%s", e->desc);
    d->found = 1;
  }
  return 0;
}

static const char *src_basename(const char *src) {
  const char *s = strrchr(src, '/');
  return s ? s + 1 : src;
}

int op_io_fail(const op_io_ctx *c, int code, const char *src, int line, const char *func,
               const char *fmt, ...) {
  h5_detail d;
  d.desc[0] = '\0';
  d.found = 0;
  /* Collect what HDF5 said about the call that just failed, then clear. */
  if (H5Eget_num(H5E_DEFAULT) > 0) {
    if (H5Ewalk2(H5E_DEFAULT, H5E_WALK_UPWARD, h5_detail_cb, &d) < 0)
      d.found = 0;
    H5Eclear2(H5E_DEFAULT);
  }
  if (!c || !c->err || c->errlen == 0)
    return code;

  char msg[768];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);

  /* Names come from outside (a file name, an object in a file): shown safe. */
  char where[2 * OP_TEXT_SHOWN + 64], file[OP_TEXT_SHOWN], object[OP_TEXT_SHOWN];
  int n = snprintf(where, sizeof where, "%s '%s'", c->kind ? c->kind : "file",
                   op_text_shown(file, sizeof file, c->file ? c->file : "(none)"));
  if (n >= 0 && (size_t)n < sizeof where && c->what && c->object)
    snprintf(where + n, sizeof where - (size_t)n, ", %s '%s'", c->what,
             op_text_shown(object, sizeof object, c->object));

  op_text_format(c->err, c->errlen, "op2-io: %s: %s%s%s%s [%s:%d %s()]", where, msg,
                 d.found ? " (HDF5: " : "", d.found ? d.desc : "", d.found ? ")" : "",
                 src_basename(src), line, func);
  return code;
}

void op_io_die(const char *msg) {
  char shown[OP_IO_ERRLEN + 64];
  fflush(stdout);
  fprintf(stderr, "%s\n", op_text_shown(shown, sizeof shown, msg));
  fflush(stderr);
  exit(OP_EXIT_ERROR);
}

/* ---- types ----------------------------------------------------------------------- */

int op_io_parse_type(const char *name, op_type *t) {
  int k = op_type_from_name(name); /* the core's parser: same names and aliases */
  if (k < 0)
    return -1;
  *t = (op_type)k;
  return 0;
}

const char *op_io_type_name(op_type t) {
  switch (t) {
  case OP_TYPE_DOUBLE: return "double";
  case OP_TYPE_FLOAT: return "float";
  case OP_TYPE_INT: return "int";
  }
  return "?";
}

size_t op_io_type_size(op_type t) {
  switch (t) {
  case OP_TYPE_DOUBLE: return sizeof(double);
  case OP_TYPE_FLOAT: return sizeof(float);
  case OP_TYPE_INT: return sizeof(int);
  }
  return 0;
}

/* ---- text buffer -------------------------------------------------------------- */

static int buf_reserve(op_io_buf *b, size_t extra) {
  if (b->oom)
    return -1;
  if (b->len + extra + 1 <= b->cap)
    return 0;
  size_t cap = b->cap ? b->cap : 1024;
  while (cap < b->len + extra + 1) {
    if (cap > ((size_t)-1) / 2) {
      b->oom = 1;
      return -1;
    }
    cap *= 2;
  }
  char *s = realloc(b->s, cap);
  if (!s) {
    b->oom = 1;
    return -1;
  }
  b->s = s;
  b->cap = cap;
  return 0;
}

void op_io_buf_printf(op_io_buf *b, const char *fmt, ...) {
  if (b->oom)
    return;
  va_list ap;
  va_start(ap, fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->oom = 1;
    va_end(ap2);
    return;
  }
  if (buf_reserve(b, (size_t)n) == 0) {
    int m = vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap2);
    if (m != n)
      b->oom = 1;
    else
      b->len += (size_t)n;
  }
  va_end(ap2);
}

void op_io_buf_xml(op_io_buf *b, const char *s) {
  for (; s && *s && !b->oom; ++s) {
    switch (*s) {
    case '&': op_io_buf_printf(b, "&amp;"); break;
    case '<': op_io_buf_printf(b, "&lt;"); break;
    case '>': op_io_buf_printf(b, "&gt;"); break;
    case '"': op_io_buf_printf(b, "&quot;"); break;
    case '\'': op_io_buf_printf(b, "&apos;"); break;
    default: op_io_buf_printf(b, "%c", *s); break;
    }
  }
}

void op_io_buf_free(op_io_buf *b) {
  free(b->s);
  b->s = NULL;
  b->len = b->cap = 0;
  b->oom = 0;
}

/* ---- files --------------------------------------------------------------------- */

char *op_io_tmpname(const char *file) {
  size_t n = strlen(file) + 128;
  char *t = malloc(n);
  if (t && !op_tmp_name(file, t, n)) {
    free(t);
    t = NULL;
  }
  return t;
}

char *op_io_dirname(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) {
    char *d = malloc(2);
    if (d)
      memcpy(d, ".", 2);
    return d;
  }
  size_t n = (size_t)(slash - path);
  if (n == 0)
    n = 1; /* "/file" -> "/" */
  char *d = malloc(n + 1);
  if (!d)
    return NULL;
  memcpy(d, path, n);
  d[n] = '\0';
  return d;
}

int op_io_path_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0;
}

int op_io_fsync_path(const op_io_ctx *c, const char *path) {
  int fd = open(path, O_RDWR);
  if (fd < 0)
    return OP_IO_ERR(c, OP_IO_EIO, "cannot open '%s' to sync it: %s", path, strerror(errno));
  if (fsync(fd) != 0) {
    int e = errno;
    close(fd);
    return OP_IO_ERR(c, OP_IO_EIO, "fsync of '%s' failed: %s", path, strerror(e));
  }
  if (close(fd) != 0)
    return OP_IO_ERR(c, OP_IO_EIO, "close of '%s' failed: %s", path, strerror(errno));
  return OP_IO_OK;
}

int op_io_commit(const op_io_ctx *c, const char *tmp, const char *file) {
  int rc = op_io_fsync_path(c, tmp);
  if (rc != OP_IO_OK) {
    unlink(tmp);
    return rc;
  }
  if (rename(tmp, file) != 0) {
    int e = errno;
    unlink(tmp);
    return OP_IO_ERR(c, OP_IO_EIO, "cannot rename '%s' to '%s': %s", tmp, file, strerror(e));
  }
  /* Make the new directory entry durable. Some file systems cannot fsync a
   * directory (EINVAL): the rename has still happened, so that is not an
   * error. */
  char *dir = op_io_dirname(file);
  if (!dir)
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
  int fd = open(dir, O_RDONLY | O_DIRECTORY);
  if (fd < 0) {
    int e = errno;
    rc = OP_IO_ERR(c, OP_IO_EIO, "cannot open directory '%s' to sync it: %s", dir, strerror(e));
    free(dir);
    return rc;
  }
  if (fsync(fd) != 0 && errno != EINVAL) {
    int e = errno;
    close(fd);
    rc = OP_IO_ERR(c, OP_IO_EIO, "fsync of directory '%s' failed: %s", dir, strerror(e));
    free(dir);
    return rc;
  }
  free(dir);
  if (close(fd) != 0)
    return OP_IO_ERR(c, OP_IO_EIO, "close of a directory failed: %s", strerror(errno));
  return OP_IO_OK;
}

int op_io_write_file_atomic(const op_io_ctx *c, const char *file, const char *data, size_t len) {
  char *tmp = op_io_tmpname(file);
  if (!tmp)
    return OP_IO_ERR(c, OP_IO_ENOMEM, "out of memory");
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) {
    int rc = OP_IO_ERR(c, OP_IO_ENOFILE, "cannot create '%s': %s", tmp, strerror(errno));
    free(tmp);
    return rc;
  }
  size_t off = 0;
  while (off < len) {
    ssize_t w = write(fd, data + off, len - off);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      int e = errno;
      close(fd);
      unlink(tmp);
      int rc = OP_IO_ERR(c, OP_IO_EIO, "write to '%s' failed: %s", tmp, strerror(e));
      free(tmp);
      return rc;
    }
    off += (size_t)w;
  }
  if (close(fd) != 0) {
    int e = errno;
    unlink(tmp);
    int rc = OP_IO_ERR(c, OP_IO_EIO, "close of '%s' failed: %s", tmp, strerror(e));
    free(tmp);
    return rc;
  }
  int rc = op_io_commit(c, tmp, file);
  free(tmp);
  return rc;
}

/* ---- relative paths --------------------------------------------------------------- */

/* Absolute, lexically normalised copy of path split into components.
 * Returns the number of components (stored in *comp, pointing into *store),
 * or -1 on failure. */
static int split_abs(const char *path, char **store, char ***comp) {
  char *cwd = NULL;
  if (path[0] != '/') {
    size_t sz = 256;
    for (;;) {
      cwd = malloc(sz);
      if (!cwd)
        return -1;
      if (getcwd(cwd, sz))
        break;
      free(cwd);
      cwd = NULL;
      if (errno != ERANGE || sz > (1u << 20))
        return -1;
      sz *= 2;
    }
  }
  size_t n = strlen(path) + (cwd ? strlen(cwd) + 1 : 0) + 1;
  char *s = malloc(n);
  if (!s) {
    free(cwd);
    return -1;
  }
  snprintf(s, n, "%s%s%s", cwd ? cwd : "", cwd ? "/" : "", path);
  free(cwd);
  char **c = malloc(sizeof(char *) * (n / 2 + 1));
  if (!c) {
    free(s);
    return -1;
  }
  int k = 0;
  char *save = NULL;
  for (char *t = strtok_r(s, "/", &save); t; t = strtok_r(NULL, "/", &save)) {
    if (strcmp(t, ".") == 0)
      continue;
    if (strcmp(t, "..") == 0) {
      if (k > 0)
        --k;
      continue;
    }
    c[k++] = t;
  }
  *store = s;
  *comp = c;
  return k;
}

char *op_io_relpath(const char *target, const char *dir) {
  char *ts = NULL, *ds = NULL, **tc = NULL, **dc = NULL;
  char *out = NULL;
  int nt = split_abs(target, &ts, &tc);
  int nd = nt < 0 ? -1 : split_abs(dir, &ds, &dc);
  if (nt < 0 || nd < 0)
    goto done;
  int k = 0;
  while (k < nt && k < nd && strcmp(tc[k], dc[k]) == 0)
    ++k;
  size_t len = 1;
  for (int i = k; i < nd; ++i)
    len += 3;
  for (int i = k; i < nt; ++i)
    len += strlen(tc[i]) + 1;
  out = malloc(len + 1);
  if (!out)
    goto done;
  out[0] = '\0';
  size_t pos = 0;
  for (int i = k; i < nd; ++i)
    pos += (size_t)snprintf(out + pos, len + 1 - pos, "../");
  for (int i = k; i < nt; ++i)
    pos += (size_t)snprintf(out + pos, len + 1 - pos, "%s%s", tc[i], i + 1 < nt ? "/" : "");
  if (pos == 0)
    snprintf(out, len + 1, ".");
done:
  free(ts);
  free(ds);
  free(tc);
  free(dc);
  return out;
}

/* ---- many processes ------------------------------------------------------------ */

int op_io_writer(void) { return op_is_root(); }

int op_io_shared(int rc, const char *err) {
  (void)err; /* the root reports it (its caller prints err and ends the job) */
  return op_root_status(rc);
}
