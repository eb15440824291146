#!/usr/bin/env bash
# OpenMP against seq with the machine as it is and with a synthetic load: runs
# every solver on small sizes on seq and OpenMP, first with the machine as it
# is, then with one busy process per core started (and stopped) by the script
# itself, and reports OpenMP/seq under both (the median of the repeats). A
# benchmark, not a test: it judges nothing (docs/performance.md, "OpenMP and
# MPI on a busy machine").
#
#   scripts/bench-load.sh [options]
#
#   --solvers LIST   solvers to run (comma-separated; default
#                    airfoil,jacobi,heat,euler)
#   --repeats N      runs of each solver on each backend in each condition
#                    (default 3)
#   --threads N      OpenMP threads (default: every core)
#   --wait W         the OpenMP runs' --op-wait (auto, active, passive;
#                    default: the backend's own, auto)
#   --build-dir DIR  the build whose solvers run (default build/release, built
#                    as it is: scripts/build.sh release builds it)
#   --out DIR        the report (default outputs/bench-load)
# The busy processes are bounded in time (10 minutes) and killed when the
# script ends, however it ends. Writes report.md and bench-load.csv, and runs/
# (each run's log). Exit: 0 done; 1 a run failed; 2 bad usage or a missing
# executable.
. "$(dirname "$0")/lib/help.sh"
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/lib/runs.sh

solvers=airfoil,jacobi,heat,euler repeats=3 bdir=build/release out=outputs/bench-load wait=
while [ $# -gt 0 ]; do
  opt=$1
  case $opt in
    --*=*) set -- "${opt%%=*}" "${opt#*=}" "${@:2}"; opt=$1 ;;
  esac
  case $opt in
    --solvers | --repeats | --threads | --wait | --build-dir | --out)
      need_value "$@"
      case $opt in
        --solvers) solvers=$2 ;; --repeats) repeats=$2 ;; --threads) RUN_THREADS=$2 ;;
        --wait) wait=$2 ;; --build-dir) bdir=$2 ;; --out) out=$2 ;;
      esac
      shift ;;
    *) die "unknown option '$1' (--help lists the options)" ;;
  esac
  shift
done
whole_number --repeats "$repeats"
whole_number --threads "$RUN_THREADS"
case $wait in '' | auto | active | passive) ;; *) die "--wait '$wait': expected auto, active or passive" ;; esac

# Small sizes: a run takes a second or less on an idle core.
declare -A args=(
  [airfoil]="inputs/airfoil.in mesh=$out/naca_120x60.dat mesh_i=120 mesh_j=60 iterations=100 print_every=100 write_solution=no"
  [jacobi]="inputs/jacobi_dense.in ndim=512 write_solution=no"
  [heat]="inputs/heat_8000.in n=600 print_every=1"
  [euler]="inputs/euler_benchmark.in nx=250 ny=250"
)
list=()
for s in ${solvers//,/ }; do
  [ -n "${args[$s]:-}" ] || die "--solvers: unknown solver '$s' (airfoil, jacobi, heat, euler)"
  for b in seq openmp; do
    [ -x "$bdir/solvers/$s/${s}_$b" ] ||
      die "$bdir/solvers/$s/${s}_$b is not built (scripts/build.sh release ${s}_seq ${s}_openmp)"
  done
  list+=("$s")
done

# The synthetic load: one busy process per core, each bounded in time, all
# killed when the script ends.
busy=()
stop_load() {
  local p
  for p in "${busy[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${busy[@]}"; do wait "$p" 2>/dev/null; done
  busy=()
}
trap stop_load EXIT
trap 'stop_load; exit 130' INT TERM
start_load() {
  local i
  for ((i = 0; i < $(nproc); i++)); do
    timeout 600 sh -c 'while :; do :; done' &
    busy+=($!)
  done
}

rm -rf "$out/runs"
mkdir -p "$out/runs" || die "cannot create $out"
csv=$out/bench-load.csv
echo "condition,solver,backend,round,seconds,load" >"$csv.tmp"
status=0

# run_one CONDITION SOLVER BACKEND ROUND: one timed run, its line in the CSV.
run_one() {
  local cond=$1 s=$2 b=$3 r=$4 log=$out/runs/$1-$2-$3-$4.log load t0 t1 rc
  local cmd=("$bdir/solvers/$s/${s}_$b" ${args[$s]} "output_dir=$out/runs/$cond-$s-$b")
  [ "$b" = openmp ] && cmd+=("--op-threads=$RUN_THREADS" ${wait:+"--op-wait=$wait"})
  load=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s.%N)
  "${cmd[@]}" >"$log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  if [ "$rc" -ne 0 ]; then
    echo "bench-load.sh: ${cmd[*]} exited $rc (log: $log)" >&2
    status=1
    return
  fi
  echo "$cond,$s,$b,$r,$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }'),$load" >>"$csv.tmp"
}

for cond in as-is loaded; do
  if [ "$cond" = loaded ]; then
    start_load
    sleep 5 # the busy processes running, the load average on its way up
  fi
  for ((r = 1; r <= repeats; r++)); do
    for s in "${list[@]}"; do
      for b in seq openmp; do run_one "$cond" "$s" "$b" "$r"; done
    done
  done
  [ "$cond" = loaded ] && stop_load
done
mv "$csv.tmp" "$csv" || die "cannot write $csv"

# The report: medians per condition, solver and backend, and OpenMP/seq.
cpu=$(awk -F': ' '/^model name/ { m = $2 } /^cpu family/ { f = $2 } /^model\t/ { n = $2 }
                  END { printf "%s, family %s model %s", m, f, n; exit }' /proc/cpuinfo)
{
  echo "# OpenMP against seq, idle-as-is and loaded"
  echo
  echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $cpu, $(nproc) cores; OpenMP on $RUN_THREADS threads" \
       "(--op-wait=${wait:-auto}); loaded: $(nproc) busy processes added; median of $repeats."
  echo
  echo "| condition | load (1-min, at the runs) | solver | seq (s) | openmp (s) | openmp/seq |"
  echo "|---|---:|---|---:|---:|---:|"
  python3 - "$csv" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
seen = []
for r in rows:
    k = (r["condition"], r["solver"])
    if k not in seen: seen.append(k)
for cond, s in seen:
    t = {b: [float(r["seconds"]) for r in rows if (r["condition"], r["solver"], r["backend"]) == (cond, s, b)]
         for b in ("seq", "openmp")}
    loads = [float(r["load"]) for r in rows if (r["condition"], r["solver"]) == (cond, s)]
    if not t["seq"] or not t["openmp"]: continue
    seq, omp = statistics.median(t["seq"]), statistics.median(t["openmp"])
    print(f"| {cond} | {min(loads):.1f} to {max(loads):.1f} | {s} | {seq:.3f} | {omp:.3f} | {omp / seq:.2f} |")
EOF
} >"$out/report.md.tmp" && mv "$out/report.md.tmp" "$out/report.md" || die "cannot write $out/report.md"
cat "$out/report.md"
exit $status
