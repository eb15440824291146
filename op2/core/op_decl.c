/*
 * op_decl.c - declarations of sets, maps, dats and constants; loop
 * arguments; the registry that I/O and diagnostics enumerate.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op_at_exit.h"
#include "op_dist.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op_parallel.h"
#include "op2_renumber.h"
#include "op_dat_handle.h"
#include "op_decl.h"
#include "op_state.h"

/* ---- the registry --------------------------------------------------------------- */

#define GROW(arr, n, cap)                                            \
  do {                                                               \
    if ((n) == (cap)) {                                              \
      (cap) = (cap) ? 2 * (cap) : 16;                                \
      (arr) = op_realloc((arr), sizeof(*(arr)) * (size_t)(cap));     \
    }                                                                \
  } while (0)

int op_num_sets(void) { return op_g.nsets; }
op_set op_set_at(int i) { return (i >= 0 && i < op_g.nsets) ? op_g.sets[i] : NULL; }
int op_num_maps(void) { return op_g.nmaps; }
op_map op_map_at(int i) { return (i >= 0 && i < op_g.nmaps) ? op_g.maps[i] : NULL; }
int op_num_dats(void) { return op_g.ndats; }
op_dat op_dat_at(int i) { return (i >= 0 && i < op_g.ndats) ? op_g.dats[i] : NULL; }
int op_num_consts(void) { return op_g.nconsts; }
const op_const_info *op_const_at(int i) {
  return (i >= 0 && i < op_g.nconsts) ? &op_g.consts[i] : NULL;
}

/* An object of `size` bytes followed by a copy of `name`, in one allocation:
 * freeing the object frees its name, whatever the application has since
 * pointed the object's name at (OP2's fields are const char *, and OP2
 * applications rename a dat before writing it to HDF5). */
static void *calloc_named(size_t size, const char *name, const char **copy) {
  const size_t n = strlen(name) + 1;
  char *p = op_calloc(1, size + n);
  *copy = memcpy(p + size, name, n);
  return p;
}

/* OP2's spellings of the three element types the backends compute with
 * (C, and OP2's Fortran names), each also with the suffix ":soa". */
static const struct {
  const char *name;
  op_type type;
} type_names[] = {
    {"double", OP_TYPE_DOUBLE}, {"real(8)", OP_TYPE_DOUBLE},    {"r8", OP_TYPE_DOUBLE},
    {"real*8", OP_TYPE_DOUBLE}, {"double precision", OP_TYPE_DOUBLE},
    {"float", OP_TYPE_FLOAT},   {"real(4)", OP_TYPE_FLOAT},     {"r4", OP_TYPE_FLOAT},
    {"real*4", OP_TYPE_FLOAT},  {"real", OP_TYPE_FLOAT},
    {"int", OP_TYPE_INT},       {"integer(4)", OP_TYPE_INT},    {"i4", OP_TYPE_INT},
    {"integer*4", OP_TYPE_INT}, {"integer", OP_TYPE_INT},       {"int(4)", OP_TYPE_INT},
};

int op_type_is_soa(const char *name) {
  static const char suffix[] = ":soa";
  const size_t n = name ? strlen(name) : 0, k = sizeof suffix - 1;
  return n > k && !strcmp(name + n - k, suffix);
}

int op_type_from_name(const char *name) {
  if (!name) return -1;
  const size_t n = strlen(name) - (op_type_is_soa(name) ? 4 : 0);
  for (size_t i = 0; i < sizeof type_names / sizeof *type_names; i++)
    if (strlen(type_names[i].name) == n && !strncmp(name, type_names[i].name, n))
      return (int)type_names[i].type;
  return -1;
}

int op_type_bytes(op_type t) {
  switch (t) {
    case OP_TYPE_DOUBLE: return 8;
    case OP_TYPE_FLOAT: return 4;
    case OP_TYPE_INT: return 4;
  }
  return 0;
}

static const char *canonical_type_name(op_type t) {
  switch (t) {
    case OP_TYPE_DOUBLE: return "double";
    case OP_TYPE_FLOAT: return "float";
    case OP_TYPE_INT: return "int";
  }
  return "?";
}

static void registry_free(void);

