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

/* OP_ARG_INFO: op_arg_info, a value that travels with a MIN/MAX reduction. */
typedef enum { OP_ARG_DAT = 0, OP_ARG_GBL, OP_ARG_IDX, OP_ARG_INFO } op_arg_kind;

/* Element types a dat or a global may hold. */
typedef enum { OP_TYPE_DOUBLE = 0, OP_TYPE_FLOAT, OP_TYPE_INT } op_type;

/* ---- the mesh ---------------------------------------------------------- */

typedef struct op_set_core {
  int index;        /* position in the library's set table */
  int size;         /* number of elements (on many processes: those this one owns) */
  const char *name; /* as in OP2, the application may point it elsewhere (a dat
                       written to HDF5 under another name, say); the library's
                       copy is freed with the object whatever it points to */
  /* On many processes (an MPI build, after op_partition; docs/mpi.md) a
   * process also holds copies of elements others own. Local numbers:
   * [0, core_size) owned elements that touch no copy, [core_size, size) the
   * other owned ones, then exec_size elements of the execute halo (run here
   * too, so that owned elements receive every increment) and nonexec_size of
   * the non-execute halo (only read). On one process core_size == size and
   * the halos are empty. */
  int core_size;
  int exec_size;
  int nonexec_size;
  const int *gid;   /* the user's (global) number of every local element; NULL: its index */
} *op_set;

typedef struct op_map_core {
  int index;
  op_set from;      /* the set the map is declared on */
  op_set to;        /* the set its entries point into */
  int dim;          /* entries per element of `from` */
  int *map;         /* from->size * dim entries, row major (the library's copy) */
  const char *name; /* as a set's */
  int user_owned;   /* 1 when `map` is not the core's to free: on many processes
                       the MPI layer's rows (op_decl_map itself copies, as OP2 does) */
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
  char *data;       /* host copy, set->size * size bytes, AoS (the library's own) */
  char *data_d;     /* device copy, or NULL */
  const char *name; /* as a set's */
  char *type_name;  /* "double", "float" or "int" */
  int user_owned;   /* 1 when `data` is not the core's to free: the application's
                       own array (OP2's OP_NO_REALLOC) or, on many processes, the
                       MPI layer's rows */
  int where;        /* OP_DAT_HOST_CURRENT | OP_DAT_DEVICE_CURRENT */
  int soa;          /* declared with OP2's layout suffix ("double:soa"): a backend
                       with a structure-of-arrays layout holds it so (offload) */
  int freed;        /* 0 while the dat exists; after op_free_dat_temp or op_exit the
                       record stays, holding only the name, so that a later use of the
                       handle is a fatal error naming the dat (docs/op2-library.md) */
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
  char *data;       /* OP_ARG_GBL, OP_ARG_INFO: the user's variable; OP_ARG_DAT: dat->data */
  int size;         /* bytes per element (dat) or of the whole global */
  int ref;          /* OP_ARG_INFO: the position of the reduction it travels with */
  const char *var_type; /* OP_ARG_GBL, OP_ARG_INFO: the C type of the variable passed, as
                           the compiler saw it ("int", "double", ...; OP2_VAR_TYPE below);
                           NULL when not known */
} op_arg;

#define OP_ID ((op_map)0)
#define OP_ALL (-2)

/* ---- life cycle -------------------------------------------------------- */

/* OP2's entry point, as OP2 declares it. Reads the library's options from
 * argv (see op_usage_text; also OP2's own spelling OP_PART_SIZE=<n>) and the
 * environment, and leaves argv as it is:
 *   OP_DIAGS=<level>     checks beyond the loop arguments' (which are always
 *                        checked): 0 none, 1 every new plan, 2 + plan statistics
 *   OP_PART_SIZE=<n>     elements per mini-partition (block)
 * diags is the level used when neither the command line nor OP_DIAGS sets one.
 * argc may be 0 and argv NULL. */
void op_init(int argc, char **argv, int diags);
/* OP2's op_init_soa: op_init, and with soa non-zero every dat is held as if
 * declared with ":soa" (as OP2's OP_AUTO_SOA, which is understood too). */
void op_init_soa(int argc, char **argv, int diags, int soa);
/* The same, and takes the options it recognised out of argv (updating *argc
 * and keeping argv NULL-terminated), so that the application parses only its
 * own arguments. The suite's solvers start with this one. */
void op_init_strip_options(int *argc, char **argv, int diags);
void op_exit(void);

