# op2_split_case(CASE VAR... [SEPARATOR sep])
# One case of a table of test cases, written "field|field|..." (a name, then
# the options, expected output or exit status that go with it), split into
# the variables VAR... in the caller's scope: the first field into the first
# variable, and so on; a variable with no field left is set empty. The tests'
# CMakeLists loop over such tables:
#   foreach(c "staged|--op-force=staged" "colour|--op-force=colour")
#     op2_split_case("${c}" what opts)
#     ...
# SEPARATOR: another separator than "|", for fields that hold "|" themselves.
function(op2_split_case case)
  cmake_parse_arguments(S "" "SEPARATOR" "" ${ARGN})
  if(NOT DEFINED S_SEPARATOR)
    set(S_SEPARATOR "|")
  endif()
  string(REPLACE "${S_SEPARATOR}" ";" fields "${case}")
  list(LENGTH fields count)
  set(i 0)
  foreach(var IN LISTS S_UNPARSED_ARGUMENTS)
    if(i LESS count)
      list(GET fields ${i} value)
    else()
      set(value "")
    endif()
    set(${var} "${value}" PARENT_SCOPE)
    math(EXPR i "${i} + 1")
  endforeach()
endfunction()
