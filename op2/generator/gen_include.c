/*
 * gen_include.c - the application's own headers, as its sources include them.
 *
 * OP2 applications keep several kernels in one header that the main source
 * includes (a header of flux kernels, one of multigrid transfers, ...), and
 * size their constants with macros of another header. op2-gen reads what the
 * compiler would: the files reachable from the sources through
 * `#include "..."`, each resolved as the C standard's quoted form is (ISO/IEC
 * 9899:2018, 6.10.2): first beside the including file, then in the include
 * directories given. System headers (`#include <...>`) are not followed:
 * they are the compiler's, never where a kernel is. Conditional compilation
 * is not evaluated: every include line counts, and one naming a file that is
 * not there (a header of another configuration) is passed over.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"

/* Deeper than any application nests its headers; a chain this long is a
 * loop the cycle guard did not see (the same file under another path). */
#define GEN_INCLUDE_DEPTH 64

static void *checked(void *p) {
  if (!p) {
    fprintf(stderr, "op2-gen: out of memory\n");
    exit(1);
  }
  return p;
}

static int regular_file(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "op2-gen: cannot open %s\n", path);
    exit(1);
  }
  size_t cap = 4096, len = 0, got;
  char *buf = checked(malloc(cap));
  while ((got = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (cap - len < 2) buf = checked(realloc(buf, cap *= 2));
  }
  const int bad = ferror(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "op2-gen: cannot read %s\n", path);
    exit(1);
  }
  buf[len] = '\0';
  return buf;
}

/* Calls fn for each preprocessor line of text: the directive's name (the
 * word after '#') and what follows it, up to the end of the line. */
typedef void (*directive_fn)(const char *word, size_t wlen, const char *rest, size_t rlen,
                             void *ctx);
static void each_directive(const char *text, directive_fn fn, void *ctx) {
  for (const char *at = text; *at;) {
    const char *nl = strchr(at, '\n');
    const char *stop = nl ? nl : at + strlen(at);
    const char *p = at;
    while (p < stop && (*p == ' ' || *p == '\t')) p++;
    if (p < stop && *p == '#') {
      p++;
      while (p < stop && (*p == ' ' || *p == '\t')) p++;
      const char *w = p;
      while (p < stop && (isalnum((unsigned char)*p) || *p == '_')) p++;
      const char *r = p;
      while (r < stop && (*r == ' ' || *r == '\t')) r++;
      fn(w, (size_t)(p - w), r, (size_t)(stop - r), ctx);
    }
    at = nl ? nl + 1 : stop;
  }
}

static int is_word(const char *w, size_t n, const char *s) {
  return n == strlen(s) && !memcmp(w, s, n);
}

/* ---- the walk ------------------------------------------------------------------------------ */

static int known(const gen_files *fs, const char *real) {
  for (int i = 0; i < fs->n; i++)
    if (!strcmp(fs->paths[i], real)) return 1;
  return 0;
}

static void add_file(gen_files *fs, const char *real) {
  if (fs->n == fs->cap) {
    fs->cap = fs->cap ? 2 * fs->cap : 32;
    fs->paths = checked(realloc(fs->paths, sizeof *fs->paths * (size_t)fs->cap));
  }
  fs->paths[fs->n++] = checked(strdup(real));
}

/* The file `name` of `#include "name"` in `from`: beside from, else in an
 * include directory; 0 when none holds it. */
static int resolve(const char *from, const char *name, const gen_program *prog, char *out,
                   size_t size) {
  if (name[0] == '/') return snprintf(out, size, "%s", name) < (int)size && regular_file(out);
  const char *slash = strrchr(from, '/');
  const int dlen = slash ? (int)(slash - from) : 1;
  if (snprintf(out, size, "%.*s/%s", dlen, slash ? from : ".", name) < (int)size &&
      regular_file(out))
    return 1;
  for (int d = 0; d < prog->ninclude_dirs; d++)
    if (snprintf(out, size, "%s/%s", prog->include_dirs[d], name) < (int)size && regular_file(out))
      return 1;
  return 0;
}

typedef struct {
  const char *path;
  const gen_program *prog;
  gen_files *fs;
  int depth;
} walk_ctx;

static void walk(const char *path, const gen_program *prog, gen_files *fs, int depth);

