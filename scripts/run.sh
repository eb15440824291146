#!/usr/bin/env bash
# The main job: installs what is missing, builds the release preset, runs
# airfoil on the standard mesh with the OpenMP backend (inputs/airfoil.in),
# then draws its residual history (scripts/plots.sh). Extra arguments go to
# the solver (e.g. iterations=200).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release
outdir=outputs/airfoil
for a in "$@"; do
  case "$a" in output_dir=*) outdir=${a#output_dir=} ;; esac
done
status=0
build/release/solvers/airfoil/airfoil_openmp inputs/airfoil.in "$@" || status=$?
if [ -f "$outdir/history.csv" ]; then
  scripts/plots.sh "$outdir" || echo "run.sh: no plots (scripts/plots.sh failed)" >&2
fi
exit $status
