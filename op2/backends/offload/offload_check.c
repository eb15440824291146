/* What CMake compiles to decide whether the offload backend can be built
 * (op2/backends/offload/detect.cmake): a region with a math function and
 * several reductions (which need libm and libatomic on the device), and an
 * atomic update of a double, as the generated loops have. */
#include <math.h>
#include <stdio.h>

#pragma omp declare target
static double scale;
#pragma omp end declare target

int main(void) {
  double sum = 0.0, most = 0.0, acc[1] = {0.0};
  int count = 0;
  scale = 2.0;
#pragma omp target update to(scale)
#pragma omp target teams distribute parallel for map(tofrom: sum, most, count, acc[0:1]) \
    reduction(+: sum, count) reduction(max: most)
  for (int i = 0; i < 1000; i++) {
    double v = sqrt((double)i) * scale;
    sum += v;
    most = v > most ? v : most;
    count++;
#pragma omp atomic update
    acc[0] += 1.0;
  }
  printf("%g %g %d %g\n", sum, most, count, acc[0]);
  return 0;
}
