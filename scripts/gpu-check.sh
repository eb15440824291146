#!/usr/bin/env bash
# Checks the CUDA backend on a machine with a GPU, from the bundle that
# scripts/gpu-bundle.sh built (build/gpu-bundle.tar.xz, unpacked here when the
# trees are missing). Writes report.md (what passed, what failed, the figures)
# and logs.tar.gz (every command's output) to the output folder.
#
#   scripts/gpu-check.sh [--out DIR] [--allow-no-gpu] [STEP...]
#
# Steps (default: all of them, in this order):
#   info      the GPU (nvidia-smi) and the bandwidth probe op2-gpu-bandwidth
#   tests     ctest -L gpu in build/portable and build/strict (bitwise there)
#   sanitize  compute-sanitizer memcheck, racecheck, synccheck and initcheck
#             on test_loops_cuda and memcheck and racecheck on every solver's
#             CUDA executable with a small case, each indirect strategy forced
#   bench     airfoil on the standard mesh (1000 iterations: a tuning run that
#             writes the tune file, then a run with it, checked against the
#             targets with validation/airfoil_targets.py, each strategy
#             forced, OpenMP on every core) and heat, jacobi and euler
#             benchmarks
#   offload   the OpenMP offload backend: seed 003's steps on dense Jacobi
#             (Ndim 4096) and heat (n 8000) beside CUDA (scripts/offload-steps.sh)
#             and airfoil's standard run with the default strategy
# DIR defaults to $OUT when set (the device tool's output folder), else
# outputs/gpu-check. Without a GPU it stops with exit 77 unless
# --allow-no-gpu (then the CUDA runs skip, which checks only the plumbing).
# Exit: 0 when every step passed, 1 otherwise.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-outputs/gpu-check}
allow_no_gpu=0
steps=()
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=$2; shift ;;
    --out=*) out=${1#--out=} ;;
    --allow-no-gpu) allow_no_gpu=1 ;;
    info|tests|sanitize|bench|offload) steps+=("$1") ;;
    -h|--help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check.sh: unknown argument '$1' (steps: info tests sanitize bench offload)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#steps[@]} -gt 0 ] || steps=(info tests sanitize bench offload)

# ---- the bundle ----
if [ ! -f build/portable/CTestTestfile.cmake ] || [ ! -f build/strict/CTestTestfile.cmake ]; then
  [ -f build/gpu-bundle.tar.xz ] || {
    echo "gpu-check.sh: no build/portable and build/strict, and no build/gpu-bundle.tar.xz to unpack (run scripts/gpu-bundle.sh)" >&2
    exit 2
  }
  tar -xJf build/gpu-bundle.tar.xz || { echo "gpu-check.sh: cannot unpack build/gpu-bundle.tar.xz" >&2; exit 2; }
fi
# The test files name the folder the trees were configured in: make it this one.
src=$(cat build/bundle-source-dir 2>/dev/null || pwd)
if [ "$(realpath -m "$src")" != "$(realpath .)" ]; then
  if [ -e "$src" ] || [ -L "$src" ]; then
    echo "gpu-check.sh: the bundle was built in $src, which exists here and is not this checkout ($PWD)" >&2
    exit 2
  fi
  mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src" ||
    { echo "gpu-check.sh: cannot link $src to $PWD" >&2; exit 2; }
fi
P=build/portable S=build/strict

mkdir -p "$out" || { echo "gpu-check.sh: cannot create $out" >&2; exit 2; }
work=$(mktemp -d)
logs=$work/logs
mkdir -p "$logs"
report=$out/report.md
failures=0
: >"$work/table"

# run NAME CMD...: runs a command with its output in logs/NAME.log, and adds
# a row to the report's table. Exit 77 counts as skipped.
run() {
  local name=$1; shift
  local t0 t1 rc verdict
  t0=$(date +%s.%N)
  "$@" >"$logs/$name.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  case $rc in
    0) verdict=passed ;;
    77) verdict=skipped ;;
    *) verdict="FAILED (exit $rc)"; failures=$((failures + 1)) ;;
  esac
  printf '| %s | %s | %.1f |\n' "$name" "$verdict" "$(echo "$t1 - $t0" | bc)" >>"$work/table"
  echo "$name: $verdict"
  return $rc
}

