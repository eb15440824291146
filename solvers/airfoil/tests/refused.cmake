# expect_refused(NAME REGEX ARGS...): airfoil (${AIRFOIL}) run with ARGS must
# exit 2 with REGEX in its output; a miss is reported and counted in the
# caller's `failures`. Shared by bad_restart.cmake and bad_mesh.cmake.
function(expect_refused name regex)
  execute_process(COMMAND ${AIRFOIL} ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 2 OR NOT out MATCHES "${regex}")
    message(SEND_ERROR "${name}: exit ${rc} (expected 2), output lacks '${regex}':\n${out}")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  else()
    string(REGEX MATCH "airfoil: [^\n]*" line "${out}")
    message(STATUS "${name}: ${line}")
  endif()
endfunction()
