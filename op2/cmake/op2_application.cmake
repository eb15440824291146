# op2_application and op2_cuda_emulation: how an application is built on the
# library. Included by op2/generator/CMakeLists.txt in this build, and by
# OP2Config.cmake for a project using an installed OP2 (find_package(OP2)).
# Targets are named OP2::op2-gen and OP2::op2_<backend> in both: aliases here,
# imported targets there. The CUDA backend is built for an application when
# the package has it (OP2::op2_cuda) and the project has enabled CUDA; the
# OpenMP offload backend when the package has it (OP2::op2_offload: built
# where the compiler offloads, docs/offload.md).

# The libraries of an application's MPI executables: op2_io becomes
# op2_io_mpi (the I/O library on parallel HDF5: one HDF5 per executable), and
# any name of HDF5 the parallel build's (OP2::op2_hdf5_mpi).
function(_op2_mpi_libs out)
  set(libs "")
  foreach(lib ${ARGN})
    if(lib STREQUAL "op2_io" OR lib STREQUAL "OP2::op2_io")
      list(APPEND libs OP2::op2_io_mpi)
    else()
      list(APPEND libs ${lib})
    endif()
  endforeach()
  if(TARGET OP2::op2_hdf5_mpi)
    _op2_hdf5_libs(libs OP2::op2_hdf5_mpi ${libs})
  endif()
  set(${out} ${libs} PARENT_SCOPE)
endfunction()

# The libraries of an application's serial executables: any name of HDF5
# becomes the serial build op2_io links (OP2::op2_hdf5).
function(_op2_serial_libs out)
  set(libs ${ARGN})
  if(TARGET OP2::op2_hdf5)
    _op2_hdf5_libs(libs OP2::op2_hdf5 ${libs})
  endif()
  set(${out} ${libs} PARENT_SCOPE)
endfunction()

# _op2_is_hdf5(out lib): out is ON when lib, an item of an application's
# LIBS, names HDF5's C or high-level library, of whichever build: a plain name
# or -l flag (hdf5, hdf5_hl, -lhdf5_serial, ...), a file (libhdf5.so,
# .../hdf5/openmpi/libhdf5_hl.a, as FindHDF5's HDF5_LIBRARIES holds), HDF5's
# own targets (HDF5::HDF5, hdf5::hdf5, hdf5::hdf5_hl, hdf5::hdf5-shared, ...)
# or an imported or interface target whose libraries are all of these.
function(_op2_is_hdf5 out lib)
  set(is OFF)
  set(hdf5_file "^(lib)?hdf5(_serial|_openmpi|_mpich)?(_hl)?(_debug)?(\\.(so|a|dylib)(\\.[0-9]+)*)?$")
  if(lib MATCHES "^(HDF5::HDF5|hdf5::hdf5(_hl)?(-shared|-static)?)$")
    set(is ON)
  elseif(lib MATCHES "^-l")
    string(REGEX REPLACE "^-l" "" name "${lib}")
    if(name MATCHES "${hdf5_file}")
      set(is ON)
    endif()
  elseif(TARGET ${lib})
    get_target_property(imported ${lib} IMPORTED)
    get_target_property(kind ${lib} TYPE)
    set(items "")
    if(imported AND NOT kind STREQUAL "INTERFACE_LIBRARY")
      get_target_property(location ${lib} IMPORTED_LOCATION)
      get_target_property(configs ${lib} IMPORTED_CONFIGURATIONS)
      if(location)
        list(APPEND items ${location})
      endif()
      foreach(config ${configs})
        get_target_property(location ${lib} IMPORTED_LOCATION_${config})
        if(location)
          list(APPEND items ${location})
        endif()
      endforeach()
    elseif(kind STREQUAL "INTERFACE_LIBRARY")
      get_target_property(items ${lib} INTERFACE_LINK_LIBRARIES)
    endif()
    if(items)
      set(is ON)
      foreach(item ${items})
        _op2_is_hdf5(item_is "${item}")
        if(NOT item_is)
          set(is OFF)
        endif()
      endforeach()
    endif()
  elseif(NOT lib MATCHES "[$<>]")
    get_filename_component(name "${lib}" NAME)
    if(name MATCHES "${hdf5_file}")
      set(is ON)
    endif()
  endif()
  set(${out} ${is} PARENT_SCOPE)
endfunction()

