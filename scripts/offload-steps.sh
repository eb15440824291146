#!/usr/bin/env bash
# The steps of T. Mattson et al., "Programming your GPU with OpenMP" (its
# K20X table: a target directive per loop, a target data region, less
# branching, coalesced memory access), taken on this suite's
# OpenMP offload backend, beside the CUDA backend on the same GPU: dense
# Jacobi (Ndim = 4096, inputs/jacobi_dense.in) and heat (n = 8000,
# inputs/heat_8000.in). Writes steps.csv and steps.md (docs/offload.md,
# "The steps of Mattson et al."), both again after every run.
#
# usage: scripts/offload-steps.sh [--build DIR] [--out DIR] [--jacobi-iters N] [--mask-iters N]
#                               [--run-limit S] [--cuda-tune DIR] [--table FILE] [--small]
#
# Each step adds its change to the ones before, as in the tutorial:
#   1 per-loop    --op-offload-data=loop --op-offload-strategy=mask
#   2 resident    --op-offload-strategy=mask
#   3 branchless  --op-offload-strategy=colour
#   4 coalesced   --op-offload-strategy=colour --op-offload-layout=soa
#   5 atomic      --op-offload-strategy=atomic --op-offload-layout=soa
# Jacobi runs a fixed number of iterations (tolerance = 0); the table gives
# the seconds per iteration and those times 5648, the iterations the deck
# converges in. The masked steps cost the plan's colours times the edges a
# call (4096 x 16.8M = 68.7G element visits for res, and again for
# residual_res at the end), where the others cost the edges once: they run
# --mask-iters iterations (default 1), the others --jacobi-iters (default 20).
# Runs that would run the same code as an earlier step are not run (but with
# --small), and the table says so: jacobi's and heat's dats all have one component (SoA is
# AoS), so step 4 is step 3 for both; heat_step writes what it writes (not
# by increments), so atomic falls back to colour and step 5 is step 3 too.
#
# --build DIR      the build tree (default build/portable, else build/release)
# --out DIR        where runs and tables go (default $OUT when set, else
#                  outputs/offload-steps)
# --run-limit S    each run stops after S seconds (default 120): a timed-out
#                  run is a row "timed out" and a failure
# --cuda-tune DIR  the CUDA rows use DIR/jacobi.tune and DIR/heat.tune (from
#                  scripts/gpu-check.sh's bench-others) instead of tuning first
# --table FILE     also copy steps.md to FILE after every run
# --small          Ndim = 256 and n = 500, 5 iterations: checks the plumbing on any
#                  machine (without a device the offload runs go to the host)
# Without --small and without a device (OMP_TARGET_OFFLOAD=MANDATORY fails
# with 77) it stops with exit 77. Exit 1 when a run fails or times out.
OP2_HELP_OWN_USAGE=1 . "$(dirname "$0")/lib/help.sh" # --version
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. scripts/lib/runs.sh
build="" out=${OUT:-outputs/offload-steps} iters=20 mask_iters=1 small=0 limit=120 cuda_tune='' table=''
while [ $# -gt 0 ]; do
  case "$1" in
    --build) need_value "$@"; build=$2; shift ;;
    --out) need_value "$@"; out=$2; shift ;;
    --jacobi-iters) need_value "$@"; whole_number "$1" "$2"; iters=$2; shift ;;
    --mask-iters) need_value "$@"; whole_number "$1" "$2"; mask_iters=$2; shift ;;
    --run-limit) need_value "$@"; whole_number "$1" "$2"; limit=$2; shift ;;
    --cuda-tune) need_value "$@"; cuda_tune=$2; shift ;;
    --table) need_value "$@"; table=$2; shift ;;
    --small) small=1 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
if [ -z "$build" ]; then
  build=build/portable
  [ -x "$build/solvers/jacobi/jacobi_offload" ] || build=build/release
