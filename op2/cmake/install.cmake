# Installing the library: the headers (installed where they are declared),
# the libraries of the core, every backend and the I/O, op2-gen, and the
# CMake package OP2 (find_package(OP2 CONFIG): the targets OP2::op2_core,
# OP2::op2_seq, OP2::op2_openmp, [OP2::op2_cuda, OP2::op2_cuda_emu,] [OP2::op2_offload,]
# OP2::op2_io, OP2::op2_hdf5 (the HDF5 of an application's own calls),
# OP2::op2-gen (and the MPI layer's, installed by op2/mpi),
# and OP2::op2_text, the bounded text reading the core links,
# and op2_application) with a pkg-config file per backend (op2-seq.pc, ...).
# docs/developing.md, "Using an installed OP2".

include(CMakePackageConfigHelpers)
set(OP2_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/OP2)

set(_op2_libs op2_core op2_text op2_seq op2_openmp)
if(TARGET op2_io)
  list(APPEND _op2_libs op2_io op2_hdf5)
endif()
set(OP2_PACKAGE_HAS_CUDA OFF)
if(TARGET op2_cuda)
  # With the CPU emulation of CUDA (op2_cuda_emulation).
  list(APPEND _op2_libs op2_cuda op2_cuda_flags op2_cuda_emu op2_cuda_emu_rt)
  set(OP2_PACKAGE_HAS_CUDA ON)
endif()
set(OP2_PACKAGE_HAS_OFFLOAD OFF)
if(TARGET op2_offload)
  list(APPEND _op2_libs op2_offload op2_offload_flags)
  set(OP2_PACKAGE_HAS_OFFLOAD ON)
endif()
install(TARGETS ${_op2_libs} EXPORT OP2Targets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${OP2_INSTALL_INCLUDEDIR})
install(EXPORT OP2Targets NAMESPACE OP2:: DESTINATION ${OP2_INSTALL_CMAKEDIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/OP2Config.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/OP2Config.cmake INSTALL_DESTINATION ${OP2_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/OP2ConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/OP2Config.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/OP2ConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/op2_application.cmake
        DESTINATION ${OP2_INSTALL_CMAKEDIR})

# pkg-config: one file per backend, for builds without CMake (op2-gen is run
# by hand: docs/developing.md). The prefix is found from the file's own place
# (${pcfiledir}), so that cmake --install --prefix anywhere works. The
# libraries are static archives, so what they need from the system goes in
# Requires.private and Libs.private, by the system's own pkg-config names
# (pkg-config --static --libs adds them), never as this machine's paths:
# HDF5 by the module whose library op2_io links (Debian: hdf5-serial),
# libpng, netpbm; the math library by name.
find_package(PkgConfig QUIET)
set(OP2_PC_REQUIRES "")
set(OP2_PC_LIBS_PRIVATE "")
# op2_pc_module(FLAG LIBFILE candidates...): the first module pkg-config
# knows (whose library directory holds LIBFILE, the library we link, when
# given: HDF5's serial and parallel builds share a name) goes into
# Requires.private; with none, FLAG (-lname) into Libs.private.
function(op2_pc_module lib_flag libfile)
  set(found "")
  if(PKG_CONFIG_FOUND)
    foreach(m ${ARGN})
      execute_process(COMMAND ${PKG_CONFIG_EXECUTABLE} --libs-only-L ${m}
                      OUTPUT_VARIABLE flags RESULT_VARIABLE rc OUTPUT_STRIP_TRAILING_WHITESPACE)
      if(NOT rc EQUAL 0)
        continue()
      endif()
      if(NOT libfile)
        set(found ${m})
        break()
      endif()
      separate_arguments(flags UNIX_COMMAND "${flags}")
      foreach(f ${flags})
        string(REGEX REPLACE "^-L" "" dir "${f}")
        if(EXISTS "${dir}/${libfile}")
          set(found ${m})
        endif()
      endforeach()
      if(found)
        break()
      endif()
    endforeach()
  endif()
  if(found)
    set(OP2_PC_REQUIRES "${OP2_PC_REQUIRES} ${found}" PARENT_SCOPE)
  else()
    message(STATUS "OP2 pkg-config files: no pkg-config module for ${lib_flag} (${ARGN}); "
                   "Libs.private names it")
    set(OP2_PC_LIBS_PRIVATE "${OP2_PC_LIBS_PRIVATE} ${lib_flag}" PARENT_SCOPE)
  endif()
endfunction()
set(_hdf5_file "")
if(HDF5_C_LIBRARY_hdf5)
  get_filename_component(_hdf5_file ${HDF5_C_LIBRARY_hdf5} NAME)
endif()
op2_pc_module(-lhdf5 "${_hdf5_file}" hdf5-serial hdf5)
op2_pc_module(-lpng "" libpng)
op2_pc_module(-lnetpbm "" netpbm)
string(STRIP "${OP2_PC_REQUIRES}" OP2_PC_REQUIRES)
string(APPEND OP2_PC_LIBS_PRIVATE " -lm")
file(RELATIVE_PATH OP2_PC_PREFIX_FROM_PCDIR /${CMAKE_INSTALL_LIBDIR}/pkgconfig /)
string(REGEX REPLACE "/$" "" OP2_PC_PREFIX_FROM_PCDIR "${OP2_PC_PREFIX_FROM_PCDIR}")
set(_pc_backends seq openmp)
if(OP2_PACKAGE_HAS_CUDA)
  list(APPEND _pc_backends cuda)
endif()
if(OP2_PACKAGE_HAS_OFFLOAD)
  list(APPEND _pc_backends offload)
endif()
foreach(OP2_PC_BACKEND ${_pc_backends})
  set(OP2_PC_EXTRA_CFLAGS "")
  set(OP2_PC_EXTRA_LIBS "")
  if(OP2_PC_BACKEND STREQUAL "openmp")
    string(PREPEND OP2_PC_EXTRA_CFLAGS " ${OpenMP_C_FLAGS}")
    string(APPEND OP2_PC_EXTRA_LIBS " ${OpenMP_C_FLAGS}")
  elseif(OP2_PC_BACKEND STREQUAL "offload")
    # The same options as op2_offload_flags (op2/backends/offload/CMakeLists.txt).
    list(JOIN OP2_OFFLOAD_OPTIONS " " _pc_offload)
    string(PREPEND OP2_PC_EXTRA_CFLAGS " -fopenmp ${_pc_offload}")
    string(APPEND OP2_PC_EXTRA_LIBS " -fopenmp ${_pc_offload} -no-pie")
    if(CMAKE_DL_LIBS)
      string(APPEND OP2_PC_EXTRA_LIBS " -l${CMAKE_DL_LIBS}")
    endif()
  elseif(OP2_PC_BACKEND STREQUAL "cuda")
    find_package(CUDAToolkit REQUIRED) # its variables, set in backends/cuda's scope
    string(APPEND OP2_PC_EXTRA_CFLAGS " -I${CUDAToolkit_INCLUDE_DIRS}")
    string(APPEND OP2_PC_EXTRA_LIBS " -L${CUDAToolkit_LIBRARY_DIR} -lcudart_static -ldl -lrt -lpthread -lstdc++")
    # The backend's host work (plans) runs over OpenMP threads.
    string(APPEND OP2_PC_EXTRA_LIBS " ${OpenMP_C_FLAGS}")
  endif()
  configure_file(${CMAKE_CURRENT_LIST_DIR}/op2.pc.in
                 ${CMAKE_CURRENT_BINARY_DIR}/op2-${OP2_PC_BACKEND}.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/op2-${OP2_PC_BACKEND}.pc
          DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endforeach()