# _op2_hdf5_libs(out hdf5 lib...): the libraries with every name of HDF5
# taken out and, where there was one, hdf5 (the executable's HDF5 with its
# high-level library: OP2::op2_hdf5, OP2::op2_hdf5_mpi) in their place, so
# that an executable never loads two builds of HDF5.
function(_op2_hdf5_libs out hdf5)
  set(libs "")
  set(named OFF)
  foreach(lib ${ARGN})
    _op2_is_hdf5(is "${lib}")
    if(is)
      set(named ON)
    else()
      list(APPEND libs ${lib})
    endif()
  endforeach()
  if(named)
    list(APPEND libs ${hdf5})
  endif()
  set(${out} ${libs} PARENT_SCOPE)
endfunction()

# What an application's sources ask for, read when configuring (a change to
# one configures again): out_mpi is ON when a source includes mpi.h or OP2's
# op_lib_mpi.h (an MPI program of its own, as OP2's *_mpi.cpp are); out_io is
# ON when a source calls the HDF5 I/O (an op_..._hdf5 call) or includes
# op_hdf5.h or hdf5.h; out_hdf5 when it includes hdf5.h or hdf5_hl.h (calls
# HDF5 itself).
function(_op2_scan_sources out_mpi out_io out_hdf5)
  set(mpi OFF)
  set(io OFF)
  set(hdf5 OFF)
  foreach(src ${ARGN})
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${src})
    file(STRINGS ${src} hits REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"](mpi|op_lib_mpi)\\.h[>\"]")
    if(hits)
      set(mpi ON)
    endif()
    file(STRINGS ${src} hits
         REGEX "(op_[a-z_]*hdf5[a-z_]*[ \t]*\\(|^[ \t]*#[ \t]*include[ \t]*[<\"](op_)?hdf5\\.h[>\"])")
    if(hits)
      set(io ON)
    endif()
    file(STRINGS ${src} hits REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]hdf5(_hl)?\\.h[>\"]")
    if(hits)
      set(hdf5 ON)
    endif()
  endforeach()
  set(${out_mpi} ${mpi} PARENT_SCOPE)
  set(${out_io} ${io} PARENT_SCOPE)
  set(${out_hdf5} ${hdf5} PARENT_SCOPE)
endfunction()

