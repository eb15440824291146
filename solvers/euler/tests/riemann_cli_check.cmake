# riemann_cli_check.cmake - run a command and check its exit status and
# output (stdout + stderr).  Used by the euler.riemann.cli_* tests:
#   cmake -DCMD=<program> -DARGS=<args separated by |> -DEXPECT_RC=<n>
#         [-DEXPECT_REGEX=<regex>] [-DREJECT_REGEX=<regex>]
#         -P riemann_cli_check.cmake
if(NOT DEFINED CMD OR NOT DEFINED EXPECT_RC)
  message(FATAL_ERROR "riemann_cli_check: CMD and EXPECT_RC are required")
endif()
set(_args "")
if(DEFINED ARGS AND NOT ARGS STREQUAL "")
  string(REPLACE "|" ";" _args "${ARGS}")
endif()
execute_process(COMMAND "${CMD}" ${_args}
                RESULT_VARIABLE _rc
                OUTPUT_VARIABLE _out
                ERROR_VARIABLE _err)
message("${_out}${_err}")
if(NOT _rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "riemann_cli_check: exit status ${_rc}, expected ${EXPECT_RC}")
endif()
if(DEFINED EXPECT_REGEX AND NOT "${_out}${_err}" MATCHES "${EXPECT_REGEX}")
  message(FATAL_ERROR "riemann_cli_check: output does not match '${EXPECT_REGEX}'")
endif()
if(DEFINED REJECT_REGEX AND "${_out}${_err}" MATCHES "${REJECT_REGEX}")
  message(FATAL_ERROR "riemann_cli_check: output matches '${REJECT_REGEX}'")
endif()
