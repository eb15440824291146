#!/usr/bin/env bash
# usage: scripts/test.sh
#
# Installs what is missing, builds, and runs the test suite:
#   release preset   every test but the benchmarks (GPU tests skip without a GPU)
#   strict preset    the bitwise cross-backend comparisons (no FP contraction),
#                    the tests that hold only there (label strict), and valgrind
#                    memcheck runs (generic x86-64 build)
#   debug preset     unit and mpi tests under the address and undefined-behaviour
#                    sanitizers, a bounded run of each fuzzer of the readers (label fuzz),
#                    and every bad input of docs/bad-inputs.md (validation.bad_inputs)
# (the mpi tests run through mpirun on 1 to 4 processes; they exist when MPI,
# PT-Scotch and parallel HDF5 are installed, which install-deps.sh does)
. "$(dirname "$0")/lib/help.sh"
set -euo pipefail
if [ $# -gt 0 ]; then
  echo "test.sh: no arguments expected, got '$1' (usage: scripts/test.sh; one test: ctest --preset release -R NAME)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
scripts/install-deps.sh
jobs=$(nproc)
status=0
for preset in release strict debug; do
  echo "=== build: $preset"
  scripts/build.sh "$preset"
done
echo "=== tests: release"
ctest --preset release -j "$jobs" -LE "bench" || status=1
echo "=== tests: strict (bitwise cross-backend, strict-only, memcheck)"
ctest --preset strict -j "$jobs" -L "xbackend|strict|memcheck" || status=1
echo "=== tests: debug (sanitizers, mpi, fuzzers, bad inputs)"
ctest --preset debug -j "$jobs" -L "unit|mpi|fuzz" || status=1
ctest --preset debug -R '^validation\.bad_inputs$' || status=1
exit $status