# op2_application(NAME SOURCES src... [KERNEL_DIR dir] [INCLUDE_DIRS dir...] [LIBS lib...])
# Generates the loop code of NAME and builds NAME_seq and NAME_openmp (and
# NAME_cuda when the CUDA backend is on, NAME_offload when the offload backend
# is) from the same, unchanged sources.
# With the MPI layer (OP2::op2_mpi_api), also NAME_mpi, NAME_mpi_openmp (and
# NAME_mpi_cuda): the same loop code as NAME_seq, NAME_openmp (NAME_cuda),
# linked with the layer, which runs under every backend (docs/mpi.md); op2_io
# in LIBS becomes op2_io_mpi, the I/O library on parallel HDF5.
# Sources that use MPI themselves (include mpi.h or op_lib_mpi.h, as OP2's
# *_mpi.cpp do) build only the MPI executables, and need the layer. Sources
# that call the HDF5 I/O link op2_io (op2_io_mpi) without being told.
# The sources may be C or C++ (OP2's applications are C++): with any C++
# source, the CPU loop code (which includes the kernel headers) is C++ too.
# KERNEL_DIR holds the kernel headers <kernel>.h and OP2's optional
# user_types.h (default: the current source directory); a kernel without a
# header there is taken from its definition in the sources, or in the headers
# they include (op2-gen). INCLUDE_DIRS: where those #include "..." look after
# the including file's directory, for op2-gen and the compiler alike.
function(op2_application name)
  cmake_parse_arguments(APP "" "KERNEL_DIR" "SOURCES;LIBS;KERNELS;INCLUDE_DIRS" ${ARGN})
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
  set(include_args "")
  foreach(d ${APP_INCLUDE_DIRS})
    get_filename_component(a ${d} ABSOLUTE)
    list(APPEND include_args --include-dir ${a})
    file(GLOB more ${a}/*.h)
    list(APPEND kernel_headers ${more})
  endforeach()
  _op2_scan_sources(mpi_program uses_io uses_hdf5 ${abs_sources})
  if(mpi_program AND NOT TARGET OP2::op2_mpi_api)
    message(FATAL_ERROR "op2_application(${name}): the sources use MPI themselves (they include "
                        "mpi.h or op_lib_mpi.h), but this OP2 has no MPI layer (docs/mpi.md)")
  endif()
  if(uses_io AND TARGET OP2::op2_io)
    list(APPEND APP_LIBS OP2::op2_io)
    list(REMOVE_DUPLICATES APP_LIBS)
  endif()
  # A source that calls HDF5 itself gets the executable's HDF5, as one that
  # names HDF5 in LIBS does (below: each executable the build of its own).
  if(uses_hdf5 AND TARGET OP2::op2_hdf5)
    list(APPEND APP_LIBS hdf5_hl)
  endif()
  set(backends seq openmp)
  set(outputs ${gen_dir}/${name}_loops.h ${gen_dir}/${name}_seq.${cpu_ext}
              ${gen_dir}/${name}_openmp.${cpu_ext})
  get_property(_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(TARGET OP2::op2_cuda AND "CUDA" IN_LIST _languages)
    list(APPEND backends cuda)
    list(APPEND outputs ${gen_dir}/${name}_cuda.cu)
  endif()
  # The offload backend has no MPI executable (below): none for an MPI program.
  if(TARGET OP2::op2_offload AND NOT mpi_program)
    list(APPEND backends offload)
    list(APPEND outputs ${gen_dir}/${name}_offload.${cpu_ext})
  endif()
  string(REPLACE ";" "," backend_list "${backends}")
  add_custom_command(
    OUTPUT ${outputs}
    COMMAND OP2::op2-gen --app ${name} --out ${gen_dir} --kernel-dir ${APP_KERNEL_DIR}
            ${include_args} --depfile ${gen_dir}/${name}_loops.d --backends ${backend_list} --language ${language} ${abs_sources}
    DEPENDS OP2::op2-gen ${abs_sources} ${kernel_headers}
    # Every header op2-gen read, wherever it is (kernels in headers the
    # sources include): op2-gen writes them down.
    DEPFILE ${gen_dir}/${name}_loops.d
    COMMENT "op2-gen: loop code for ${name} (${backend_list})"
    VERBATIM)
  add_custom_target(${name}_generated DEPENDS ${outputs})
  # For op2_cuda_emulation(NAME).
  set_property(GLOBAL PROPERTY OP2_APP_${name}_SOURCES ${abs_sources})
  set_property(GLOBAL PROPERTY OP2_APP_${name}_KERNEL_DIR ${APP_KERNEL_DIR} ${APP_INCLUDE_DIRS})
  set_property(GLOBAL PROPERTY OP2_APP_${name}_LIBS ${APP_LIBS})
  set_property(GLOBAL PROPERTY OP2_APP_${name}_GEN_DIR ${gen_dir})
  set_property(GLOBAL PROPERTY OP2_APP_${name}_MPI_PROGRAM ${mpi_program})
  set_property(GLOBAL PROPERTY OP2_APP_${name}_LANGUAGE ${language})
  # Each backend's loop code is compiled once (an object library) and linked
  # into NAME_<backend> and, with the MPI layer, into NAME_mpi[_<backend>]:
  # the layer runs under every backend with the same loop code.
  set(mpi_libs "")
  if(TARGET OP2::op2_mpi_api)
    _op2_mpi_libs(mpi_libs ${APP_LIBS})
  endif()
  _op2_serial_libs(serial_libs ${APP_LIBS})
  foreach(backend ${backends})
    if(backend STREQUAL "cuda")
      set(gen_src ${gen_dir}/${name}_cuda.cu)
    else()
      set(gen_src ${gen_dir}/${name}_${backend}.${cpu_ext})
    endif()
    set(loops ${name}_${backend}_loops)
    add_library(${loops} OBJECT ${gen_src})
    add_dependencies(${loops} ${name}_generated)
    set(exes ${name}_${backend})
    if(mpi_program)
      set(exes "")
    endif()
    # The offload backend keeps its data on the device without the layer's
    # exchange hooks: no MPI executable of it.
    if(TARGET OP2::op2_mpi_api AND NOT backend STREQUAL "offload")
      if(backend STREQUAL "seq")
        list(APPEND exes ${name}_mpi)
      else()
        list(APPEND exes ${name}_mpi_${backend})
      endif()
    endif()
    foreach(exe ${exes})
      add_executable(${exe} ${APP_SOURCES})
      add_dependencies(${exe} ${name}_generated)
    endforeach()
    foreach(target ${loops} ${exes})
      target_include_directories(${target} PRIVATE ${APP_KERNEL_DIR} ${APP_INCLUDE_DIRS} ${gen_dir})
      target_compile_definitions(${target} PRIVATE OP2_GENERATED_LOOPS="${name}_loops.h"
                                 OP2_BACKEND_${backend})
      if(backend STREQUAL "openmp")
        target_link_libraries(${target} PRIVATE OpenMP::OpenMP_C)
        if(language STREQUAL "c++")
          if(NOT TARGET OpenMP::OpenMP_CXX)
            find_package(OpenMP REQUIRED COMPONENTS CXX)
          endif()
          target_link_libraries(${target} PRIVATE OpenMP::OpenMP_CXX)
        endif()
      endif()
    endforeach()
    # The libraries' include directories only: an object library passes its
    # link libraries on to whoever links it, and the MPI executables must not
    # get op2_io (serial HDF5) that way.
    target_link_libraries(${loops} PRIVATE OP2::op2_${backend})
    foreach(lib ${serial_libs})
      if(TARGET ${lib})
        target_include_directories(${loops} PRIVATE
                                   $<TARGET_PROPERTY:${lib},INTERFACE_INCLUDE_DIRECTORIES>)
      endif()
    endforeach()
    # A kernel defined in an MPI program's source comes with the source's
    # system headers (op2-gen), mpi.h among them.
    if(mpi_program)
      target_include_directories(${loops} SYSTEM PRIVATE
                                 $<TARGET_PROPERTY:MPI::MPI_C,INTERFACE_INCLUDE_DIRECTORIES>)
    endif()
    foreach(exe ${exes})
      if(exe STREQUAL "${name}_${backend}")
        set(libs ${serial_libs})
      else()
        set(libs OP2::op2_mpi_api ${mpi_libs})
        _op2_mpi_cxx(libs ${language})
      endif()
      target_link_libraries(${exe} PRIVATE ${loops} OP2::op2_${backend} ${libs})
      if(backend STREQUAL "cuda")
        set_target_properties(${exe} PROPERTIES LINKER_LANGUAGE CUDA)
      endif()
    endforeach()
  endforeach()
endfunction()

# C++ sources of an MPI executable may include mpi.h, whose C++ part (Open MPI
# declares its C++ bindings there) needs MPI's C++ library.
function(_op2_mpi_cxx libs_var language)
  if(language STREQUAL "c++")
    if(NOT TARGET MPI::MPI_CXX)
      find_package(MPI REQUIRED COMPONENTS CXX)
    endif()
    set(${libs_var} ${${libs_var}} MPI::MPI_CXX PARENT_SCOPE)
  endif()
endfunction()

# op2_cuda_emulation(NAME) - NAME_cudaemu: the CUDA code generated for NAME,
# compiled as host C++ over the CPU emulation of CUDA (op2/backends/cuda/emu),
# so that the unit tests run the generated kernels without a GPU. Call it after
# op2_application(NAME ...), in the same directory.
function(op2_cuda_emulation name)
  if(NOT TARGET OP2::op2_cuda_emu)
    return()
  endif()
  get_property(sources GLOBAL PROPERTY OP2_APP_${name}_SOURCES)
  get_property(kernel_dir GLOBAL PROPERTY OP2_APP_${name}_KERNEL_DIR)
  get_property(libs GLOBAL PROPERTY OP2_APP_${name}_LIBS)
  get_property(gen_dir GLOBAL PROPERTY OP2_APP_${name}_GEN_DIR)
  get_property(mpi_program GLOBAL PROPERTY OP2_APP_${name}_MPI_PROGRAM)
  get_property(language GLOBAL PROPERTY OP2_APP_${name}_LANGUAGE)
  set(wrapper ${gen_dir}/${name}_cudaemu.cpp)
  file(CONFIGURE OUTPUT ${wrapper}
       CONTENT "/* ${name}'s generated CUDA code over the CPU emulation. */\n#include \"${name}_cuda.cu\"\n")
  # NAME_mpi_cudaemu too with the MPI layer: the exchanges of data kept on the
  # device (op_cuda_halo.cu) tested without a GPU.
  set(exes ${name}_cudaemu)
  if(mpi_program)
    set(exes "")
  endif()
  if(TARGET OP2::op2_mpi_api)
    list(APPEND exes ${name}_mpi_cudaemu)
  endif()
  foreach(exe ${exes})
    add_executable(${exe} ${sources} ${wrapper})
    add_dependencies(${exe} ${name}_generated)
    target_include_directories(${exe} PRIVATE ${kernel_dir} ${gen_dir})
    target_compile_definitions(${exe} PRIVATE OP2_GENERATED_LOOPS="${name}_loops.h"
                               OP2_BACKEND_cuda)
    if(exe STREQUAL "${name}_mpi_cudaemu")
      _op2_mpi_libs(mpi_libs ${libs})
      _op2_mpi_cxx(mpi_libs ${language})
      target_link_libraries(${exe} PRIVATE OP2::op2_cuda_emu OP2::op2_mpi_api ${mpi_libs})
    else()
      _op2_serial_libs(serial_libs ${libs})
      target_link_libraries(${exe} PRIVATE OP2::op2_cuda_emu ${serial_libs})
    endif()
  endforeach()
endfunction()
