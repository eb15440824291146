/*
 * op_dist.c - the OP2 calls that mean something more on many processes
 * (op_dist.h): on one process without the MPI layer each is what OP2's
 * shared-memory library does.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "op2.h"
#include "op2_error.h"
#include "op2_loop.h"
#include "op2_slice.h"
#include "op_dat_handle.h"
#include "op_decl.h"
#include "op_dist.h"

void op_partition(const char *lib, const char *routine, op_set prime_set, op_map prime_map,
                  op_dat coords) {
  if (op_dist) op_dist->partition(lib, routine, prime_set, prime_map, coords);
}

void op_halo_create(void) {
  if (op_dist) op_dist->halo_create();
}

void op_partition_geometry(const char *lib, const char *routine, op_set prime_set,
                           op_map prime_map, const op_mesh_geometry *geo) {
  OP_CHECK(geo && geo->set, "op_partition_geometry: no geometry (or no set) given");
  OP_CHECK(!geo->coords || (geo->cdim >= 1 && geo->cdim <= 3),
           "op_partition_geometry: set '%s': cdim %d, not 1 to 3", geo->set->name, geo->cdim);
  OP_CHECK(!geo->adjacent || geo->max_adjacent >= 1,
           "op_partition_geometry: set '%s': max_adjacent %d, not positive", geo->set->name,
           geo->max_adjacent);
  if (op_dist) op_dist->partition_geometry(lib, routine, prime_set, prime_map, geo);
}

int op_partition_needs_coords(const char *lib, const char *routine) {
  return op_dist ? op_dist->needs_coords(lib, routine) : 0;
}

int op_num_procs(void) { return op_dist ? op_dist->nprocs : 1; }
int op_rank(void) { return op_dist ? op_dist->rank : 0; }
int op_is_root(void) { return op_rank() == 0; }

/* OP2's printf: the root process alone prints. */
void op_printf(const char *format, ...) {
  if (!op_is_root()) return;
  va_list ap;
  va_start(ap, format);
  vprintf(format, ap);
  va_end(ap);
}

void op_slice(int n, int *first, int *count) {
  OP_CHECK(n >= 0 && first && count, "op_slice(%d): negative size or NULL result", n);
  *first = (int)op_slice_first(n, op_num_procs(), op_rank());
  *count = (int)op_slice_count(n, op_num_procs(), op_rank());
}

void op_broadcast(void *data, size_t bytes) {
  if (op_dist && bytes) op_dist->broadcast(data, bytes);
}

int op_max_int(int v) { return op_dist ? op_dist->max_int(v) : v; }

double op_max_double(double v) { return op_dist ? op_dist->max_double(v) : v; }

int op_root_status(int rc) { return op_dist ? op_dist->root_status(rc) : rc; }

const void *op_fetch_data_global(op_dat dat) {
  op_dat_require_live(dat, "op_fetch_data_global");
  if (!op_dist) return op_fetch_data_ptr(dat);
  return op_dist->dat_global(dat);
}

const int *op_fetch_map_global(op_map map) {
  OP_CHECK(map, "op_fetch_map_global: map is NULL");
  return op_dist ? op_dist->map_global(map) : map->map;
}

int op_loop_set_size(op_set set, int nargs, const op_arg *args) {
  for (int i = 0; i < nargs; i++)
    if (args[i].kind == OP_ARG_DAT && args[i].map && args[i].acc != OP_READ)
      return set->size + set->exec_size;
  return set->size;
}