/* One line per --op-* option, for the application's --help. */
const char *op_usage_text(void);

/* ---- many processes (MPI builds; docs/mpi.md) ------------------------------ */

/* OP2's op_partition: splits the mesh over the processes with the named
 * partitioner ("PTSCOTCH" "KWAY" on the graph of map, "GEOM" "RCB" on the
 * coordinates coords, "BLOCK" "BLOCK"), moves every element to its owner and
 * builds the halos. Call it after the declarations, before the first loop (a
 * loop before it partitions in blocks). A no-op on one process without MPI. */
void op_partition(const char *lib, const char *routine, op_set prime_set, op_map prime_map,
                  op_dat coords);
/* OP2's op_halo_create: on many processes, distributes the mesh as declared
 * (each process keeps its slices, as OP2 keeps them) and builds the halos,
 * when op_partition has not done so; nothing once it has, or on one process. */
void op_halo_create(void);
/* This suite's: a mesh whose geometry follows from an element's number (a
 * structured grid) describes it by functions instead of a dat of coordinates
 * and a map for the graph, so that neither has to exist. The functions are
 * called only for the elements of this process's slice of geo->set (global
 * numbers), and only when the partitioner needs them:
 *   coords(first, count, xyz, ctx)  cdim doubles (1 to 3) for each element of
 *                                   [first, first + count): what RCB splits
 *   adjacent(g, out, ctx)           the elements adjacent to g (at most
 *                                   max_adjacent, g itself excluded; h adjacent
 *                                   to g exactly when g is to h), returning how
 *                                   many: PT-Scotch's graph
 * A NULL function is a property the mesh does not have: RCB without coords is
 * refused, naming the set; PT-Scotch without adjacent uses prime_map's graph
 * as op_partition does. BLOCK splits prime_set. A no-op on one process
 * without MPI. */
typedef struct {
  op_set set;
  int cdim;
  void (*coords)(int first, int count, double *xyz, void *ctx);
  int max_adjacent;
  int (*adjacent)(int g, int *out, void *ctx);
  void *ctx;
} op_mesh_geometry;
void op_partition_geometry(const char *lib, const char *routine, op_set prime_set,
                           op_map prime_map, const op_mesh_geometry *geo);
/* Whether op_partition(lib, routine, ...) would need coordinates here: the
 * partitioner it runs (--op-partition=NAME replaces the program's choice)
 * splits by them. 0 without MPI. For a program that has none to refuse early,
 * with its own reason. */
int op_partition_needs_coords(const char *lib, const char *routine);
/* The processes of the run (1 without MPI), and this one's number (0 ...). */
int op_num_procs(void);
int op_rank(void);
/* The slice of n elements this process declares: global numbers
 * [*first, *first + *count), balanced (the first n % P processes get one more).
 * On one process, all of them. */
void op_slice(int n, int *first, int *count);
/* The user's (global) number of local element i of set s: on many processes
 * after op_partition s->gid[i], else i (what op_arg_idx passes to a kernel). */
static inline int op_global_index(const struct op_set_core *s, int i) {
  return s->gid ? s->gid[i] : i;
}
/* The root's bytes to every process (collective; nothing on one process). */
void op_broadcast(void *data, size_t bytes);
/* The largest v over the processes (collective; v on one process). */
int op_max_int(int v);
double op_max_double(double v);
/* For work only the root does (writing shared files): the root's status to
 * every process (collective; rc on one process). When it is non-zero the
 * other processes do not return: they wait while the root reports the
 * failure and ends the job, by exiting with a non-zero status or through
 * op_exit, as it must. */
int op_root_status(int rc);

/* ---- declarations ------------------------------------------------------ */

op_set op_decl_set(int size, const char *name);
/* op_decl_map and op_decl_dat copy the application's array, as OP2 does: it
 * may be freed (or reused) right after the call. Later changes to it are not
 * seen; the library's copy is read with op_fetch_data / op_fetch_data_ptr.
 * With OP2's option OP_NO_REALLOC on the command line (one process),
 * op_decl_dat keeps the application's array as the dat's own, as OP2 then
 * does: it must outlive the dat, and the loops change it in place. */
