#!/usr/bin/env bash
# Reproduces the published timings: runs the benchmark decks of
# validation/bench_cases.txt (airfoil standard run, heat n = 8000, euler
# 1000 x 1000 to T = 0.2, dense jacobi Ndim = 4096) on every backend built
# and runnable here, repeated, with the copy bandwidth measured in the same
# run, and reports the median times and achieved GB/s beside the published
# figures of validation/published_timings.csv.
#
#   scripts/bench.sh [options]
#
#   --solvers LIST    benchmarks to run (comma-separated; default: all)
#   --backends LIST   backends (default: every one built that runs here: seq,
#                     openmp on every core, cuda and offload with a GPU, mpi
#                     and mpi_openmp with mpirun)
#   --repeats N       runs of each benchmark on each backend (default 3)
#   --size full|small full: the benchmarks as published (default); small: the
#                     same decks reduced to a fraction of a second a run, to
#                     check the command (not compared with the published
#                     figures; about a minute in all on two idle cores)
#   --threads N       OpenMP threads and MPI ranks (default: every core)
#   --no-build        run the release build as it is
#   --build-dir DIR   run the build in DIR as it is (e.g. build/portable)
#   --update-docs     also write the tables and plots into docs/performance.md
#                     (between its bench.sh markers) and docs/performance/
#   --note TEXT       a line the report carries (e.g. the state of the machine)
#   --out DIR         the report (default outputs/bench)
# A run that fails a verdict is not a timing; every timing's results
# (everything the run wrote: validation/result_compare.py) are compared with
# its benchmark's base run, the first on seq, within the benchmark's tolerance
# (validation/bench_cases.txt), and flagged where they differ.
# The report says what ran, where: the command line, the host (lscpu's model
# name, family and model), the commit, and the load average before and after
# the runs against the cores, TOO BUSY TO TIME (also on the terminal) where
# other work held more than half the cores (validation/host_load.py).
# Writes report.md, bench.json, bench.csv, bench-time.png and
# bench-loops.png (plots need python3-matplotlib) and runs/ (every run's log,
# exit status and output folder). Ctrl-C stops the run under way (it ends its
# step and writes its results) and writes the report of what was measured.
# Exit: 0 done; 1 a run failed or a timing's results differ from the base's;
# 2 bad usage or the build failed; 130 interrupted.
OP2_HELP_OWN_USAGE=1 . "$(dirname "$0")/lib/help.sh" # --version
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. scripts/lib/runs.sh
# The command as given, every option, for the report.
command_line="scripts/bench.sh$(printf ' %q' "$@")"

solvers= backends= bdir= repeats=3 size=full build=1 update_docs=0 note= out=outputs/bench
cases=validation/bench_cases.txt published=validation/published_timings.csv preset=release
while [ $# -gt 0 ]; do
  opt=$1
  case $opt in
    --*=*) set -- "${opt%%=*}" "${opt#*=}" "${@:2}"; opt=$1 ;;
  esac
  case $opt in
    --solvers | --backends | --repeats | --size | --threads | --note | --out | --build-dir)
      need_value "$@"
      case $opt in
        --solvers) solvers=$2 ;; --backends) backends=$2 ;; --repeats) repeats=$2 ;;
        --size) size=$2 ;; --threads) RUN_THREADS=$2 RUN_RANKS=$2 ;; --note) note=$2 ;;
        --out) out=$2 ;; --build-dir) bdir=$2 build=0 ;;
      esac
      shift ;;
    --no-build) build=0 ;;
    --update-docs) update_docs=1 ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument '$opt' (--help lists the options)" ;;
  esac
  shift
done
whole_number --repeats "$repeats"
whole_number --threads "$RUN_THREADS"
[ "$size" = full ] || [ "$size" = small ] || die "--size '$size': expected full or small"
py=$(run_python) || die "no python3 found (scripts/install-deps.sh installs it)"
backends=$(backends_checked "$backends") || exit 2
plot_py=$(run_python matplotlib) || {
  echo "bench.sh: no python3 with matplotlib: no plots (scripts/install-deps.sh installs python3-matplotlib)"
  plot_py=$py
}

