#!/usr/bin/env bash
# Installs what is missing, builds, and runs the test suite:
#   release preset   every test but the benchmarks (GPU tests skip without a GPU)
#   strict preset    the bitwise cross-backend comparisons (no FP contraction),
#                    the tests that hold only there (label strict), and valgrind
#                    memcheck runs (generic x86-64 build)
#   debug preset     unit tests under the address and undefined-behaviour sanitizers,
#                    and a bounded run of each fuzzer of the readers (label fuzz)
set -euo pipefail
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
echo "=== tests: debug (sanitizers, fuzzers)"
ctest --preset debug -j "$jobs" -L "unit|fuzz" || status=1
exit $status
