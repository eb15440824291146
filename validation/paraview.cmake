# ParaView reads every kind of .xmf the solvers write, with the reader it
# picks itself (Xdmf3ReaderS) and with the legacy XDMF reader: cell counts,
# the X-Y plane, the cells' type (quadrilaterals, flat: what ParaView shows as
# a coloured surface), array names, and every value against the HDF5 file
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
  ARGS --cells 720 --cell-arrays density,momentum,energy,pressure,mach --bounds geometry --cell-type quad)

# euler: Sod along x (a final grid and a series of 6 dumps), a 2D Riemann
# problem on a grid that is neither square nor at the origin (outputs.cmake).
paraview_test(euler_sod ${OP2_OUTPUTS_DIR}/euler_sod/final.xmf FIXTURES outputs_euler_sod
  ARGS --cells 1600 --cell-arrays rho,velocity,p,mach,energy --bounds 0 1 0 0.04 --cell-type quad)
paraview_test(euler_sod_series ${OP2_OUTPUTS_DIR}/euler_sod/dumps.xmf FIXTURES outputs_euler_sod
  ARGS --cells 1600 --cell-arrays rho,velocity,p,mach,energy --steps 6 --bounds 0 1 0 0.04 --cell-type quad)
paraview_test(euler_2d ${OP2_OUTPUTS_DIR}/euler_2d/final.xmf FIXTURES outputs_euler_2d
  ARGS --cells 384 --cell-arrays rho,velocity,p,mach,energy --bounds -1 2 0.5 2.5 --cell-type quad)

# heat: the grid with its ghost ring (cells centred on 0, dx, ..., L), the
# final state and the series at steps 0, 5 and 10.
set(_heat_b -23.80952380952381 1023.8095238095239 -23.80952380952381 1023.8095238095239)
paraview_test(heat ${OP2_OUTPUTS_DIR}/heat/u.xmf FIXTURES outputs_heat
  ARGS --cells 484 --cell-arrays u --bounds ${_heat_b} --cell-type quad)
paraview_test(heat_series ${OP2_OUTPUTS_DIR}/heat/u_series.xmf FIXTURES outputs_heat
  ARGS --cells 484 --cell-arrays u --steps 3 --bounds ${_heat_b} --cell-type quad)

# jacobi: the jac problem's 5 x 5 unknowns, each the cell around its point
# (spacing 1/6), u as a cell value.
paraview_test(jacobi ${OP2_OUTPUTS_DIR}/jacobi/u.xmf FIXTURES outputs_jacobi
  ARGS --cells 25 --cell-arrays u --bounds 0.08333333333333333 0.9166666666666667
       0.08333333333333333 0.9166666666666667 --cell-type quad)

# The library's own cases (op2/io/tests): a 4-component dat as one dataset
# per component, node data, float data, a series over a shared mesh file.
paraview_test(io_quad ${OP2_TEST_OUTPUT}/io/xdmf_quad.xmf FIXTURES io_xdmf_files
  ARGS --cells 6 --cell-arrays p_q_0,p_q_1,p_q_2,p_q_3,flow/pressure,vel
       --point-arrays u_node,disp,p_x --bounds geometry)
paraview_test(io_grid ${OP2_TEST_OUTPUT}/io/xdmf_grid.xmf FIXTURES io_xdmf_files
  ARGS --cells 15 --cell-arrays T,U,Q_0,Q_1,Q_2,Q_3 --bounds -1 1.5 2 2.75 --cell-type quad)

# Rendered from a script as docs/io.md shows (scripts/render.py under
# xvfb-run): ParaView's default representation of each solver's grid must be
# a surface covering the picture, not an outline. The X server runs with
# -noreset: ParaView closes its first connection (a probe of OpenGL) before it
# opens the window, and a server that resets when its last client leaves
# refused the next one half the time on a loaded machine (VTK's "bad X server
# connection", exit 134). One at a time, each from a display number of its
# own. Skipped (77) without pvpython or xvfb-run (Debian: xvfb).
find_program(OP2_XVFB_RUN xvfb-run)
foreach(case "euler|euler_2d/final.xmf|rho|211" "heat|heat/u.xmf|u|221" "jacobi|jacobi/u.xmf|u|231"
             "airfoil|airfoil/q.xmf|mach|241")
  op2_split_case("${case}" what xmf field display)
  if(OP2_PVPYTHON AND OP2_XVFB_RUN)
    add_test(NAME paraview.render.${what}
             COMMAND ${OP2_XVFB_RUN} -a -n ${display} -s -noreset ${OP2_PVPYTHON} ${PROJECT_SOURCE_DIR}/scripts/render.py
                     ${OP2_OUTPUTS_DIR}/${xmf} ${field} ${OP2_OUTPUTS_DIR}/${what}_paraview.png
                     --size 640 480 --require-surface)
  else()
    add_test(NAME paraview.render.${what}
             COMMAND sh -c "echo 'SKIP: pvpython or xvfb-run not found (scripts/install-deps.sh installs python3-paraview and xvfb)'; exit 77")
  endif()
  string(REGEX REPLACE "/.*" "" fixture "${xmf}")
  set_tests_properties(paraview.render.${what} PROPERTIES LABELS validation SKIP_RETURN_CODE 77
                       FIXTURES_REQUIRED outputs_${fixture} RESOURCE_LOCK xvfb TIMEOUT 300)
endforeach()
# The aerofoil framed, not lost as a dot in its far field 18 chords across:
# render.py draws a window around the body by default (docs/io.md).
set_tests_properties(paraview.render.airfoil PROPERTIES FAIL_REGULAR_EXPRESSION "the whole mesh")