op_map op_decl_map(op_set from, op_set to, int dim, int *imap, const char *name);
/* A map whose rows the application writes straight into the library's
 * storage, instead of building an array for op_decl_map to copy (a map of
 * 64 M rows then exists once, not twice, and is first touched once).
 * fill(first, count, rows, ctx) writes rows [first, first + count) of the
 * from-set (those of this process's slice on many processes, in global
 * numbers, as op_decl_map takes them), dim entries a row, row first at
 * rows[0]. It is called for disjoint pieces covering the set, from the
 * backend's threads at once and in no fixed order: it must write only the
 * rows it is given and read nothing another piece writes. The entries are
 * range-checked as op_decl_map's are. */
typedef void (*op_map_fill_fn)(int first, int count, int *rows, void *ctx);
op_map op_decl_map_fill(op_set from, op_set to, int dim, op_map_fill_fn fill, void *ctx,
                        const char *name);
/* OP2's op_decl_map_long: entries given as 64-bit integers (OP2's idx_g_t),
 * for meshes declared in global numbers; each must fit the library's int
 * numbering (checked, with the element and entry named). */
op_map op_decl_map_long(op_set from, op_set to, int dim, long long *imap, const char *name);
op_dat op_decl_dat(op_set set, int dim, const char *type, void *data, const char *name);
/* Like op_decl_dat, but the library allocates and zero-fills the data. Two
 * spellings: this suite's op_decl_dat_temp(set, dim, type, name), and OP2's
 * op_decl_dat_temp(set, dim, type, ptr, name), where ptr (typically a NULL
 * pointer of the element type) is used only for its element size. */
op_dat op_decl_dat_temp_core(op_set set, int dim, const char *type, size_t elem_bytes,
                             const char *name);
#define op_decl_dat_temp(...) \
  OP2_PICK_5TH(__VA_ARGS__, OP2_DAT_TEMP_TYPED, OP2_DAT_TEMP_UNTYPED, unused)(__VA_ARGS__)
#define OP2_PICK_5TH(a, b, c, d, e, which, ...) which
#define OP2_DAT_TEMP_UNTYPED(set, dim, type, name) op_decl_dat_temp_core((set), (dim), (type), 0, (name))
#define OP2_DAT_TEMP_TYPED(set, dim, type, ptr, name) \
  op_decl_dat_temp_core((set), (dim), (type), sizeof(*(ptr)), (name))

/* OP2's op_decl_dat_temp_char: the element size given as a number (at least
 * the type's: OP2 accepts an "int" dat declared with sizeof(double), and the
 * dat then holds ints). */
op_dat op_decl_dat_temp_char(op_set set, int dim, const char *type, int elem_bytes,
                             const char *name);
/* OP2's OP_MAPS_BASE_INDEX option: 1 when op_decl_map's (and the HDF5
 * maps') entries are numbered from 1, else 0. */
int op_maps_base_index(void);

/* OP2's op_free_dat_temp: frees a dat made by op_decl_dat_temp (its data,
 * device copy and name; a dat of the same name may be declared again). The
 * handle stays dead: a later use of it is a fatal error naming the dat.
 * Returns 1, or -1 (with a message) when dat is not such a dat. On many
 * processes every process frees it. */
int op_free_dat_temp(op_dat dat);

/* op_decl_const(dim, "double", &gam) registers a global constant that user
 * kernels read by its C name. Call it again after changing the value. */
void op_decl_const_named(int dim, const char *type, const void *data, size_t bytes,
                         const char *name);