/* Every declaration comes here first: the registry joins op_exit's teardown
 * (op_at_exit.h) at the first, before any module can hold what it declares. */
static void require_init(const char *what) {
  OP_CHECK(op_g.initialised, "%s called before op_init", what);
  op_start();
  op_at_exit(registry_free, "registry");
}

/* ---- sets, maps, dats -------------------------------------------------------- */

/* The index a new dat takes: the lowest one a freed temporary dat left (so
 * that a loop on a temporary declared again each iteration, as OP2's
 * airfoil_tempdats does, finds its plan again), else a new one. */
static int free_dat_slot(void) {
  for (int i = 0; i < op_g.ndats; i++)
    if (!op_g.dats[i]) return i;
  if (op_g.ndats == op_g.cap_dats) {
    op_g.cap_dats = op_g.cap_dats ? 2 * op_g.cap_dats : 16;
    op_g.dats = op_realloc(op_g.dats, sizeof(*op_g.dats) * (size_t)op_g.cap_dats);
    op_g.dat_temp = op_realloc(op_g.dat_temp, (size_t)op_g.cap_dats);
  }
  op_g.dats[op_g.ndats] = NULL;
  return op_g.ndats++;
}

op_set op_decl_set_local(int size, const char *name) {
  require_init("op_decl_set");
  OP_CHECK(name && *name, "op_decl_set: a set needs a name");
  OP_CHECK(size >= 0, "op_decl_set(\"%s\"): negative size %d", name, size);
  const char *copy;
  op_set s = calloc_named(sizeof(*s), name, &copy);
  s->index = op_g.nsets;
  s->size = size;
  s->core_size = size;
  s->name = copy;
  GROW(op_g.sets, op_g.nsets, op_g.cap_sets);
  op_g.sets[op_g.nsets++] = s;
  return s;
}

/* The range check of a map's entries, in pieces over the threads; the first
 * bad entry (lowest index) is the one reported. */
typedef struct {
  const int *imap;
  int to_size;
  long entries;
  long first_bad; /* -1: none */
} map_check;

#define MAP_CHECK_PIECE ((long)1 << 16)

/* Entries [lo, hi) of the map; a range stops at its first bad entry, which
 * goes into c->first_bad when it is the lowest seen by any thread. */
static void check_entry_range(map_check *c, long lo, long hi) {
  const int *imap = c->imap;
  const unsigned to = (unsigned)c->to_size;
  for (long i = lo; i < hi; i++) {
    if ((unsigned)imap[i] >= to) {
      long seen = __atomic_load_n(&c->first_bad, __ATOMIC_RELAXED);
      while ((seen < 0 || i < seen) &&
             !__atomic_compare_exchange_n(&c->first_bad, &seen, i, 0, __ATOMIC_RELAXED,
                                          __ATOMIC_RELAXED)) {
      }
      return;
    }
  }
}

static void check_map_entries(long lo, long hi, void *ctx) {
  map_check *c = ctx;
  const long end = hi * MAP_CHECK_PIECE < c->entries ? hi * MAP_CHECK_PIECE : c->entries;
  check_entry_range(c, lo * MAP_CHECK_PIECE, end);
}

/* On many processes size is this process's slice (OP2's meaning). */
op_set op_decl_set(int size, const char *name) {
  op_set s = op_decl_set_local(size, name);
  if (op_dist) op_dist->set_declared(s);
  return s;
}

/* The checks of a map's declaration, before its entries exist. */
static void check_map_decl(op_set from, op_set to, int dim, int have_entries, const char *name) {
  require_init("op_decl_map");
  OP_CHECK(name && *name, "op_decl_map: a map needs a name");
  OP_CHECK(from && to, "op_decl_map(\"%s\"): from-set or to-set is NULL", name);
  OP_CHECK(dim > 0, "op_decl_map(\"%s\"): dim must be positive, got %d", name, dim);
  OP_CHECK(have_entries || from->size == 0, "op_decl_map(\"%s\"): map data is NULL", name);
}

/* Map entries out of range are caught once, when declared, whatever the
 * diagnostics level: every later indirect access trusts them. */
