#!/usr/bin/env bash
# usage: scripts/run.sh [key=value...] [--op-OPTION=VALUE...]
#
# The main job: installs what is missing, builds what the run needs (the
# release preset's airfoil_openmp, with op2-gen, which writes its loop code,
# and the library it links, the NACA0012 mesh generator included: not the
# other solvers, backends and tests, which scripts/test.sh builds), runs
# airfoil on the standard mesh with the OpenMP backend (inputs/airfoil.in;
# the mesh is generated on first use), then draws its residual history
# (scripts/plots.sh). The arguments go to the solver (e.g. iterations=200;
# airfoil_openmp --help lists its keys).
. "$(dirname "$0")/lib/help.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release airfoil_openmp
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
