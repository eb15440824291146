#!/usr/bin/env bash
# usage: run_then_check.sh OUTDIR SOLVER ARGS... -- CHECKER ARGS...
# run_then_check.sh - runs a solver into OUTDIR, then a checker on its output.
#
#   run_then_check.sh OUTDIR SOLVER [ARGS...] -- CHECKER [ARGS...]
#
# The solver gets output_dir=OUTDIR appended. Exit: the checker's status; 1
# when the solver failed; 77 (skipped) when the solver exits 77 (no GPU).
. "$(dirname "$0")/../../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -u
if [ $# -lt 4 ]; then
  echo "usage: run_then_check.sh OUTDIR SOLVER [ARGS...] -- CHECKER [ARGS...]" >&2
  exit 2
fi
outdir=$1
shift
run=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do run+=("$1"); shift; done
[ $# -gt 0 ] && shift
check=("$@")
if [ ${#run[@]} -eq 0 ] || [ ${#check[@]} -eq 0 ]; then
  echo "run_then_check.sh: both a solver and a checker command are needed" >&2
  exit 2
fi
rm -rf "$outdir"
mkdir -p "$outdir"
echo "run: ${run[*]} output_dir=$outdir"
"${run[@]}" "output_dir=$outdir" > "$outdir/run.log" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
  echo "the run was skipped (exit 77)"; tail -5 "$outdir/run.log"; exit 77
fi
if [ $rc -ne 0 ]; then
  echo "the run failed (exit $rc); its log:"; tail -30 "$outdir/run.log"; exit 1
fi
echo "check: ${check[*]}"
"${check[@]}"
