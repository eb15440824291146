# The docs match the programs.

# Each solver page's deck-key table is its program's own (scripts/doc-keys.py).
add_test(NAME docs.deck_keys
         COMMAND ${OP2_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/doc-keys.py --check ${CMAKE_BINARY_DIR})
set_tests_properties(docs.deck_keys PROPERTIES LABELS unit)

# No include crosses a floor of the tree the wrong way (docs/developing.md,
# "The map of the house"; scripts/include-floors.py).
add_test(NAME docs.include_floors
         COMMAND ${OP2_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/include-floors.py ${PROJECT_SOURCE_DIR})
set_tests_properties(docs.include_floors PROPERTIES LABELS unit)
# ... and the checker refuses a climb it is shown (a test of the library that
# includes a mesh's header; validation/tests/include_floors_test.py).
add_test(NAME docs.include_floors_planted
         COMMAND ${OP2_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tests/include_floors_test.py
                 ${PROJECT_SOURCE_DIR}/scripts/include-floors.py ${OP2_TEST_OUTPUT}/include_floors)
set_tests_properties(docs.include_floors_planted PROPERTIES LABELS unit)

# The core's files do not call each other in a circle (scripts/core-loops.py
# on libop2_core.a's symbols; docs/developing.md, "The map of the house").
add_test(NAME docs.core_no_cycle
         COMMAND ${OP2_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/core-loops.py $<TARGET_FILE:op2_core>)
set_tests_properties(docs.core_no_cycle PROPERTIES LABELS unit SKIP_RETURN_CODE 77)
# Nor do the files of any other static library of the build (a backend's,
# the MPI layer's, a solver's): every one the folders define, collected once
# the last folder is read (the solvers come after validation/).
function(op2_static_libraries dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  set(found "")
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "STATIC_LIBRARY")
      list(APPEND found ${t})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    op2_static_libraries(${sub} below)
    list(APPEND found ${below})
  endforeach()
  set(${out} ${found} PARENT_SCOPE)
endfunction()
function(op2_libraries_no_cycle_test)
  op2_static_libraries(${PROJECT_SOURCE_DIR} libraries)
  set(files "")
  foreach(l ${libraries})
    list(APPEND files $<TARGET_FILE:${l}>)
  endforeach()
  add_test(NAME docs.libraries_no_cycle
           COMMAND ${OP2_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/core-loops.py ${files})
  set_tests_properties(docs.libraries_no_cycle PROPERTIES LABELS unit SKIP_RETURN_CODE 77)
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL op2_libraries_no_cycle_test)

# No comment or page points outside the repository: no source document cited
# by number instead of its publication (docs/references.md), no path into a
# folder of specifications the tree does not have, no issue number, no missing
# path of the tree in a comment (scripts/outside-refs.py says each rule); and
# the checker names each such line it is shown
# (validation/tests/outside_refs_test.py, on a made-up tree).
add_test(NAME docs.outside_refs
         COMMAND ${OP2_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/outside-refs.py ${PROJECT_SOURCE_DIR})
set_tests_properties(docs.outside_refs PROPERTIES LABELS unit)
add_test(NAME docs.outside_refs_planted
         COMMAND ${OP2_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/tests/outside_refs_test.py
                 ${PROJECT_SOURCE_DIR}/scripts/outside-refs.py ${OP2_TEST_OUTPUT}/outside_refs)
set_tests_properties(docs.outside_refs_planted PROPERTIES LABELS unit)

# The tutorial application of the docs, built against an installed OP2 as an
# outside project would (CMake package and pkg-config), and run.
add_test(NAME install.outside_project
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/install_check.sh ${CMAKE_BINARY_DIR}
                 ${OP2_TEST_OUTPUT}/install ${PROJECT_SOURCE_DIR})
set_tests_properties(install.outside_project PROPERTIES LABELS validation TIMEOUT 600)

# The installed suite runs every deck it ships from an unrelated folder, and
# holds every program the docs tell a user to run.
add_test(NAME install.decks
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/installed_decks.sh ${CMAKE_BINARY_DIR}
                 ${OP2_TEST_OUTPUT}/installed_decks)
set_tests_properties(install.decks PROPERTIES LABELS validation TIMEOUT 600)

# Every command shown in the docs runs as documented (scripts/doc-commands.py:
# ```sh blocks, in document order, from a scratch copy of the tree; blocks
# marked gpu, long or illustrative are reported as skipped, with the reason).
add_test(NAME docs.commands
         COMMAND ${OP2_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/doc-commands.py
                 --build ${CMAKE_BINARY_DIR} --work ${OP2_TEST_OUTPUT}/doc-commands)
set_tests_properties(docs.commands PROPERTIES LABELS validation TIMEOUT 1200)
if(OP2_HAVE_MPI)
  # docs/mpi.md runs mpirun: Open MPI refuses to run as root (CI) without these.
  set_tests_properties(docs.commands PROPERTIES ENVIRONMENT "${OP2_MPI_TEST_ENV}")
endif()

# Every script and program answers --help with its usage (exit 0, nothing on
# stderr), without building, installing or running anything; the solvers and
# op2-gen answer --version (validation/help_check.py).
add_test(NAME docs.help
         COMMAND ${OP2_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/help_check.py ${PROJECT_SOURCE_DIR}
                 ${CMAKE_BINARY_DIR})
set_tests_properties(docs.help PROPERTIES LABELS unit TIMEOUT 600)
