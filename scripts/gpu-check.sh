#!/usr/bin/env bash
# Checks the CUDA backend on a machine with a GPU, from the bundle that
# scripts/gpu-bundle.sh built (build/gpu-bundle.tar.xz, unpacked here when the
# trees are missing). Writes, in the output folder, report.md (what passed,
# what failed, what could not run, the figures) and logs/ (every command's
# output and the tune files), both brought up to date after every command: a
# call stopped by a time limit still leaves the report of what ran. Calls into
# the same folder add to it, so that steps can run one call each.
#
#   scripts/gpu-check.sh [--out DIR] [--allow-no-gpu] [STEP...]
#
# Steps (default: all of them, in this order; each fits in 10 minutes):
#   info              the GPU (nvidia-smi) and the bandwidth probe op2-gpu-bandwidth
#   tests             ctest -L gpu in build/portable and build/strict (bitwise there)
#   sanitize-loops    compute-sanitizer memcheck, racecheck, synccheck and
#                     initcheck on test_loops_cuda, each indirect strategy forced
#   sanitize-airfoil, sanitize-heat, sanitize-jacobi, sanitize-euler
#                     memcheck and racecheck on the solver's CUDA executable
#                     with a small case, each indirect strategy forced
#   sanitize          all five sanitize steps (run them one call each where
#                     a call is limited to 10 minutes)
#   bench-airfoil     airfoil on the standard mesh (1000 iterations: a tuning
#                     run that writes the tune file, then a run with it, checked
#                     against the targets with validation/airfoil_targets.py,
#                     each strategy forced, OpenMP on every core)
#   bench-others      heat, jacobi and euler benchmarks, each tuned then timed
#   bench             both bench steps
#   offload           the OpenMP offload backend: seed 003's steps on dense Jacobi
#                     (Ndim 4096) and heat (n 8000) beside CUDA (scripts/offload-steps.sh)
#                     and airfoil's standard run with the default strategy
#   mpi               the MPI executables with the bundle's Open MPI (build/bundle-mpi):
#                     airfoil_mpi (720K cells, 200 iterations) and heat_mpi (4000 x 4000,
#                     100 steps) on 1, 2, 4, 8 and 16 processes, airfoil_mpi_cuda on 2
#                     processes sharing the GPU, each against seq (op2-compare), and
#                     the strong-scaling table (logs/mpi.md)
# compute-sanitizer does not run on every GPU ("Device not supported": the
# H200 kind here); run the sanitize steps on the H100 kind. A sanitizer that
# could not run is reported as "could not run", apart from one that found a
# defect (its exit code 9) and from a program that failed under it.
# DIR defaults to outputs/gpu-check, which a warm device machine keeps from
# one call to the next; with $OUT set (the device tool's output folder, empty
# at each call), the report and logs are copied there as they change too.
# Without a GPU it stops with exit 77 unless
# --allow-no-gpu (then the CUDA runs skip, which checks only the plumbing).
# Exit: 0 when every command of this call ran and passed, 1 when one failed
# (or found a defect), 3 when none failed but some could not run, 2 when the
# bundle or a tool it needs is missing, 77 without a GPU.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out=outputs/gpu-check
# The device tool's output folder, empty at each call: a copy of the report
# and logs goes there as they change.
mirror=${OUT:-}
allow_no_gpu=0
steps=()
sanitize_steps=(sanitize-loops sanitize-airfoil sanitize-heat sanitize-jacobi sanitize-euler)
all_steps=(info tests "${sanitize_steps[@]}" bench-airfoil bench-others offload mpi)
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=${2:?--out needs a folder}; shift ;;
    --out=*) out=${1#--out=} ;;
    --allow-no-gpu) allow_no_gpu=1 ;;
    sanitize) steps+=("${sanitize_steps[@]}") ;;
    bench) steps+=(bench-airfoil bench-others) ;;
    info|tests|sanitize-loops|sanitize-airfoil|sanitize-heat|sanitize-jacobi|sanitize-euler|\
    bench-airfoil|bench-others|offload|mpi) steps+=("$1") ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed -e '/^set -uo/d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "gpu-check.sh: unknown argument '$1' (steps: ${all_steps[*]} sanitize bench)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#steps[@]} -gt 0 ] || steps=("${all_steps[@]}")

