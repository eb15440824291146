# op2_application and op2_cuda_emulation: how an application is built on the
# library. Included by op2/generator/CMakeLists.txt in this build, and by
# OP2Config.cmake for a project using an installed OP2 (find_package(OP2)).
# Targets are named OP2::op2-gen and OP2::op2_<backend> in both: aliases here,
# imported targets there. The CUDA backend is built for an application when
# the package has it (OP2::op2_cuda) and the project has enabled CUDA; the
# OpenMP offload backend when the package has it (OP2::op2_offload: built
# where the compiler offloads, docs/offload.md).

# op2_application(NAME SOURCES src... [KERNEL_DIR dir] [LIBS lib...])
# Generates the loop code of NAME and builds NAME_seq and NAME_openmp (and
# NAME_cuda when the CUDA backend is on, NAME_offload when the offload backend
# is) from the same, unchanged sources.
# The sources may be C or C++ (OP2's applications are C++): with any C++
# source, the CPU loop code (which includes the kernel headers) is C++ too.
# KERNEL_DIR holds the kernel headers <kernel>.h and OP2's optional
# user_types.h (default: the current source directory).
function(op2_application name)
  cmake_parse_arguments(APP "" "KERNEL_DIR" "SOURCES;LIBS;KERNELS" ${ARGN})
  if(NOT APP_KERNEL_DIR)
    set(APP_KERNEL_DIR ${CMAKE_CURRENT_SOURCE_DIR})
  endif()
  set(gen_dir ${CMAKE_CURRENT_BINARY_DIR}/generated)
  set(abs_sources "")
  set(language c)
  foreach(s ${APP_SOURCES})
    get_filename_component(a ${s} ABSOLUTE)
    list(APPEND abs_sources ${a})
    if(s MATCHES "\\.(cpp|cc|cxx|C|c\\+\\+)$")
      set(language c++)
    endif()
  endforeach()
  if(language STREQUAL "c++")
    set(cpu_ext cpp)
  else()
    set(cpu_ext c)
  endif()
  file(GLOB kernel_headers ${APP_KERNEL_DIR}/*.h)
  set(backends seq openmp)
  set(outputs ${gen_dir}/${name}_loops.h ${gen_dir}/${name}_seq.${cpu_ext}
              ${gen_dir}/${name}_openmp.${cpu_ext})
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(TARGET OP2::op2_cuda AND "CUDA" IN_LIST _languages)
    list(APPEND backends cuda)
    list(APPEND outputs ${gen_dir}/${name}_cuda.cu)
  endif()
  if(TARGET OP2::op2_offload)
    list(APPEND backends offload)
    list(APPEND outputs ${gen_dir}/${name}_offload.${cpu_ext})
  endif()
  string(REPLACE ";" "," backend_list "${backends}")
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND OP2::op2-gen --app ${name} --out ${gen_dir} --kernel-dir ${APP_KERNEL_DIR}
            --backends ${backend_list} --language ${language} ${abs_sources}
    DEPENDS OP2::op2-gen ${abs_sources} ${kernel_headers}
    COMMENT "op2-gen: loop code for ${name} (${backend_list})"
    VERBATIM)
  add_custom_target(${name}_generated DEPENDS ${outputs})
  # For op2_cuda_emulation(NAME).
  set_property(GLOBAL PROPERTY OP2_APP_${name}_SOURCES ${abs_sources})
  set_property(GLOBAL PROPERTY OP2_APP_${name}_KERNEL_DIR ${APP_KERNEL_DIR})
  set_property(GLOBAL PROPERTY OP2_APP_${name}_LIBS ${APP_LIBS})
  set_property(GLOBAL PROPERTY OP2_APP_${name}_GEN_DIR ${gen_dir})
  foreach(backend ${backends})
    set(exe ${name}_${backend})
    if(backend STREQUAL "cuda")
      set(gen_src ${gen_dir}/${name}_cuda.cu)
    else()
      set(gen_src ${gen_dir}/${name}_${backend}.${cpu_ext})
    endif()
    add_executable(${exe} ${APP_SOURCES} ${gen_src})
    add_dependencies(${exe} ${name}_generated)
    target_include_directories(${exe} PRIVATE ${APP_KERNEL_DIR} ${gen_dir})
    target_compile_definitions(${exe} PRIVATE OP2_GENERATED_LOOPS="${name}_loops.h"
                               OP2_BACKEND_${backend})
    target_link_libraries(${exe} PRIVATE OP2::op2_${backend} ${APP_LIBS})
    if(backend STREQUAL "openmp")
      target_link_libraries(${exe} PRIVATE OpenMP::OpenMP_C)
      if(language STREQUAL "c++")
        if(NOT TARGET OpenMP::OpenMP_CXX)
          find_package(OpenMP REQUIRED COMPONENTS CXX)
        endif()
        target_link_libraries(${exe} PRIVATE OpenMP::OpenMP_CXX)
      endif()
    endif()
  endforeach()
endfunction()

# op2_cuda_emulation(NAME) - NAME_cudaemu: the CUDA code generated for NAME,
# compiled as host C++ over the CPU emulation of CUDA (op2/backends/cuda/emu),
# so that the unit tests run the generated kernels without a GPU. Call it after
# op2_application(NAME ...), in the same directory.
function(op2_cuda_emulation name)
  if(NOT TARGET op2_cuda_emu)
    return()
  endif()
  get_property(sources GLOBAL PROPERTY OP2_APP_${name}_SOURCES)
  get_property(kernel_dir GLOBAL PROPERTY OP2_APP_${name}_KERNEL_DIR)
  get_property(libs GLOBAL PROPERTY OP2_APP_${name}_LIBS)
  get_property(gen_dir GLOBAL PROPERTY OP2_APP_${name}_GEN_DIR)
  set(wrapper ${gen_dir}/${name}_cudaemu.cpp)
  file(CONFIGURE OUTPUT ${wrapper}
       CONTENT "/* ${name}'s generated CUDA code over the CPU emulation. */\n#include \"${name}_cuda.cu\"\n")
  set(exe ${name}_cudaemu)
  add_executable(${exe} ${sources} ${wrapper})
  add_dependencies(${exe} ${name}_generated)
  target_include_directories(${exe} PRIVATE ${kernel_dir} ${gen_dir})
  target_compile_definitions(${exe} PRIVATE OP2_GENERATED_LOOPS="${name}_loops.h"
                             OP2_BACKEND_cuda)
  target_link_libraries(${exe} PRIVATE op2_cuda_emu ${libs})
endfunction()
