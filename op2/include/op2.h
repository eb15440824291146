/*
 * op2.h - the public C API of the OP2 library.
 *
 * An application declares sets, maps between sets, data on sets and global
 * constants, then expresses its computation as parallel loops over sets:
 *
 *   op_par_loop(res_calc, "res_calc", edges,
 *               op_arg_dat(p_x, 0, pedge, 2, "double", OP_READ), ...);
 *
 * The same application source is compiled for every backend (seq, openmp,
 * cuda). The code generator (op2-gen) reads the application's sources and
 * writes, per backend, one function op_par_loop_<kernel> for every loop; the
 * op_par_loop macro below routes the call there. The build passes the name of
 * the generated prototypes header in OP2_GENERATED_LOOPS.
 */
#ifndef OP2_H
#define OP2_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- access modes and argument kinds ---------------------------------- */

typedef enum { OP_READ = 0, OP_WRITE, OP_RW, OP_INC, OP_MIN, OP_MAX } op_access;

typedef enum { OP_ARG_DAT = 0, OP_ARG_GBL, OP_ARG_IDX } op_arg_kind;

/* Element types a dat or a global may hold. */
typedef enum { OP_TYPE_DOUBLE = 0, OP_TYPE_FLOAT, OP_TYPE_INT } op_type;

/* ---- the mesh ---------------------------------------------------------- */

typedef struct op_set_core {
  int index;        /* position in the library's set table */
  int size;         /* number of elements */
  char *name;
} *op_set;

typedef struct op_map_core {
  int index;
  op_set from;      /* the set the map is declared on */
  op_set to;        /* the set its entries point into */
  int dim;          /* entries per element of `from` */
  int *map;         /* from->size * dim entries, row major */
  char *name;
  int user_owned;   /* 1 when `map` is the application's own array */
} *op_map;

/* Where the up-to-date copy of a dat lives, for backends with device memory. */
enum { OP_DAT_HOST_CURRENT = 1, OP_DAT_DEVICE_CURRENT = 2 };

typedef struct op_dat_core {
  int index;
  op_set set;
  int dim;          /* components per element */
  int elem_bytes;   /* bytes of one component */
  int size;         /* bytes per set element: dim * elem_bytes */
  op_type type;
  char *data;       /* host copy, set->size * size bytes, AoS */
  char *data_d;     /* device copy, or NULL */
  char *name;
  char *type_name;  /* "double", "float" or "int" */
  int user_owned;   /* 1 when `data` is the application's own array */
  int where;        /* OP_DAT_HOST_CURRENT | OP_DAT_DEVICE_CURRENT */
} *op_dat;

/* ---- loop arguments ---------------------------------------------------- */

typedef struct {
  op_arg_kind kind;
  op_dat dat;       /* OP_ARG_DAT */
  op_map map;       /* NULL for direct access (OP_ID) */
  int idx;          /* map index, -1 when direct */
  int dim;          /* dim as written in the call */
  op_type type;
  const char *type_name;
  op_access acc;
  char *data;       /* OP_ARG_GBL: the user's variable; OP_ARG_DAT: dat->data */
  int size;         /* bytes per element (dat) or of the whole global */
} op_arg;

#define OP_ID ((op_map)0)
#define OP_ALL (-2)

/* ---- life cycle -------------------------------------------------------- */

/* Reads OP2 options from argv (see op_usage_text) and the environment:
 *   OP_DIAGS=<level>     argument checking (0 none, 1 every loop, 2 +plans)
 *   OP_PART_SIZE=<n>     elements per mini-partition (block)
 * diags is the level used when neither the command line nor OP_DIAGS sets one.
 * Recognised --op-* options are removed from argv; *argc is updated. */
void op_init(int *argc, char **argv, int diags);
void op_exit(void);

/* One line per --op-* option, for the application's --help. */
const char *op_usage_text(void);

/* ---- declarations ------------------------------------------------------ */

op_set op_decl_set(int size, const char *name);
op_map op_decl_map(op_set from, op_set to, int dim, int *imap, const char *name);
op_dat op_decl_dat(op_set set, int dim, const char *type, void *data, const char *name);
/* Like op_decl_dat, but the library allocates and zero-fills the data. */
op_dat op_decl_dat_temp(op_set set, int dim, const char *type, const char *name);

/* op_decl_const(dim, "double", &gam) registers a global constant that user
 * kernels read by its C name. Call it again after changing the value. */
void op_decl_const_named(int dim, const char *type, const void *data, size_t bytes,
                         const char *name);
#define op_decl_const(dim, type, var) \
  op_decl_const_named((dim), (type), (const void *)(var), sizeof(*(var)) * (size_t)(dim), #var)

/* ---- arguments ----------------------------------------------------------- */

op_arg op_arg_dat(op_dat dat, int idx, op_map map, int dim, const char *type, op_access acc);
op_arg op_arg_gbl_core(void *data, int dim, const char *type, size_t elem_bytes, op_access acc);
#define op_arg_gbl(data, dim, type, acc) \
  op_arg_gbl_core((void *)(data), (dim), (type), sizeof(*(data)), (acc))
/* The index of the iteration element (map OP_ID) or the idx-th entry of its
 * map row, passed to the kernel as const int *. */
op_arg op_arg_idx(int idx, op_map map);

/* ---- the parallel loop ----------------------------------------------------- */

#define op_par_loop(kernel, name, set, ...) op_par_loop_##kernel((name), (set), __VA_ARGS__)

#ifdef OP2_GENERATED_LOOPS
#include OP2_GENERATED_LOOPS
#endif

/* ---- data access ------------------------------------------------------------ */

/* Brings the host copy of dat up to date and copies it into dest
 * (set->size * dat->size bytes). */
void op_fetch_data(op_dat dat, void *dest);
/* Brings the host copy up to date and returns it; valid until the next loop. */
void *op_fetch_data_ptr(op_dat dat);
/* Tells the library the host copy was changed by the application. */
void op_host_data_changed(op_dat dat);

/* ---- timing and diagnostics ---------------------------------------------- */

double op_wtime(void);
/* Per loop: calls, total seconds, bytes moved and achieved GB/s. */
void op_timing_output(void);
/* Writes the per-loop timings as a JSON array (no trailing newline). */
void op_timing_json(void *file);
/* Sets, maps and dats declared so far. */
void op_diagnostic_output(void);

/* Accessors used by applications and tools. */
int op_diags_level(void);
int op_part_size(void);
const char *op_backend_name(void);
int op_num_threads(void);

#ifdef __cplusplus
}
#endif

#endif /* OP2_H */
