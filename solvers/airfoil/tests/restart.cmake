# A run resumed from a checkpoint ends bitwise equal to an uninterrupted one
# (EXTRA: more arguments for every run, e.g. renumber=yes: the checkpoint is
# in the mesh's numbering and read back into the library's).
set(common mesh=${MESH} mesh_i=20 mesh_j=12 print_every=100 --op-part-size=64 ${EXTRA})
file(REMOVE_RECURSE ${DIR})
function(run)
  execute_process(COMMAND ${AIRFOIL} ${common} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "airfoil ${ARGN} failed (${rc}):\n${out}")
  endif()
endfunction()
run(iterations=300 output_dir=${DIR}/full)
run(iterations=200 checkpoint_every=100 output_dir=${DIR}/part)
run(iterations=300 restart=${DIR}/part/checkpoint.h5 output_dir=${DIR}/part)
execute_process(COMMAND ${COMPARE} ${DIR}/part/q.h5 ${DIR}/full/q.h5 RESULT_VARIABLE rc
                OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the resumed run differs from the uninterrupted one:\n${out}")
endif()
file(READ ${DIR}/full/history.csv h1)
file(READ ${DIR}/part/history.csv h2)
if(NOT h1 STREQUAL h2)
  message(FATAL_ERROR "the resumed history.csv differs from the uninterrupted one")
endif()
message(STATUS "resumed run and history bitwise equal to the uninterrupted run")