# What the script needs, before anything runs.
need() {
  local t
  for t in "$@"; do
    command -v "$t" >/dev/null 2>&1 ||
      { echo "gpu-check.sh: '$t' is needed and not found on this machine" >&2; exit 2; }
  done
}
need awk date sed grep tar

# ---- the bundle ----
if [ ! -f build/portable/CTestTestfile.cmake ] || [ ! -f build/strict/CTestTestfile.cmake ]; then
  [ -f build/gpu-bundle.tar.xz ] || {
    echo "gpu-check.sh: no build/portable and build/strict, and no build/gpu-bundle.tar.xz to unpack (run scripts/gpu-bundle.sh)" >&2
    exit 2
  }
  command -v xz >/dev/null 2>&1 ||
    { echo "gpu-check.sh: 'xz' is needed to unpack build/gpu-bundle.tar.xz and not found on this machine" >&2; exit 2; }
  [ -w build ] || { echo "gpu-check.sh: cannot unpack the bundle: $PWD/build is not writable" >&2; exit 2; }
  tar -xJf build/gpu-bundle.tar.xz || { echo "gpu-check.sh: cannot unpack build/gpu-bundle.tar.xz" >&2; exit 2; }
fi
# The test files name the folder the trees were configured in: make it this one.
src=$(cat build/bundle-source-dir 2>/dev/null || pwd)
if [ "$(realpath -m "$src")" != "$(realpath .)" ]; then
  if [ -e "$src" ] || [ -L "$src" ]; then
    echo "gpu-check.sh: the bundle was built in $src, which exists here and is not this checkout ($PWD)" >&2
    exit 2
  fi
  { mkdir -p "$(dirname "$src")" 2>/dev/null && ln -s "$PWD" "$src" 2>/dev/null; } ||
    { echo "gpu-check.sh: the bundle's test files name $src, the folder it was built in; cannot make it a link to this checkout ($PWD): $(dirname "$src") is not writable here. Unpack the checkout at $src instead." >&2; exit 2; }
fi
P=build/portable S=build/strict

mkdir -p "$out/logs" || { echo "gpu-check.sh: cannot create $out/logs" >&2; exit 2; }
[ -w "$out/logs" ] || { echo "gpu-check.sh: $out/logs is not writable" >&2; exit 2; }
logs=$out/logs
report=$out/report.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 could_not_run=0
# The calls into this folder (one line each) and the row of every command run
# there: name, result, seconds, the call's number. A command run again in a
# later call replaces its row.
calls=$out/calls.tsv rows=$out/rows.tsv
touch "$calls" "$rows"
call=$(( $(wc -l <"$calls") + 1 ))
# The commit: the bundle's (what ran), else the checkout's.
commit=$(cat build/bundle-commit 2>/dev/null || git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
printf '%s\t%s\t%s\n' "$call" "$(date -u '+%Y-%m-%d %H:%M UTC'), bundle built from commit $commit" \
  "${steps[*]}" >>"$calls"

now_ns() { date +%s%N; }
# add_row NAME RESULT SECONDS: the command's row, then the report again.
add_row() {
  awk -F '\t' -v n="$1" '$1 != n' "$rows" >"$rows.new" && mv "$rows.new" "$rows"
  printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$call" >>"$rows"
  write_report
}

# Why a compute-sanitizer run did not check the program, or nothing when it
# did: the tool refuses this GPU, or cannot start (its own lines begin with
# "=========", so that a program's messages are not taken for the tool's).
sanitizer_could_not_run() {
  grep -m1 -o -E 'Device not supported' "$1" ||
    grep -m1 -E '^=+ .*(Unable to find injection library|Target application failed to launch|could not be loaded|Could not find [^ ]*injection)' "$1" |
      sed 's/^=* *//'
}

# run NAME CMD...: runs a command with its output in logs/NAME.log and adds
# its row. Exit 77 counts as skipped. A command under compute-sanitizer
# (--error-exitcode 9): 9 is a defect found; a tool that could not run is
# "could not run", counted apart from failures.
run() {
  local name=$1; shift
  local t0 t1 rc verdict why
  t0=$(now_ns)
  "$@" >"$logs/$name.log" 2>&1
  rc=$?
  t1=$(now_ns)
  case $rc in
    0) verdict=passed ;;
    77) verdict=skipped ;;
    *) verdict="FAILED (exit $rc)"; failures=$((failures + 1)) ;;
  esac
  if [ "$rc" != 0 ] && [ "$rc" != 77 ] && [ "${name#sanitize-}" != "$name" ]; then
    if [ "$rc" = 9 ]; then
      verdict="DEFECT FOUND (see logs/$name.log)"
    elif why=$(sanitizer_could_not_run "$logs/$name.log") && [ -n "$why" ]; then
      verdict="could not run ($why)"
      failures=$((failures - 1)) could_not_run=$((could_not_run + 1))
    fi
  fi
  add_row "$name" "$verdict" "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')"
  echo "$name: $verdict"
  return $rc
}

