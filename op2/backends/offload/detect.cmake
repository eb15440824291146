# Finds out whether the C compiler offloads OpenMP target regions (GCC with
# nvptx offloading: Debian's gcc-12-offload-nvptx, docs/offload.md) and sets
# OP2_HAVE_OFFLOAD. Included by the top-level CMakeLists.txt.
#
# OP2_OFFLOAD_OPTIONS are the compile and link options of the offload
# executables. A sanitizer build keeps its offload executables host-only
# (-foffload=disable): the nvptx compiler has no sanitizer runtimes. Otherwise
# the check also makes sure that an nvptx image really is embedded (its PTX
# names the target), so that a build never passes for offload while making
# host code only.
set(OP2_OFFLOAD_ISA "sm_80" CACHE STRING
    "PTX target of the offload image (GCC 12 knows sm_30 to sm_80; the driver compiles it for newer GPUs)")
if(OP2_SANITIZE)
  set(_op2_offload_options -foffload=disable)
else()
  set(_op2_offload_options -foffload=nvptx-none -foffload-options=nvptx-none=-misa=${OP2_OFFLOAD_ISA}
      -foffload-options=nvptx-none=-lm -foffload-options=nvptx-none=-latomic)
endif()
set(OP2_OFFLOAD_OPTIONS ${_op2_offload_options} CACHE INTERNAL "compile and link options of <app>_offload")

set(_op2_offload_exe ${CMAKE_BINARY_DIR}/CMakeFiles/op2_offload_check)
try_compile(OP2_OFFLOAD_COMPILES
  SOURCES ${CMAKE_CURRENT_LIST_DIR}/offload_check.c
  COMPILE_DEFINITIONS -fopenmp ${OP2_OFFLOAD_OPTIONS}
  LINK_OPTIONS -fopenmp ${OP2_OFFLOAD_OPTIONS}
  LINK_LIBRARIES m
  OUTPUT_VARIABLE _op2_offload_log
  COPY_FILE ${_op2_offload_exe})
set(OP2_HAVE_OFFLOAD OFF)
if(OP2_OFFLOAD_COMPILES AND OP2_SANITIZE)
  set(OP2_HAVE_OFFLOAD ON)
elseif(OP2_OFFLOAD_COMPILES)
  file(STRINGS ${_op2_offload_exe} _op2_ptx REGEX "^\\.target ${OP2_OFFLOAD_ISA}" LIMIT_COUNT 1)
  if(_op2_ptx)
    set(OP2_HAVE_OFFLOAD ON)
  else()
    message(STATUS "OP2: the offload check compiled, but embeds no ${OP2_OFFLOAD_ISA} image")
  endif()
else()
  string(REGEX MATCH "[^\n]*(error|fatal)[^\n]*" _op2_why "${_op2_offload_log}")
  message(STATUS "OP2: no OpenMP offloading (${_op2_why}); scripts/install-deps.sh installs gcc-12-offload-nvptx")
endif()
