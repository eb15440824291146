# Small runs of every solver whose outputs the output checks read: ParaView's
# readers (paraview.cmake), result.json against its schema, pictures and
# plots. Each run is a test (label validation) and a fixture outputs_<name>;
# it writes into ${OP2_OUTPUTS_DIR}/<name>.

set(OP2_OUTPUTS_DIR ${OP2_TEST_OUTPUT}/outputs)

# outputs_run(NAME SOLVER DECK COMMAND solver args...): the run, into an
# emptied directory (nothing of an earlier run may pass for this one's), must
# pass its verdicts and print its effective parameters at start-up, as a deck
# naming where each value came from.
function(outputs_run name solver deck)
  cmake_parse_arguments(T "" "" "COMMAND;REQUIRES" ${ARGN})
  add_test(NAME outputs.run.${name}
           COMMAND sh -c "rm -rf \"$0\" && exec \"$@\"" ${OP2_OUTPUTS_DIR}/${name}
                   sh ${CMAKE_CURRENT_SOURCE_DIR}/expect_exit.sh
                   --match "^# ${solver} parameters \\(deck ${deck}\\)$"
                   --match "^output_dir += \"${OP2_OUTPUTS_DIR}/${name}\" +# argument [0-9]+$"
                   --match "validation PASSED"
                   0 ${T_COMMAND} output_dir=${OP2_OUTPUTS_DIR}/${name}
           WORKING_DIRECTORY ${OP2_SOURCE_ROOT})
  set_tests_properties(outputs.run.${name} PROPERTIES LABELS validation
                       FIXTURES_SETUP outputs_${name} FIXTURES_REQUIRED "${T_REQUIRES}")
endfunction()

# airfoil on the small mesh of its tests (I = 20, J = 12: 720 cells).
outputs_run(airfoil airfoil inputs/airfoil.in REQUIRES airfoil_small_mesh
  COMMAND $<TARGET_FILE:airfoil_seq> inputs/airfoil.in mesh=${OP2_TEST_OUTPUT}/airfoil/small_20x12.dat
          iterations=300 print_every=100)

outputs_run(euler_sod euler inputs/euler_sod_x.in
  COMMAND $<TARGET_FILE:euler_seq> inputs/euler_sod_x.in hdf5=all)
outputs_run(euler_2d euler inputs/euler.in COMMAND $<TARGET_FILE:euler_seq> inputs/euler.in nx=24 ny=16 x_min=-1
  x_max=2 y_min=0.5 y_max=2.5 split_x=0.5 split_y=1.5 t_end=0.05 output_interval=0.025)
outputs_run(heat heat inputs/heat.in COMMAND $<TARGET_FILE:heat_seq> inputs/heat.in n=20 print_every=0)
outputs_run(jacobi jacobi inputs/jacobi.in COMMAND $<TARGET_FILE:jacobi_openmp> inputs/jacobi.in)

