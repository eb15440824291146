# Manual pages made from the programs' own --help, so that `man airfoil_seq`
# says what `airfoil_seq --help` says, and neither can drift from the other.
#
# Included: op2_man_page(TARGET t NAME name SUMMARY "one line") runs
#   `t --help` at build time (the programs answer it without a GPU or MPI)
#   into man/man1/<name>.1 of the build tree, and installs it into
#   ${CMAKE_INSTALL_MANDIR}/man1.
# Run as a script (cmake -DPROGRAM=... -DNAME=... -DSUMMARY=... -DVERSION=...
#   -DOUT=... -P man_page.cmake): writes that page, through OUT.tmp and a
#   rename. The help text goes in as it is printed (a no-fill block), with
#   troff's escape character and control characters at line starts escaped.

if(CMAKE_SCRIPT_MODE_FILE)
  execute_process(COMMAND ${PROGRAM} --help OUTPUT_VARIABLE help ERROR_VARIABLE errors
                  RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "man page of ${NAME}: `${PROGRAM} --help` exited ${rc}: ${errors}")
  endif()
  string(REPLACE "\\" "\\e" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(REPLACE "-" "\\-" summary "${SUMMARY}")
  file(WRITE ${OUT}.tmp
       ".TH \"${NAME}\" \"1\" \"\" \"op2suite ${VERSION}\" \"OP2 suite\"\n"
       ".SH NAME\n${NAME} \\- ${summary}\n"
       ".SH DESCRIPTION\n"
       "What \\fB${NAME} \\-\\-help\\fR prints:\n"
       ".PP\n.nf\n${help}.fi\n"
       ".SH SEE ALSO\n"
       "The suite's documentation (docs/ of its source tree): README.md, docs/<solver>.md,\n"
       "docs/input-decks.md, docs/errors.md.\n")
  file(RENAME ${OUT}.tmp ${OUT})
  return()
endif()

set(OP2_MAN_SCRIPT ${CMAKE_CURRENT_LIST_FILE} CACHE INTERNAL "op2/cmake/man_page.cmake")
function(op2_man_page)
  cmake_parse_arguments(M "" "TARGET;NAME;SUMMARY" "" ${ARGN})
  set(out ${CMAKE_BINARY_DIR}/man/man1/${M_NAME}.1)
  add_custom_command(OUTPUT ${out}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man/man1
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${M_TARGET}> -DNAME=${M_NAME}
            "-DSUMMARY=${M_SUMMARY}" -DVERSION=${PROJECT_VERSION} -DOUT=${out}
            -P ${OP2_MAN_SCRIPT}
    DEPENDS ${M_TARGET} ${OP2_MAN_SCRIPT}
    COMMENT "man page ${M_NAME}.1 from ${M_NAME} --help"
    VERBATIM)
  add_custom_target(${M_NAME}_man ALL DEPENDS ${out})
  install(FILES ${out} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endfunction()
