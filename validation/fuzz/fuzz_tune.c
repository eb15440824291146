/*
 * fuzz_tune - the CUDA backend's tune-file loader on arbitrary bytes; every
 * configuration it accepts must be one the backend can run.
 */
#include <fcntl.h>

#include "fuzz_util.h"
#include "op_cuda.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  /* The loader warns about every bad line: stderr goes to /dev/null while it
   * runs, and comes back for the sanitizers' and libFuzzer's reports. */
  static int devnull = -1, saved = -1;
  if (devnull < 0) {
    devnull = open("/dev/null", O_WRONLY);
    saved = dup(STDERR_FILENO);
  }
  char err[1024];
  op_cuda_tune_reset();
  const char *path = fuzz_file(data, size, ".tune");
  fflush(stderr);
  dup2(devnull, STDERR_FILENO);
  int rc = op_cuda_tune_load(path, err, sizeof err);
  fflush(stderr);
  dup2(saved, STDERR_FILENO);
  if (rc < 0) abort();
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