# result.json of every solver against docs/result.schema.json (and the
# verdicts against their own values and limits).
find_program(OP2_PYTHON3 python3)
foreach(case airfoil:outputs_airfoil:${OP2_OUTPUTS_DIR}/airfoil
             euler:outputs_euler_sod:${OP2_OUTPUTS_DIR}/euler_sod
             heat:outputs_heat:${OP2_OUTPUTS_DIR}/heat
             jacobi:outputs_jacobi:${OP2_OUTPUTS_DIR}/jacobi)
  string(REPLACE ":" ";" parts ${case})
  list(GET parts 0 solver)
  list(GET parts 1 fixture)
  list(GET parts 2 dir)
  add_test(NAME result_json.${solver}
           COMMAND ${OP2_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/check_result_json.py
                   ${PROJECT_SOURCE_DIR}/docs/result.schema.json ${dir}/result.json --solver ${solver})
  set_tests_properties(result_json.${solver} PROPERTIES LABELS validation SKIP_RETURN_CODE 77
                       FIXTURES_REQUIRED ${fixture})
endforeach()

# Pictures: every PNG is the picture of its PPM; euler's frames share one
# colour range (redrawn at the end); the airfoil's picture.
add_test(NAME pictures.files
         COMMAND ${OP2_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/check_pictures.py png
                 ${OP2_OUTPUTS_DIR}/airfoil/mach.png
                 ${OP2_OUTPUTS_DIR}/euler_2d/rho_0000.png ${OP2_OUTPUTS_DIR}/euler_2d/rho_0002.png
                 ${OP2_OUTPUTS_DIR}/heat/u.png ${OP2_OUTPUTS_DIR}/heat/u_000005.png)
set_tests_properties(pictures.files PROPERTIES LABELS validation
                     FIXTURES_REQUIRED "outputs_airfoil;outputs_euler_2d;outputs_heat")
# Every field picture has axes in the domain's coordinates: ticks and
# numbers below and left of the field's frame (heat's and euler's had none).
add_test(NAME pictures.axes
         COMMAND ${OP2_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/check_pictures.py axes
                 ${OP2_OUTPUTS_DIR}/airfoil/mach.png
                 ${OP2_OUTPUTS_DIR}/euler_2d/rho_0000.png ${OP2_OUTPUTS_DIR}/euler_2d/rho_0002.png
                 ${OP2_OUTPUTS_DIR}/heat/u.png ${OP2_OUTPUTS_DIR}/heat/u_000005.png)
set_tests_properties(pictures.axes PROPERTIES LABELS validation
                     FIXTURES_REQUIRED "outputs_airfoil;outputs_euler_2d;outputs_heat")
add_test(NAME pictures.euler_series_range
         COMMAND ${OP2_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/check_pictures.py same-range
                 ${OP2_OUTPUTS_DIR}/euler_2d rho)
set_tests_properties(pictures.euler_series_range PROPERTIES LABELS validation
                     FIXTURES_REQUIRED outputs_euler_2d)

# Plots (scripts/plots.sh, gnuplot): the airfoil residual history, euler's
# history and Sod profile against the exact solution, heat's error history
# and its convergence study, jacobi's convergence. Skipped without gnuplot.
add_test(NAME plots.runs
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_plots.sh ${OP2_PYTHON3}
                 ${OP2_OUTPUTS_DIR}/airfoil=history
                 ${OP2_OUTPUTS_DIR}/euler_sod=history,profile
                 ${OP2_OUTPUTS_DIR}/euler_2d=history
                 ${OP2_OUTPUTS_DIR}/heat=history ${OP2_OUTPUTS_DIR}/jacobi=history)
set_tests_properties(plots.runs PROPERTIES LABELS validation SKIP_RETURN_CODE 77
  FIXTURES_REQUIRED "outputs_airfoil;outputs_euler_sod;outputs_euler_2d;outputs_heat;outputs_jacobi")
set_tests_properties(plots.runs PROPERTIES FIXTURES_SETUP plots_drawn)
# The histories' keys lie below the plots, where they cover no curve (euler's
# dt curve ran under a key in the top right corner).
add_test(NAME plots.key_outside
         COMMAND ${OP2_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/check_pictures.py key-outside
                 ${OP2_OUTPUTS_DIR}/euler_sod/history.png ${OP2_OUTPUTS_DIR}/euler_2d/history.png
                 ${OP2_OUTPUTS_DIR}/heat/history.png ${OP2_OUTPUTS_DIR}/airfoil/history.png
                 ${OP2_OUTPUTS_DIR}/jacobi/history.png)
set_tests_properties(plots.key_outside PROPERTIES LABELS validation FIXTURES_REQUIRED plots_drawn)
add_test(NAME plots.heat_convergence
         COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check_plots.sh ${OP2_PYTHON3}
                 ${OP2_TEST_OUTPUT}/heat/convergence=convergence)
set_tests_properties(plots.heat_convergence PROPERTIES LABELS validation SKIP_RETURN_CODE 77
                     FIXTURES_REQUIRED heat_convergence)
