# h5app_build(PREFIX): PREFIXh5app_names and PREFIXh5app_targets, h5app.c
# built by op2_application with its LIBS naming HDF5 as applications do: by
# the names of its libraries, as a Makefile links them (_names), and by CMake
# targets and files (_targets: FindHDF5's and HDF5's own targets, an imported
# target of the application's, FindHDF5's library files). op2/tests builds
# them with no prefix (the serial executables), op2/mpi/tests with mpi_ (the
# MPI executables exist once the layer is configured).
function(h5app_build prefix)
  set(src ${OP2_SOURCE_ROOT}/op2/tests/h5app/h5app.c)
  op2_application(${prefix}h5app_names SOURCES ${src} LIBS hdf5_hl hdf5 -lhdf5_hl -lhdf5)
  op2_cuda_emulation(${prefix}h5app_names)
  set(imported "")
  if(OP2_HDF5_HL_LIBRARY)
    add_library(${prefix}h5app_imported_hdf5 SHARED IMPORTED)
    set_target_properties(${prefix}h5app_imported_hdf5 PROPERTIES
                          IMPORTED_LOCATION ${OP2_HDF5_HL_LIBRARY})
    set(imported ${prefix}h5app_imported_hdf5)
  endif()
  op2_application(${prefix}h5app_targets SOURCES ${src}
                  LIBS HDF5::HDF5 hdf5::hdf5 hdf5::hdf5_hl ${imported} ${HDF5_C_LIBRARIES})
  op2_cuda_emulation(${prefix}h5app_targets)
endfunction()
