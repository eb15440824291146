#!/usr/bin/env bash
# The main job: installs what is missing, builds the release preset and runs
# airfoil on the standard mesh with the OpenMP backend (inputs/airfoil.in).
# Extra arguments go to the solver (e.g. iterations=200).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release
exec build/release/solvers/airfoil/airfoil_openmp inputs/airfoil.in "$@"
