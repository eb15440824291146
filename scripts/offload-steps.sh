#!/usr/bin/env bash
# Seed 003's steps (its K20X table: a target directive per loop, a target data
# region, less branching, coalesced memory access), taken on this suite's
# OpenMP offload backend, beside the CUDA backend on the same GPU: dense
# Jacobi (Ndim = 4096, inputs/jacobi_dense.in) and heat (n = 8000,
# inputs/heat_8000.in). Writes steps.csv and steps.md (docs/offload.md,
# "The steps of seed 003").
#
# usage: scripts/offload-steps.sh [--build DIR] [--out DIR] [--jacobi-iters N] [--small]
#
# Each step adds its change to the ones before, as in the seed:
#   1 per-loop    --op-offload-data=loop --op-offload-strategy=mask
#   2 resident    --op-offload-strategy=mask
#   3 branchless  --op-offload-strategy=colour
#   4 coalesced   --op-offload-strategy=colour --op-offload-layout=soa
#   5 atomic      --op-offload-strategy=atomic --op-offload-layout=soa
# Jacobi runs a fixed number of iterations (default 20, tolerance = 0): the
# first steps take seconds per iteration there (the plan's 4096 colours, each
# region over all 16.8M edges with the mask); the table gives the seconds per
# iteration and those times 5648, the iterations the deck converges in.
#
# --build DIR  the build tree (default build/portable, else build/release)
# --out DIR    where runs and tables go (default $OUT when set, else
#              outputs/offload-steps)
# --small      Ndim = 256 and n = 500, 5 iterations: checks the plumbing on any
#              machine (without a device the offload runs go to the host)
# Without --small and without a device (OMP_TARGET_OFFLOAD=MANDATORY fails
# with 77) it stops with exit 77. Exit 1 when a run fails.
set -uo pipefail
cd "$(dirname "$0")/.."
build="" out=${OUT:-outputs/offload-steps} iters=20 small=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift ;;
    --out) out=$2; shift ;;
    --jacobi-iters) iters=$2; shift ;;
    --small) small=1 ;;
    -h|--help) sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "offload-steps.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done
case "$iters" in ''|*[!0-9]*) echo "offload-steps.sh: --jacobi-iters needs a positive integer" >&2; exit 2 ;; esac
if [ -z "$build" ]; then
  build=build/portable
  [ -x "$build/solvers/jacobi/jacobi_offload" ] || build=build/release
fi
for s in jacobi heat; do
  [ -x "$build/solvers/$s/${s}_offload" ] ||
    { echo "offload-steps.sh: no $build/solvers/$s/${s}_offload (build with the offload backend)" >&2; exit 2; }
done
mkdir -p "$out" || { echo "offload-steps.sh: cannot create $out" >&2; exit 2; }

if [ "$small" = 1 ]; then
  jacobi=(problem=dense ndim=256 seed=1 rhs=random tolerance=0 max_iters=5 write_solution=no)
  heat=(n=500 nsteps=10 write_hdf5=no write_ppm=no allow_unstable=yes)
  iters=5 mode=${OMP_TARGET_OFFLOAD:-DEFAULT}
else
  jacobi=(inputs/jacobi_dense.in tolerance=0 max_iters="$iters" write_solution=no)
  heat=(inputs/heat_8000.in)
  mode=MANDATORY
  OMP_TARGET_OFFLOAD=MANDATORY "$build/solvers/heat/heat_offload" n=10 nsteps=1 write_hdf5=no \
    write_ppm=no output_dir="$out/probe" >"$out/probe.log" 2>&1
  rc=$?
  if [ $rc -eq 77 ]; then
    cat "$out/probe.log" >&2
    echo "offload-steps.sh: no offload device here (--small checks the plumbing anyway)" >&2
    exit 77
  fi
  [ $rc -eq 0 ] || { cat "$out/probe.log" >&2; echo "offload-steps.sh: the probe run failed" >&2; exit 1; }
