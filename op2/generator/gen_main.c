/*
 * gen_main.c - op2-gen command line.
 *
 *   op2-gen --app NAME --out DIR [--kernel-dir DIR] [--backends seq,openmp,cuda]
 *           [--language c|c++] SOURCE...
 *
 * Writes DIR/NAME_loops.h (prototypes) and DIR/NAME_<backend>.c (.cpp for a
 * C++ application, .cu for CUDA) for each backend. A file whose content would not change is left untouched so
 * that the build does not recompile it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gen.h"
#include "op_version.h"

static void usage(FILE *f) {
  fprintf(f,
          "usage: op2-gen --app NAME --out DIR [--kernel-dir DIR] [--backends LIST]\n"
          "               [--language c|c++] SOURCE...\n"
          "  Reads the application's sources, finds every op_par_loop and op_decl_const,\n"
          "  and writes the loop code for each backend into DIR (sources without a loop\n"
          "  give loop code with none):\n"
          "    NAME_loops.h     prototypes of op_par_loop_<kernel>\n"
          "    NAME_seq.c       sequential backend (NAME_seq.cpp for C++)\n"
          "    NAME_openmp.c    OpenMP backend (NAME_openmp.cpp for C++)\n"
          "    NAME_cuda.cu     CUDA backend\n"
          "    NAME_offload.c   OpenMP target-offload backend (NAME_offload.cpp for C++)\n"
          "  --kernel-dir DIR   where the kernel headers <kernel>.h (and OP2's optional\n"
          "                     user_types.h) live (default: the directory of the first source);\n"
          "                     a kernel with no header there is taken from its definition in\n"
          "                     the sources (written as DIR/NAME_kernel_<kernel>.h)\n"
          "  --backends LIST    comma-separated subset of seq,openmp,cuda,offload\n"
          "                     (default seq,openmp,cuda)\n"
          "  --language L       c or c++: the language of the CPU loop code, which includes\n"
          "                     the kernel headers (default: c++ when the first source ends\n"
          "                     in .cpp, .cc, .cxx or .C, else c)\n"
          "  --help, --version  this text; the suite's version and commit\n");
}

/* Writes text to path unless the file already holds exactly that text. */
static void write_if_changed(const char *path, const char *text, size_t len) {
  FILE *f = fopen(path, "rb");
  if (f) {
    char *old = malloc(len + 2);
    size_t got = old ? fread(old, 1, len + 1, f) : 0;
    fclose(f);
    int same = old && got == len && memcmp(old, text, len) == 0;
    free(old);
    if (same) return;
  }
  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  f = fopen(tmp, "wb");
  if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
    fprintf(stderr, "op2-gen: cannot write %s\n", tmp);
    exit(1);
  }
  if (rename(tmp, path) != 0) {
    fprintf(stderr, "op2-gen: cannot rename %s to %s\n", tmp, path);
    exit(1);
  }
}

static FILE *open_buffer(char **buf, size_t *len) {
  FILE *f = open_memstream(buf, len);
  if (!f) {
    fprintf(stderr, "op2-gen: out of memory\n");
    exit(1);
  }
  return f;
}

static void emit_to(const char *dir, const char *app, const char *suffix, const gen_program *prog,
                    gen_backend backend, int prototypes) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_buffer(&buf, &len);
  if (prototypes)
    gen_emit_prototypes(f, prog, app);
  else if (backend == GEN_CUDA)
    gen_emit_cuda(f, prog, app);
  else if (backend == GEN_OFFLOAD)
    gen_emit_offload(f, prog, app);
  else
    gen_emit_cpu(f, prog, app, backend);
  fclose(f);
  char path[4096];
  snprintf(path, sizeof path, "%s/%s%s", dir, app, suffix);
  write_if_changed(path, buf, len);
  free(buf);
}

/* DIR/NAME_cuda_<kernel>.h: the kernel header as device code, for NAME_cuda.cu. */
static void emit_device_headers(const char *dir, const char *app, const gen_program *prog) {
  for (int l = 0; l < prog->nloops; l++) {
    char *buf = NULL;
    size_t len = 0;
    char path[8192];
    FILE *f = open_buffer(&buf, &len);
    gen_emit_device_header(f, prog->loops[l].header_path);
    fclose(f);
    snprintf(path, sizeof path, "%s/%s_cuda_%s.h", dir, app, prog->loops[l].kernel);
    write_if_changed(path, buf, len);
    free(buf);
  }
}

/* The extensions CMake and GCC take for C++. */
static int is_cxx_source(const char *path) {
  const char *dot = strrchr(path, '.');
  return dot && (!strcmp(dot, ".cpp") || !strcmp(dot, ".cc") || !strcmp(dot, ".cxx") ||
                 !strcmp(dot, ".C") || !strcmp(dot, ".c++"));
}

static int file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where loop lp's kernel comes from: its header in the kernel directory, or
 * else its definition in one of the sources, written beside the loop code. */
