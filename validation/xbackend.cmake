# op2_xbackend_test(NAME name REF cmd... TEST cmd... FILE file
#                   [COMPARE_ARGS "..."] [LABELS ...] [ENV ...] [TIMEOUT s])
# Runs REF and TEST (each gets output_dir=... appended) and compares FILE of
# the two runs with op2-compare: bitwise unless COMPARE_ARGS gives tolerances.
# A TEST that exits 77 (no GPU) makes the test skipped.
function(op2_xbackend_test)
  cmake_parse_arguments(X "" "NAME;FILE;COMPARE_ARGS;TIMEOUT" "REF;TEST;LABELS;ENV" ${ARGN})
  set(dir ${OP2_TEST_OUTPUT}/${X_NAME})
  add_test(NAME ${X_NAME}
           COMMAND ${OP2_SOURCE_ROOT}/validation/xbackend.sh $<TARGET_FILE:op2-compare> ${dir}
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