# ---- info ----
gpu=""
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
        --format=csv,noheader 2>/dev/null | head -1)
fi
if [ -z "$gpu" ] && [ "$allow_no_gpu" = 0 ]; then
  echo "gpu-check.sh: no GPU visible (nvidia-smi); --allow-no-gpu runs the steps anyway" >&2
  rm -rf "$work"
  exit 77
fi
has_step() { local s; for s in "${steps[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
cores=$(nproc)

if has_step info; then
  run nvidia-smi nvidia-smi
  run gpu-bandwidth "$P/op2/backends/cuda/op2-gpu-bandwidth"
fi

# ---- tests ----
if has_step tests; then
  run ctest-portable ctest --test-dir "$P" -L gpu --output-on-failure --timeout 600
  run ctest-strict ctest --test-dir "$S" -L gpu --output-on-failure --timeout 600
fi

# ---- sanitize ----
if has_step sanitize; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  small=$work/small
  mkdir -p "$small"
  "$P/meshes/naca_cmesh" -I 20 -J 12 -o "$small/mesh.dat" >"$logs/small-mesh.log" 2>&1
  for s in staged atomic colour; do
    for tool in memcheck racecheck synccheck initcheck; do
      run "sanitize-$tool-test_loops-$s" "$cs" --tool "$tool" --error-exitcode 9 \
        "$P/op2/tests/test_loops_cuda" --op-force="$s" --op-force=coalesced
    done
    for tool in memcheck racecheck; do
      run "sanitize-$tool-airfoil-$s" "$cs" --tool "$tool" --error-exitcode 9 \
        "$P/solvers/airfoil/airfoil_cuda" mesh="$small/mesh.dat" iterations=5 \
        output_dir="$small/airfoil" --op-force="$s"
      run "sanitize-$tool-heat-$s" "$cs" --tool "$tool" --error-exitcode 9 \
        "$P/solvers/heat/heat_cuda" n=40 nsteps=20 output_dir="$small/heat" --op-force="$s"
      run "sanitize-$tool-jacobi-$s" "$cs" --tool "$tool" --error-exitcode 9 \
        "$P/solvers/jacobi/jacobi_cuda" problem=jac nn=24 tolerance=0 max_iters=26 \
        output_dir="$small/jacobi" --op-force="$s"
      run "sanitize-$tool-euler-$s" "$cs" --tool "$tool" --error-exitcode 9 \
        "$P/solvers/euler/euler_cuda" inputs/euler_sod_x.in state_left=1,-2,0.4 \
        state_right=1,2,0.4 nx=40 y_max=0.1 max_steps=8 images=no hdf5=final \
        bc_west=reflective output_dir="$small/euler" --op-force="$s"
    done
  done
  run sanitize-memcheck-test_loops-part7 "$cs" --tool memcheck --error-exitcode 9 \
    "$P/op2/tests/test_loops_cuda" --op-force=plain --op-force=staged:64 --op-part-size=7
fi

# ---- bench ----
if has_step bench; then
  b=$work/bench
  mkdir -p "$b"
  run airfoil-cuda-tuning "$P/solvers/airfoil/airfoil_cuda" inputs/airfoil.in \
    output_dir="$b/airfoil_tuning" --op-tune-file="$b/airfoil.tune" --op-diags=1
  run airfoil-cuda-tuned "$P/solvers/airfoil/airfoil_cuda" inputs/airfoil.in \
    output_dir="$b/airfoil_cuda" --op-tune-file="$b/airfoil.tune" --op-diags=1
  for s in staged atomic colour; do
    run "airfoil-cuda-$s" "$P/solvers/airfoil/airfoil_cuda" inputs/airfoil.in \
      output_dir="$b/airfoil_$s" --op-force="$s" --op-tune=off
  done
  # The targets (validation/airfoil_targets.py) against the copy bandwidth
  # measured on this GPU in this run.
  "$P/op2/backends/cuda/op2-gpu-bandwidth" >"$logs/bench-bandwidth.log" 2>&1
  copy=$(awk '$1 == "copy" {print $2}' "$logs/bench-bandwidth.log")
  run airfoil-targets python3 validation/airfoil_targets.py "$b/airfoil_cuda/result.json" \
    "${copy:-0}"
  run airfoil-openmp "$P/solvers/airfoil/airfoil_openmp" inputs/airfoil.in \
    output_dir="$b/airfoil_openmp" --op-threads="$cores"
  run airfoil-compare "$P/validation/op2-compare" "$b/airfoil_openmp/q.h5" \
    "$b/airfoil_cuda/q.h5" --rtol 1e-9 --atol 1e-12
  # The tuner needs up to 44 calls of a loop (docs/cuda.md): tune in a run
  # long enough (heat_8000.in has 10 steps), then time with the tune file.
  run heat-cuda-tuning "$P/solvers/heat/heat_cuda" inputs/heat_8000.in nsteps=50 \
    output_dir="$b/heat_tuning" --op-tune-file="$b/heat.tune" --op-diags=1
  run heat-cuda "$P/solvers/heat/heat_cuda" inputs/heat_8000.in output_dir="$b/heat" \
    --op-tune-file="$b/heat.tune" --op-diags=1
  for app in jacobi:jacobi_dense euler:euler_benchmark; do
    run "${app%%:*}-cuda-tuning" "$P/solvers/${app%%:*}/${app%%:*}_cuda" "inputs/${app#*:}.in" \
      output_dir="$b/${app%%:*}_tuning" --op-tune-file="$b/${app%%:*}.tune" --op-diags=1
    run "${app%%:*}-cuda" "$P/solvers/${app%%:*}/${app%%:*}_cuda" "inputs/${app#*:}.in" \
      output_dir="$b/${app%%:*}" --op-tune-file="$b/${app%%:*}.tune" --op-diags=1
  done
  cp "$b"/*.tune "$logs"/ 2>/dev/null
fi

# ---- offload ----
if has_step offload; then
  run offload-device env OMP_TARGET_OFFLOAD=MANDATORY "$P/op2/tests/test_loops_offload" --op-diags=1
  run offload-steps scripts/offload-steps.sh --build "$P" --out "$work/offload"
  cp "$work/offload/steps.md" "$work/offload/steps.csv" "$logs"/ 2>/dev/null
  run airfoil-offload env OMP_TARGET_OFFLOAD=MANDATORY "$P/solvers/airfoil/airfoil_offload" \
    inputs/airfoil.in output_dir="$work/offload/airfoil" --op-diags=1
fi

# ---- the report ----
{
  echo "# GPU check: the CUDA and OpenMP offload backends"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "- GPU: ${gpu:-none visible}"
  echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($cores cores)"
  echo "- steps: ${steps[*]}"
  echo
  echo "| step | result | seconds |"
  echo "|---|---|---:|"
  cat "$work/table"
  for f in gpu-bandwidth ctest-portable ctest-strict; do
    [ -f "$logs/$f.log" ] || continue
    echo; echo "## $f"; echo; echo '```'; tail -25 "$logs/$f.log"; echo '```'
  done
  if [ -f "$logs/steps.md" ]; then
    echo; echo "## OpenMP offload: seed 003's steps"; echo; cat "$logs/steps.md"
  fi
  if [ -f "$logs/airfoil-targets.log" ]; then
    echo; echo "## airfoil against the copy bandwidth"; echo; cat "$logs/airfoil-targets.log"
  fi
  for f in airfoil-cuda-tuned airfoil-cuda-staged airfoil-cuda-atomic airfoil-cuda-colour \
           airfoil-openmp heat-cuda jacobi-cuda euler-cuda offload-device airfoil-offload; do
    [ -f "$logs/$f.log" ] || continue
    # The end of each run: the per-loop table (time, GB/s) and the verdict.
    echo; echo "## $f"; echo; echo '```'; tail -40 "$logs/$f.log"; echo '```'
  done
} >"$report"
tar -czf "$out/logs.tar.gz" -C "$work" logs
rm -rf "$work"
echo "report: $report; logs: $out/logs.tar.gz; $failures failed"
[ "$failures" -eq 0 ]
