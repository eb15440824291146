/*
 * gen.h - op2-gen, the code generator: reads an application's sources, finds
 * every op_par_loop and op_decl_const, and writes the loop code for each
 * backend. Shared declarations of its parts (lexer, parser, emitters).
 */
#ifndef OP2_GEN_H
#define OP2_GEN_H

#include <stdio.h>

/* ---- tokens ---- */
typedef enum { TOK_IDENT, TOK_NUMBER, TOK_STRING, TOK_CHAR, TOK_PUNCT, TOK_END } tok_kind;

typedef struct {
  tok_kind kind;
  char *text; /* NUL-terminated copy */
  int line;
  long pos;   /* byte offset of the token in the source */
} token;

typedef struct {
  const char *path;
  token *toks;
  int ntoks;
  char *src;  /* the whole source text, NUL-terminated */
  long len;
  char *real; /* its real path, where op2-gen needs it (gen_main.c), or NULL */
} token_list;

/* Tokenizes a C source file, skipping comments and preprocessor lines.
 * Exits with a message naming the file and line on a lexical error. */
void gen_lex_file(const char *path, token_list *out);
void gen_free_tokens(token_list *tl);

/* ---- what the parser finds ---- */
#define GEN_MAX_ARGS 64
#define GEN_NAME 128

typedef enum { GEN_ARG_DAT, GEN_ARG_GBL, GEN_ARG_IDX, GEN_ARG_INFO } gen_arg_kind;

typedef struct {
  gen_arg_kind kind;
  int indirect;             /* through a map (not OP_ID) */
  char type[16];            /* C type: double, float or int */
  char type_enum[24];       /* OP_TYPE_... */
  char acc[12];             /* OP_READ ... */
  int dim;                  /* literal dim, or -1 */
  char dat_text[GEN_NAME];  /* source text of the dat (for sharing pointers) */
  int ref;                  /* GEN_ARG_INFO: position of the MIN/MAX global it goes with */
} gen_arg;

typedef struct {
  char kernel[GEN_NAME];
  char file[512];
  int line;
  int nargs;
  gen_arg args[GEN_MAX_ARGS];
  /* Where the kernel comes from (gen_main.c): the name the loop code
   * includes (<kernel>.h from the kernel directory, or <app>_kernel_<kernel>.h
   * written beside the loop code when the application's source defines it)
   * and that file's path. */
  char header[GEN_NAME + 64];
  char header_path[4096];
} gen_loop;

typedef struct {
  char name[GEN_NAME];
  char type[16];
  int dim;                  /* literal dim (or the value of the macro that
                               names it, gen_include.c), or -1 */
  char dim_macro[GEN_NAME]; /* the dim written as one identifier: its name */
  int scalar;               /* declared as op_decl_const(1, "t", &name) */
  int internal;             /* the sources define it with internal linkage
                               (gen_source_const.c): the CPU code keeps a copy */
  char file[512];
  int line;
} gen_const;

typedef struct {
  gen_loop *loops;          /* one per distinct kernel */
  int nloops, cap_loops;
  gen_const *consts;
  int nconsts, cap_consts;
  int user_types;           /* the kernel directory has OP2's user_types.h */
  const char *kernel_dir;   /* where <kernel>.h and user_types.h live */
  const char **include_dirs; /* where #include "..." looks after the including
                                file's own directory (--include-dir) */
  int ninclude_dirs;
} gen_program;

/* Adds the loops and constants of one tokenized file; refuses (exit 1 with
 * file:line) what the generator cannot handle. */
void gen_parse(const token_list *tl, gen_program *prog);

/* ---- kernels written in the application's source (gen_source_kernel.c) ---- */
typedef struct {
  const char *path;  /* the source */
  int line;          /* where the definition starts */
  long begin, end;   /* its bytes in the source: [begin, end) */
  int is_static;     /* declared static */
} gen_source_kernel;

/* Finds the definition of function `kernel` at file scope in a tokenized
 * source: 1 (and *out) when found, 0 when not. */
int gen_find_source_kernel(const token_list *tl, const char *kernel, gen_source_kernel *out);
/* Writes the definition as a header of the loop code: in an unnamed namespace
 * (cxx) or static (C), under a #line directive naming the source. */
void gen_emit_source_kernel(FILE *f, const token_list *tl, const char *kernel,
                            const gen_source_kernel *k, int cxx, const char *app);

/* 1 when a source defines constant `name` at file scope with internal
 * linkage (static; const in C++), so that loop code compiled apart cannot
 * reach it (gen_source_const.c). */
int gen_source_const_internal(const token_list *tl, const char *name, int cxx);

/* ---- the application's headers (gen_include.c) ---- */
typedef struct {
  char **paths; /* real paths, in the order the compiler first reads them */
  int n, cap;
} gen_files;

/* Adds path and every file it reaches through #include "..." (beside the
 * including file, then in prog's include directories; depth-bounded, each
 * file once) to fs. */
void gen_include_walk(const char *path, const gen_program *prog, gen_files *fs);
void gen_files_free(gen_files *fs);
/* The value of object-like macro `name` as the first #define of it in files
 * gives it, when that is an integer expression of literals and such macros:
 * 1 and *value, else 0. depth: 0 (bounds the recursion). */
