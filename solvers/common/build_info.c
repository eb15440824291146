/* build_info.c - the build's identity (build_info.h). The values come from
 * CMake: build_info_config.h at configure time, build_commit.h at every
 * build (build_commit.cmake). */
#include "build_info.h"

#include <stdio.h>

#include "build_commit.h"
#include "build_info_config.h"

const build_info *solver_build_info(void) {
  static const build_info info = {OP2SUITE_VERSION,     OP2SUITE_COMMIT,
                                  OP2SUITE_COMMIT_DIRTY, OP2SUITE_BUILD_TYPE,
                                  OP2SUITE_C_COMPILER,  OP2SUITE_C_FLAGS,
                                  OP2SUITE_CUDA_COMPILER, OP2SUITE_CUDA_FLAGS};
  return &info;
}

void solver_print_version(const char *program) {
  const build_info *b = solver_build_info();
  printf("%s (op2suite %s, commit %s%s, %s build, %s)\n", program, b->version, b->commit,
         b->commit_dirty ? "+dirty" : "", b->build_type, b->c_compiler);
}
