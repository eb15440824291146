# op2_xbackend_test(NAME name REF cmd... TEST cmd... FILE file
#                   [COMPARE_ARGS "..."] [LINES ere] [SAME file...] [LABELS ...]
#                   [ENV ...] [TIMEOUT s])
# Runs REF and TEST (each gets output_dir=... appended) and compares FILE of
# the two runs with op2-compare: bitwise unless COMPARE_ARGS gives tolerances;
# LINES: the printed lines matching ere must be the same; SAME: those files
# must be the same bytes. A TEST that exits 77 (no GPU) makes the test skipped.
function(op2_xbackend_test)
  cmake_parse_arguments(X "" "NAME;FILE;COMPARE_ARGS;TIMEOUT;LINES" "REF;TEST;LABELS;ENV;SAME"
                        ${ARGN})
  set(dir ${OP2_TEST_OUTPUT}/${X_NAME})
  set(opts "")
  if(X_LINES)
    list(APPEND opts --lines "${X_LINES}")
  endif()
  foreach(f ${X_SAME})
    list(APPEND opts --same ${f})
  endforeach()
  add_test(NAME ${X_NAME}
           COMMAND ${OP2_SOURCE_ROOT}/validation/xbackend.sh ${opts} $<TARGET_FILE:op2-compare> ${dir}
                   ${X_FILE} "${X_COMPARE_ARGS}" ${X_REF} -- ${X_TEST}
           WORKING_DIRECTORY ${OP2_SOURCE_ROOT})
  if(NOT X_LABELS)
    set(X_LABELS validation xbackend)
  endif()
  if(NOT X_TIMEOUT)
    set(X_TIMEOUT 600)
  endif()
  set_tests_properties(${X_NAME} PROPERTIES LABELS "${X_LABELS}" SKIP_RETURN_CODE 77
                       TIMEOUT ${X_TIMEOUT})
  if(X_ENV)
    set_tests_properties(${X_NAME} PROPERTIES ENVIRONMENT "${X_ENV}")
  endif()
endfunction()

# op2_mpi_xbackend_test(NAME name NP n REF cmd... TEST exe args... FILE file [...])
# op2_xbackend_test with TEST run on n processes through mpirun (label mpi,
# Open MPI allowed to run as root as in CI containers); the other arguments
# as op2_xbackend_test's. Defined only with the MPI layer (OP2_MPIRUN).
function(op2_mpi_xbackend_test)
  cmake_parse_arguments(M "" "NAME;NP" "TEST" ${ARGN})
  op2_xbackend_test(NAME ${M_NAME} ${M_UNPARSED_ARGUMENTS}
                    TEST ${OP2_MPIRUN} ${MPIEXEC_NUMPROC_FLAG} ${M_NP} ${M_TEST}
                    LABELS mpi ENV "${OP2_MPI_TEST_ENV}")
endfunction()