static void find_kernel(gen_loop *lp, const char *kdir, const char *out, const char *app,
                        const token_list *tls, int nsrc, int cxx) {
  char *path = lp->header_path;
  if (snprintf(path, sizeof lp->header_path, "%s/%s.h", kdir, lp->kernel) >=
      (int)sizeof lp->header_path)
    gen_error_at(lp->file, lp->line, "kernel %s: the kernel directory's path is too long",
                 lp->kernel);
  if (file_exists(path)) {
    snprintf(lp->header, sizeof lp->header, "%s.h", lp->kernel);
    return;
  }
  for (int s = 0; s < nsrc; s++) {
    gen_source_kernel k;
    if (!gen_find_source_kernel(&tls[s], lp->kernel, &k)) continue;
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_buffer(&buf, &len);
    gen_emit_source_kernel(f, &tls[s], lp->kernel, &k, cxx, app);
    fclose(f);
    snprintf(lp->header, sizeof lp->header, "%s_kernel_%s.h", app, lp->kernel);
    if (snprintf(path, sizeof lp->header_path, "%s/%s", out, lp->header) >=
        (int)sizeof lp->header_path)
      gen_error_at(lp->file, lp->line, "kernel %s: the output directory's path is too long",
                   lp->kernel);
    write_if_changed(path, buf, len);
    free(buf);
    return;
  }
  snprintf(path, sizeof lp->header_path, "%s/%s.h", kdir, lp->kernel);
  gen_error_at(lp->file, lp->line,
               "kernel %s: neither its header %s exists (one kernel per header, named after the "
               "kernel) nor do the sources define it at file scope",
               lp->kernel, path);
}

int main(int argc, char **argv) {
  const char *app = NULL, *out = NULL, *kdir = NULL, *backends = "seq,openmp,cuda",
             *language = NULL;
  const char *sources[256];
  int nsrc = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      usage(stdout);
      return 0;
    } else if (!strcmp(a, "--version")) {
      op_print_version("op2-gen");
      return 0;
    } else if (!strcmp(a, "--app") && i + 1 < argc) {
      app = argv[++i];
    } else if (!strcmp(a, "--out") && i + 1 < argc) {
      out = argv[++i];
    } else if (!strcmp(a, "--kernel-dir") && i + 1 < argc) {
      kdir = argv[++i];
    } else if (!strcmp(a, "--backends") && i + 1 < argc) {
      backends = argv[++i];
    } else if (!strcmp(a, "--language") && i + 1 < argc) {
      language = argv[++i];
      if (strcmp(language, "c") && strcmp(language, "c++")) {
        fprintf(stderr, "op2-gen: --language must be c or c++, not %s\n", language);
        return 2;
      }
    } else if (a[0] == '-') {
      fprintf(stderr, "op2-gen: unknown or incomplete option %s\n", a);
      usage(stderr);
      return 2;
    } else if (nsrc < 256) {
      sources[nsrc++] = a;
    }
  }
  if (!app || !out || nsrc == 0) {
    usage(stderr);
    return 2;
  }
  char kbuf[4096];
  if (!kdir) {
    snprintf(kbuf, sizeof kbuf, "%s", sources[0]);
    char *slash = strrchr(kbuf, '/');
    if (slash)
      *slash = '\0';
    else
      strcpy(kbuf, ".");
    kdir = kbuf;
  }

  if (!language) language = is_cxx_source(sources[0]) ? "c++" : "c";
  const char *cpu_suffix = strcmp(language, "c++") ? ".c" : ".cpp";

  gen_program prog;
  memset(&prog, 0, sizeof prog);
  prog.kernel_dir = kdir;
  /* Kept until the kernels are found: one may be defined in a source. */
  token_list *tls = calloc((size_t)nsrc, sizeof *tls);
  if (!tls) {
    fprintf(stderr, "op2-gen: out of memory\n");
    return 1;
  }
  for (int s = 0; s < nsrc; s++) {
    gen_lex_file(sources[s], &tls[s]);
    gen_parse(&tls[s], &prog);
  }
  /* A source with no loop (OP2's tutorial starts so) still builds: the loop
   * code is then empty. */
  if (mkdir(out, 0777) != 0) {
    struct stat st;
    if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode)) {
      fprintf(stderr, "op2-gen: cannot create directory %s\n", out);
      return 1;
    }
  }
  for (int l = 0; l < prog.nloops; l++)
    find_kernel(&prog.loops[l], kdir, out, app, tls, nsrc, !strcmp(language, "c++"));
  for (int c = 0; c < prog.nconsts; c++)
    for (int s = 0; s < nsrc && !prog.consts[c].internal; s++)
      prog.consts[c].internal =
          gen_source_const_internal(&tls[s], prog.consts[c].name, is_cxx_source(sources[s]));
  for (int s = 0; s < nsrc; s++) gen_free_tokens(&tls[s]);
  free(tls);
  char ut[8192];
  snprintf(ut, sizeof ut, "%s/user_types.h", kdir);
  prog.user_types = file_exists(ut);
  emit_to(out, app, "_loops.h", &prog, GEN_SEQ, 1);
  char suffix[16];
  snprintf(suffix, sizeof suffix, "_seq%s", cpu_suffix);
  if (strstr(backends, "seq")) emit_to(out, app, suffix, &prog, GEN_SEQ, 0);
  snprintf(suffix, sizeof suffix, "_openmp%s", cpu_suffix);
  if (strstr(backends, "openmp")) emit_to(out, app, suffix, &prog, GEN_OPENMP, 0);
  snprintf(suffix, sizeof suffix, "_offload%s", cpu_suffix);
  if (strstr(backends, "offload")) emit_to(out, app, suffix, &prog, GEN_OFFLOAD, 0);
  if (strstr(backends, "cuda")) {
    emit_device_headers(out, app, &prog);
    emit_to(out, app, "_cuda.cu", &prog, GEN_CUDA, 0);
  }
  free(prog.loops);
  free(prog.consts);
  return 0;
}
