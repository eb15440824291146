# riemann.cmake - exact Riemann solver for the Euler solver (included by
# solvers/euler/CMakeLists.txt; works when included from anywhere).
#
# Targets:
#   riemann_exact   static library (riemann_exact.c; public header
#                   riemann_exact.h, math in riemann_exact_core.h)
#   riemann         command-line tool (riemann_main.c)
#   riemann_tests   test driver (tests/riemann_tests.c)
#   riemann_cuda_test  device check of riemann_exact_core.h (only when the
#                   CUDA language is enabled; skipped without a GPU)
# Tests: euler.riemann.*, labels "unit;validation".
include_guard(GLOBAL)

set(RIEMANN_DIR ${CMAKE_CURRENT_LIST_DIR})

find_library(RIEMANN_MATH_LIBRARY m)

add_library(riemann_exact STATIC ${RIEMANN_DIR}/riemann_exact.c)
target_include_directories(riemann_exact PUBLIC ${RIEMANN_DIR})
if(RIEMANN_MATH_LIBRARY)
  target_link_libraries(riemann_exact PUBLIC m)
endif()
set_target_properties(riemann_exact PROPERTIES
  C_STANDARD 17 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF
  POSITION_INDEPENDENT_CODE ON
  PUBLIC_HEADER "${RIEMANN_DIR}/riemann_exact.h;${RIEMANN_DIR}/riemann_exact_core.h")

add_executable(riemann ${RIEMANN_DIR}/riemann_main.c)
target_link_libraries(riemann PRIVATE riemann_exact op2_version)
install(TARGETS riemann RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
op2_man_page(TARGET riemann NAME riemann
             SUMMARY "the exact solution of a Riemann problem of the Euler equations")
set_target_properties(riemann PROPERTIES
  C_STANDARD 17 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)

add_executable(riemann_tests ${RIEMANN_DIR}/tests/riemann_tests.c)
target_link_libraries(riemann_tests PRIVATE riemann_exact op2_test_check)
set_target_properties(riemann_tests PROPERTIES
  C_STANDARD 17 C_STANDARD_REQUIRED ON C_EXTENSIONS OFF)

set(_riemann_unit_tests
  toro1 toro2 toro3 toro4 toro5 toro5_printed_inputs wave_types bisection_reference
  pressure_function initial_guess vacuum bad_input sampling_sod
  sampling_mirror symmetric flux fuzz noconv star_from_last_step pow_series)
foreach(_t IN LISTS _riemann_unit_tests)
  add_test(NAME euler.riemann.${_t} COMMAND riemann_tests ${_t})
  set_tests_properties(euler.riemann.${_t} PROPERTIES
    LABELS "unit;validation" TIMEOUT 120)
endforeach()

# The command-line tool.
add_test(NAME euler.riemann.cli_test1 COMMAND riemann --test 1)
set_tests_properties(euler.riemann.cli_test1 PROPERTIES
  PASS_REGULAR_EXPRESSION "p\\*[ ]+0\\.30313" LABELS "unit;validation")

# name | arguments (separated by |) | exit status | regex the output must match
set(_riemann_cli_cases
  "cli_test2@--test|2@0@p\\*[ ]+0\\.00189"
  "cli_test3@--test|3@0@p\\*[ ]+460\\.89"
  "cli_test4@--test|4@0@p\\*[ ]+46\\.09[45]"
  "cli_test5@--test|5@0@p\\*[ ]+1691\\.6"
  "cli_states@--left|1,0,1|--right|0.125,0,0.1|--gamma|1.4@0@left   rarefaction.*right  shock"
  "cli_csv@--test|1|--csv@0@p_star,u_star.*\n1,1\\.4,1,0,1,0\\.125,0,0\\.1,0\\.30313"
  "cli_sample@--test|1|--sample|0.25|--points|5|--csv@0@x,rho,u,p,e\n0,1,0,1,2\\.50*[0-9]*\n0\\.25,0\\.877452"
  "cli_sample_table@--left|1,0,1|--right|0.125,0,0.1|--sample|0.25|--x0|0.5@0@# +x +rho +u +p +e"
  "cli_vacuum@--left|1,-20,1|--right|1,20,1@3@vacuum is generated"
  "cli_vacuum_input@--left|1,0,1|--right|0,0,0@3@right state is vacuum"
  "cli_bad_state@--left|1,0|--right|1,0,1@1@--left: expected RHO,U,P"
  "cli_bad_number@--left|1,0,1|--right|1,x,1@1@--right: expected RHO,U,P"
  "cli_bad_gamma@--left|1,0,1|--right|1,0,1|--gamma|0.9@1@--gamma: expected a number > 1"
  "cli_bad_test@--test|6@1@--test: expected a test number 1\\.\\.5"
  "cli_bad_points@--test|1|--sample|0.1|--points|0@1@--points"
  "cli_unknown@--frobnicate@1@--frobnicate: unknown option"
  "cli_missing_right@--left|1,0,1@1@--right: required"
  "cli_negative_density@--left|-1,0,1|--right|1,0,1@2@--left: invalid state"
  "cli_help@--help@0@usage: riemann")
foreach(_c IN LISTS _riemann_cli_cases)
  op2_split_case("${_c}" _name _args _rc _regex SEPARATOR "@")
  add_test(NAME euler.riemann.${_name}
           COMMAND ${CMAKE_COMMAND} -DCMD=$<TARGET_FILE:riemann> "-DARGS=${_args}"
                   -DEXPECT_RC=${_rc} "-DEXPECT_REGEX=${_regex}"
                   -P ${RIEMANN_DIR}/tests/riemann_cli_check.cmake)
  set_tests_properties(euler.riemann.${_name} PROPERTIES LABELS "unit;validation")
endforeach()

# Device code: the core header compiled by nvcc with RIEMANN_FN redefined,
# compared against the host library.  Exits 77 (skipped) without a GPU.
get_property(_riemann_langs GLOBAL PROPERTY ENABLED_LANGUAGES)
if("CUDA" IN_LIST _riemann_langs)
  add_executable(riemann_cuda_test ${RIEMANN_DIR}/tests/riemann_cuda_test.cu)
  target_link_libraries(riemann_cuda_test PRIVATE riemann_exact op2_test_check)
  add_test(NAME euler.riemann.cuda COMMAND riemann_cuda_test)
  set_tests_properties(euler.riemann.cuda PROPERTIES
    LABELS "unit;validation" SKIP_RETURN_CODE 77)
endif()