static void on_include(const char *w, size_t wlen, const char *r, size_t rlen, void *vctx) {
  walk_ctx *c = vctx;
  if (!is_word(w, wlen, "include") || rlen < 2 || r[0] != '"') return;
  const char *end = memchr(r + 1, '"', rlen - 1);
  if (!end || end - r - 1 >= 4096) return;
  char name[4096], found[8192];
  snprintf(name, sizeof name, "%.*s", (int)(end - r - 1), r + 1);
  if (resolve(c->path, name, c->prog, found, sizeof found))
    walk(found, c->prog, c->fs, c->depth + 1);
}

static void walk(const char *path, const gen_program *prog, gen_files *fs, int depth) {
  char real[PATH_MAX];
  if (!realpath(path, real)) {
    if (strlen(path) >= sizeof real) return;
    strcpy(real, path);
  }
  if (known(fs, real)) return; /* seen, or one of its own includers: a cycle */
  if (depth > GEN_INCLUDE_DEPTH) {
    fprintf(stderr, "op2-gen: %s: included more than %d levels deep; not followed further\n", path,
            GEN_INCLUDE_DEPTH);
    return;
  }
  add_file(fs, real);
  char *text = read_text(real);
  walk_ctx c = {real, prog, fs, depth};
  each_directive(text, on_include, &c);
  free(text);
}

void gen_include_walk(const char *path, const gen_program *prog, gen_files *fs) {
  walk(path, prog, fs, 0);
}

void gen_files_free(gen_files *fs) {
  for (int i = 0; i < fs->n; i++) free(fs->paths[i]);
  free(fs->paths);
  memset(fs, 0, sizeof *fs);
}

/* ---- system headers ------------------------------------------------------------------------ */

typedef struct {
  FILE *f;
  gen_files *lines; /* the lines written, to write each once */
} sys_ctx;

static void on_system_include(const char *w, size_t wlen, const char *r, size_t rlen, void *vctx) {
  sys_ctx *c = vctx;
  if (!is_word(w, wlen, "include") || rlen < 2 || r[0] != '<') return;
  const char *end = memchr(r, '>', rlen);
  if (!end) return;
  char line[4200];
  snprintf(line, sizeof line, "#include %.*s", (int)(end - r + 1), r);
  if (known(c->lines, line)) return;
  add_file(c->lines, line);
  fprintf(c->f, "%s\n", line);
}

void gen_emit_system_includes(FILE *f, const gen_program *prog) {
  gen_files files = {0}, lines = {0};
  char ut[8192];
  if (prog->user_types &&
      snprintf(ut, sizeof ut, "%s/user_types.h", prog->kernel_dir) < (int)sizeof ut)
    gen_include_walk(ut, prog, &files);
  for (int l = 0; l < prog->nloops; l++) gen_include_walk(prog->loops[l].header_path, prog, &files);
  sys_ctx c = {f, &lines};
  for (int i = 0; i < files.n; i++) {
    char *text = read_text(files.paths[i]);
    each_directive(text, on_system_include, &c);
    free(text);
  }
  gen_files_free(&files);
  gen_files_free(&lines);
}

/* ---- macros that size constants ------------------------------------------------------------ */

typedef struct {
  const char *name;
  char body[512];
  int found;
} define_ctx;

static void on_define(const char *w, size_t wlen, const char *r, size_t rlen, void *vctx) {
  define_ctx *c = vctx;
  const size_t n = strlen(c->name);
  if (c->found || !is_word(w, wlen, "define") || rlen < n || memcmp(r, c->name, n)) return;
  if (rlen > n && (isalnum((unsigned char)r[n]) || r[n] == '_' || r[n] == '(')) return;
  size_t blen = rlen - n;
  const char *b = r + n;
  const char *comment = NULL;
  for (size_t k = 0; k + 1 < blen && !comment; k++)
    if (b[k] == '/' && (b[k + 1] == '/' || b[k + 1] == '*')) comment = b + k;
  if (comment) blen = (size_t)(comment - b);
  if (blen >= sizeof c->body) return;
  snprintf(c->body, sizeof c->body, "%.*s", (int)blen, b);
  c->found = 1;
}

typedef struct {
  const char *s;
  const gen_files *files;
  int depth, bad;
} expr;