static void report_bad_entry(const map_check *c, const char *name, op_set to, int dim) {
  if (c->first_bad < 0) return;
  op_fatal("op_decl_map(\"%s\"): entry %d of element %ld is %d, outside the to-set \"%s\" "
           "of size %d",
           name, (int)(c->first_bad % dim), c->first_bad / dim, c->imap[c->first_bad], to->name,
           to->size);
}

/* Records map m, whose storage holds its entries (in the user's numbering). */
static op_map register_map(op_set from, op_set to, int dim, int *storage, const char *name) {
  const char *copy;
  op_map m = calloc_named(sizeof(*m), name, &copy);
  m->index = op_g.nmaps;
  m->from = from;
  m->to = to;
  m->dim = dim;
  m->map = storage;
  op_map_user_rows_arrived(m); /* after op_renumber: into the library's numbering */
  m->user_owned = 0;
  m->name = copy;
  GROW(op_g.maps, op_g.nmaps, op_g.cap_maps);
  op_g.maps[op_g.nmaps++] = m;
  return m;
}

static size_t map_bytes(op_set from, int dim) {
  return sizeof(int) * (size_t)from->size * (size_t)dim;
}

op_map op_decl_map_local(op_set from, op_set to, int dim, int *imap, const char *name,
                         int check_range) {
  check_map_decl(from, to, dim, imap != NULL, name);
  /* On many processes the entries are global numbers, checked by the layer
   * against the global sizes. */
  map_check chk = {imap, to->size, check_range ? (long)from->size * dim : 0, -1};
  op_parallel_for((chk.entries + MAP_CHECK_PIECE - 1) / MAP_CHECK_PIECE, check_map_entries, &chk);
  report_bad_entry(&chk, name, to, dim);
  /* A copy, as in OP2: the application may free its array once declared. */
  const size_t bytes = map_bytes(from, dim);
  int *storage = op_alloc_big(bytes);
  op_parallel_copy(storage, imap, bytes);
  return register_map(from, to, dim, storage, name);
}

static op_map decl_map(op_set from, op_set to, int dim, int *imap, const char *name) {
  op_map m = op_decl_map_local(from, to, dim, imap, name, !op_dist);
  if (op_dist) op_dist->map_declared(m);
  return m;
}

/* On many processes: the rows of this process's slice of from, in global numbers. */
op_map op_decl_map(op_set from, op_set to, int dim, int *imap, const char *name) {
  if (!op_g.maps_base_index || !imap || !from || dim < 1)
    return decl_map(from, to, dim, imap, name);
  /* OP2's OP_MAPS_BASE_INDEX=1: the entries are numbered from 1. Declared
   * from a shifted copy: the application's array is left as it is. */
  const size_t n = (size_t)from->size * (size_t)dim;
  int *shifted = op_malloc(sizeof(int) * (n ? n : 1));
  for (size_t i = 0; i < n; i++) shifted[i] = imap[i] - op_g.maps_base_index;
  op_map m = decl_map(from, to, dim, shifted, name);
  free(shifted);
  return m;
}

int op_maps_base_index(void) { return op_g.maps_base_index; }

/* The entries converted to the library's int numbering, each checked to fit
 * first (a value beyond it is no valid entry of any set here). */
op_map op_decl_map_long(op_set from, op_set to, int dim, long long *imap, const char *name) {
  check_map_decl(from, to, dim, imap != NULL, name);
  const size_t n = (size_t)from->size * (size_t)dim;
  int *entries = op_malloc(sizeof(int) * (n ? n : 1));
  for (size_t i = 0; i < n; i++) {
    OP_CHECK(imap[i] >= 0 && imap[i] <= INT_MAX,
             "op_decl_map_long(\"%s\"): entry %d of element %zu is %lld, outside the int "
             "numbering of the library (sets of at most %d elements)",
             name, (int)(i % (size_t)dim), i / (size_t)dim, imap[i], INT_MAX);
    entries[i] = (int)imap[i];
  }
  op_map m = op_decl_map(from, to, dim, entries, name);
  free(entries);
  return m;
}

/* op_decl_map_fill: the application's rows written straight into the
 * library's storage, piece by piece over the backend's threads (each first
 * touches the rows it fills), and each piece range-checked while it is
 * still in cache. */
