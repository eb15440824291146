/*
 * h5app - an application that calls HDF5 itself, through HDF5's high-level
 * API (H5LT*), beside the library's HDF5 input and output, as OP2
 * applications and their mesh tools do. Built for every backend, its LIBS
 * naming HDF5 in several ways (h5app.cmake): each executable must get one
 * HDF5, the one the library's I/O is built on (parallel for the MPI
 * executables), or the library's parallel reader fails at the first file it
 * opens.
 *
 * The root writes a mesh in OP2's layout with H5LT (h5app_in.h5: the set
 * "cells" as its size, the dat "p_u" = g with its type as an attribute); every
 * process declares both from it (op_decl_set_hdf5, op_decl_dat_hdf5: on many
 * processes, parallel HDF5), scales p_u, writes it (op_fetch_data_hdf5_file,
 * h5app_out.h5), and the root reads it back with H5LTread_dataset_double.
 *
 * Usage: h5app [library options]; writes its two files in the working
 * directory; exit status 0 when every check passes.
 */
#include <stdio.h>

#include "hdf5.h"
#include "hdf5_hl.h"
#include "op_seq.h"

#define N 24
#define IN_FILE "h5app_in.h5"
#define OUT_FILE "h5app_out.h5"

static inline void scale(double *u) { *u *= 2.0; }

/* The mesh, written by the application's own HDF5 calls; 1 when all succeeded. */
static int write_mesh(void) {
  int n = N;
  double u[N];
  for (int g = 0; g < N; g++) u[g] = g;
  const hsize_t one[1] = {1}, rows[1] = {N};
  hid_t f = H5Fcreate(IN_FILE, H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  if (f < 0) {
    fprintf(stderr, "h5app: H5Fcreate(%s) failed\n", IN_FILE);
    return 0;
  }
  int ok = H5LTmake_dataset_int(f, "cells", 1, one, &n) >= 0 &&
           H5LTmake_dataset_double(f, "p_u", 1, rows, u) >= 0 &&
           H5LTset_attribute_string(f, "p_u", "type", "double") >= 0;
  if (!ok) fprintf(stderr, "h5app: writing cells and p_u into %s failed\n", IN_FILE);
  if (H5Fclose(f) < 0) ok = 0;
  return ok;
}

/* The library's output, read by the application's own HDF5 calls; 1 when it
 * holds 2g for every g. */
static int check_output(void) {
  double u[N];
  hid_t f = H5Fopen(OUT_FILE, H5F_ACC_RDONLY, H5P_DEFAULT);
  if (f < 0) {
    fprintf(stderr, "h5app: H5Fopen(%s) failed\n", OUT_FILE);
    return 0;
  }
  int ok = H5LTread_dataset_double(f, "p_u", u) >= 0;
  if (!ok) fprintf(stderr, "h5app: H5LTread_dataset_double(%s, p_u) failed\n", OUT_FILE);
  for (int g = 0; ok && g < N; g++)
    if (u[g] != 2.0 * g) {
      fprintf(stderr, "h5app: p_u[%d] is %g in %s, expected %g\n", g, u[g], OUT_FILE, 2.0 * g);
      ok = 0;
    }
  if (H5Fclose(f) < 0) ok = 0;
  return ok;
}

int main(int argc, char **argv) {
  op_init(argc, argv, 1);
  int ok = op_is_root() ? write_mesh() : 1;
  /* Declaring a set is collective on many processes: none reads the mesh
   * before the root has written it. */
  op_decl_set(0, "mesh_written");
  op_set cells = op_decl_set_hdf5(IN_FILE, "cells");
  op_dat p_u = op_decl_dat_hdf5(cells, 1, "double", IN_FILE, "p_u");
  op_par_loop(scale, "scale", cells, op_arg_dat(p_u, -1, OP_ID, 1, "double", OP_RW));
  op_fetch_data_hdf5_file(p_u, OUT_FILE);
  if (op_is_root()) ok &= check_output();
  op_printf("h5app: a mesh written with H5LT read by the library, its output read with H5LT: %s\n",
            ok ? "PASSED" : "FAILED");
  op_exit();
  return ok ? 0 : 1;
}
