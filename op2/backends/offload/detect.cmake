# Finds out whether the C compiler offloads OpenMP target regions (GCC with
# nvptx offloading: Debian's gcc-12-offload-nvptx, docs/offload.md) and sets
# OP2_HAVE_OFFLOAD. Included by the top-level CMakeLists.txt.
#
# The check compiles and links a target region with the options of the
# offload executables, and makes sure that an nvptx image really is embedded
# (its PTX names the target): a compiler that would make host code only does
# not pass. OP2_OFFLOAD_OPTIONS are then the compile and link options of the
# offload executables; a sanitizer build keeps them host-only
# (-foffload=disable), since the nvptx compiler has no sanitizer runtimes.
set(OP2_OFFLOAD_ISA "sm_80" CACHE STRING
    "PTX target of the offload image (GCC 12 knows sm_30 to sm_80; the driver compiles it for newer GPUs)")
set(_op2_nvptx_options -foffload=nvptx-none -foffload-options=nvptx-none=-misa=${OP2_OFFLOAD_ISA}
    -foffload-options=nvptx-none=-lm -foffload-options=nvptx-none=-latomic)

set(_op2_offload_exe ${CMAKE_BINARY_DIR}/CMakeFiles/op2_offload_check)
try_compile(OP2_OFFLOAD_COMPILES
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/offload_check.c
  COMPILE_DEFINITIONS -fopenmp ${_op2_nvptx_options}
  LINK_OPTIONS -fopenmp ${_op2_nvptx_options}
  LINK_LIBRARIES m
  OUTPUT_VARIABLE _op2_offload_log
  COPY_FILE ${_op2_offload_exe})
set(OP2_HAVE_OFFLOAD OFF)
if(OP2_OFFLOAD_COMPILES)
  file(STRINGS ${_op2_offload_exe} _op2_ptx REGEX "^\\.target ${OP2_OFFLOAD_ISA}$" LIMIT_COUNT 1)
  if(_op2_ptx)
    set(OP2_HAVE_OFFLOAD ON)
  else()
    message(STATUS "OP2: the offload check compiled, but embeds no ${OP2_OFFLOAD_ISA} image")
  endif()
else()
  string(REGEX MATCH "[^\n]*(error|fatal)[^\n]*" _op2_why "${_op2_offload_log}")
  message(STATUS "OP2: no OpenMP offloading (${_op2_why}); scripts/install-deps.sh installs "
                 "gcc-12-offload-nvptx (then reconfigure with -U OP2_OFFLOAD_COMPILES)")
endif()
if(OP2_SANITIZE)
  set(OP2_OFFLOAD_OPTIONS -foffload=disable CACHE INTERNAL "compile and link options of <app>_offload")
else()
  set(OP2_OFFLOAD_OPTIONS ${_op2_nvptx_options} CACHE INTERNAL "compile and link options of <app>_offload")
endif()
