#!/bin/sh
# usage: installed_decks.sh BUILD_DIR WORK_DIR
# The installed suite runs its own decks from anywhere: installs the build
# into WORK_DIR/prefix (cmake --install), checks that every program the docs
# tell a user to run is there (the solvers on every backend built, the MPI ones
# included, op2-gen, op2-compare, naca_cmesh, airfoil_convert, mgcfd_mesh, riemann and the
# tools), then runs every installed deck (PREFIX/share/op2suite/inputs/*.in)
# with its solver's seq executable from a folder that has nothing to do with
# the source tree or the prefix, made smaller by the overrides below so that
# it takes seconds; a file a deck names is found beside the deck
# (docs/input-decks.md, "Paths in a deck"). jacobi's Matrix Market deck also
# runs on 2 processes where the MPI executables are built. Exit 0 when every
# program is installed and every run passes, 1 otherwise.
. "$(dirname "$0")/../scripts/lib/help.sh"
. "$(dirname "$0")/../scripts/lib/mpi-wait.sh"
set -u
[ $# -eq 2 ] || { echo "usage: installed_decks.sh BUILD_DIR WORK_DIR" >&2; exit 2; }
build=$(cd "$1" && pwd) || exit 2
work=$2
rm -rf "$work"
mkdir -p "$work/elsewhere" || exit 2
work=$(cd "$work" && pwd)
prefix=$work/prefix
failed=0
fail() { echo "installed_decks.sh: FAIL: $*"; failed=1; }

echo "== cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; echo "installed_decks.sh: FAIL: cmake --install"; exit 1; }

echo "== the programs a user is told to run"
for p in op2-gen op2-compare naca_cmesh airfoil_convert mgcfd_mesh riemann op2-tune-check \
         op2-plan-bench op2-cpu-bandwidth; do
  [ -x "$prefix/bin/$p" ] || fail "bin/$p was not installed"
done
# Every executable of a solver the build made, on every backend (test
# drivers of the solvers' folders aside: they are not named <solver>_<backend>).
for exe in "$build"/solvers/*/*_*; do
  name=$(basename "$exe")
  case "$name" in
    *_seq | *_openmp | *_cuda | *_offload | *_mpi | *_mpi_openmp | *_mpi_cuda | *_mpi_offload)
      [ -x "$exe" ] && [ ! -x "$prefix/bin/$name" ] && fail "bin/$name was built but not installed" ;;
  esac
done
[ -x "$build/tools/op2-partition-model" ] && [ ! -x "$prefix/bin/op2-partition-model" ] &&
  fail "bin/op2-partition-model was built but not installed"

# What makes each deck small; a deck not listed here fails the test, so that
# a new deck is given its overrides.
overrides() {
  case "$1" in
    airfoil.in) echo "mesh_i=60 mesh_j=40 iterations=20 print_every=10" ;;
    euler.in) echo "nx=100 ny=100 t_end=0.03" ;;
    euler_benchmark.in) echo "nx=100 ny=100 t_end=0.02" ;;
    euler_explosion.in) echo "nx=100 ny=100 t_end=0.05" ;;
    euler_sod_x.in) echo "nx=100" ;;
    euler_sod_y.in) echo "ny=100" ;;
    euler_vortex.in) echo "nx=64 ny=64 t_end=0.5" ;;
    heat.in) echo "n=100" ;;
    heat_8000.in) echo "n=200" ;;
    heat_convergence.in) echo "" ;;
    jacobi.in) echo "" ;;
    jacobi_dense.in) echo "ndim=300" ;;
    jacobi_mtx.in) echo "" ;;
    *) return 1 ;;
  esac
}

echo "== every installed deck, from $work/elsewhere"
cd "$work/elsewhere" || exit 2
ndecks=0
for deck in "$prefix"/share/op2suite/inputs/*.in; do
  name=$(basename "$deck")
  solver=${name%.in}
  solver=${solver%%_*}
  ndecks=$((ndecks + 1))
  if ! extra=$(overrides "$name"); then
    fail "$name: no overrides for this deck in installed_decks.sh"
    continue
  fi
  # shellcheck disable=SC2086 # the overrides are words
  if "$prefix/bin/${solver}_seq" "$deck" $extra "output_dir=$work/out/$name" \
       >"$work/$name.log" 2>&1; then
    echo "ok    $name"
  else
    tail -5 "$work/$name.log"
    fail "$name: ${solver}_seq exited $? (log: $work/$name.log)"
  fi
done
[ "$ndecks" -gt 0 ] || fail "no deck was installed in share/op2suite/inputs"

if [ -x "$prefix/bin/jacobi_mpi" ] && command -v mpirun >/dev/null 2>&1; then
  # Ranks that yield their core while they wait on a busy machine (mpi-wait.sh).
  if env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 $(mpi_yield_env 2) \
       mpirun --oversubscribe -np 2 \
       "$prefix/bin/jacobi_mpi" "$prefix/share/op2suite/inputs/jacobi_mtx.in" \
       "output_dir=$work/out/jacobi_mtx_mpi" >"$work/jacobi_mtx_mpi.log" 2>&1; then
    echo "ok    jacobi_mtx.in on 2 processes"
  else
    tail -5 "$work/jacobi_mtx_mpi.log"
    fail "jacobi_mtx.in: jacobi_mpi on 2 processes (log: $work/jacobi_mtx_mpi.log)"
  fi
fi
# Nothing was written beside the decks or in the source tree's folders.
left=$(ls "$work/elsewhere" | grep -v '^meshes$')
[ -z "$left" ] || fail "the runs left files in the folder they ran in: $left"
[ "$failed" = 0 ] && echo "installed_decks.sh: $ndecks decks ran from an unrelated folder"
exit "$failed"
