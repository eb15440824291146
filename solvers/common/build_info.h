/*
 * build_info.h - what built this executable: the suite's version, the git
 * commit of the source tree (and whether it had uncommitted changes), the
 * compilers and their flags. Written into result.json and printed by
 * --version, so that a figure can be traced back to the code that made it.
 */
#ifndef SOLVER_COMMON_BUILD_INFO_H
#define SOLVER_COMMON_BUILD_INFO_H

typedef struct {
  const char *version;       /* the suite's version (CMake project version) */
  const char *commit;        /* git commit of the source tree, or "unknown" */
  int commit_dirty;          /* 1: tracked files differed from that commit */
  const char *build_type;    /* CMAKE_BUILD_TYPE */
  const char *c_compiler;    /* "GNU 12.2.0" */
  const char *c_flags;       /* every flag the C sources are compiled with */
  const char *cuda_compiler; /* "" without the CUDA backend */
  const char *cuda_flags;
} build_info;

const build_info *solver_build_info(void);

/* "<program> (op2suite VERSION, commit COMMIT[+dirty], BUILD_TYPE, COMPILER)". */
void solver_print_version(const char *program);

#endif
