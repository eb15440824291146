# What the CUDA backend does at the device's limits, on the CPU emulation
# whose device properties the environment sets (docs/cuda.md, "Testing
# without a GPU"): run with
#   cmake -DAIRFOIL=<airfoil_cudaemu> -DMESH=<small mesh> -DWORK=<dir> -P cuda_device_limits.cmake
#
# - Start-up: exit 77 ("skipped") only when there is no device (none found,
#   or no CUDA driver installed at all); a driver older than the runtime or
#   any other start-up error fails, naming the CUDA error.
# - A kernel that allows fewer threads per block than chosen runs with as
#   many as it allows, and is timed, reported and saved under that block
#   size, never under the one asked for.
# - A staged partition whose shared memory, with the kernel's own static
#   shared memory, exceeds the device's is not run: a forced one runs atomic
#   instead (and says so), and the tuner drops it as a candidate.
set(failures 0)
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})

# check(NAME RC REGEX [NOT_REGEX r] ENV k=v... ARGS a...): airfoil with ENV in
# its environment and ARGS must exit RC with REGEX in its output (and without
# NOT_REGEX); the output is left in ${out} for the caller.
function(check name want_rc regex)
  cmake_parse_arguments(C "" "NOT_REGEX" "ENV;ARGS" ${ARGN})
  execute_process(COMMAND ${CMAKE_COMMAND} -E env ${C_ENV} ${AIRFOIL} mesh=${MESH} mesh_i=20 mesh_j=12
                          output_dir=${WORK}/${name} ${C_ARGS}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE o ERROR_VARIABLE o)
  set(out "${o}" PARENT_SCOPE)
  if(NOT rc EQUAL want_rc OR NOT o MATCHES "${regex}" OR (C_NOT_REGEX AND o MATCHES "${C_NOT_REGEX}"))
    message(SEND_ERROR "${name}: exit ${rc} (expected ${want_rc}); expected '${regex}'"
                       " and not '${C_NOT_REGEX}' in:\n${o}")
    math(EXPR f "${failures} + 1")
    set(failures ${f} PARENT_SCOPE)
  else()
    message(STATUS "${name}: passed")
  endif()
endfunction()

# ---- start-up ----
check(no_device 77 "no CUDA device \\(the runtime found none\\): skipping"
      ENV OP_CUDA_EMU_DEVICES=0 ARGS iterations=2)
check(no_driver 77 "no CUDA device \\(no CUDA driver installed: .*\\): skipping"
      ENV OP_CUDA_EMU_START_ERROR=35 OP_CUDA_EMU_DRIVER=0 ARGS iterations=2)
check(old_driver 2 "CUDA start-up: cudaGetDeviceCount failed: .*\\(error 35\\): the installed CUDA driver is older"
      ENV OP_CUDA_EMU_START_ERROR=35 ARGS iterations=2)
check(init_error 2 "CUDA start-up: cudaGetDeviceCount failed: initialization error \\(error 3\\)"
      ENV OP_CUDA_EMU_START_ERROR=3 ARGS iterations=2)

# ---- a kernel allowing 128 threads per block ----
check(threads_forced 0 " res_calc +atomic +block +128 part +0 +[0-9.]+ ms per call +\\(forced"
      NOT_REGEX " res_calc +atomic +block +128 part +0 +0\\.0000 ms"
      ENV OP_CUDA_EMU_KERNEL_MAX_THREADS=128
      ARGS iterations=2 --op-force=atomic:512 --op-diags=1)
check(threads_tuned 0 " res_calc +[a-z]+ +block +[0-9]+ part +[0-9]+ .*tuned over"
      ENV OP_CUDA_EMU_KERNEL_MAX_THREADS=128
      ARGS iterations=40 --op-tune-file=${WORK}/threads.tune --op-diags=1)
# Every configuration saved or printed ran with at most 128 threads.
file(STRINGS ${WORK}/threads.tune lines REGEX "^[a-z_]+ ")
set(saved 0)
foreach(line ${lines})
  string(REGEX MATCH "^[a-z_]+ [a-z]+ ([0-9]+) " m "${line}")
  math(EXPR saved "${saved} + 1")
  if(NOT m OR CMAKE_MATCH_1 GREATER 128)
    message(SEND_ERROR "threads_tuned: the tune file holds '${line}', a block the kernel cannot run")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
string(REGEX MATCHALL "block +[0-9]+" printed "${out}")
foreach(p ${printed})
  string(REGEX MATCH "[0-9]+" b "${p}")
  if(b GREATER 128)
    message(SEND_ERROR "threads_tuned: --op-diags reports '${p}', a block the kernel cannot run")
    math(EXPR failures "${failures} + 1")
  endif()
endforeach()
if(saved LESS 4)
  message(SEND_ERROR "threads_tuned: ${saved} loops saved in the tune file, expected 4 or more")
  math(EXPR failures "${failures} + 1")
endif()

# ---- a device with just too little shared memory for staged res_calc ----
# The partition's own bytes (--op-diags=2), then a device with room for them
# and 1200 bytes more: too little for a kernel with 1408 bytes of static
# shared memory (test_loops' reductions of three types), enough for 1024.
check(staged_bytes 0 "res_calc.* ([0-9]+) bytes staged" ARGS iterations=1 --op-force=staged:256:1024 --op-diags=2)
string(REGEX MATCH "loop \"res_calc\"[^\n]* ([0-9]+) bytes staged" m "${out}")
math(EXPR optin "${CMAKE_MATCH_1} + 1200")
if(optin LESS 49152)
  set(optin 49152) # the emulation's floor: 48 KiB
endif()
set(tight OP_CUDA_EMU_KERNEL_STATIC_SHARED=1408 OP_CUDA_EMU_SHARED_OPTIN=${optin})
check(shared_forced 0 "loop \"res_calc\": partition size 1024 needs [0-9]+ bytes of shared memory and the kernel 1408 more.*using atomic instead"
      NOT_REGEX " res_calc +staged"
      ENV ${tight} ARGS iterations=2 --op-force=staged:256:1024 --op-diags=1)
if(NOT out MATCHES " res_calc +atomic +block +256 part +0 +[0-9.]+ ms per call +\\(forced")
  message(SEND_ERROR "shared_forced: --op-diags does not report res_calc as atomic:\n${out}")
  math(EXPR failures "${failures} + 1")
endif()
check(shared_tuned 0 " res_calc +[a-z]+ +block +[0-9]+ part +[0-9]+ .*tuned over"
      NOT_REGEX " res_calc +staged +block +[0-9]+ part +1024"
      ENV ${tight} ARGS iterations=40 --op-tune-file=${WORK}/shared.tune --op-diags=1)
file(STRINGS ${WORK}/shared.tune staged1024 REGEX "^res_calc staged [0-9]+ 1024")
if(staged1024)
  message(SEND_ERROR "shared_tuned: the tune file keeps '${staged1024}', which does not fit")
  math(EXPR failures "${failures} + 1")
endif()

if(failures GREATER 0)
  message(FATAL_ERROR "${failures} check(s) failed")
endif()
