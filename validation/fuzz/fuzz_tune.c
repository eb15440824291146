/*
 * fuzz_tune - the CUDA backend's tune-file loader on arbitrary bytes; every
 * configuration it accepts must be one the backend can run.
 */
#include "fuzz_util.h"
#include "op_cuda.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int quiet;
  if (!quiet) { /* the loader warns about every bad line */
    FILE *e = freopen("/dev/null", "w", stderr);
    (void)e;
    quiet = 1;
  }
  char err[1024];
  op_cuda_tune_reset();
  if (op_cuda_tune_load(fuzz_file(data, size, ".tune"), err, sizeof err) < 0) abort();
  /* Whatever was loaded: the names the fuzzer is likely to produce. */
  static const char *const names[] = {"res_calc", "update", "a", "loop", "x"};
  for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
    op_cuda_config c;
    if (op_cuda_tune_settled(names[k], &c)) {
      if (c.strategy < 0 || c.strategy >= OP_CUDA_NSTRATEGIES || c.block < 32 || c.block > 1024 ||
          c.block % 32 || c.part < 0 || c.part > (1 << 24))
        abort();
    }
  }
  return 0;
}
