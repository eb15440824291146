/*
 * fuzz_mtx - the Matrix Market reader, the system built from it and the
 * right-hand-side reader, on arbitrary bytes.
 */
#include "fuzz_util.h"
#include "jacobi_system.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[1024];
  const char *path = fuzz_file(data, size, ".mtx");
  jacobi_system s;
  if (jacobi_build_mtx(path, "from_solution", 1, 1, 0, &s, err, sizeof err) == 0) {
    for (int e = 0; e < s.nedge; e++)
      if (s.pedge[2 * e] < 0 || s.pedge[2 * e] >= s.n || s.pedge[2 * e + 1] < 0 ||
          s.pedge[2 * e + 1] >= s.n)
        abort();
    jacobi_system_free(&s);
  }
  /* The same bytes as a right-hand side of a few sizes. */
  double v[64];
  for (int n = 1; n <= 64; n *= 4) (void)jacobi_vector_read(path, n, v, err, sizeof err);
  return 0;
}