# not_run NAME WHY: a command that could not be started (what it needs failed).
not_run() {
  add_row "$1" "FAILED (not run: $2)" 0.0
  failures=$((failures + 1))
  echo "$1: FAILED (not run: $2)"
}

write_report() {
  {
    echo "# GPU check: the CUDA and OpenMP offload backends"
    echo
    echo "- GPU: ${gpu:-none visible}"
    echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($cores cores)"
    echo "- calls into this folder:"
    awk -F '\t' '{ printf "  %s. %s: %s\n", $1, $2, $3 }' "$calls"
    echo
    echo "| command | result | seconds | call |"
    echo "|---|---|---:|---:|"
    awk -F '\t' '{ printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }' "$rows"
    echo
    awk -F '\t' '$2 == "passed" { p++ } $2 == "skipped" { s++ }
                 $2 ~ /^(FAILED|DEFECT)/ { f++ } $2 ~ /^could not run/ { c++ }
                 END { printf "%d passed, %d failed or found a defect, %d could not run, %d skipped\n",
                       p, f, c, s }' "$rows"
    for f in gpu-bandwidth ctest-portable ctest-strict; do
      [ -f "$logs/$f.log" ] || continue
      echo; echo "## $f"; echo; echo '```'; tail -25 "$logs/$f.log"; echo '```'
    done
    if [ -f "$logs/mpi.md" ]; then
      echo; echo "## MPI: against seq, and strong scaling"; echo; cat "$logs/mpi.md"
    fi
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
  } >"$report.tmp" && mv "$report.tmp" "$report"
  if [ -n "$mirror" ] && [ "$(realpath -m "$mirror")" != "$(realpath -m "$out")" ]; then
    mkdir -p "$mirror/logs" && cp "$report" "$mirror/" && cp -r "$logs/." "$mirror/logs/" ||
      echo "gpu-check.sh: cannot copy the report to $mirror" >&2
  fi
}

# ---- info ----
gpu=""
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
        --format=csv,noheader 2>/dev/null | head -1)
fi
cores=$(nproc)
if [ -z "$gpu" ] && [ "$allow_no_gpu" = 0 ]; then
  echo "gpu-check.sh: no GPU visible (nvidia-smi); --allow-no-gpu runs the steps anyway" >&2
  # This call ran nothing: it is not one of the folder's calls.
  sed -i '$d' "$calls"
  exit 77
