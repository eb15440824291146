# How often the host waits for the device (docs/cuda.md, "Host waits"), on the
# CPU emulation, which counts the waits that would stall a GPU's host and
# refuses an event's time read before a wait (OP_CUDA_EMU_REPORT=1): run with
#   cmake -DAIRFOIL=<airfoil_cudaemu> -DMESH=<small mesh> -DWORK=<dir> -P cuda_host_waits.cmake
#
# airfoil runs 9 loops an iteration (save_soln, then twice adt_calc,
# res_calc, bres_calc, update); only update reduces (its rms). With
# --op-cuda-sync=loop the host waits for every loop; with needed only for
# update's partials, plus a few at the start and the end (outputs, the
# timing table): at most 2 an iteration and 8 more.
set(iterations 20)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
foreach(mode loop needed)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env OP_CUDA_EMU_REPORT=1
                          ${AIRFOIL} mesh=${MESH} mesh_i=20 mesh_j=12 iterations=${iterations}
                          output_dir=${WORK}/${mode} --op-tune=off --op-cuda-sync=${mode}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE o)
  if(NOT rc EQUAL 0 OR NOT o MATCHES "cuda emulation: ([0-9]+) launches, ([0-9]+) host waits")
    message(FATAL_ERROR "${mode}: exit ${rc}, no count of host waits in:\n${o}")
  endif()
  set(waits_${mode} ${CMAKE_MATCH_2})
  message(STATUS "${mode}: ${CMAKE_MATCH_1} launches, ${CMAKE_MATCH_2} host waits")
endforeach()
math(EXPR loop_least "9 * ${iterations}")
math(EXPR needed_most "2 * ${iterations} + 8")
if(waits_loop LESS loop_least)
  message(FATAL_ERROR "loop: ${waits_loop} host waits, fewer than the ${loop_least} loops run")
endif()
if(waits_needed GREATER needed_most)
  message(FATAL_ERROR "needed: ${waits_needed} host waits, more than ${needed_most}")
endif()