typedef struct {
  op_map_fill_fn fill;
  void *ctx;
  int *storage;
  int dim;
  long rows, piece_rows;
  map_check *chk; /* NULL: no range check */
} map_fill_job;

/* About 64 KiB of entries a piece. */
#define MAP_FILL_PIECE_ENTRIES 16384L

static void fill_map_pieces(long lo, long hi, void *ctx) {
  const map_fill_job *j = ctx;
  for (long p = lo; p < hi; p++) {
    const long first = p * j->piece_rows;
    const long count = first + j->piece_rows <= j->rows ? j->piece_rows : j->rows - first;
    const long e0 = first * j->dim, e1 = (first + count) * j->dim;
    j->fill((int)first, (int)count, j->storage + e0, j->ctx);
    if (op_g.maps_base_index > 0)
      for (long e = e0; e < e1; e++) j->storage[e] -= op_g.maps_base_index;
    if (j->chk) check_entry_range(j->chk, e0, e1);
  }
}

op_map op_decl_map_fill(op_set from, op_set to, int dim, op_map_fill_fn fill, void *ctx,
                        const char *name) {
  check_map_decl(from, to, dim, fill != NULL, name);
  const size_t bytes = map_bytes(from, dim);
  int *storage = op_alloc_big(bytes);
  map_check chk = {storage, to->size, (long)from->size * dim, -1};
  const long piece_rows = MAP_FILL_PIECE_ENTRIES / dim > 0 ? MAP_FILL_PIECE_ENTRIES / dim : 1;
  map_fill_job j = {fill, ctx, storage, dim, from->size, piece_rows, op_dist ? NULL : &chk};
  op_parallel_for((j.rows + piece_rows - 1) / piece_rows, fill_map_pieces, &j);
  if (!op_dist) report_bad_entry(&chk, name, to, dim);
  op_map m = register_map(from, to, dim, storage, name);
  if (op_dist) op_dist->map_declared(m);
  return m;
}

/* The library's own zeroed data, or a copy of data (OP2's semantics: the
 * application may free its array once declared). */
op_dat op_decl_dat_local(op_set set, int dim, const char *type, const void *data,
                         const char *name, int notify_backend) {
  require_init("op_decl_dat");
  OP_CHECK(name && *name, "op_decl_dat: a dat needs a name");
  OP_CHECK(set, "op_decl_dat(\"%s\"): set is NULL", name);
  OP_CHECK(dim > 0, "op_decl_dat(\"%s\"): dim must be positive, got %d", name, dim);
  int t = op_type_from_name(type);
  OP_CHECK(t >= 0,
           "op_decl_dat(\"%s\"): unknown type \"%s\" (use double, float or int, or OP2's other "
           "spellings of them, with or without \":soa\")",
           name, type ? type : "(null)");
  const char *copy;
  op_dat d = calloc_named(sizeof(*d), name, &copy);
  d->index = free_dat_slot();
  d->set = set;
  d->dim = dim;
  d->type = (op_type)t;
  d->soa = op_type_is_soa(type) || op_g.auto_soa;
  d->elem_bytes = op_type_bytes(d->type);
  d->size = dim * d->elem_bytes;
  d->name = copy;
  d->type_name = op_strdup(canonical_type_name(d->type));
  /* Rows for the halos too, once a set has them (a dat declared after
   * op_partition), zeroed. Filled over the backend's threads: each first
   * touches the part its loops use. */
  const size_t bytes = (size_t)set->size * (size_t)d->size;
  const size_t held = (size_t)op_set_held(set) * (size_t)d->size;
  d->data = op_alloc_big(held);
  op_parallel_copy(d->data, data, bytes);
  if (held > bytes) memset(d->data + bytes, 0, held - bytes);
  if (data && op_set_user_ids(set)) op_dat_user_rows_arrived(d); /* after op_renumber */
  d->user_owned = 0;
  d->where = OP_DAT_HOST_CURRENT;
  op_g.dats[d->index] = d;
  op_g.dat_temp[d->index] = 0;
  if (notify_backend) op_backend_dat_declared(d);
  return d;
}

/* On many processes the layer takes the rows over; the backend hears of the
 * dat once it is distributed (its rows then include the halos). */
