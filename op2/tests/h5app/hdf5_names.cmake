# cmake -DOP2_APPLICATION=<op2_application.cmake> -P hdf5_names.cmake: the
# names of HDF5 that op2_application replaces by the executable's own HDF5
# (docs/op2-library.md), and names it must leave alone. Script mode has no
# targets: imported targets are checked by the builds of h5app.cmake.
include(${OP2_APPLICATION})
set(hdf5_names hdf5 hdf5_hl -lhdf5 -lhdf5_hl hdf5_serial hdf5_openmpi_hl
    /usr/lib/x86_64-linux-gnu/hdf5/serial/libhdf5.so /usr/lib/x86_64-linux-gnu/libhdf5_serial_hl.so.100
    /opt/hdf5/lib/libhdf5.a HDF5::HDF5 hdf5::hdf5 hdf5::hdf5_hl hdf5::hdf5_hl-shared
    hdf5::hdf5-static)
set(other_names hdf5_cpp hdf5::hdf5_cpp m -lz /usr/lib/libz.so OP2::op2_io myhdf5lib libhdf5x.so
    "$<TARGET_FILE:hdf5>")
set(wrong "")
foreach(n ${hdf5_names})
  _op2_is_hdf5(is "${n}")
  if(NOT is)
    list(APPEND wrong "${n} (HDF5, not taken as HDF5)")
  endif()
endforeach()
foreach(n ${other_names})
  _op2_is_hdf5(is "${n}")
  if(is)
    list(APPEND wrong "${n} (not HDF5, taken as HDF5)")
  endif()
endforeach()
_op2_hdf5_libs(libs OP2::op2_hdf5_mpi m hdf5_hl -lz HDF5::HDF5)
if(NOT libs STREQUAL "m;-lz;OP2::op2_hdf5_mpi")
  list(APPEND wrong "m hdf5_hl -lz HDF5::HDF5 became '${libs}', expected 'm;-lz;OP2::op2_hdf5_mpi'")
endif()
if(wrong)
  list(JOIN wrong "\n  " wrong)
  message(FATAL_ERROR "hdf5_names.cmake: FAILED:\n  ${wrong}")
endif()
message("hdf5_names.cmake: PASSED")
