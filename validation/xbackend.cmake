# op2_xbackend_test(NAME name REF cmd... TEST cmd... FILE file
#                   [COMPARE_ARGS "..."] [LINES ere] [PARTS ere] [SAME file...] [LABELS ...]
#                   [ENV ...] [TIMEOUT s])
# Runs REF and TEST (each gets output_dir=... appended) and compares FILE of
# the two runs with op2-compare: bitwise unless COMPARE_ARGS gives tolerances;
# LINES: the printed lines matching ere must be the same; PARTS: the parts of
# the printed lines matching ere (what follows may differ: times); SAME: those files
# must be the same bytes. A TEST that exits 77 (no GPU) makes the test skipped.
function(op2_xbackend_test)
  cmake_parse_arguments(X "" "NAME;FILE;COMPARE_ARGS;TIMEOUT;LINES;PARTS" "REF;TEST;LABELS;ENV;SAME"
                        ${ARGN})
  set(dir ${OP2_TEST_OUTPUT}/${X_NAME})
  set(opts "")
  if(X_LINES)
    list(APPEND opts --lines "${X_LINES}")
  endif()
  if(X_PARTS)
    list(APPEND opts --parts "${X_PARTS}")
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

# op2_offload_xbackend_tests(PREFIX p REF cmd... TEST cmd... FILE file
#                            CASES "what|options|compare" ... [FIXTURES f...])
# The offload executable TEST against REF, once per case, on the host
# (OMP_TARGET_OFFLOAD=DISABLED, two threads waiting passively, which keeps
# runs short on a busy machine: no device in CI): test
# p.<what> runs TEST with the case's options. "compare" is op2-compare's
# tolerance with its reason beside the call; "strict:ARGS" compares bitwise
# in the strict build (no contraction: the same operations in the same order
# give the same bits) and with ARGS in the others, where the compiler may
# contract seq's loop body and the offload region's differently.
function(op2_offload_xbackend_tests)
  cmake_parse_arguments(X "" "PREFIX;FILE" "REF;TEST;CASES;FIXTURES" ${ARGN})
  foreach(c ${X_CASES})
    op2_split_case("${c}" what opts cmp)
    separate_arguments(opts)
    if(cmp MATCHES "^strict:(.*)$")
      if(OP2_STRICT_FP)
        set(cmp "")
      else()
        set(cmp "${CMAKE_MATCH_1}")
      endif()
    endif()
    op2_xbackend_test(NAME ${X_PREFIX}.${what} REF ${X_REF} TEST ${X_TEST} ${opts} --op-threads=2
                      FILE ${X_FILE} COMPARE_ARGS "${cmp}"
                      ENV OMP_TARGET_OFFLOAD=DISABLED OMP_WAIT_POLICY=passive)
    if(X_FIXTURES)
      set_tests_properties(${X_PREFIX}.${what} PROPERTIES FIXTURES_REQUIRED "${X_FIXTURES}")
    endif()
  endforeach()
endfunction()