fi
for s in jacobi heat; do
  [ -x "$build/solvers/$s/${s}_offload" ] || die "no $build/solvers/$s/${s}_offload (build with the offload backend)"
done
if [ -n "$cuda_tune" ]; then
  for s in jacobi heat; do
    [ -f "$cuda_tune/$s.tune" ] || die "--cuda-tune $cuda_tune: no $s.tune there"
  done
fi
mkdir -p "$out" || die "cannot create $out"
py=$(run_python) || die "python3 is needed"

if [ "$small" = 1 ]; then
  jacobi=(problem=dense ndim=256 seed=1 rhs=random tolerance=0 write_solution=no)
  heat=(n=500 nsteps=10 write_hdf5=no write_ppm=no allow_unstable=yes)
  iters=5 mask_iters=5 mode=${OMP_TARGET_OFFLOAD:-DEFAULT}
else
  jacobi=(inputs/jacobi_dense.in tolerance=0 write_solution=no)
  heat=(inputs/heat_8000.in)
  mode=MANDATORY
  OMP_TARGET_OFFLOAD=MANDATORY timeout -k 5 60 "$build/solvers/heat/heat_offload" n=10 nsteps=1 \
    write_hdf5=no write_ppm=no output_dir="$out/probe" >"$out/probe.log" 2>&1
  rc=$?
  if [ $rc -eq 77 ]; then
    cat "$out/probe.log" >&2
    echo "offload-steps.sh: no offload device here (--small checks the plumbing anyway)" >&2
    exit 77
  fi
  [ $rc -eq 0 ] || { cat "$out/probe.log" >&2; echo "offload-steps.sh: the probe run failed" >&2; exit 1; }
fi

# step|options|jacobi iterations (0: not run, same as an earlier step)|heat (1 run, 0 not)
steps=("1 per-loop|--op-offload-data=loop --op-offload-strategy=mask|$mask_iters|1"
       "2 resident|--op-offload-strategy=mask|$mask_iters|1"
       "3 branchless|--op-offload-strategy=colour|$iters|1"
       "4 coalesced|--op-offload-strategy=colour --op-offload-layout=soa|0|0"
       "5 atomic|--op-offload-strategy=atomic --op-offload-layout=soa|$iters|0")
# --small runs every step, so that every option's plumbing is seen to work.
[ "$small" = 0 ] || for i in "${!steps[@]}"; do steps[i]="${steps[i]%|*|*}|$iters|1"; done
same_as_3="not run: the same code as step 3 (every dat has one component, so SoA is AoS)"
heat_atomic="not run: the same code as step 3 (heat_step writes, not by increments: atomic falls back to colour; SoA is AoS)"
failures=0
csv=$out/steps.csv
echo "solver,step,options,iterations,main_loop_seconds,per_iteration_seconds,note" >"$csv" # heat: per step

# table: steps.md from steps.csv (and its copy in --table).
table() {
  "$py" - "$csv" "$small" >"$out/steps.md.tmp" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
full = sys.argv[2] == "0"
def g(x):
    return "" if x in ("", "nan") else "%.4g" % float(x)
print("| solver | step | options | iterations or steps | main loop (s) | per iteration or step (s) "
      "| jacobi: x 5648 iterations (s) | note |")
print("|---|---|---|---:|---:|---:|---:|---|")
for r in rows:
    per = r["per_iteration_seconds"]
    total = ("%.4g" % (float(per) * 5648) if full and r["solver"] == "jacobi" and per not in ("", "nan")
             else "")
    print("| %s | %s | `%s` | %s | %s | %s | %s | %s |" % (r["solver"], r["step"], r["options"],
          r["iterations"], g(r["main_loop_seconds"]), g(per), total, r["note"]))
EOF
  mv "$out/steps.md.tmp" "$out/steps.md"
  [ -z "$table" ] || cp "$out/steps.md" "$table"
}

# seconds DIR: the main loop's wall time from DIR/result.json.
seconds() {
  "$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["wall_seconds_main_loop"])' \
    "$1/result.json" 2>/dev/null || echo nan
}

