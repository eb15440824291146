#!/usr/bin/env bash
# Checks the CUDA and OpenMP offload backends on a machine with a GPU, from
# the bundle that scripts/gpu-bundle.sh built (build/gpu-bundle.tar.xz,
# unpacked here when its trees are missing), in one call that ends within
# its time limit. Writes, in the output folder, report.md (what passed, what
# failed, what could not run, the figures, each step's time) and logs/ (every
# command's output and the tune files), both brought up to date after every
# command: a call stopped from outside still leaves the report of what ran.
# Calls into the same folder add to it.
#
# usage: scripts/gpu-check.sh [--out DIR] [--time-limit S] [--allow-no-gpu] [STEP...]
#
# Steps (default: all of them, in this order; times on an H200 in docs/cuda.md):
#   info              the GPU (nvidia-smi) and the bandwidth probe op2-gpu-bandwidth
#   tests             ctest -L gpu in each tree of the bundle (bitwise in strict)
#   sanitize-loops    compute-sanitizer memcheck, racecheck, synccheck and
#                     initcheck on test_loops_cuda, each indirect strategy forced
#   sanitize-airfoil, sanitize-heat, sanitize-jacobi, sanitize-euler
#                     memcheck and racecheck on the solver's CUDA executable
#                     with a small case, each indirect strategy forced
#   sanitize          the five sanitize steps
#   bench-airfoil     airfoil on the standard mesh (1000 iterations): a tuning
#                     run, a run with its tune file checked against the targets
#                     (validation/airfoil_targets.py), each strategy forced,
#                     OpenMP on every core; then OP2-Common's own CUDA airfoil
#                     (when the bundle has it), with OP_AUTO_SOA=1 too, and
#                     the tuned airfoil_cuda in two interleaved rounds on the
#                     same new_grid.dat, their rms histories compared
#   bench-others      heat n=8000, dense jacobi and the euler benchmark, each
#                     timed with a tune file from a shorter tuning run
#   bench             both bench steps
#   ab                every candidate option of the CUDA backend (ab_candidates
#                     below) against the current default on the four benchmarks
#                     (airfoil standard, heat's deck at n=4000: its 64M-cell plans
#                     take 17 s a run, dense jacobi, euler), in two
#                     rounds interleaved, with bench's tune files when this call
#                     made them (else --op-tune=off); the table the defaults are
#                     chosen from: logs/ab.md and logs/ab.csv (validation/ab_table.py)
#   offload           the OpenMP offload backend: test_loops on the device,
#                     Mattson et al.'s steps (scripts/offload-steps.sh) and airfoil's
#                     standard run
#   mpi               the MPI executables with the bundle's Open MPI (build/bundle-mpi):
#                     airfoil_mpi (720K cells, 200 iterations) and heat_mpi (4000 x 4000,
#                     100 steps) on 1, 2, 4, 8 and 16 processes, airfoil_mpi_cuda on 2
#                     processes sharing the GPU, each against seq (op2-compare), and
#                     the strong-scaling table (logs/mpi.md)
#
#   --out DIR         the output folder (default outputs/gpu-check, which a
#                     warm device machine keeps from one call to the next; with
#                     $OUT set (the output folder a GPU machine sends back), the report and
#                     logs are copied there as they change too)
#   --time-limit S    the call ends within S seconds (default 450): each
#                     command gets at most what is left, and a command that the
#                     time left cannot hold is reported "could not run"
#   --allow-no-gpu    run the steps without a GPU (the CUDA runs skip): checks
#                     only the plumbing
# Each command also has a limit of its own, a few times its time on an H200:
# one that runs past it is FAILED (timed out), so one that hangs or crawls
# costs a bounded share of the call.
# A sanitizer that could not run is reported as such, apart from one that
# found a defect (its exit code 9) and from a program that failed under it.
# The verdicts, the ledger of calls and rows and report.md are
# validation/gpu_report.py's; this script only arranges the commands.
# Exit: 0 when every command of this call ran and passed, 1 when one failed
# (or found a defect), 3 when none failed but some could not run, 2 when the
# bundle or a tool it needs is missing, 77 without a GPU.
OP2_HELP_OWN_USAGE=1 . "$(dirname "$0")/lib/help.sh" # --version
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
. scripts/lib/runs.sh
t_start=$(date +%s)
out=outputs/gpu-check
mirror=${OUT:-}
time_limit=450
allow_no_gpu=0
steps=()
sanitize_steps=(sanitize-loops sanitize-airfoil sanitize-heat sanitize-jacobi sanitize-euler)
all_steps=(info tests "${sanitize_steps[@]}" bench-airfoil bench-others ab offload mpi)
while [ $# -gt 0 ]; do
  case "$1" in
    --out) need_value "$@"; out=$2; shift ;;
    --out=*) out=${1#--out=} ;;
    --time-limit) need_value "$@"; whole_number "$1" "$2"; time_limit=$2; shift ;;
    --allow-no-gpu) allow_no_gpu=1 ;;
    sanitize) steps+=("${sanitize_steps[@]}") ;;
    bench) steps+=(bench-airfoil bench-others) ;;
    info|tests|sanitize-loops|sanitize-airfoil|sanitize-heat|sanitize-jacobi|sanitize-euler|\
    bench-airfoil|bench-others|ab|offload|mpi) steps+=("$1") ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (steps: ${all_steps[*]} sanitize bench)" ;;
  esac
  shift
