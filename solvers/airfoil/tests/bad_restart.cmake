# A checkpoint whose values are out of range is refused before the run starts:
# exit 2 and a message naming the file and the attribute (docs/errors.md).
# -DAIRFOIL= -DTAMPER= -DMESH= -DDIR=
set(common mesh=${MESH} mesh_i=20 mesh_j=12 print_every=100 --op-part-size=64)
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${AIRFOIL} ${common} iterations=20 checkpoint_every=10
                        output_dir=${DIR}/src
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the run that writes the checkpoint failed (${rc}):\n${out}")
endif()

include(${CMAKE_CURRENT_LIST_DIR}/refused.cmake)
set(failures 0)
# case(NAME REGEX TAMPER-ARGS...): a copy of the checkpoint changed by
# tamper_h5, resumed with iterations=30.
function(case name regex)
  set(ck ${DIR}/${name}.h5)
  file(COPY_FILE ${DIR}/src/checkpoint.h5 ${ck})
  file(COPY_FILE ${DIR}/src/checkpoint_history.csv ${DIR}/${name}_history.csv)
  if(ARGN)
    execute_process(COMMAND ${TAMPER} ${ck} ${ARGN} RESULT_VARIABLE trc ERROR_VARIABLE terr)
    if(NOT trc EQUAL 0)
      message(FATAL_ERROR "tamper_h5 ${ARGN}: ${terr}")
    endif()
  endif()
  expect_refused(${name} "${regex}" ${common} iterations=30 restart=${ck}
                 output_dir=${DIR}/out_${name})
  set(failures ${failures} PARENT_SCOPE)
endfunction()

set(it "scalar 'iteration': value")
case(nan "${it} nan is not an integer in \\[0, 29\\]" attr /checkpoint/scalars iteration double nan)
case(huge "${it} 1.0000000000000001e\\+300 is not an integer" attr /checkpoint/scalars iteration double 1e300)
case(int_max "${it} 2147483647 is not an integer" attr /checkpoint/scalars iteration double 2147483647)
case(negative "${it} -5 is not an integer" attr /checkpoint/scalars iteration double -5)
case(fraction "${it} 5.7000000000000002 is not an integer" attr /checkpoint/scalars iteration double 5.7)
case(past_end "nothing is left to run" attr /checkpoint/scalars iteration double 30)
case(ndats "attribute '/checkpoint/ndats'.*holds 2 dat" attr /checkpoint ndats int 2)
case(dim "dataset 'p_q'.*attribute 'dim' is 3" attr /p_q dim int 3)
case(type "dataset 'p_q'.*attribute 'type' is 'float'" attr /p_q type string float)
case(version "checkpoint version 2" attr /checkpoint version int 2)
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} bad checkpoint(s) not refused as they should be")
endif()