# run SOLVER LABEL OPTIONS DIVISOR EXE ARGS...: one run, at most --run-limit
# seconds, one CSV row (the main loop's time, and that over DIVISOR
# iterations or steps).
run() {
  local solver=$1 label=$2 opts=$3 div=$4 exe=$5 rc t note
  shift 5
  local dir="$out/$solver-${label%% *}"
  echo "== $solver, $label: ${exe##*/} $* $opts"
  # shellcheck disable=SC2086
  OMP_TARGET_OFFLOAD=$mode timeout -k 10 "$limit" "$exe" "$@" $opts output_dir="$dir" >"$dir.log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then
    t=$(seconds "$dir")
    echo "   main loop $t s"
    echo "$solver,$label,\"$opts\",$div,$t,$("$py" -c "print($t / $div)")," >>"$csv"
  else
    case $rc in
      124|137) note="timed out after $limit s"; echo "   TIMED OUT after $limit s (see $dir.log)" ;;
      *) note="FAILED (exit $rc)"; echo "   FAILED (exit $rc; see $dir.log)" ;;
    esac
    failures=$((failures + 1))
    echo "$solver,$label,\"$opts\",$div,nan,nan,\"$note\"" >>"$csv"
  fi
  table
}
# skip SOLVER LABEL OPTIONS WHY: a row for a step not run.
skip() { echo "$1,$2,\"$3\",,,,\"$4\"" >>"$csv"; table; }

for st in "${steps[@]}"; do
  IFS='|' read -r label opts jn hn <<<"$st"
  if [ "$jn" = 0 ]; then
    skip jacobi "$label" "$opts" "$same_as_3"
  else
    run jacobi "$label" "$opts" "$jn" "$build/solvers/jacobi/jacobi_offload" "${jacobi[@]}" max_iters="$jn"
  fi
  if [ "$hn" = 0 ]; then
    skip heat "$label" "$opts" "$([ "${label%% *}" = 5 ] && echo "$heat_atomic" || echo "$same_as_3")"
  else
    run heat "$label" "$opts" 10 "$build/solvers/heat/heat_offload" "${heat[@]}"
  fi
done
# The CUDA backend on the same GPU, with a tune file: bench-others' when
# given, else from a short tuning run (the tuner needs up to 44 calls of a
# loop: docs/cuda.md; heat's on a 2000 x 2000 grid, whose staged candidates
# build smaller plans).
if [ -x "$build/solvers/jacobi/jacobi_cuda" ] && [ "$small" = 0 ]; then
  if [ -n "$cuda_tune" ]; then
    cp "$cuda_tune/jacobi.tune" "$cuda_tune/heat.tune" "$out"/
  else
    timeout -k 10 "$limit" "$build/solvers/jacobi/jacobi_cuda" "${jacobi[@]}" max_iters=60 \
      output_dir="$out/jacobi-tuning" --op-tune-file="$out/jacobi.tune" >"$out/jacobi-tuning.log" 2>&1
    timeout -k 10 "$limit" "$build/solvers/heat/heat_cuda" "${heat[@]}" n=2000 nsteps=50 \
      output_dir="$out/heat-tuning" --op-tune-file="$out/heat.tune" >"$out/heat-tuning.log" 2>&1
  fi
  run jacobi "cuda (tuned)" "--op-tune-file=$out/jacobi.tune" "$iters" \
    "$build/solvers/jacobi/jacobi_cuda" "${jacobi[@]}" max_iters="$iters"
  run heat "cuda (tuned)" "--op-tune-file=$out/heat.tune" 10 "$build/solvers/heat/heat_cuda" "${heat[@]}"
fi

cat "$out/steps.md"
echo "offload-steps.sh: $out/steps.csv, $out/steps.md; $failures run(s) failed or timed out"
[ "$failures" -eq 0 ]
