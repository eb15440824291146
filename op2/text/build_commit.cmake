# Writes OUT (build_commit.h) with the git commit of SRC and whether tracked
# files differ from it; rewritten only when that changes, so that a build
# without a new commit recompiles nothing. Run at every build.
set(commit unknown)
set(dirty 0)
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SRC} rev-parse HEAD
                  OUTPUT_VARIABLE out RESULT_VARIABLE rc ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(rc EQUAL 0 AND out MATCHES "^[0-9a-f]+$")
    set(commit ${out})
    execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SRC} status --porcelain --untracked-files=no
                    OUTPUT_VARIABLE st RESULT_VARIABLE rc ERROR_QUIET)
    if(rc EQUAL 0 AND NOT st STREQUAL "")
      set(dirty 1)
    endif()
  endif()
endif()
set(text "/* Generated at build time by build_commit.cmake. */\n#define OP2SUITE_COMMIT \"${commit}\"\n#define OP2SUITE_COMMIT_DIRTY ${dirty}\n")
set(old "")
if(EXISTS ${OUT})
  file(READ ${OUT} old)
endif()
if(NOT old STREQUAL text)
  file(WRITE ${OUT} "${text}")
endif()