# ---- the benchmarks of this size: solver rtol atol deck args... ----
read_cases "$cases" "$solvers" 5 "$size"
case_lines=("${CASES[@]}")

mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
rm -rf "$out/runs" "$out/work"
mkdir -p "$out/runs" "$out/work"
[ -n "$bdir" ] || bdir=$root/build/$preset

# ---- build ----
if [ "$build" = 1 ]; then
  echo "bench: configuring the $preset build"
  cmake --preset "$preset" >"$out/build.log" 2>&1 ||
    { tail -20 "$out/build.log"; die "configuring failed: $out/build.log"; }
fi
[ -f "$bdir/CMakeCache.txt" ] || die "no configured build in $bdir (run without --no-build)"
bdir=$(cd "$bdir" && pwd)
targets=(op2-cpu-bandwidth op2-compare)
gpu_visible && build_has_target "$bdir" op2-gpu-bandwidth && targets+=(op2-gpu-bandwidth)
declare -A present
for line in "${case_lines[@]}"; do
  solver=${line%% *}
  present[$solver]=
  for b in $backends; do
    backend_runs_here "$b" && build_has_target "$bdir" "${solver}_$b" || continue
    present[$solver]="${present[$solver]} $b"
    targets+=("${solver}_$b")
  done
  [ -n "${present[$solver]}" ] || echo "bench: $solver: no backend built that runs here"
done
if [ "$build" = 1 ]; then
  echo "bench: building ${targets[*]}"
  cmake --build --preset "$preset" --target "${targets[@]}" >>"$out/build.log" 2>&1
  rc=$?
  [ "$RUN_STOP" = 0 ] || { echo "bench: interrupted while building: nothing measured"; exit 130; }
  [ "$rc" = 0 ] || { tail -30 "$out/build.log"; die "building failed: $out/build.log"; }
fi

# ---- the load before the runs: other work's (docs/regress-bench.md) ----
load_before=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
echo "bench: load average (1 minute) ${load_before:-unknown} on $(nproc) cores before the runs"

# ---- copy bandwidth, in this run: one thread, every thread, the GPU ----
mib=512; [ "$size" = small ] && mib=64
copy1= copyall= copygpu=
echo "bench: copy bandwidth (op2-cpu-bandwidth, 2 x $mib MiB)"
gbs() { sed -n 's/.* \([0-9.][0-9.]*\) GB\/s.*/\1/p' "$1" | tail -1; }
for t in $(printf '%s\n' 1 "$RUN_THREADS" | sort -un); do
  OMP_NUM_THREADS=$t run_logged . "$out/bandwidth-$t.log" "$bdir/validation/op2-cpu-bandwidth" "$mib" 10
  [ "$RUN_STOP" = 0 ] || break
  [ "$t" = 1 ] && copy1=$(gbs "$out/bandwidth-$t.log")
  [ "$t" = "$RUN_THREADS" ] && copyall=$(gbs "$out/bandwidth-$t.log")
  echo "bench:   $(cat "$out/bandwidth-$t.log")"
done
if [ "$RUN_STOP" = 0 ] && [[ " ${targets[*]} " == *" op2-gpu-bandwidth "* ]]; then
  run_logged . "$out/bandwidth-gpu.log" "$bdir/tools/op2-gpu-bandwidth" --csv
  copygpu=$(awk -F, '$2 == "copy" {print $5}' "$out/bandwidth-gpu.log")
  echo "bench:   GPU copy: ${copygpu:-?} GB/s"
fi

# ---- the runs ----
# CUDA: a first run tunes every loop (docs/cuda.md) into a tune file, which
# the timed runs then load; it is not one of the timed runs.
planned=0
for line in "${case_lines[@]}"; do
  for b in ${present[${line%% *}]}; do
    planned=$((planned + repeats))
    [ "$b" = cuda ] && planned=$((planned + 1))
  done
