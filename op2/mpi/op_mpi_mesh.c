/* op_mpi_mesh.c - declaring a distributed mesh in slices. */
#include "op_mpi_mesh.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "op_io_util.h" /* op_io_type_size, op_io_type_name */
#include "op_mpi_check.h"
#include "op_mpi_exchange.h"
#include "op2_slice.h"

static char *dup_name(const char *s, const char *what) {
  if (!s || !s[0]) op_mpi_fatal("a %s needs a name", what);
  size_t n = strlen(s) + 1;
  char *d = op_mpi_alloc(char, n);
  memcpy(d, s, n);
  return d;
}

static void check_stage(op_mpi_mesh m, op_mpi_stage want, const char *call) {
  if (!m) op_mpi_fatal("%s: no mesh (NULL)", call);
  if (m->stage != want)
    op_mpi_fatal("%s: called when the mesh is already %s (declare everything before "
                 "partitioning)",
                 call, m->stage == OP_MPI_PARTITIONED ? "partitioned" : "distributed");
}

op_mpi_mesh op_mpi_mesh_create(MPI_Comm comm) {
  op_mpi_mesh m = op_mpi_zalloc(struct op_mpi_mesh_core, 1);
  OP_MPI_CHECK(MPI_Comm_dup(comm, &m->comm));
  /* Errors come back as codes to OP_MPI_CHECK, which names the call. */
  OP_MPI_CHECK(MPI_Comm_set_errhandler(m->comm, MPI_ERRORS_RETURN));
  OP_MPI_CHECK(MPI_Comm_rank(m->comm, &m->rank));
  OP_MPI_CHECK(MPI_Comm_size(m->comm, &m->nprocs));
  m->stage = OP_MPI_DECLARED;
  return m;
}

static void free_halo_list(op_mpi_halo_list *h) {
  free(h->ranks);
  free(h->offset);
  free(h->list);
  memset(h, 0, sizeof *h);
}

void op_mpi_mesh_free(op_mpi_mesh m) {
  if (!m) return;
  for (int i = 0; i < m->ndats; i++)
    if (m->dats[i]) op_mpi_free_dat(m, m->dats[i]);
  for (int i = 0; i < m->nmaps; i++) {
    op_mpi_map p = m->maps[i];
    free(p->name);
    free(p->slice);
    free(p->map);
    free(p);
  }
  for (int i = 0; i < m->nsets; i++) {
    op_mpi_set s = m->sets[i];
    free(s->name);
    free(s->slice_starts);
    free(s->part);
    free(s->gid);
    op_mpi_exchange_plan_free(s);
    free_halo_list(&s->exp_exec);
    free_halo_list(&s->imp_exec);
    free_halo_list(&s->exp_nonexec);
    free_halo_list(&s->imp_nonexec);
    free(s);
  }
  free(m->sets);
  free(m->maps);
  free(m->dats);
  OP_MPI_CHECK(MPI_Comm_free(&m->comm));
  free(m);
}

void op_mpi_slice(int n, int nprocs, int rank, int *start, int *count) {
  *start = (int)op_slice_first(n, nprocs, rank);
  *count = (int)op_slice_count(n, nprocs, rank);
}

