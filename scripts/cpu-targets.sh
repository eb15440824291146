#!/usr/bin/env bash
# The CPU targets (docs/performance.md, "CPU targets against the memory
# floor"), measured in one run: the copy bandwidth (1 and
# N threads), the airfoil standard run (seq and OpenMP, as it is and
# renumbered), heat n = 8000, dense jacobi Ndim = 4096 and euler's benchmark
# problem on seq and OpenMP, each run's loops against its floor at the copy
# bandwidth of the same run (validation/cpu_targets.py says which floor).
#
#   scripts/cpu-targets.sh [options]
#
#   --build-dir DIR   the build to run (default: build/release, built first)
#   --no-build        run the build as it is
#   --threads N       OpenMP threads (default: every core)
#   --euler-t-end T   euler's end time (default 0.05: a quarter of the
#                     benchmark deck's 0.2, the same grid; the flux rate does
#                     not depend on it, and the full deck takes minutes on seq)
#   --note TEXT       a line the section carries (the state of the machine)
#   --update-docs     write the section into docs/performance.md between its
#                     cpu-targets.sh markers
#   --out DIR         runs and the section, targets.md (default outputs/cpu-targets)
# Exit: 0 every target met; 1 one not met or a run failed; 2 bad usage or build.
OP2_HELP_OWN_USAGE=1 . "$(dirname "$0")/lib/help.sh" # --version
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. scripts/lib/runs.sh

bdir= build=1 threads=$(nproc) euler_t_end=0.05 notes=() update_docs=0 out=outputs/cpu-targets
while [ $# -gt 0 ]; do
  opt=$1
  case $opt in
    --build-dir) need_value "$@"; bdir=$(realpath -m "$2"); build=0; shift ;;
    --no-build) build=0 ;;
    --threads) need_value "$@"; whole_number "$1" "$2"; threads=$2; shift ;;
    --euler-t-end) need_value "$@"; euler_t_end=$2; shift ;;
    --note) need_value "$@"; notes+=(--note "$2"); shift ;;
    --update-docs) update_docs=1 ;;
    --out) need_value "$@"; out=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$opt' (--help lists the options)" ;;
  esac
  shift
done
[[ $euler_t_end =~ ^[0-9]*\.?[0-9]+$ ]] || die "--euler-t-end '$euler_t_end': expected a positive number"
[ -n "$bdir" ] || bdir=$root/build/release
if [ $build = 1 ]; then
  { cmake --preset release >/dev/null && cmake --build --preset release; } || die "the release build failed"
fi
bw=$bdir/validation/op2-cpu-bandwidth
[ -x "$bw" ] || die "$bw is missing (build the release preset)"
mkdir -p "$out" || die "cannot make $out"
out=$(realpath "$out")

status=0
# bandwidth THREADS: the copy bandwidth, 2 x 512 MiB arrays, best of 10.
bandwidth() {
  OMP_NUM_THREADS=$1 "$bw" 512 10 >"$out/copy-$1.txt" 2>&1 || {
    echo "cpu-targets: the bandwidth probe failed; see $out/copy-$1.txt" >&2; status=1; }
  cat "$out/copy-$1.txt"
}
# one NAME SOLVER BACKEND DECK ARGS...: one run into $out/NAME.
one() {
  local name=$1 solver=$2 backend=$3 dir=$out/$1
  shift 3
  local exe=$bdir/solvers/$solver/${solver}_$backend
  rm -rf "$dir" && mkdir -p "$dir"
  local cmd=(env OMP_NUM_THREADS="$([ "$backend" = seq ] && echo 1 || echo "$threads")" "$exe" "$@"
             output_dir="${dir#"$root"/}")
  echo "${cmd[*]#"$root"/}" >"$dir/cmd.txt"
  printf '  %-26s' "$name"
  local t0=$SECONDS
  if "${cmd[@]}" >"$dir/log" 2>&1; then
    echo "$((SECONDS - t0)) s"
  else
    echo "FAILED (see $dir/log)"
    status=1
  fi
}

echo "== copy bandwidth"
bandwidth 1
[ "$threads" = 1 ] || bandwidth "$threads"
echo "== runs"
mesh=meshes/data/new_grid.dat  # the deck's own mesh (made by the first run when missing)
for b in seq openmp; do
  one "airfoil-$b" airfoil "$b" inputs/airfoil.in "mesh=$mesh" write_solution=no image=none
  one "airfoil-$b-renumber" airfoil "$b" inputs/airfoil.in "mesh=$mesh" write_solution=no image=none renumber=yes
  one "heat-$b" heat "$b" inputs/heat_8000.in print_every=1
  one "jacobi-$b" jacobi "$b" inputs/jacobi_dense.in write_solution=no
  one "euler-$b" euler "$b" inputs/euler_benchmark.in "t_end=$euler_t_end"
done

load=$(cut -d' ' -f1-3 /proc/loadavg)
head=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
args=("${notes[@]}"
      --note "$(date -u '+%Y-%m-%d %H:%M UTC'); command \`scripts/cpu-targets.sh${threads:+ --threads $threads} --euler-t-end $euler_t_end\`; commit $head, ${bdir#"$root"/}; OpenMP runs on $threads threads; load average after the runs: $load"
      --note "machine: $(lscpu | sed -n 's/^Model name: *//p' | sed -n 1p), $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)")
[ $update_docs = 1 ] && args+=(--docs docs/performance.md)
"$(run_python)" validation/cpu_targets.py "$out" "${args[@]}" >"$out/targets.md.tmp"
rc=$?
mv "$out/targets.md.tmp" "$out/targets.md"
cat "$out/targets.md"
[ $rc = 2 ] && exit 2
[ $rc = 0 ] && [ $status = 0 ] && exit 0
exit 1
