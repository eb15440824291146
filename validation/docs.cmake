# The docs match the programs.

# Each solver page's deck-key table is its program's own (scripts/doc-keys.py).
add_test(NAME docs.deck_keys
         COMMAND ${OP2_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/doc-keys.py --check ${CMAKE_BINARY_DIR})
set_tests_properties(docs.deck_keys PROPERTIES LABELS unit)
