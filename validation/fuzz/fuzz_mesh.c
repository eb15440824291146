/*
 * fuzz_mesh - the ASCII airfoil mesh reader and the mesh checker on
 * arbitrary bytes. A mesh that is accepted must satisfy what the solver
 * relies on: indices in range (read back here), flags 1 or 2.
 */
#include "airfoil_mesh.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  airfoil_mesh m;
  char err[1024];
  const char *path = fuzz_file(data, size, ".dat");
  if (airfoil_mesh_read_ascii(path, &m, err, sizeof err) == 0) {
    for (long k = 0; k < 4L * m.ncell; k++)
      if (m.cell[k] < 0 || m.cell[k] >= m.nnode) abort();
    for (long k = 0; k < m.nbedge; k++)
      if (m.bound[k] != AIRFOIL_MESH_WALL && m.bound[k] != AIRFOIL_MESH_FARFIELD) abort();
    airfoil_mesh_free(&m);
  } else if (m.x != NULL || m.nnode != 0) {
    abort(); /* a failed read leaves the mesh empty */
  }
  /* The format alone, then the checker on whatever it gave. */
  if (airfoil_mesh_parse_ascii(path, &m, err, sizeof err) == 0) {
    (void)airfoil_mesh_check(&m, path, err, sizeof err);
    airfoil_mesh_free(&m);
  }
  return 0;
}
