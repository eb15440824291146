#!/usr/bin/env bash
# Strong scaling of airfoil on this machine's cores (docs/performance.md,
# "MPI: strong scaling here"): the standard mesh (NACA0012 C-mesh I = 400,
# J = 600: 720000 cells) and the same with I and J doubled (2.88M cells), on
# 1 and 2 processes with airfoil_mpi and airfoil_mpi_openmp, beside
# airfoil_openmp alone on 1 and 2 threads. The configurations are run in
# rounds (each round runs every one once, in the same order), so that a
# change in the machine's load reaches them all; the table gives the median
# over the rounds of the timed iterations (result.json's
# wall_seconds_main_loop), the speed-up over OpenMP on one thread, and the
# whole run (mesh read in slices, partitioning, migration included).
#
#   scripts/bench-mpi.sh [options]
#
#   --meshes LIST     720k, 2.88m or IxJ (another C-mesh size), comma-separated
#                     (default 720k,2.88m)
#   --iterations N    iterations a run (default 100)
#   --repeats N       rounds (default 3)
#   --no-build        run the release build as it is
#   --build-dir DIR   run the build in DIR as it is
#   --mesh-dir DIR    where the meshes are kept (default meshes/data)
#   --update-docs     also write the table into docs/performance.md (or the
#                     file --docs names), between its scripts/bench-mpi.sh
#                     markers
#   --note TEXT       a line the table carries (e.g. the state of the machine)
#   --out DIR         the report (default outputs/bench-mpi)
# The meshes are generated on first use (naca_cmesh, then
# airfoil_convert to OP2's HDF5 layout, which the MPI executables read in
# slices). Writes DIR/report.md, DIR/bench-mpi.csv and DIR/runs/ (every run's
# log and result.json).
# Exit: 0 done; 1 a run failed; 2 bad usage or the build failed; 130 interrupted.
OP2_HELP_OWN_USAGE=1 . "$(dirname "$0")/lib/help.sh" # --version
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. scripts/lib/runs.sh
cmdline=scripts/bench-mpi.sh
for a in "$@"; do
  case $a in
    *[!A-Za-z0-9_./=,:+-]*) cmdline+=" \"$a\"" ;;
    *) cmdline+=" $a" ;;
  esac
done

meshes=720k,2.88m iterations=100 repeats=3 build=1 update_docs=0 note= out=outputs/bench-mpi
bdir=$root/build/release mesh_dir=$root/meshes/data doc=docs/performance.md
while [ $# -gt 0 ]; do
  opt=$1
  case $opt in
    --*=*) set -- "${opt%%=*}" "${opt#*=}" "${@:2}"; opt=$1 ;;
  esac
  case $opt in
    --meshes | --iterations | --repeats | --note | --out | --build-dir | --mesh-dir | --docs)
      need_value "$@"
      case $opt in
        --meshes) meshes=$2 ;; --iterations) iterations=$2 ;; --repeats) repeats=$2 ;;
        --note) note=$2 ;; --out) out=$2 ;; --build-dir) bdir=$(realpath "$2") build=0 ;;
        --mesh-dir) mesh_dir=$(realpath -m "$2") ;; --docs) doc=$2 ;;
      esac
      shift ;;
    --no-build) build=0 ;;
    --update-docs) update_docs=1 ;;
    -h | --help) usage; exit 0 ;;
    *) die "unknown argument '$opt' (--help lists the options)" ;;
  esac
  shift
done
whole_number --iterations "$iterations"
whole_number --repeats "$repeats"
mesh_list=()
for m in ${meshes//,/ }; do
  case $m in
    720k | 2.88m) mesh_list+=("$m") ;;
    *) [[ $m =~ ^[1-9][0-9]*x[1-9][0-9]*$ ]] ||
         die "--meshes: unknown mesh '$m' (known: 720k, 2.88m, or IxJ such as 40x30)"
       mesh_list+=("$m") ;;
  esac