static op_dat decl_dat(op_set set, int dim, const char *type, const void *data,
                       const char *name) {
  op_dat d = op_decl_dat_local(set, dim, type, data, name, !op_dist);
  if (op_dist) op_dist->dat_declared(d, data == NULL);
  return d;
}

op_dat op_decl_dat(op_set set, int dim, const char *type, void *data, const char *name) {
  OP_CHECK(data || (set && set->size == 0), "op_decl_dat(\"%s\"): data is NULL",
           name ? name : "?");
  op_dat d = decl_dat(set, dim, type, data, name);
  /* OP2's OP_NO_REALLOC: the application's array is the dat's (OP2's
   * tutorial steps 3 and 4 mix op_par_loops with loops of their own over the
   * same arrays). Many processes move rows: the layer's copy stays. */
  if (op_g.no_realloc && data && !op_dist) {
    free(d->data);
    d->data = data;
    d->user_owned = 1;
  }
  return d;
}

op_dat op_decl_dat_temp_core(op_set set, int dim, const char *type, size_t elem_bytes,
                             const char *name) {
  int t = op_type_from_name(type);
  /* OP2 sizes a temporary dat by the element size given and accepts one
   * larger than the type's (an "int" dat declared with sizeof(double)); the
   * generated loops address it by its type, so the type's size is held. A
   * smaller one cannot hold the values. */
  OP_CHECK(elem_bytes == 0 || t < 0 || elem_bytes >= (size_t)op_type_bytes((op_type)t),
           "op_decl_dat_temp(\"%s\"): the element size given is %zu bytes but \"%s\" has %d",
           name ? name : "?", elem_bytes, type, op_type_bytes((op_type)t));
  op_dat d = decl_dat(set, dim, type, NULL, name);
  op_g.dat_temp[d->index] = 1;
  return d;
}

op_dat op_decl_dat_temp_char(op_set set, int dim, const char *type, int elem_bytes,
                             const char *name) {
  OP_CHECK(elem_bytes > 0, "op_decl_dat_temp_char(\"%s\"): element size %d is not positive",
           name ? name : "?", elem_bytes);
  return op_decl_dat_temp_core(set, dim, type, (size_t)elem_bytes, name);
}

int op_free_dat_temp(op_dat dat) {
  require_init("op_free_dat_temp");
  /* Found by its address (a dat freed already is not looked into). */
  int at = -1;
  for (int i = 0; dat && i < op_g.ndats; i++)
    if (op_g.dats[i] == dat) at = i;
  if (at < 0 || !op_g.dat_temp[at]) {
    op_warn("op_free_dat_temp: %s%s%s is not a dat made by op_decl_dat_temp: not freed",
            at >= 0 ? "dat \"" : "a dat not declared (or freed already)",
            at >= 0 ? dat->name : "", at >= 0 ? "\"" : "");
    return -1;
  }
  op_backend_dat_freed(dat);
  if (op_dist) op_dist->dat_freed(dat);
  op_g.dats[dat->index] = NULL;
  op_g.dat_temp[dat->index] = 0;
  op_dat_retire(dat, OP_DAT_FREED_TEMP); /* the handle stays, naming the dat */
  return 1;
}

/* Copies of constants kept by generated code (op_register_const_copy). A
 * fixed table: registered before main, where nothing can be reported well. */
enum { CONST_COPIES = 256 };
static struct {
  const char *name;
  void *copy;
  size_t bytes;
} const_copies[CONST_COPIES];
static int nconst_copies, const_copies_lost;

void op_register_const_copy(const char *name, void *copy, size_t bytes) {
  if (nconst_copies == CONST_COPIES) {
    const_copies_lost++; /* op_decl_const reports it */
    return;
  }
  const_copies[nconst_copies].name = name;
  const_copies[nconst_copies].copy = copy;
  const_copies[nconst_copies].bytes = bytes;
  nconst_copies++;
}

static void fill_const_copies(const char *name, const void *data, size_t bytes) {
  OP_CHECK(!const_copies_lost, "op_decl_const(%s): more than %d constants with copies of their "
           "own in the loop code", name, CONST_COPIES);
  for (int i = 0; i < nconst_copies; i++) {
    if (strcmp(const_copies[i].name, name) != 0) continue;
    OP_CHECK(bytes <= const_copies[i].bytes,
             "op_decl_const(%s): %zu bytes given, but the loop code was generated for %zu",
             name, bytes, const_copies[i].bytes);
    memcpy(const_copies[i].copy, data, bytes);
  }
}

