# A run resumed from a checkpoint ends equal to an uninterrupted one: bitwise
# (the same order of operations) unless COMPARE_ARGS gives a tolerance.
# EXTRA: more arguments for every run: options of the backend, or
# renumber=yes (the checkpoint is in the mesh's numbering and read back into
# the library's).
# On many processes (docs/mpi.md): FULL, PART and RESUME are the launchers of
# the three runs ("mpirun|...|-np|3", "|" between words; empty: none), so that
# a checkpoint written on one process count is resumed on another. The
# history is compared when COMPARE_ARGS is empty (the same bits then).
set(common mesh=${MESH} mesh_i=20 mesh_j=12 print_every=100 --op-part-size=64 ${EXTRA})
file(REMOVE_RECURSE ${DIR})
function(run launch)
  string(REPLACE "|" ";" launch "${launch}")
  execute_process(COMMAND ${launch} ${AIRFOIL} ${common} ${ARGN} RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "airfoil ${ARGN} failed (${rc}):\n${out}")
  endif()
endfunction()
run("${FULL}" iterations=300 output_dir=${DIR}/full)
run("${PART}" iterations=200 checkpoint_every=100 output_dir=${DIR}/part)
run("${RESUME}" iterations=300 restart=${DIR}/part/checkpoint.h5 output_dir=${DIR}/part)
separate_arguments(cargs UNIX_COMMAND "${COMPARE_ARGS}")
execute_process(COMMAND ${COMPARE} ${cargs} ${DIR}/part/q.h5 ${DIR}/full/q.h5 RESULT_VARIABLE rc
                OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the resumed run differs from the uninterrupted one:\n${out}")
endif()
if(NOT COMPARE_ARGS)
  file(READ ${DIR}/full/history.csv h1)
  file(READ ${DIR}/part/history.csv h2)
  if(NOT h1 STREQUAL h2)
    message(FATAL_ERROR "the resumed history.csv differs from the uninterrupted one")
  endif()
  message(STATUS "resumed run and history bitwise equal to the uninterrupted run")
else()
  message(STATUS "resumed run equal to the uninterrupted run within ${COMPARE_ARGS}")
endif()