done
done_runs=0 untimed_failed=()
RUN_TICK=10
for line in "${case_lines[@]}"; do
  read -r solver _ _ deck rest <<<"$line"   # the tolerance is the report's
  for b in ${present[$solver]}; do
    first=1
    [ "$b" = cuda ] && first=0
    for k in $(seq "$first" "$repeats"); do
      [ "$RUN_STOP" = 0 ] || break 3
      rundir=$out/runs/$solver/$b/$k
      work=$out/work/$solver
      [ "$k" = 0 ] && rundir=$work/cuda-tuning
      mkdir -p "$work"
      args=()
      for a in $rest; do args+=("${a//\{work\}/$work}"); done
      [ "$b" = cuda ] && args+=("--op-tune-file=$work/$solver.tune")
      backend_command "$b" "$bdir/solvers/$solver/${solver}_$b"
      what="run $k of $repeats"
      [ "$k" = 0 ] && what="tuning run (not timed)"
      printf 'bench: [%d/%d] %s on %s: %s\n' $((done_runs + 1)) "$planned" "$solver" \
        "$(backend_describe "$b")" "$what"
      t0=$SECONDS
      run_recorded "$rundir" "$root" "${RUN_CMD[@]}" "$deck" "${args[@]}"
      rc=$?
      [ "$RUN_STOP" = 0 ] || break 3
      done_runs=$((done_runs + 1))
      if [ "$rc" = 0 ]; then
        echo "bench:   done in $((SECONDS - t0)) s"
      else
        echo "bench:   exit status $rc (log: $rundir/log)"
        tail -5 "$rundir/log" | sed 's/^/        /'
        # Outside runs/: the report hears of it here.
        [ "$k" = 0 ] && untimed_failed+=(--failed "$solver cuda tuning run: exit status $rc ($rundir/log)")
      fi
    done
  done
done

# ---- the report ----
load_after=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
echo "bench: load average (1 minute) ${load_after:-unknown} on $(nproc) cores after the runs"
gpu_name=
gpu_visible && gpu_name=$(nvidia-smi --query-gpu=name,memory.total,driver_version \
  --format=csv,noheader 2>/dev/null | sed -n 1p)
cc=$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$bdir/CMakeCache.txt")
nvcc=$(sed -n 's/^CMAKE_CUDA_COMPILER:[A-Z]*=//p' "$bdir/CMakeCache.txt")
compiler=$("${cc:-cc}" --version 2>/dev/null | sed -n 1p)
[ -n "$nvcc" ] && [ -x "$nvcc" ] && compiler="$compiler; $("$nvcc" --version | sed -n 's/.*release/nvcc/p' | sed -n 1p)"
mpi=
command -v mpirun >/dev/null && mpi=$(mpirun --version 2>/dev/null | sed -n 1p)
report_args=(--runs "$out/runs" --out "$out" --published "$published" --size "$size"
  --cases "$cases" --compare "$bdir/validation/op2-compare"
  --commit "$(source_describe "$root")" --compiler "$compiler" --gpu "$gpu_name" --mpi "$mpi"
  --compile-commands "$bdir/compile_commands.json" --build "${bdir#"$root"/}" --note "$note"
  --copy-one "${copy1:-0}" --copy-all "${copyall:-0}" --copy-gpu "${copygpu:-0}"
  --threads "$RUN_THREADS" --planned "$planned" "${untimed_failed[@]}"
  --command "$command_line" --host "$(host_describe)" --cores "$(nproc)"
  --load-before "$load_before" --load-after "$load_after")
for b in $RUN_BACKENDS_ALL; do report_args+=(--backend-label "$b=$(backend_describe "$b")"); done
[ "$RUN_STOP" = 1 ] && report_args+=(--interrupted)
[ "$update_docs" = 1 ] && report_args+=(--docs docs/performance.md --docs-images docs/performance)
"$plot_py" validation/bench_report.py "${report_args[@]}"
status=$?
[ "$RUN_STOP" = 1 ] && exit 130
exit $status