done
[ ${#steps[@]} -gt 0 ] || steps=("${all_steps[@]}")
deadline=$((t_start + time_limit))
root=$PWD
out=$(realpath -m "$out")

# What the script needs, before anything runs.
for t in awk date sed grep tar timeout; do
  command -v "$t" >/dev/null 2>&1 || die "'$t' is needed and not found on this machine"
done
py=$(run_python) || die "python3 is needed (the report) and not found on this machine"

# ---- the bundle ----
trees=()
if [ -f build/bundle-trees ]; then
  mapfile -t trees <build/bundle-trees
else
  trees=(build/portable build/strict)
fi
unpacked=1
for t in "${trees[@]}"; do [ -f "$t/CTestTestfile.cmake" ] || unpacked=0; done
if [ "$unpacked" = 0 ]; then
  [ -f build/gpu-bundle.tar.xz ] ||
    die "no trees (${trees[*]}) and no build/gpu-bundle.tar.xz to unpack (run scripts/gpu-bundle.sh)"
  command -v xz >/dev/null 2>&1 ||
    die "'xz' is needed to unpack build/gpu-bundle.tar.xz and not found on this machine"
  [ -w build ] || die "cannot unpack the bundle: $PWD/build is not writable"
  tar -xJf build/gpu-bundle.tar.xz || die "cannot unpack build/gpu-bundle.tar.xz"
  mapfile -t trees <build/bundle-trees || die "the bundle has no build/bundle-trees"
fi
# The trees' test files name the folders they were built in: make them name
# this checkout (executables find their libraries relative to themselves).
if [ -f build/bundle-paths ]; then
  "$py" scripts/lib/relocate_trees.py . >/dev/null || die "cannot relocate the bundle's trees here"
fi
P=${trees[0]}
op2c=build/op2-common/airfoil_cuda

mkdir -p "$out/logs" || die "cannot create $out/logs"
[ -w "$out/logs" ] || die "$out/logs is not writable"
logs=$out/logs
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- the GPU and the call ----
gpu=""
if gpu_visible; then
  gpu=$(nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem \
        --format=csv,noheader 2>/dev/null | sed -n 1p)
fi
cores=$(nproc)
if [ -z "$gpu" ] && [ "$allow_no_gpu" = 0 ]; then
  echo "gpu-check.sh: no GPU visible (nvidia-smi); --allow-no-gpu runs the steps anyway" >&2
  exit 77
fi
report() { "$py" "$root/validation/gpu_report.py" "$@" --mirror "$mirror"; }
commit=$(cat build/bundle-commit 2>/dev/null || git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | sed -n 1p)
call=$(report begin "$out" --steps "${steps[*]}" --commit "$commit" --gpu "$gpu" --cpu "$cpu" \
       --cores "$cores") || die "cannot write the report in $out"

# run NAME LIMIT [--judge J] -- CMD...: runs CMD with its output in
# logs/NAME.log, for at most LIMIT seconds and at most what is left of the
# call's time, and records its row. A command that the time left cannot
# hold is not started.
run() {
  local name=$1 limit=$2 judge=plain left by=own rc t0 t1
  shift 2
  if [ "$1" = --judge ]; then judge=$2; shift 2; fi
  [ "$1" = -- ] && shift
  left=$((deadline - $(date +%s) - 5))
  if [ "$left" -lt 10 ]; then
    report not-run "$out" --call "$call" --name "$name" --could-not-run \
      --why "not started: the call's time limit of $time_limit s was reached"
    return 1
  fi
  [ "$left" -lt "$limit" ] && { limit=$left by=call; }
  t0=$(date +%s%N)
  timeout -k 10 "$limit" "$@" >"$logs/$name.log" 2>&1
  rc=$?
  t1=$(date +%s%N)
  report record "$out" --call "$call" --name "$name" --rc "$rc" --judge "$judge" \
    --seconds "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')" \
    --limit "$limit" --limit-by "$by"
  return $rc
}
# "${in_dir[@]}" DIR CMD...: CMD run in DIR (OP2-Common's airfoil reads its mesh there).
in_dir=(bash -c 'cd "$1" && shift && exec "$@"' in_dir)
# not_run NAME WHY: a command that could not be started (what it needs failed).
not_run() { report not-run "$out" --call "$call" --name "$1" --why "$2"; }

step_t0=0
has_step() { local s; for s in "${steps[@]}"; do [ "$s" = "$1" ] && return 0; done; return 1; }
# begin_step STEP: true when the call runs STEP; its time is recorded by end_step.
begin_step() { has_step "$1" || return 1; step_t0=$(date +%s%N); echo "=== $1"; }
end_step() {
  report step "$out" --call "$call" --step "$1" \
    --seconds "$(awk -v a="$step_t0" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')"
}

# ---- info ----
if begin_step info; then
  run nvidia-smi 30 -- nvidia-smi
  run gpu-bandwidth 60 -- "$P/tools/op2-gpu-bandwidth"
  end_step info
fi

# ---- tests ----
if begin_step tests; then
  for t in "${trees[@]}"; do
    run "ctest-${t##*/}" 300 -- ctest --test-dir "$t" -L gpu --output-on-failure --timeout 240 -j 4
  done
  end_step tests
fi

# ---- sanitize ----
cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
# sanitize NAME CMD...: CMD under each tool of $tools, with the tool's name
# in the row; "could not run" for all when compute-sanitizer is missing.
sanitize() {
  local name=$1 tool; shift
  for tool in $tools; do
    if [ ! -x "$cs" ]; then
      report not-run "$out" --call "$call" --name "sanitize-$tool-$name" --could-not-run \
        --why "compute-sanitizer not found"
      continue
    fi
    run "sanitize-$tool-$name" 120 --judge sanitizer -- "$cs" --tool "$tool" --error-exitcode 9 "$@"
  done
}
if begin_step sanitize-loops; then
  tools="memcheck racecheck synccheck initcheck"
  for s in staged atomic colour; do
    sanitize "test_loops-$s" "$P/op2/tests/test_loops_cuda" --op-force="$s" --op-force=coalesced
  done
  tools=memcheck
  sanitize test_loops-part7 "$P/op2/tests/test_loops_cuda" --op-force=plain --op-force=staged:64 \
    --op-part-size=7
  end_step sanitize-loops
fi
small=$work/small
mkdir -p "$small"
tools="memcheck racecheck"
if begin_step sanitize-airfoil; then
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
  end_step sanitize-airfoil
fi
if begin_step sanitize-heat; then
  for s in staged atomic colour; do
    sanitize "heat-$s" "$P/solvers/heat/heat_cuda" n=40 nsteps=20 output_dir="$small/heat" \
      --op-force="$s"
  done
  end_step sanitize-heat
fi
if begin_step sanitize-jacobi; then
  for s in staged atomic colour; do
    sanitize "jacobi-$s" "$P/solvers/jacobi/jacobi_cuda" problem=jac nn=24 tolerance=0 \
      max_iters=26 output_dir="$small/jacobi" --op-force="$s"
  done
  end_step sanitize-jacobi
fi
if begin_step sanitize-euler; then
  for s in staged atomic colour; do
    sanitize "euler-$s" "$P/solvers/euler/euler_cuda" inputs/euler_sod_x.in state_left=1,-2,0.4 \
      state_right=1,2,0.4 nx=40 y_max=0.1 max_steps=8 images=no hdf5=final \
      bc_west=reflective output_dir="$small/euler" --op-force="$s"
  done
  end_step sanitize-euler
fi

# ---- bench ----
b=$work/bench
mkdir -p "$b"
af=("$P/solvers/airfoil/airfoil_cuda" inputs/airfoil.in)
if begin_step bench-airfoil; then
  # The first run makes the standard mesh (meshes/data/new_grid.dat) when it is missing.
  run airfoil-cuda-tuning 180 -- "${af[@]}" output_dir="$b/airfoil_tuning" \
    --op-tune-file="$b/airfoil.tune" --op-diags=1
  run airfoil-cuda-tuned 60 -- "${af[@]}" output_dir="$b/airfoil_cuda" \
    --op-tune-file="$b/airfoil.tune" --op-diags=1
  for s in staged atomic colour; do
    run "airfoil-cuda-$s" 60 -- "${af[@]}" output_dir="$b/airfoil_$s" --op-force="$s" --op-tune=off
  done
  # The targets (validation/airfoil_targets.py) against the copy bandwidth
  # measured on this GPU in this run.
  timeout 60 "$P/tools/op2-gpu-bandwidth" >"$logs/bench-bandwidth.log" 2>&1
  copy=$(awk '$1 == "copy" {print $2}' "$logs/bench-bandwidth.log")
  run airfoil-targets 30 -- "$py" validation/airfoil_targets.py "$b/airfoil_cuda/result.json" \
    "${copy:-0}"
  run airfoil-openmp 120 -- "$P/solvers/airfoil/airfoil_openmp" inputs/airfoil.in \
    output_dir="$b/airfoil_openmp" --op-threads="$cores"
  run airfoil-compare 60 -- "$P/validation/op2-compare" "$b/airfoil_openmp/q.h5" \
    "$b/airfoil_cuda/q.h5" --rtol 1e-9 --atol 1e-12
  # OP2-Common's own CUDA airfoil, the anchor: it reads new_grid.dat in its
  # working folder and prints its rms every 100 iterations, as airfoil_cuda does.
  if [ -x "$op2c" ] && [ -f meshes/data/new_grid.dat ]; then
    for r in 1 2; do
      for v in op2c-airfoil op2c-airfoil-soa airfoil-cuda-pair; do
        d=$b/pair/$v-$r
        mkdir -p "$d" && ln -sf "$root/meshes/data/new_grid.dat" "$d/new_grid.dat"
        ln -sf "$logs/$v-$r.log" "$d/out.txt"
        case $v in
          op2c-airfoil) run "$v-$r" 120 --judge op2c -- "${in_dir[@]}" "$d" "$root/$op2c" ;;
          op2c-airfoil-soa) run "$v-$r" 120 --judge op2c -- "${in_dir[@]}" "$d" env OP_AUTO_SOA=1 "$root/$op2c" ;;
          *) run "$v-$r" 60 -- "${af[@]}" output_dir="$d/out" write_solution=no image=none \
               --op-tune-file="$b/airfoil.tune" ;;
        esac
      done
    done
    run op2c-rms-compare 30 -- "$py" validation/op2_common_compare.py rms "$b/pair/op2c-airfoil-1" \
      "$b/pair/airfoil-cuda-pair-1"
  elif [ ! -x "$op2c" ]; then
    report not-run "$out" --call "$call" --name op2c-airfoil --could-not-run \
      --why "the bundle has no OP2-Common airfoil: scripts/gpu-bundle.sh --op2-common REPO"
  else
    not_run op2c-airfoil "no meshes/data/new_grid.dat: the tuning run did not make it"
  fi
  cp "$b"/*.tune "$logs"/ 2>/dev/null
  end_step bench-airfoil
fi
if begin_step bench-others; then
  # The tuner tries each candidate over two calls of a loop, up to 44 calls
  # (docs/cuda.md): each solver is tuned in a short run first, heat on a
  # 2000 x 2000 grid (4M cells: a staged candidate builds its own plan, and
  # the timed run's 64M-cell plans would make the tuning run minutes long),
  # then timed with the tune file on its benchmark deck.
  run heat-cuda-tuning 120 -- "$P/solvers/heat/heat_cuda" inputs/heat_8000.in n=2000 nsteps=50 \
    output_dir="$b/heat_tuning" --op-tune-file="$b/heat.tune" --op-diags=1
  run heat-cuda 120 -- "$P/solvers/heat/heat_cuda" inputs/heat_8000.in output_dir="$b/heat" \
    --op-tune-file="$b/heat.tune" --op-diags=1
  run jacobi-cuda-tuning 120 -- "$P/solvers/jacobi/jacobi_cuda" inputs/jacobi_dense.in tolerance=0 \
    max_iters=60 write_solution=no output_dir="$b/jacobi_tuning" --op-tune-file="$b/jacobi.tune" \
    --op-diags=1
  run jacobi-cuda 120 -- "$P/solvers/jacobi/jacobi_cuda" inputs/jacobi_dense.in output_dir="$b/jacobi" \
    --op-tune-file="$b/jacobi.tune" --op-diags=1
  run euler-cuda-tuning 60 -- "$P/solvers/euler/euler_cuda" inputs/euler_benchmark.in max_steps=60 \
    output_dir="$b/euler_tuning" --op-tune-file="$b/euler.tune" --op-diags=1
  run euler-cuda 60 -- "$P/solvers/euler/euler_cuda" inputs/euler_benchmark.in output_dir="$b/euler" \
    --op-tune-file="$b/euler.tune" --op-diags=1
  cp "$b"/*.tune "$logs"/ 2>/dev/null
  end_step bench-others
fi

# ---- ab ----
# Candidates: NAME|OPTIONS, each timed against "default" (no option); a new
# candidate option of the backend is one more line here (docs/cuda.md,
# "Candidates for the GPU run").
ab_candidates=("sync-needed|--op-cuda-sync=needed")
# Heat at n = 4000 (16M cells): at n = 8000 its plans alone would take 17 s
# of each of the four runs; its steps are the same loops.
ab_benches=("airfoil|airfoil|inputs/airfoil.in write_solution=no image=none"
  "heat|heat|inputs/heat_8000.in n=4000" "jacobi|jacobi|inputs/jacobi_dense.in write_solution=no"
  "euler|euler|inputs/euler_benchmark.in")
if begin_step ab; then
  mkdir -p "$b/ab"
  for r in 1 2; do
    for bench in "${ab_benches[@]}"; do
      IFS='|' read -r name solver deck <<<"$bench"
      tune=(--op-tune=off)
      [ -f "$b/$solver.tune" ] && tune=(--op-tune-file="$b/$solver.tune")
      for cand in "default|" "${ab_candidates[@]}"; do
        IFS='|' read -r cname copts <<<"$cand"
        # shellcheck disable=SC2086 # the deck's and candidate's words are separate arguments
        run "ab-$name-$cname-$r" 60 -- "$P/solvers/$solver/${solver}_cuda" $deck $copts "${tune[@]}" \
          output_dir="$b/ab/$name.$cname.r$r"
      done
    done
  done
  run ab-table 30 -- "$py" validation/ab_table.py "$b/ab" "$logs/ab.md"
  end_step ab
fi

# ---- offload ----
if begin_step offload; then
  run offload-device 60 -- env OMP_TARGET_OFFLOAD=MANDATORY "$P/op2/tests/test_loops_offload" --op-diags=1
  # Each of the steps' runs has a limit of its own (--run-limit); the CUDA
  # rows reuse bench-others' tune files when this call made them.
  tune=()
  [ -f "$b/jacobi.tune" ] && [ -f "$b/heat.tune" ] && tune=(--cuda-tune "$b")
  run offload-steps 330 -- scripts/offload-steps.sh --build "$P" --out "$work/offload" --run-limit 60 \
    --table "$logs/steps.md" "${tune[@]}"
  cp "$work/offload/steps.csv" "$logs"/ 2>/dev/null
  run airfoil-offload 120 -- env OMP_TARGET_OFFLOAD=MANDATORY "$P/solvers/airfoil/airfoil_offload" \
    inputs/airfoil.in output_dir="$work/offload/airfoil" --op-diags=1
  end_step offload
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

# ---- mpi ----
if begin_step mpi; then
  m=$PWD/build/bundle-mpi d=$work/mpi
  if [ ! -x "$m/bin/orterun" ]; then
    not_run mpi "no build/bundle-mpi/bin/orterun in the bundle (scripts/gpu-bundle.sh)"
  else
    mkdir -p "$d"
    # The bundle's Open MPI, run where it was unpacked (the GPU machine has none).
    mpirun=(env OPAL_PREFIX="$m" PMIX_INSTALL_PREFIX="$m/pmix2"
      LD_LIBRARY_PATH="$PWD/build/bundle-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" PATH="$m/bin:$PATH"
      OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
      "$m/bin/orterun" --oversubscribe)
    air=(inputs/airfoil.in mesh="$d/new_grid.dat" iterations=200 image=none)
    heat=(n=4000 nsteps=100 write_ppm=no)
    run mpi-airfoil-seq 120 -- "$P/solvers/airfoil/airfoil_seq" "${air[@]}" output_dir="$d/airfoil_seq"
    run mpi-heat-seq 60 -- "$P/solvers/heat/heat_seq" "${heat[@]}" output_dir="$d/heat_seq"
    for np in 1 2 4 8 16; do
      run "mpi-airfoil-np$np" 120 -- "${mpirun[@]}" -np "$np" "$P/solvers/airfoil/airfoil_mpi" \
        "${air[@]}" output_dir="$d/airfoil_np$np"
      # One process is seq bit for bit; on more the increments of a cell come
      # in another order (docs/mpi.md): the tolerance of airfoil.mpi.np*.
      if [ "$np" = 1 ]; then tol=(--rtol 0 --atol 0); else tol=(--rtol 1e-12 --atol 1e-15); fi
      run "mpi-airfoil-np$np-compare" 30 -- "$P/validation/op2-compare" "${tol[@]}" \
        "$d/airfoil_np$np/q.h5" "$d/airfoil_seq/q.h5"
      run "mpi-heat-np$np" 60 -- "${mpirun[@]}" -np "$np" "$P/solvers/heat/heat_mpi" "${heat[@]}" \
        output_dir="$d/heat_np$np"
      run "mpi-heat-np$np-compare" 30 -- "$P/validation/op2-compare" "$d/heat_np$np/u.h5" \
        "$d/heat_seq/u.h5"
    done
    # Two processes sharing the GPU, against seq with the GPU's tolerance
    # (bench-airfoil's: atomics and contraction change the order of operations).
    run mpi-airfoil-cuda-np2 120 -- "${mpirun[@]}" -np 2 "$P/solvers/airfoil/airfoil_mpi_cuda" \
      "${air[@]}" output_dir="$d/airfoil_cuda_np2"
    run mpi-airfoil-cuda-np2-compare 30 -- "$P/validation/op2-compare" --rtol 1e-9 --atol 1e-12 \
      "$d/airfoil_cuda_np2/q.h5" "$d/airfoil_seq/q.h5"
    "$py" validation/mpi_scaling.py "$d" >"$logs/mpi.md" 2>&1 ||
      echo "gpu-check.sh: the scaling table could not be made (logs/mpi.md)" >&2
  fi
  end_step mpi
fi

# ---- the end ----
report write "$out"
"$py" "$root/validation/gpu_report.py" end "$out" --call "$call"
rc=$?
echo "report: $out/report.md; logs: $logs/; $(($(date +%s) - t_start)) s"
exit $rc