int op_mpi_slice_owner(const int *starts, int nprocs, int g) {
  if (g < starts[0] || g >= starts[nprocs])
    op_mpi_fatal("internal error: global number %d outside [0, %d)", g, starts[nprocs]);
  /* The last process whose slice starts at or before g (empty slices skipped). */
  int lo = 0, hi = nprocs - 1;
  while (lo < hi) {
    int mid = lo + (hi - lo + 1) / 2;
    if (starts[mid] <= g) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

op_mpi_set op_mpi_decl_set(op_mpi_mesh m, int slice_size, const char *name) {
  check_stage(m, OP_MPI_DECLARED, "op_mpi_decl_set");
  if (slice_size < 0)
    op_mpi_fatal("set '%s': negative slice size %d", name ? name : "?", slice_size);
  op_mpi_set s = op_mpi_zalloc(struct op_mpi_set_core, 1);
  s->mesh = m;
  s->index = m->nsets;
  s->name = dup_name(name, "set");
  int *sizes = op_mpi_alloc(int, m->nprocs);
  OP_MPI_CHECK(MPI_Allgather(&slice_size, 1, MPI_INT, sizes, 1, MPI_INT, m->comm));
  s->slice_starts = op_mpi_alloc(int, m->nprocs + 1);
  long long total = 0;
  for (int r = 0; r < m->nprocs; r++) {
    s->slice_starts[r] = (int)total;
    total += sizes[r];
    if (total > INT_MAX)
      op_mpi_fatal("set '%s': %lld elements or more: global numbers must fit in an int",
                   s->name, total);
  }
  s->slice_starts[m->nprocs] = (int)total;
  free(sizes);
  s->global_size = (int)total;
  s->slice_start = s->slice_starts[m->rank];
  s->slice_size = slice_size;
  m->sets = op_mpi_grow(op_mpi_set, m->sets, m->nsets + 1);
  m->sets[m->nsets++] = s;
  return s;
}

static void check_owned_set(op_mpi_mesh m, op_mpi_set s, const char *call, const char *what) {
  if (!s || s->mesh != m) op_mpi_fatal("%s: the %s set is not a set of this mesh", call, what);
}

static op_mpi_map add_map(op_mpi_mesh m, op_mpi_set from, op_mpi_set to, int dim,
                          const int *rows, const char *name);

op_mpi_map op_mpi_decl_map(op_mpi_mesh m, op_mpi_set from, op_mpi_set to, int dim,
                           const int *rows, const char *name) {
  op_mpi_map p = add_map(m, from, to, dim, rows, name);
  size_t n = (size_t)from->slice_size * (size_t)dim;
  p->slice = op_mpi_alloc(int, n);
  if (n) memcpy(p->slice, rows, n * sizeof(int));
  return p;
}

op_mpi_map op_mpi_decl_map_take(op_mpi_mesh m, op_mpi_set from, op_mpi_set to, int dim, int *rows,
                                const char *name) {
  op_mpi_map p = add_map(m, from, to, dim, rows, name);
  p->slice = rows;
  return p;
}

/* Every entry of a map's slice rows is a global number of its to-set. */
static void check_map_rows(op_mpi_set from, op_mpi_set to, int dim, const int *rows,
                           const char *name) {
  size_t n = (size_t)from->slice_size * (size_t)dim;
  if (n > 0 && !rows) op_mpi_fatal("map '%s': no entries given", name ? name : "?");
  for (size_t i = 0; i < n; i++)
    if (rows[i] < 0 || rows[i] >= to->global_size)
      op_mpi_bad_input(
          "map '%s' (%s -> %s): row %zu (global), entry %zu is %d, outside [0, %d) "
          "(the size of set '%s')",
          name ? name : "?", from->name, to->name, (size_t)from->slice_start + i / (size_t)dim,
          i % (size_t)dim, rows[i], to->global_size, to->name);
}

void op_mpi_map_replace_slice(op_mpi_mesh m, op_mpi_map p, int *rows) {
  check_stage(m, OP_MPI_DECLARED, "op_mpi_map_replace_slice");
  check_map_rows(p->from, p->to, p->dim, rows, p->name);
  p->slice = rows;
}

void op_mpi_dat_replace_slice(op_mpi_mesh m, op_mpi_dat d, void *rows) {
  check_stage(m, OP_MPI_DECLARED, "op_mpi_dat_replace_slice");
  if (d->set->slice_size > 0 && !rows) op_mpi_fatal("dat '%s': no rows given", d->name);
  d->slice = rows;
}

/* A map of the mesh, its rows checked, with no rows held yet. */
static op_mpi_map add_map(op_mpi_mesh m, op_mpi_set from, op_mpi_set to, int dim, const int *rows,
                          const char *name) {
  check_stage(m, OP_MPI_DECLARED, "op_mpi_decl_map");
  check_owned_set(m, from, "op_mpi_decl_map", "from");
  check_owned_set(m, to, "op_mpi_decl_map", "to");
  if (dim < 1) op_mpi_fatal("map '%s': dim %d, need 1 or more", name ? name : "?", dim);
  check_map_rows(from, to, dim, rows, name);
  op_mpi_map p = op_mpi_zalloc(struct op_mpi_map_core, 1);
  p->index = m->nmaps;
  p->name = dup_name(name, "map");
  p->from = from;
  p->to = to;
  p->dim = dim;
  m->maps = op_mpi_grow(op_mpi_map, m->maps, m->nmaps + 1);
  m->maps[m->nmaps++] = p;
  return p;
}

/* A dat of the mesh, checked and added to its list, with no rows yet. */
static op_mpi_dat add_dat(op_mpi_mesh m, op_mpi_set set, int dim, op_type type, const char *name) {
  if (dim < 1) op_mpi_fatal("dat '%s': dim %d, need 1 or more", name ? name : "?", dim);
  size_t tsize = op_io_type_size(type);
  if (tsize == 0) op_mpi_fatal("dat '%s': unknown type %d", name ? name : "?", (int)type);
  op_mpi_dat d = op_mpi_zalloc(struct op_mpi_dat_core, 1);
  /* The lowest index a freed dat left, else a new one. */
  d->index = 0;
  while (d->index < m->ndats && m->dats[d->index]) d->index++;
  d->name = dup_name(name, "dat");
  d->set = set;
  d->dim = dim;
  d->type = type;
  d->size = (size_t)dim * tsize;
  if (d->index == m->ndats) {
    m->dats = op_mpi_grow(op_mpi_dat, m->dats, m->ndats + 1);
    m->ndats++;
  }
  m->dats[d->index] = d;
  return d;
}

void op_mpi_free_dat(op_mpi_mesh m, op_mpi_dat d) {
  if (d->index < 0 || d->index >= m->ndats || m->dats[d->index] != d)
    op_mpi_fatal("internal error: dat '%s' is not one of the mesh's", d->name ? d->name : "?");
  m->dats[d->index] = NULL;
  op_mpi_exchange_free(d);
  free(d->name);
  free(d->slice);
  free(d->data);
  free(d);
}

op_mpi_dat op_mpi_decl_dat(op_mpi_mesh m, op_mpi_set set, int dim, op_type type,
                           const void *rows, const char *name) {
  check_stage(m, OP_MPI_DECLARED, "op_mpi_decl_dat");
  check_owned_set(m, set, "op_mpi_decl_dat", "its");
  op_mpi_dat d = add_dat(m, set, dim, type, name);
  size_t bytes = (size_t)set->slice_size * d->size;
  d->slice = op_mpi_zalloc(char, bytes);
  if (rows && bytes) memcpy(d->slice, rows, bytes);
  return d;
}

op_mpi_dat op_mpi_decl_dat_take(op_mpi_mesh m, op_mpi_set set, int dim, op_type type, void *rows,
                                const char *name) {
  check_stage(m, OP_MPI_DECLARED, "op_mpi_decl_dat");
  check_owned_set(m, set, "op_mpi_decl_dat", "its");
  op_mpi_dat d = add_dat(m, set, dim, type, name);
  d->slice = rows;
  return d;
}

op_mpi_dat op_mpi_decl_dat_distributed(op_mpi_mesh m, op_mpi_set set, int dim, op_type type,
                                       const char *name) {
  if (!m || m->stage != OP_MPI_DISTRIBUTED)
    op_mpi_fatal("op_mpi_decl_dat_distributed('%s'): the mesh is not distributed", name ? name : "?");
  check_owned_set(m, set, "op_mpi_decl_dat_distributed", "its");
  op_mpi_dat d = add_dat(m, set, dim, type, name);
  d->data = op_mpi_zalloc(char, (size_t)(set->size + set->exec_size + set->nonexec_size) * d->size);
  return d;
}

op_mpi_set op_mpi_find_set(op_mpi_mesh m, const char *name) {
  for (int i = 0; i < m->nsets; i++)
    if (!strcmp(m->sets[i]->name, name)) return m->sets[i];
  return NULL;
}

op_mpi_map op_mpi_find_map(op_mpi_mesh m, const char *name) {
  for (int i = 0; i < m->nmaps; i++)
    if (!strcmp(m->maps[i]->name, name)) return m->maps[i];
  return NULL;
}

op_mpi_dat op_mpi_find_dat(op_mpi_mesh m, const char *name) {
  for (int i = 0; i < m->ndats; i++)
    if (m->dats[i] && !strcmp(m->dats[i]->name, name)) return m->dats[i];
  return NULL;
}
