#!/usr/bin/env bash
# Every bad input of validation/bad_inputs/cases.txt, run against the built
# solvers: each must end with the exit status and the message recorded there,
# within its time limit, leaving nothing half-written (docs/errors.md).
#
# usage: run.sh BUILD_DIR WORK_DIR [--markdown FILE]
#
# BUILD_DIR is a build tree (build/release); WORK_DIR is scratch space.
# --markdown writes the table of docs/bad-inputs.md from what was observed.
# BAD_INPUTS_ONLY=REGEX in the environment runs only the cases whose id matches.
# Exit 0 when every case behaves as recorded, 1 otherwise.
. "$(dirname "$0")/../../scripts/lib/help.sh"
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
work=$2
markdown=""
[ "${3:-}" = "--markdown" ] && markdown=$4
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

# What the cases use (cases.txt names them as $VARIABLES).
export S=$root T=$work/files O=$work/out
export AIRFOIL=$build/solvers/airfoil/airfoil_seq
export AIRFOIL_OMP=$build/solvers/airfoil/airfoil_openmp
export AIRFOIL_CUDAEMU=$build/solvers/airfoil/airfoil_cudaemu
export AIRFOIL_OFFLOAD=$build/solvers/airfoil/airfoil_offload
export JACOBI=$build/solvers/jacobi/jacobi_seq
export HEAT=$build/solvers/heat/heat_seq
export HEAT_OMP=$build/solvers/heat/heat_openmp
export HEAT_CUDAEMU=$build/solvers/heat/heat_cudaemu
export EULER=$build/solvers/euler/euler_seq
export CONVERT=$build/meshes/airfoil_convert
export NACA=$build/meshes/naca_cmesh
export MGCFD_MESH=$build/meshes/mgcfd_mesh
export TAMPER=$build/solvers/airfoil/airfoil_tamper_h5
export TUNE_CHECK=$build/tools/op2-tune-check
# An application that misuses the OP2 API, one mistake a mode (op2/tests/misuse).
export MISUSE=$build/op2/tests/test_misuse_seq
# The MPI executables on 2 processes (built when MPI, PT-Scotch and parallel
# HDF5 are installed), the CPU emulation of CUDA (built with the CUDA
# backend) and the offload executables (built with an offload compiler): a case that needs one is skipped, and said so, where it is not
# built; every other case runs, with the same expectation, in every build.
export AIRFOIL_MPI=$build/solvers/airfoil/airfoil_mpi
export JACOBI_MPI=$build/solvers/jacobi/jacobi_mpi
export HEAT_MPI=$build/solvers/heat/heat_mpi
export EULER_MPI=$build/solvers/euler/euler_mpi
export MISUSE_MPI=$build/op2/mpi/tests/mpi_misuse_mpi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Two ranks that yield their core while they wait where the load leaves fewer
# than two free (scripts/lib/mpi-wait.sh).
. "$here/../../scripts/lib/mpi-wait.sh"
export MPIRUN2="env $(mpi_yield_env 2) mpirun --oversubscribe -np 2"
# once.sh REGEX $MPIRUN2 ...: the refusal printed once by the job (docs/mpi.md).
export ONCE=$here/once.sh
optional="AIRFOIL_MPI JACOBI_MPI HEAT_MPI EULER_MPI MISUSE_MPI AIRFOIL_CUDAEMU HEAT_CUDAEMU AIRFOIL_OFFLOAD"
mkdir -p "$T" "$O"
bash "$here/make_files.sh" >"$work/make_files.log" 2>&1 || {
  echo "making the bad files failed:"; cat "$work/make_files.log"; exit 1; }

status=0 n=0 failed=0 skipped=0
table=$work/table.md
: >"$table"
category=""
row() { # the markdown row: escape | and keep one line
  printf '%s' "$1" | tr '\n' ' ' | sed -e 's/|/\\|/g' -e 's/`/'"'"'/g'
}
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    "## "*) category=${line#\#\# }; printf '\n### %s\n\n| # | input | exit | message |\n|---|---|---|---|\n' "$category" >>"$table"; continue ;;
    ""|"#"*) continue ;;
  esac
  id=${line%% | *}; rest=${line#* | }
  want=${rest%% | *}; rest=${rest#* | }
  regex=${rest%% | *}; cmd=${rest#* | }
  [ -z "${BAD_INPUTS_ONLY:-}" ] || [[ $id =~ ^(${BAD_INPUTS_ONLY})$ ]] || continue
  # A case whose program this build lacks is skipped, never passed.
  missing=""
  for var in $optional; do
    case "$cmd" in *"\$$var"*) [ -x "${!var}" ] || missing="no ${!var##*/} in this build" ;; esac
  done
  case "$cmd" in *'$MPIRUN2'*) command -v mpirun >/dev/null || missing="no mpirun" ;; esac
  if [ -n "$missing" ]; then
    skipped=$((skipped + 1))
    echo "skipped $id: $missing"
    printf '| %s | `%s` | | not run: %s |\n' "$id" "$(row "$cmd")" "$missing" >>"$table"
    continue
  fi
  n=$((n + 1))
  out=$work/case_$id.log
  # Each case gets its own output directory; 30 s at most.
  # stdin from /dev/null: mpirun would read the rest of cases.txt.
  # Under AddressSanitizer (the debug build), an MPI case runs without leak
  # detection: Open MPI keeps allocations until the process ends, which
  # LeakSanitizer reports (exit 1) whatever the program does. Set here, not
  # by the caller, so that the case passes however the catalogue is started;
  # the other cases keep the caller's ASAN_OPTIONS, leak detection included.
  asan=${ASAN_OPTIONS-}
  case "$cmd" in *MPIRUN2* | *mpirun*) asan="${asan:+$asan:}detect_leaks=0" ;; esac
  ( cd "$work" && OUT=$O/$id ASAN_OPTIONS=$asan timeout -s KILL 30 bash -c "$cmd" ) </dev/null >"$out" 2>&1
  rc=$?
  msg=$(grep -v -E '^ *$' "$out" | grep -E -e "$regex" | sed -n 1p)
  [ -n "$msg" ] || msg=$(grep -v -E '^ *$' "$out" | tail -1)
  ok=1
  [ "$rc" = "$want" ] || ok=0
  grep -E -q -e "$regex" "$out" || ok=0
  left=$(find "$O" -name '.run-*' -o -name '*.tmp' -o -name '.lock' 2>/dev/null)
  [ -z "$left" ] || { ok=0; msg="left behind: $left"; rm -rf $left; }
  if [ $ok -eq 0 ]; then
    failed=$((failed + 1)); status=1
    echo "FAIL $id: exit $rc (expected $want), regex '$regex'"
    echo "  command: $cmd"
    sed 's/^/  | /' "$out" | tail -8
  fi
  # Paths as the command line writes them: $T, $OUT, $S.
  shown=${msg//"$O/$id"/\$OUT}
  shown=${shown//"$T"/\$T}
  shown=${shown//"$root"/\$S}
  [ ${#shown} -gt 220 ] && shown="${shown:0:160} ... ${shown: -50}"
  printf '| %s | `%s` | %s | %s |\n' "$id" "$(row "$cmd")" "$rc" "$(row "$shown")" >>"$table"
done <"$here/cases.txt"

echo "$n bad inputs run, $failed not as recorded, $skipped skipped (programs not built)"
if [ -n "$markdown" ]; then
  {
    sed -n '1,/^<!-- table -->$/p' "$markdown"
    cat "$table"
  } >"$markdown.new" && mv "$markdown.new" "$markdown"
  echo "table written into $markdown"
fi
exit $status