#define op_decl_const(dim, type, var) \
  op_decl_const_named((dim), (type), (const void *)(var), sizeof(*(var)) * (size_t)(dim), #var)

/* OP2's op_renumber: renumbers the mesh for locality before the first loop.
 * base's to-set (the cells of an edge-to-cell map) is ordered in rows when a
 * map of 4 entries from it shows quadrilaterals that form one structured
 * block (op2_renumber.h, op_renumber_quad_rows), else by reverse Cuthill-McKee
 * on the graph base's rows make; every set the maps reach follows (rows by
 * their lowest entries, after reverse Cuthill-McKee in windows of elements
 * that share no entry; sets mapped into, by first use, a block's nodes in its
 * rows). Dats and maps are permuted in
 * place. Everything that leaves the library by number keeps the user's
 * numbering: op_fetch_data, op_fetch_data_idx, the dumps, files written by
 * the I/O library, op_arg_idx. op_fetch_data_ptr gives the library's
 * storage, in its own order, consistent with the maps' entries. Results
 * change by rounding only: increments into a datum come in another order. */
void op_renumber(op_map base);

/* op_renumber only where it pays: the order op_renumber would give is found, and the
 * locality of every map it reaches measured before and after (op2_renumber.h: step bits,
 * weighed by entries, and the mean span of rows with more than one entry); the mesh is
 * renumbered when the step bits fall by at least min_gain (-HUGE_VAL: always), else left
 * as it is. Where the step bits are already below min_gain no order could gain it, and
 * none is sought (bits_after and span_after are then NaN). Returns 1 when it renumbered; *r says
 * what was measured. On the MPI build it does nothing and returns 0 with r zeroed, saying so as
 * op_renumber does only when min_gain is -HUGE_VAL. */
typedef struct {
  double bits_before, bits_after; /* mean step bits of the maps' entries */
  double span_before, span_after; /* mean index span of a row */
  int renumbered;
  int measured; /* 0 on the MPI build, where nothing is measured */
} op_renumber_result;
int op_renumber_if(op_map base, double min_gain, op_renumber_result *r);

/* ---- arguments ----------------------------------------------------------- */

op_arg op_arg_dat(op_dat dat, int idx, op_map map, int dim, const char *type, op_access acc);
/* The loop checks a global's type string against the variable passed: its
 * element's size (sizeof) always, and its C type where the compiler names it
 * (OP2_VAR_TYPE: C11's _Generic in C, overloads in C++), so that an int passed
 * as "double" (or as "float", of the same size) is refused, naming the loop
 * and the argument, instead of being read as the wrong type. */
op_arg op_arg_gbl_core(void *data, int dim, const char *type, size_t elem_bytes,
                       const char *var_type, op_access acc);
#define op_arg_gbl(data, dim, type, acc) \
  op_arg_gbl_core((void *)(data), (dim), (type), sizeof(*(data)), OP2_VAR_TYPE(data), (acc))
/* The index of the iteration element (map OP_ID) or the idx-th entry of its
 * map row, passed to the kernel as int * (a copy: writing it changes nothing). */
op_arg op_arg_idx(int idx, op_map map);
/* OP2's op_arg_info(&var, dim, type, ref): var travels with the OP_MIN or
 * OP_MAX global at argument position ref (0-based) of the same loop, which
 * has the same dim. The kernel gets its own copy, starting at var's value,
 * and writes it when it improves the reduction (airfoil: the element where
 * the largest update happens). After the loop var holds the copy written with
 * the winning value (unchanged when no element improved on the starting
 * value); of blocks of a plan that tie, the earlier block wins. Component d
 * travels with component d of the reduction. */
op_arg op_arg_info_core(void *data, int dim, const char *type, size_t elem_bytes,
                        const char *var_type, int ref);
#define op_arg_info(data, dim, type, ref) \
  op_arg_info_core((void *)(data), (dim), (type), sizeof(*(data)), OP2_VAR_TYPE(data), (ref))

/* The C type of the elements p points to, by name, or NULL for a type that
 * is none of these (a struct, char, ...: then only its size is checked). */
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define OP2_VAR_TYPE(p) \
  _Generic((p), double *: "double", const double *: "double", float *: "float", \
           const float *: "float", int *: "int", const int *: "int", long *: "long", \
           const long *: "long", long long *: "long long", const long long *: "long long", \
           unsigned *: "unsigned", const unsigned *: "unsigned", short *: "short", \
           const short *: "short", long double *: "long double", \
           const long double *: "long double", default: (const char *)0)
#elif defined(__cplusplus)
#define OP2_VAR_TYPE(p) op2_var_type(p)
#else
#define OP2_VAR_TYPE(p) ((const char *)0)
#endif

/* ---- the parallel loop ----------------------------------------------------- */

#define op_par_loop(kernel, name, set, ...) op_par_loop_##kernel((name), (set), __VA_ARGS__)

#ifdef OP2_GENERATED_LOOPS
#include OP2_GENERATED_LOOPS
#endif

/* ---- data access ------------------------------------------------------------ */

/* Brings the host copy of dat up to date and copies it into dest
 * (set->size * dat->size bytes: on many processes, as in OP2, the rows this
 * process owns, in its local order). */
void op_fetch_data(op_dat dat, void *dest);
/* Brings the host copy up to date and returns it; valid until the next loop. */
void *op_fetch_data_ptr(op_dat dat);
/* Tells the library the host copy was changed by the application. */
void op_host_data_changed(op_dat dat);
/* Elements low..high (inclusive) of dat into dest; on many processes, as in
 * OP2, those of the user's (global) numbering, gathered on every process. */
void op_fetch_data_idx(op_dat dat, void *dest, int low, int high);
/* The whole dat in the user's numbering, on the process that prints
 * (op_is_root), for output; NULL on the others. Collective. On one process it
 * is op_fetch_data_ptr's. Valid until the next call for this dat or loop. */
const void *op_fetch_data_global(op_dat dat);
/* The whole map in the user's numbering (rows and entries), on the root; NULL
 * on the others. Collective. On one process, map->map. */
const int *op_fetch_map_global(op_map map);
/* The number of elements of a set, over all processes. */
int op_get_size(op_set set);
/* OP2's text and binary dumps of a dat. Text: "size dim", then one line per
 * element, each value printed as " %+.15E" (double), " %+f" (float) or
 * " %+d" (int). Binary: int size, int dim, then the raw values. Written to a
 * temporary file and renamed, so a failed run leaves no half file. */
void op_print_dat_to_txtfile(op_dat dat, const char *file);
void op_print_dat_to_binfile(op_dat dat, const char *file);

/* ---- output, memory, timing and diagnostics ----------------------------- */

/* printf, on the one process that prints (the root, once there are several). */
void op_printf(const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* 1 on the process that prints and writes shared files. */
int op_is_root(void);

/* OP2's allocation calls: like malloc, calloc, realloc, free, but a failure is
 * fatal (with a message) instead of NULL. The names are parenthesised so that
 * a macro of the same name (the library's own) leaves these declarations alone. */
void *(op_malloc)(size_t bytes);
void *(op_calloc)(size_t n, size_t bytes);
void *(op_realloc)(void *p, size_t bytes);
void (op_free)(void *p);

double op_wtime(void);
/* OP2's timer: *cpu gets the process CPU time, *et the wall-clock time, in
 * seconds (the difference of two calls is what counts). op_timers first
 * waits for the loops a device still runs (the CUDA backend with
 * --op-cuda-sync=needed queues them), as OP2's CUDA backend does, so that
 * a time read after loops includes them; op_timers_core does not wait. */
void op_timers(double *cpu, double *et);
void op_timers_core(double *cpu, double *et);
/* OP2's profile regions: op_profile_start("name") ... op_profile_end(), nested;
 * op_profile_output() prints each region's calls and wall time, then the
 * per-loop table of op_timing_output. */
void op_profile_start(const char *name);
void op_profile_end(void);
void op_profile_output(void);
/* Per loop: calls, total seconds, bytes moved and achieved GB/s. */
void op_timing_output(void);
/* Writes the per-loop timings as a JSON array (no trailing newline). */
void op_timing_json(void *file);
/* Sets, maps and dats declared so far. */
void op_diagnostic_output(void);

/* How the OpenMP backend shares each colour's blocks among its threads: in
 * `pieces` pieces a thread, dealt out in turn over the blocks (a static
 * schedule with a chunk of a 1/(pieces x threads) share). 1, the default,
 * gives each thread one contiguous share: right for loops whose elements
 * all cost the same, whose data each thread then first touches and keeps.
 * Where the cost varies across a set (euler's faces: a uniform stretch is
 * far cheaper than a shock), a few pieces a thread balance the threads.
 * pieces must be in [1, 64]. The command-line option --op-thread-spread=N
 * overrides it. The results do not depend on it: reductions are combined
 * per block in the plan's order. Other backends ignore it. */
void op_set_thread_spread(int pieces);
int op_thread_spread(void);

/* Accessors used by applications and tools. */
int op_diags_level(void);
int op_part_size(void);
const char *op_backend_name(void);
int op_num_threads(void);

#ifdef __cplusplus
}

/* C++: OP2_VAR_TYPE by overloads (templates cannot have C linkage). */
template <class T>
inline const char *op2_var_type(const T *) {
  return nullptr;
}
inline const char *op2_var_type(const double *) { return "double"; }
inline const char *op2_var_type(const float *) { return "float"; }
inline const char *op2_var_type(const int *) { return "int"; }
inline const char *op2_var_type(const long *) { return "long"; }
inline const char *op2_var_type(const long long *) { return "long long"; }
inline const char *op2_var_type(const unsigned *) { return "unsigned"; }
inline const char *op2_var_type(const short *) { return "short"; }
inline const char *op2_var_type(const long double *) { return "long double"; }
#endif

#endif /* OP2_H */