done
[ ${#mesh_list[@]} -gt 0 ] || die "--meshes: no mesh given"
command -v mpirun >/dev/null 2>&1 || die "mpirun is not installed (scripts/install-deps.sh)"
py=$(run_python) || die "python3 is needed to read the runs' result.json"

targets=(airfoil_openmp airfoil_mpi airfoil_mpi_openmp naca_cmesh airfoil_convert)
if [ "$build" = 1 ]; then
  { cmake --preset release && cmake --build --preset release --target "${targets[@]}"; } >/dev/null ||
    die "the release build failed (run cmake --build --preset release to see why)"
fi
for t in airfoil_openmp airfoil_mpi airfoil_mpi_openmp; do
  [ -x "$bdir/solvers/airfoil/$t" ] || die "$bdir/solvers/airfoil/$t is not built (MPI layer off?)"
done

# The mesh NAME's HDF5 file, generated when missing (written beside, renamed).
mesh_file() {
  local ij h5 dat
  case $1 in 720k) ij="400 600" ;; 2.88m) ij="800 1200" ;; *) ij=${1/x/ } ;; esac
  set -- $ij
  h5=$mesh_dir/naca_${1}x${2}.h5 dat=$mesh_dir/naca_${1}x${2}.tmp.dat
  if [ ! -s "$h5" ]; then
    mkdir -p "$mesh_dir"
    echo "generating the C-mesh I=$1 J=$2 into $h5" >&2
    "$bdir/meshes/naca_cmesh" -I "$1" -J "$2" -o "$dat" >&2 &&
      "$bdir/meshes/airfoil_convert" "$dat" "${h5%.h5}.tmp.h5" >&2 &&
      mv "${h5%.h5}.tmp.h5" "$h5" || { rm -f "$dat" "${h5%.h5}.tmp.h5"; die "could not make the mesh $h5"; }
    rm -f "$dat"
  fi
  echo "$h5"
}

# Configurations: label, backend, processes, threads a process.
configs=("openmp|openmp|1|1" "openmp|openmp|1|2" "mpi|mpi|1|1" "mpi|mpi|2|1"
         "mpi_openmp|mpi_openmp|1|2" "mpi_openmp|mpi_openmp|2|1")

# config_command BACKEND PROCESSES THREADS: RUN_CMD for one configuration.
config_command() {
  RUN_RANKS=$2 RUN_THREADS=$(($2 * $3))
  RUN_MPI_OPENMP_RANKS=$2
  backend_command "$1" "$bdir/solvers/airfoil/airfoil_$1"
}

rm -rf "$out/runs"
mkdir -p "$out/runs" || die "cannot create $out"
csv=$out/bench-mpi.csv
echo "mesh,backend,processes,threads,round,main_loop_s,total_s" >"$csv.tmp"
status=0
declare -A mesh_path
for m in "${mesh_list[@]}"; do mesh_path[$m]=$(mesh_file "$m") || exit 2; done
started=$(date -u '+%Y-%m-%d %H:%M UTC')
for ((r = 1; r <= repeats && !RUN_STOP; r++)); do
  for m in "${mesh_list[@]}"; do
    for c in "${configs[@]}"; do
      [ "$RUN_STOP" = 1 ] && break
      IFS='|' read -r label backend np nt <<<"$c"
      config_command "$backend" "$np" "$nt"
      dir=$out/runs/$m/${label}_${np}x${nt}_r$r
      mkdir -p "$dir"
      printf 'round %d/%d  %-6s %-11s %d x %d ... ' "$r" "$repeats" "$m" "$label" "$np" "$nt"
      run_logged "$root" "$dir/run.log" "${RUN_CMD[@]}" "mesh=${mesh_path[$m]}" \
        "iterations=$iterations" "print_every=$iterations" write_solution=no "output_dir=$dir"
      rc=$?
      if [ $rc -ne 0 ] || [ ! -s "$dir/result.json" ]; then
        echo "FAILED (exit $rc; $dir/run.log)"
        status=1
        continue
      fi
      t=$("$py" -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["wall_seconds_main_loop"], j["wall_seconds_total"])' "$dir/result.json")
      read -r loop total <<<"$t"
      printf '%.2f s (whole run %.2f s)\n' "$loop" "$total"
      echo "$m,$label,$np,$nt,$r,$loop,$total" >>"$csv.tmp"
    done
  done
