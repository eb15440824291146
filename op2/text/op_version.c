/* op_version.c - the suite's version and commit (op_version.h). The version
 * comes from op_version_config.h (configure time), the commit from
 * build_commit.h, rewritten by build_commit.cmake at every build. */
#include "op_version.h"

#include <stdio.h>
#include <string.h>

#include "build_commit.h"
#include "op_version_config.h"

const char *op_suite_version(void) { return OP2SUITE_VERSION; }

const char *op_suite_commit(void) { return OP2SUITE_COMMIT; }

int op_suite_commit_dirty(void) { return OP2SUITE_COMMIT_DIRTY; }

void op_print_version(const char *program) {
  printf("%s (op2suite %s, commit %s%s)\n", program, OP2SUITE_VERSION, OP2SUITE_COMMIT,
         OP2SUITE_COMMIT_DIRTY ? "+dirty" : "");
}

int op_asks_version(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (argv[i] && strcmp(argv[i], "--version") == 0) return 1;
  return 0;
}