void op_decl_const_named(int dim, const char *type, const void *data, size_t bytes,
                         const char *name) {
  require_init("op_decl_const");
  OP_CHECK(dim > 0, "op_decl_const(%s): dim must be positive, got %d", name, dim);
  int t = op_type_from_name(type);
  OP_CHECK(t >= 0, "op_decl_const(%s): unknown type \"%s\"", name, type ? type : "(null)");
  while (*name == '&' || *name == ' ' || *name == '(') name++;
  char clean[128];
  size_t n = strcspn(name, " )[");
  OP_CHECK(n > 0 && n < sizeof clean, "op_decl_const: cannot use \"%s\" as a constant name", name);
  memcpy(clean, name, n);
  clean[n] = '\0';
  OP_CHECK(bytes == (size_t)dim * (size_t)op_type_bytes((op_type)t),
           "op_decl_const(%s): %d x \"%s\" is %d bytes but the variable holds %zu", clean, dim,
           type, dim * op_type_bytes((op_type)t), bytes);
  op_const_info *c = NULL;
  for (int i = 0; i < op_g.nconsts; i++)
    if (!strcmp(op_g.consts[i].name, clean)) c = &op_g.consts[i];
  if (!c) {
    GROW(op_g.consts, op_g.nconsts, op_g.cap_consts);
    c = &op_g.consts[op_g.nconsts++];
    c->name = op_strdup(clean);
    c->type_name = op_strdup(canonical_type_name((op_type)t));
  }
  c->dim = dim;
  c->bytes = bytes;
  c->data = data;
  fill_const_copies(c->name, data, bytes);
  op_backend_const_declared(c->name, data, bytes);
}

/* ---- arguments ------------------------------------------------------------------ */

op_arg op_arg_dat(op_dat dat, int idx, op_map map, int dim, const char *type, op_access acc) {
  /* A NULL dat is the loop's to report, naming it and the argument. */
  if (dat) op_dat_require_live(dat, "op_arg_dat");
  if (op_dist && dat) op_dist->before_loop(dat->set);
  op_arg a;
  memset(&a, 0, sizeof a);
  a.kind = OP_ARG_DAT;
  a.dat = dat;
  a.map = map;
  a.idx = map ? idx : -1;
  a.dim = dim;
  a.type_name = type;
  int t = op_type_from_name(type);
  a.type = t >= 0 ? (op_type)t : OP_TYPE_DOUBLE;
  a.acc = acc;
  a.data = dat ? dat->data : NULL;
  a.size = dat ? dat->size : 0;
  return a;
}

op_arg op_arg_gbl_core(void *data, int dim, const char *type, size_t elem_bytes,
                       const char *var_type, op_access acc) {
  op_arg a;
  memset(&a, 0, sizeof a);
  a.kind = OP_ARG_GBL;
  a.idx = -1;
  a.dim = dim;
  a.type_name = type;
  int t = op_type_from_name(type);
  a.type = t >= 0 ? (op_type)t : OP_TYPE_DOUBLE;
  a.acc = acc;
  a.data = data;
  a.size = (int)elem_bytes * dim;
  a.var_type = var_type;
  return a;
}

op_arg op_arg_idx(int idx, op_map map) {
  op_arg a;
  memset(&a, 0, sizeof a);
  a.kind = OP_ARG_IDX;
  a.map = map;
  a.idx = map ? idx : -1;
  a.dim = 1;
  a.type_name = "int";
  a.type = OP_TYPE_INT;
  a.acc = OP_READ;
  a.size = 4;
  return a;
}

op_arg op_arg_info_core(void *data, int dim, const char *type, size_t elem_bytes,
                        const char *var_type, int ref) {
  op_arg a = op_arg_gbl_core(data, dim, type, elem_bytes, var_type, OP_READ);
  a.kind = OP_ARG_INFO;
  a.ref = ref;
  return a;
}