done
mv "$csv.tmp" "$csv"
[ "$RUN_STOP" = 1 ] && status=130

# The table: medians over the rounds.
machine="$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $(nproc) cores"
"$py" - "$csv" "$out/report.md" "$iterations" "$repeats" "$started" "$machine" \
  "$out/runs" "$note" "$cmdline" <<'EOF' || status=1
import csv, statistics, sys
src, dst, iters, repeats, started, machine, runs, note, cmdline = sys.argv[1:10]
# The commit the executables were built from, as their runs report it.
import glob, json
commit = "unknown"
for f in sorted(glob.glob(f"{runs}/*/*/result.json"))[:1]:
    b = json.load(open(f))["build"]
    commit = b["commit"][:12] + (" with uncommitted changes" if b.get("commit_dirty") else "")
rows = list(csv.DictReader(open(src)))
def cells(mesh):
    i, j = {"720k": (400, 600), "2.88m": (800, 1200)}.get(mesh) or map(int, mesh.split("x"))
    n = 3 * i * j
    size = f"{n / 1e6:.3g}M" if n >= 1e6 else f"{n / 1e3:.3g}K" if n >= 1e3 else str(n)
    return f"{size} cells (I = {i}, J = {j})"
order = []
for r in rows:
    key = (r["mesh"], r["backend"], int(r["processes"]), int(r["threads"]))
    if key not in order:
        order.append(key)
def med(key, field):
    v = [float(r[field]) for r in rows
         if (r["mesh"], r["backend"], int(r["processes"]), int(r["threads"])) == key]
    return statistics.median(v), len(v)
out = [f"Taken {started}: `{cmdline}` ({iters} iterations a run, median of {repeats} rounds); "
       f"{machine}; executables built from commit {commit}.",
       ""]
if note:
    out += [note, ""]
out += ["| mesh | executable | processes x threads | iterations (s, median) | per iteration (ms) "
        "| speed-up over openmp 1 x 1 | whole run (s) |",
        "|---|---|---:|---:|---:|---:|---:|"]
for key in order:
    mesh, backend, np_, nt = key
    t, n = med(key, "main_loop_s")
    total, _ = med(key, "total_s")
    base = (mesh, "openmp", 1, 1)
    speed = f"{med(base, 'main_loop_s')[0] / t:.2f}" if base in order else "n/a"
    out.append(f"| {cells(mesh)} | airfoil_{backend} | {np_} x {nt} | {t:.2f} | "
               f"{1000 * t / int(iters):.1f} | {speed} | {total:.2f} |")
open(dst + ".tmp", "w").write("\n".join(out) + "\n")
import os
os.replace(dst + ".tmp", dst)
EOF
[ -s "$out/report.md" ] && cat "$out/report.md"

if [ "$update_docs" = 1 ] && [ -s "$out/report.md" ]; then
  begin='<!-- scripts/bench-mpi.sh: begin -->' end='<!-- scripts/bench-mpi.sh: end -->'
  grep -qxF "$begin" "$doc" && grep -qxF "$end" "$doc" || die "$doc has no $begin ... $end markers"
  awk -v b="$begin" -v e="$end" -v f="$out/report.md" '
    $0 == b { print; while ((getline l < f) > 0) print l; skip = 1; next }
    $0 == e { skip = 0 }
    !skip' "$doc" >"$doc.tmp" && mv "$doc.tmp" "$doc" || die "could not update $doc"
  echo "updated $doc"
fi
exit "$status"