fi

steps=("1 per-loop|--op-offload-data=loop --op-offload-strategy=mask"
       "2 resident|--op-offload-strategy=mask"
       "3 branchless|--op-offload-strategy=colour"
       "4 coalesced|--op-offload-strategy=colour --op-offload-layout=soa"
       "5 atomic|--op-offload-strategy=atomic --op-offload-layout=soa")
failures=0
csv=$out/steps.csv
echo "solver,step,options,main_loop_seconds,per_iteration_seconds" >"$csv" # heat: per step

# seconds DIR: the main loop's wall time from DIR/result.json.
seconds() {
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["wall_seconds_main_loop"])' \
    "$1/result.json" 2>/dev/null || echo nan
}

# run SOLVER LABEL OPTIONS DIVISOR EXE ARGS...: one run, one CSV row (the main
# loop's time, and that over DIVISOR iterations).
run() {
  local solver=$1 label=$2 opts=$3 div=$4 exe=$5
  shift 5
  local dir="$out/$solver-${label%% *}"
  echo "== $solver, $label: ${exe##*/} $* $opts"
  # shellcheck disable=SC2086
  if ! OMP_TARGET_OFFLOAD=$mode "$exe" "$@" $opts output_dir="$dir" >"$dir.log" 2>&1; then
    echo "   FAILED (see $dir.log)"
    failures=$((failures + 1))
    echo "$solver,$label,$opts,nan,nan" >>"$csv"
    return
  fi
  local t
  t=$(seconds "$dir")
  echo "   main loop $t s"
  echo "$solver,$label,$opts,$t,$(python3 -c "print($t / $div)")" >>"$csv"
}

for st in "${steps[@]}"; do
  run jacobi "${st%%|*}" "${st#*|}" "$iters" "$build/solvers/jacobi/jacobi_offload" "${jacobi[@]}"
  run heat "${st%%|*}" "${st#*|}" 10 "$build/solvers/heat/heat_offload" "${heat[@]}"
done
# The CUDA backend on the same GPU, tuned first (the tuner needs up to 44
# calls of a loop: docs/cuda.md).
if [ -x "$build/solvers/jacobi/jacobi_cuda" ] && [ "$small" = 0 ]; then
  "$build/solvers/jacobi/jacobi_cuda" "${jacobi[@]}" max_iters=60 output_dir="$out/jacobi-tuning" \
    --op-tune-file="$out/jacobi.tune" >"$out/jacobi-tuning.log" 2>&1
  run jacobi "cuda (tuned)" "--op-tune-file=$out/jacobi.tune" "$iters" \
    "$build/solvers/jacobi/jacobi_cuda" "${jacobi[@]}"
  "$build/solvers/heat/heat_cuda" "${heat[@]}" nsteps=50 output_dir="$out/heat-tuning" \
    --op-tune-file="$out/heat.tune" >"$out/heat-tuning.log" 2>&1
  run heat "cuda (tuned)" "--op-tune-file=$out/heat.tune" 10 "$build/solvers/heat/heat_cuda" "${heat[@]}"
fi

python3 - "$csv" "$small" >"$out/steps.md" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
full = sys.argv[2] == "0"
def g(x):
    return x if x == "nan" else "%.4g" % float(x)
print("| solver | step | options | main loop (s) | per iteration or step (s) | jacobi: x 5648 iterations (s) |")
print("|---|---|---|---:|---:|---:|")
for r in rows:
    per = r["per_iteration_seconds"]
    total = "%.4g" % (float(per) * 5648) if full and r["solver"] == "jacobi" and per != "nan" else ""
    print("| %s | %s | `%s` | %s | %s | %s |" % (r["solver"], r["step"], r["options"],
          g(r["main_loop_seconds"]), g(per), total))
EOF
cat "$out/steps.md"
echo "offload-steps.sh: $out/steps.csv, $out/steps.md; $failures run(s) failed"
[ "$failures" -eq 0 ]