fi
write_report
has_step() { local s; for s in "${steps[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }

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
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# sanitize NAME CMD...: CMD under each tool of $tools, with the tool's name
# in the row; "could not run" for all when compute-sanitizer is missing.
sanitize() {
  local name=$1 tool; shift
  for tool in $tools; do
    if [ ! -x "$cs" ]; then
      add_row "sanitize-$tool-$name" "could not run (compute-sanitizer not found)" 0.0
      could_not_run=$((could_not_run + 1))
      continue
    fi
    run "sanitize-$tool-$name" "$cs" --tool "$tool" --error-exitcode 9 "$@"
  done
}
if has_step sanitize-loops; then
  tools="memcheck racecheck synccheck initcheck"
  for s in staged atomic colour; do
    sanitize "test_loops-$s" "$P/op2/tests/test_loops_cuda" --op-force="$s" --op-force=coalesced
  done
  tools=memcheck
  sanitize test_loops-part7 "$P/op2/tests/test_loops_cuda" --op-force=plain --op-force=staged:64 \
    --op-part-size=7
fi
small=$work/small
mkdir -p "$small"
tools="memcheck racecheck"
if has_step sanitize-airfoil; then
  if "$P/meshes/naca_cmesh" -I 20 -J 12 -o "$small/mesh.dat" >"$logs/small-mesh.log" 2>&1 &&
     [ -s "$small/mesh.dat" ]; then
    for s in staged atomic colour; do
      sanitize "airfoil-$s" "$P/solvers/airfoil/airfoil_cuda" mesh="$small/mesh.dat" iterations=5 \
        output_dir="$small/airfoil" --op-force="$s"
    done
  else
    for s in staged atomic colour; do
      for tool in $tools; do
        not_run "sanitize-$tool-airfoil-$s" "naca_cmesh failed to write the small mesh: logs/small-mesh.log"
      done
    done
  fi
fi
if has_step sanitize-heat; then
  for s in staged atomic colour; do
    sanitize "heat-$s" "$P/solvers/heat/heat_cuda" n=40 nsteps=20 output_dir="$small/heat" \
      --op-force="$s"
  done
fi
if has_step sanitize-jacobi; then
  for s in staged atomic colour; do
    sanitize "jacobi-$s" "$P/solvers/jacobi/jacobi_cuda" problem=jac nn=24 tolerance=0 \
      max_iters=26 output_dir="$small/jacobi" --op-force="$s"
  done
fi
if has_step sanitize-euler; then
  for s in staged atomic colour; do
    sanitize "euler-$s" "$P/solvers/euler/euler_cuda" inputs/euler_sod_x.in state_left=1,-2,0.4 \
      state_right=1,2,0.4 nx=40 y_max=0.1 max_steps=8 images=no hdf5=final \
      bc_west=reflective output_dir="$small/euler" --op-force="$s"
  done
fi

# ---- bench ----
b=$work/bench
mkdir -p "$b"
if has_step bench-airfoil; then
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
  if command -v python3 >/dev/null 2>&1; then
    run airfoil-targets python3 validation/airfoil_targets.py "$b/airfoil_cuda/result.json" \
      "${copy:-0}"
  else
    not_run airfoil-targets "python3 is not installed here"
  fi
  run airfoil-openmp "$P/solvers/airfoil/airfoil_openmp" inputs/airfoil.in \
    output_dir="$b/airfoil_openmp" --op-threads="$cores"
  run airfoil-compare "$P/validation/op2-compare" "$b/airfoil_openmp/q.h5" \
    "$b/airfoil_cuda/q.h5" --rtol 1e-9 --atol 1e-12
  cp "$b"/*.tune "$logs"/ 2>/dev/null
  write_report
fi
if has_step bench-others; then
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
  write_report
fi

# ---- offload ----
if has_step offload; then
  run offload-device env OMP_TARGET_OFFLOAD=MANDATORY "$P/op2/tests/test_loops_offload" --op-diags=1
  run offload-steps scripts/offload-steps.sh --build "$P" --out "$work/offload"
  cp "$work/offload/steps.md" "$work/offload/steps.csv" "$logs"/ 2>/dev/null
  write_report
  run airfoil-offload env OMP_TARGET_OFFLOAD=MANDATORY "$P/solvers/airfoil/airfoil_offload" \
    inputs/airfoil.in output_dir="$work/offload/airfoil" --op-diags=1
fi

# ---- mpi ----
# The MPI executables on this machine's cores, with the Open MPI the bundle
# carries (build/bundle-mpi, relocated: OPAL_PREFIX and PMIX_INSTALL_PREFIX
# name it, its libraries are in build/bundle-lib), every run against seq.
mpi_checks() {
  local m=$PWD/build/bundle-mpi d=$work/mpi np tol
  if [ ! -x "$m/bin/orterun" ]; then
    not_run mpi "no build/bundle-mpi/bin/orterun in the bundle (scripts/gpu-bundle.sh)"
    return
  fi
  mkdir -p "$d"
  local -a mpirun=(env OPAL_PREFIX="$m" PMIX_INSTALL_PREFIX="$m/pmix2"
    LD_LIBRARY_PATH="$PWD/build/bundle-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PATH="$m/bin:$PATH"
    OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
    "$m/bin/orterun" --oversubscribe)
  local air=(inputs/airfoil.in mesh="$d/new_grid.dat" iterations=200 image=none)
  local heat=(n=4000 nsteps=100 write_ppm=no)
  run mpi-airfoil-seq "$P/solvers/airfoil/airfoil_seq" "${air[@]}" output_dir="$d/airfoil_seq"
  run mpi-heat-seq "$P/solvers/heat/heat_seq" "${heat[@]}" output_dir="$d/heat_seq"
  for np in 1 2 4 8 16; do
    run "mpi-airfoil-np$np" "${mpirun[@]}" -np "$np" "$P/solvers/airfoil/airfoil_mpi" "${air[@]}" \
      output_dir="$d/airfoil_np$np"
    # One process is seq bit for bit; on more the increments of a cell come
    # in another order (docs/mpi.md): the tolerance of airfoil.mpi.np*.
    if [ "$np" = 1 ]; then tol=(--rtol 0 --atol 0); else tol=(--rtol 1e-12 --atol 1e-15); fi
    run "mpi-airfoil-np$np-compare" "$P/validation/op2-compare" "${tol[@]}" "$d/airfoil_np$np/q.h5" \
      "$d/airfoil_seq/q.h5"
    run "mpi-heat-np$np" "${mpirun[@]}" -np "$np" "$P/solvers/heat/heat_mpi" "${heat[@]}" \
      output_dir="$d/heat_np$np"
    run "mpi-heat-np$np-compare" "$P/validation/op2-compare" "$d/heat_np$np/u.h5" "$d/heat_seq/u.h5"
  done
  # Two processes sharing the GPU, against seq with the GPU's tolerance
  # (bench-airfoil's: atomics and contraction change the order of operations).
  run mpi-airfoil-cuda-np2 "${mpirun[@]}" -np 2 "$P/solvers/airfoil/airfoil_mpi_cuda" "${air[@]}" \
    output_dir="$d/airfoil_cuda_np2"
  run mpi-airfoil-cuda-np2-compare "$P/validation/op2-compare" --rtol 1e-9 --atol 1e-12 \
    "$d/airfoil_cuda_np2/q.h5" "$d/airfoil_seq/q.h5"
  if command -v python3 >/dev/null 2>&1; then
    python3 validation/mpi_scaling.py "$d" >"$logs/mpi.md" 2>&1 ||
      echo "gpu-check.sh: the scaling table could not be made (logs/mpi.md)" >&2
  else
    echo "python3 is not installed here: no scaling table" >"$logs/mpi.md"
  fi
  write_report
}
if has_step mpi; then
  mpi_checks
fi

# ---- the end ----
write_report
echo "report: $report; logs: $logs/; this call: $failures failed, $could_not_run could not run"
[ "$failures" -eq 0 ] || exit 1
[ "$could_not_run" -eq 0 ] || exit 3
exit 0