int gen_macro_value(const gen_files *files, const char *name, long *value, int depth);
/* Writes, once each, the #include <...> lines of the loops' kernel headers
 * and of the headers they include: the device backends include them before
 * they redefine `inline` or open `declare target`, so that the system's
 * headers never see either. */
void gen_emit_system_includes(FILE *f, const gen_program *prog);
/* Writes text, a copy of header `from` that goes elsewhere, with each
 * #include "name" that resolves from `from` written as its real path. */
void gen_write_resolved_includes(FILE *f, const char *text, size_t len, const char *from,
                                 const gen_program *prog);

/* ---- output ---- */
typedef enum { GEN_SEQ, GEN_OPENMP, GEN_CUDA, GEN_OFFLOAD } gen_backend;

void gen_emit_prototypes(FILE *f, const gen_program *prog, const char *app);
void gen_emit_cpu(FILE *f, const gen_program *prog, const char *app, gen_backend backend);
void gen_emit_cuda(FILE *f, const gen_program *prog, const char *app);
/* OpenMP target offload (gen_emit_offload.c, docs/offload.md). */
void gen_emit_offload(FILE *f, const gen_program *prog, const char *app);

/* ---- shared by the emitters (gen_emit_common.c) ---- */
/* Writes `indent` spaces, then the formatted text. */
void gen_out(FILE *f, int indent, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* What an argument is: an op_arg_dat, one through a map (indirect), its
 * access; a reduction (an op_arg_gbl other than OP_READ), an op_arg_info;
 * and whether it has per-thread or per-block partials combined after the
 * loop (a reduction, or an op_arg_info that travels with one). */
int gen_is_dat(const gen_arg *a);
int gen_is_ind_dat(const gen_arg *a);
int gen_is_read(const gen_arg *a);
int gen_is_inc(const gen_arg *a);
int gen_is_write(const gen_arg *a);
int gen_is_red(const gen_arg *a);
int gen_is_info(const gen_arg *a);
int gen_is_part(const gen_arg *a);
/* Reaches its data through a map: an indirect dat or op_arg_idx. */
int gen_is_mapped(const gen_arg *a);
/* Argument i of the loop is an op_arg_info that travels with reduction red. */
int gen_is_info_of(const gen_loop *lp, int i, int red);
/* How an element's value of MIN/MAX reduction a beats the value so far
 * (strictly: "<" for OP_MIN, ">" for OP_MAX). */
const char *gen_beats(const gen_arg *a);
/* The text of argument i's dim in the generated code: its literal, or the
 * run-time value, runtime_fmt with i (each backend keeps it in its own
 * variable: "arg%d.dim", "dim%d", ...). In a ring of static buffers: valid
 * until 15 more calls. */
const char *gen_dim(const gen_arg *a, int i, const char *runtime_fmt);

/* The C library headers that the device backends' loop code includes. */
void gen_emit_libc_includes(FILE *f);
/* The loop function's declarator, `void op_par_loop_<kernel>(const char *name,
 * op_set set, op_arg arg0, ...)`, without what ends it. */
void gen_emit_loop_decl(FILE *f, const gen_loop *lp);
/* The loop function's opening: `linkage` ("" or extern "C"), its declarator,
 * then its arguments as an array `args` and the signature `sig` of what the
 * code was generated for. */
void gen_emit_loop_open(FILE *f, const gen_loop *lp, const char *linkage);
/* After the loop: combines the per-block partials of reduction a into the
 * user's variable (with the op_arg_info values that go with it). part_fmt is
 * a printf format of the partials' address for argument %d; nparts the count. */
void gen_emit_reduce(FILE *f, const gen_loop *lp, int a, const char *indent, const char *part_fmt,
                     const char *nparts);
/* Many processes (the MPI layer under every backend): before the first block
 * colour that is not core, the loop waits for the halo exchanges it started
 * (op_loop_wait; a no-op on one process). col_var names the colour variable. */
void gen_emit_halo_wait(FILE *f, const char *indent, const char *col_var);
/* A device backend's constant update function (called from op_decl_const):
 * the branch for constant k opens with the check that the bytes given fit
 * the generated code's copy (an error in err, return 1, when they do not);
 * the caller writes the copy and closes the branch. */
void gen_emit_const_branch_open(FILE *f, const gen_const *k, const char *prefix);
/* A device backend's own copy of constant k: `static <space>T name`, an
 * array of its literal dim, or of max_dim values when the dim is not a
 * literal. */
void gen_emit_const_copy(FILE *f, const gen_const *k, const char *space, const char *prefix,
                         const char *max_dim);
/* The update function's tail: a name op2-gen did not see declared is an error. */
void gen_emit_const_unknown(FILE *f, const char *backend_name, const char *app);
/* The text of op_arg_idx argument a's value: the user's (global) number of
 * local element `at` of the loop's set, or (indirect) of arg a's to-set, where
 * `at` is the text of the element's or its map entry's local number. In a
 * static buffer. */
const char *gen_idx_text(int a, int indirect, const char *at);
/* Writes the kernel header at path with __device__ before every function
 * declared or defined at file scope that has no execution space of its own,
 * under a #line directive naming the header (gen_device.c). */
void gen_emit_device_header(FILE *f, const char *path, const gen_program *prog);

/* Exit with "file:line: error: ..." */
void gen_error_at(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

#endif
