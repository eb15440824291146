#!/usr/bin/env bash
# What set-up costs beside the solve (docs/performance.md, "Set-up and
# plans"): heat's whole set-up (grid, maps, dats, plans, warm-up steps,
# initial value) and solve at n = N on seq and OpenMP, each run after a pause
# (cold: the machine's first touch of the memory) and again at once (warm);
# then op2-plan-bench's table of every plan kind, loop by loop, for heat,
# dense Jacobi and airfoil: what the CPU backends build, what the CUDA
# backend would build on this host, and what its tuner no longer builds.
#
# usage: scripts/setup-bench.sh [--n N] [--threads T] [--pause S] [--no-build] [--out DIR]
#
#   --n N        heat's grid (default 8000: 64M points, 2.3 GB)
#   --threads T  OpenMP threads and the plans' host threads (default: every core)
#   --pause S    seconds before each cold run (default 8)
#   --no-build   use build/release as it is
#   --out DIR    where the report and the runs go (default outputs/setup-bench)
# Writes DIR/report.md (the tables) and DIR/runs/ (each run's output and
# result.json). Exit 0, 1 when a run failed, 2 on bad usage.
. "$(dirname "$0")/lib/help.sh"
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. scripts/lib/runs.sh

n=8000 threads=$(nproc) pause=8 build=1 out=outputs/setup-bench
while [ $# -gt 0 ]; do
  case $1 in
    --n) need_value "$@"; whole_number "$1" "$2"; n=$2; shift ;;
    --threads) need_value "$@"; whole_number "$1" "$2"; threads=$2; shift ;;
    --pause) need_value "$@"; [[ $2 =~ ^[0-9]+$ ]] || die "--pause '$2': expected seconds"; pause=$2; shift ;;
    --no-build) build=0 ;;
    --out) need_value "$@"; out=$2; shift ;;
    *) die "unknown argument '$1' (--help lists the options)" ;;
  esac
  shift
done

B=build/release
if [ $build = 1 ]; then
  scripts/build.sh release heat_seq heat_openmp op2-plan-bench >/dev/null || die "the build failed"
fi
for exe in solvers/heat/heat_seq solvers/heat/heat_openmp tools/op2-plan-bench; do
  [ -x "$B/$exe" ] || die "$B/$exe is not built (run without --no-build)"
done
mkdir -p "$out/runs" || die "cannot make $out/runs"
status=0

# heat_run NAME BACKEND: one run of heat at n, its output and result.json kept.
heat_run() {
  local name=$1 backend=$2 dir=$out/runs/$1 threads_opt=()
  # Only the threaded backend takes --op-threads (seq refuses it).
  [ "$backend" = openmp ] && threads_opt=(--op-threads="$threads")
  rm -rf "$dir"
  "$B/solvers/heat/heat_$backend" inputs/heat_8000.in "n=$n" "output_dir=$dir" \
    "${threads_opt[@]}" >"$out/runs/$name.log" 2>&1 || { echo "run $name failed: $out/runs/$name.log"; status=1; }
}

for backend in seq openmp; do
  sleep "$pause"
  heat_run "heat-$backend-cold" "$backend"
  heat_run "heat-$backend-warm" "$backend"
done
for mesh in "heat:$n" jacobi:4096 airfoil:400:600; do
  "$B/tools/op2-plan-bench" "$mesh" --op-threads="$threads" >"$out/runs/plans-${mesh%%:*}.log" 2>&1 ||
    { echo "op2-plan-bench $mesh failed"; status=1; }
done
"$(run_python)" validation/setup_report.py "$out" "$n" "$threads" >"$out/report.md" || status=1
cat "$out/report.md"
exit $status
