# ParaView reads every kind of .xmf the solvers write, with the reader it
# picks itself (Xdmf3ReaderS) and with the legacy XDMF reader: cell counts,
# the X-Y plane, array names, and every value against the HDF5 file
# (xdmf_readers.py, run by pvpython). Without pvpython each test exits 77
# (skipped); scripts/install-deps.sh installs it (Debian: python3-paraview).

find_program(OP2_PVPYTHON pvpython)
set(_pv_script ${CMAKE_CURRENT_SOURCE_DIR}/xdmf_readers.py)

# paraview_test(NAME XMF FIXTURES f... ARGS checker-arguments...)
function(paraview_test name xmf)
  cmake_parse_arguments(T "" "" "FIXTURES;ARGS" ${ARGN})
  if(OP2_PVPYTHON)
    add_test(NAME paraview.${name} COMMAND ${OP2_PVPYTHON} ${_pv_script} ${xmf} ${T_ARGS})
  else()
    add_test(NAME paraview.${name}
             COMMAND sh -c "echo 'SKIP: pvpython not found (scripts/install-deps.sh installs python3-paraview)'; exit 77")
  endif()
  set_tests_properties(paraview.${name} PROPERTIES LABELS validation SKIP_RETURN_CODE 77
                       FIXTURES_REQUIRED "${T_FIXTURES}" TIMEOUT 300)
endfunction()

# airfoil: the unstructured quadrilaterals, the named fields (the small mesh).
paraview_test(airfoil ${OP2_OUTPUTS_DIR}/airfoil/q.xmf FIXTURES outputs_airfoil
  ARGS --cells 720 --cell-arrays density,momentum,energy,pressure,mach --bounds geometry)

# euler: Sod along x (a final grid and a series of 6 dumps), a 2D Riemann
# problem on a grid that is neither square nor at the origin (outputs.cmake).
paraview_test(euler_sod ${OP2_OUTPUTS_DIR}/euler_sod/final.xmf FIXTURES outputs_euler_sod
  ARGS --cells 1600 --cell-arrays rho,velocity,p,mach,energy --bounds 0 1 0 0.04)
paraview_test(euler_sod_series ${OP2_OUTPUTS_DIR}/euler_sod/dumps.xmf FIXTURES outputs_euler_sod
  ARGS --cells 1600 --cell-arrays rho,velocity,p,mach,energy --steps 6 --bounds 0 1 0 0.04)
paraview_test(euler_2d ${OP2_OUTPUTS_DIR}/euler_2d/final.xmf FIXTURES outputs_euler_2d
  ARGS --cells 384 --cell-arrays rho,velocity,p,mach,energy --bounds -1 2 0.5 2.5)

# heat: the grid with its ghost ring (cells centred on 0, dx, ..., L), the
# final state and the series at steps 0, 5 and 10.
set(_heat_b -23.80952380952381 1023.8095238095239 -23.80952380952381 1023.8095238095239)
paraview_test(heat ${OP2_OUTPUTS_DIR}/heat/u.xmf FIXTURES outputs_heat
  ARGS --cells 484 --cell-arrays u --bounds ${_heat_b})
paraview_test(heat_series ${OP2_OUTPUTS_DIR}/heat/u_series.xmf FIXTURES outputs_heat
  ARGS --cells 484 --cell-arrays u --steps 3 --bounds ${_heat_b})

# The library's own cases (op2/io/tests): a 4-component dat as one dataset
# per component, node data, float data, a series over a shared mesh file.
paraview_test(io_quad ${OP2_TEST_OUTPUT}/io/xdmf_quad.xmf FIXTURES io_xdmf_files
  ARGS --cells 6 --cell-arrays p_q_0,p_q_1,p_q_2,p_q_3,flow/pressure,vel
       --point-arrays u_node,disp,p_x --bounds geometry)
paraview_test(io_grid ${OP2_TEST_OUTPUT}/io/xdmf_grid.xmf FIXTURES io_xdmf_files
  ARGS --cells 15 --cell-arrays T,U,Q_0,Q_1,Q_2,Q_3 --bounds -1 1.5 2 2.75)