/* ---- data access ------------------------------------------------------------------ */

/* op_fetch_data and op_fetch_data_idx give the user's numbering (op2_renumber.h). */
void op_fetch_data(op_dat dat, void *dest) {
  op_dat_require_live(dat, "op_fetch_data");
  OP_CHECK(dest, "op_fetch_data(\"%s\"): destination is NULL", dat->name);
  op_dat_to_user_order(dat, dest);
}

void op_fetch_data_idx(op_dat dat, void *dest, int low, int high) {
  op_dat_require_live(dat, "op_fetch_data_idx");
  OP_CHECK(dest, "op_fetch_data_idx(\"%s\"): destination is NULL", dat->name);
  if (op_dist) {
    const int n = op_get_size(dat->set);
    OP_CHECK(low >= 0 && low <= high && high < n,
             "op_fetch_data_idx(\"%s\"): elements %d..%d are not within the %d of set \"%s\"",
             dat->name, low, high, n, dat->set->name);
    op_dist->fetch_idx(dat, dest, low, high);
    return;
  }
  const char *src = op_fetch_data_ptr(dat);
  OP_CHECK(low >= 0 && low <= high && high < dat->set->size,
           "op_fetch_data_idx(\"%s\"): elements %d..%d are not within the %d of set \"%s\"",
           dat->name, low, high, dat->set->size, dat->set->name);
  const int *storage = op_set_storage_ids(dat->set);
  const size_t row = (size_t)dat->size;
  if (!storage) {
    memcpy(dest, src + (size_t)low * row, (size_t)(high - low + 1) * row);
    return;
  }
  for (int u = low; u <= high; u++)
    memcpy((char *)dest + (size_t)(u - low) * row, src + (size_t)storage[u] * row, row);
}

/* ---- diagnostics output ------------------------------------------------------------ */

void op_diagnostic_output(void) {
  printf("OP2 diagnostics (backend %s, part size %d, diagnostics level %d)\n",
         op_backend_name(), op_g.part_size, op_g.diags);
  printf("  sets:\n");
  for (int i = 0; i < op_g.nsets; i++)
    printf("    %-20s size %d\n", op_g.sets[i]->name, op_g.sets[i]->size);
  printf("  maps:\n");
  for (int i = 0; i < op_g.nmaps; i++) {
    op_map m = op_g.maps[i];
    printf("    %-20s %s -> %s, dim %d\n", m->name, m->from->name, m->to->name, m->dim);
  }
  printf("  dats:\n");
  for (int i = 0; i < op_g.ndats; i++) {
    op_dat d = op_g.dats[i];
    if (d) printf("    %-20s on %s, dim %d, %s\n", d->name, d->set->name, d->dim, d->type_name);
  }
  printf("  constants:\n");
  for (int i = 0; i < op_g.nconsts; i++)
    printf("    %-20s dim %d, %s\n", op_g.consts[i].name, op_g.consts[i].dim,
           op_g.consts[i].type_name);
}

/* Frees every set, map, dat and constant (op_exit). */
static void registry_free(void) {
  for (int i = 0; i < op_g.ndats; i++) {
    op_dat d = op_g.dats[i];
    if (d) op_dat_retire(d, OP_DAT_FREED_EXIT); /* the handle stays, naming the dat */
  }
  for (int i = 0; i < op_g.nmaps; i++) {
    op_map m = op_g.maps[i];
    if (!m->user_owned) free(m->map);
    free(m);
  }
  for (int i = 0; i < op_g.nsets; i++) free(op_g.sets[i]);
  for (int i = 0; i < op_g.nconsts; i++) {
    free(op_g.consts[i].name);
    free(op_g.consts[i].type_name);
  }
  free(op_g.dats);
  free(op_g.dat_temp);
  op_g.dat_temp = NULL;
  free(op_g.maps);
  free(op_g.sets);
  free(op_g.consts);
  op_g.dats = NULL;
  op_g.maps = NULL;
  op_g.sets = NULL;
  op_g.consts = NULL;
  op_g.ndats = op_g.nmaps = op_g.nsets = op_g.nconsts = 0;
  op_g.cap_dats = op_g.cap_maps = op_g.cap_sets = op_g.cap_consts = 0;
}
