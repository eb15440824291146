# A mesh indexed correctly but not consistent is refused, from the ASCII file
# and from its HDF5 form alike: exit 2 and the same message (docs/errors.md).
# -DAIRFOIL= -DCONVERT= -DTAMPER= -DMESH= (the I=20, J=12 mesh) -DDIR=
set(common mesh_i=20 mesh_j=12 iterations=5 print_every=100 --op-part-size=64)
file(REMOVE_RECURSE ${DIR})
file(MAKE_DIRECTORY ${DIR})
file(STRINGS ${MESH} lines)
list(GET lines 0 header)
separate_arguments(counts UNIX_COMMAND "${header}")
list(GET counts 0 nnode)
list(GET counts 1 ncell)

set(failures 0)
# run(NAME FILE REGEX): airfoil on FILE must exit 2 with REGEX in its output.
include(${CMAKE_CURRENT_LIST_DIR}/refused.cmake)
function(run name file regex)
  expect_refused(${name} "${regex}" ${common} mesh=${file} generate_mesh=no
                 output_dir=${DIR}/out_${name})
  set(failures ${failures} PARENT_SCOPE)
endfunction()

# ascii(NAME LINE NEWTEXT REGEX): the mesh with one line (0-based) replaced;
# then the same fault through HDF5: the file converted, then tamper_h5 ARGS...
function(ascii name index text regex)
  set(copy ${lines})
  list(REMOVE_AT copy ${index})
  list(INSERT copy ${index} "${text}")
  list(JOIN copy "\n" body)
  file(WRITE ${DIR}/${name}.dat "${body}\n")
  run(${name}_ascii ${DIR}/${name}.dat "${regex}")
  set(failures ${failures} PARENT_SCOPE)
endfunction()

function(hdf5 name regex)
  execute_process(COMMAND ${CONVERT} ${MESH} ${DIR}/${name}.h5 RESULT_VARIABLE rc ERROR_VARIABLE e)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "airfoil_convert: ${e}")
  endif()
  foreach(edit IN LISTS ARGN)
    separate_arguments(args UNIX_COMMAND "${edit}")
    execute_process(COMMAND ${TAMPER} ${DIR}/${name}.h5 ${args} RESULT_VARIABLE rc ERROR_VARIABLE e)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "tamper_h5 ${edit}: ${e}")
    endif()
  endforeach()
  run(${name}_hdf5 ${DIR}/${name}.h5 "${regex}")
  set(failures ${failures} PARENT_SCOPE)
endfunction()

# Interior edge 100 with n1 and n2 swapped (170x off, yet "PASSED", before).
math(EXPR at "1 + ${nnode} + ${ncell} + 100")
list(GET lines ${at} edge)
separate_arguments(f UNIX_COMMAND "${edge}")
list(GET f 0 n1)
list(GET f 1 n2)
list(GET f 2 c1)
list(GET f 3 c2)
set(want "edge 100 \\(nodes ${n2} -> ${n1}, cells ${c1} \\| ${c2}\\): its normal does not point out of c1")
ascii(swapped_edge ${at} "${n2} ${n1} ${c1} ${c2}" "${want}")
hdf5(swapped_edge "${want}" "swap pedge 200 201")

# Cell 70 given the next valid node numbers: counter-clockwise still, but not
# the cell its edges bound.
math(EXPR at "1 + ${nnode} + 70")
list(GET lines ${at} cell)
separate_arguments(f UNIX_COMMAND "${cell}")
set(moved "")
set(edits "")
set(k 280)
foreach(n IN LISTS f)
  math(EXPR m "${n} + 1")
  list(APPEND moved ${m})
  list(APPEND edits "int pcell ${k} ${m}")
  math(EXPR k "${k} + 1")
endforeach()
list(JOIN moved " " moved)
set(want "cell 70 \\(nodes ${moved}\\): its corners enclose an area of .* the cell's nodes do not match its edges")
ascii(moved_cell ${at} "${moved}" "${want}")
hdf5(moved_cell "${want}" ${edits})

# A boundary flag of 7: the ASCII reader names the line; the HDF5 path used
# to accept it.
list(GET counts 2 nedge)
math(EXPR at "1 + ${nnode} + ${ncell} + ${nedge} + 5")
list(GET lines ${at} bedge)
string(REGEX REPLACE " [12]$" " 7" bedge "${bedge}")
ascii(flag7 ${at} "${bedge}" "boundary flag '7' of boundary edge 5 is not 1 \\(wall\\) or 2")
hdf5(flag7 "boundary edge 5: boundary flag 7 is not 1 \\(wall\\) or 2 \\(far field\\)" "int p_bound 5 7")
if(failures GREATER 0)
  message(FATAL_ERROR "${failures} inconsistent mesh(es) not refused as they should be")
endif()