static long eval_sum(expr *e);

static void skip_space(expr *e) {
  while (*e->s == ' ' || *e->s == '\t' || *e->s == '\r') e->s++;
}

static long eval_atom(expr *e) {
  skip_space(e);
  if (*e->s == '(') {
    e->s++;
    const long v = eval_sum(e);
    skip_space(e);
    if (*e->s == ')')
      e->s++;
    else
      e->bad = 1;
    return v;
  }
  if (*e->s == '-' || *e->s == '+') {
    const int neg = *e->s++ == '-';
    const long v = eval_atom(e);
    return neg ? -v : v;
  }
  if (isdigit((unsigned char)*e->s)) {
    char *end;
    const long v = strtol(e->s, &end, 0);
    e->s = end;
    while (*e->s == 'u' || *e->s == 'U' || *e->s == 'l' || *e->s == 'L') e->s++;
    return v;
  }
  if (isalpha((unsigned char)*e->s) || *e->s == '_') {
    char name[GEN_NAME];
    size_t n = 0;
    while ((isalnum((unsigned char)*e->s) || *e->s == '_') && n + 1 < sizeof name)
      name[n++] = *e->s++;
    name[n] = '\0';
    long v;
    if (e->depth >= 32 || !gen_macro_value(e->files, name, &v, e->depth + 1)) e->bad = 1;
    return e->bad ? 0 : v;
  }
  e->bad = 1;
  return 0;
}

static long eval_product(expr *e) {
  long v = eval_atom(e);
  for (;;) {
    skip_space(e);
    const char op = *e->s;
    if (op != '*' && op != '/' && op != '%') return v;
    e->s++;
    const long w = eval_atom(e);
    if (op == '*')
      v *= w;
    else if (w == 0)
      e->bad = 1;
    else
      v = op == '/' ? v / w : v % w;
  }
}

static long eval_sum(expr *e) {
  long v = eval_product(e);
  for (;;) {
    skip_space(e);
    const char op = *e->s;
    if (op != '+' && op != '-') return v;
    e->s++;
    const long w = eval_product(e);
    v = op == '+' ? v + w : v - w;
  }
}

int gen_macro_value(const gen_files *files, const char *name, long *value, int depth) {
  define_ctx c = {name, "", 0};
  for (int i = 0; i < files->n && !c.found; i++) {
    char *text = read_text(files->paths[i]);
    each_directive(text, on_define, &c);
    free(text);
  }
  if (!c.found) return 0;
  expr e = {c.body, files, depth, 0};
  const long v = eval_sum(&e);
  skip_space(&e);
  if (e.bad || *e.s) return 0;
  *value = v;
  return 1;
}

/* ---- a header copied elsewhere ------------------------------------------------------------- */

void gen_write_resolved_includes(FILE *f, const char *text, size_t len, const char *from,
                                 const gen_program *prog) {
  for (size_t at = 0; at < len;) {
    const char *nl = memchr(text + at, '\n', len - at);
    const size_t stop = nl ? (size_t)(nl - text) : len;
    size_t p = at;
    while (p < stop && (text[p] == ' ' || text[p] == '\t')) p++;
    int done = 0;
    if (p < stop && text[p] == '#') {
      p++;
      while (p < stop && (text[p] == ' ' || text[p] == '\t')) p++;
      if (stop - p > 7 && !memcmp(text + p, "include", 7)) {
        size_t q = p + 7;
        while (q < stop && (text[q] == ' ' || text[q] == '\t')) q++;
        const char *end =
            q < stop && text[q] == '"' ? memchr(text + q + 1, '"', stop - q - 1) : NULL;
        char name[4096], found[8192], real[PATH_MAX];
        if (end && end - text - q - 1 < (long)sizeof name) {
          snprintf(name, sizeof name, "%.*s", (int)(end - text - (long)q - 1), text + q + 1);
          if (resolve(from, name, prog, found, sizeof found) && realpath(found, real)) {
            fprintf(f, "#include \"%s\"%.*s", real, (int)(stop - (size_t)(end - text) - 1),
                    end + 1);
            done = 1;
          }
        }
      }
    }
    if (!done) fwrite(text + at, 1, stop - at, f);
    if (nl) fputc('\n', f);
    at = stop + 1;
  }
}
