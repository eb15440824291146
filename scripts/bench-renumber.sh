#!/usr/bin/env bash
# What renumbering gains and costs (docs/performance.md, "Renumbering from any order"): the
# airfoil C-mesh as naca_cmesh writes it and the same mesh with its nodes, cells and edges
# numbered at random from a stated seed (airfoil_convert --permute), each run with
# renumber=no, yes and auto, on seq and OpenMP, in interleaved rounds (every configuration
# once a round, in turn, so that a drift of the machine's speed touches them all alike).
#
# usage: scripts/bench-renumber.sh [--mesh-i I] [--mesh-j J] [--iterations N] [--rounds R]
#                                  [--seed S] [--backends "seq openmp"] [--threads T]
#                                  [--no-build] [--out DIR]
#
#   --mesh-i I, --mesh-j J  the C-mesh (default 200 x 150: 90000 cells; 400 x 600 is the
#                           standard mesh, about 50 s a 300 iterations on one core)
#   --iterations N          iterations a run (default 300)
#   --rounds R              interleaved rounds (default 3); the table gives the medians
#   --seed S                the permutation's seed (default 1)
#   --backends LIST         default "seq openmp"
#   --threads T             OpenMP threads (default: every core)
#   --no-build              use build/release as it is
#   --out DIR               where the meshes, runs and report go (default outputs/bench-renumber)
# Writes DIR/report.md: the machine (CPU family and model), the load before and after, the
# commit, this command, then per backend and mesh the median whole-run and iteration times
# of each renumber setting, their ratio to the best order's (the generator's mesh with
# renumber=no), what renumber=auto chose, and the maps' step bits it measured. Exit 0, 1 when
# a run failed, 2 on bad usage.
. "$(dirname "$0")/lib/help.sh"
set -uo pipefail
cmdline="scripts/bench-renumber.sh $*"
cd "$(dirname "$0")/.." || exit 2
. scripts/lib/runs.sh

mi=200 mj=150 iterations=300 rounds=3 seed=1 backends="seq openmp" threads=$(nproc) build=1
out=outputs/bench-renumber
while [ $# -gt 0 ]; do
  case $1 in
    --mesh-i) need_value "$@"; whole_number "$1" "$2"; mi=$2; shift ;;
    --mesh-j) need_value "$@"; whole_number "$1" "$2"; mj=$2; shift ;;
    --iterations) need_value "$@"; whole_number "$1" "$2"; iterations=$2; shift ;;
    --rounds) need_value "$@"; whole_number "$1" "$2"; rounds=$2; shift ;;
    --seed) need_value "$@"; [[ $2 =~ ^[0-9]+$ ]] || die "--seed '$2': expected a whole number >= 0"
            seed=$2; shift ;;
    --backends) need_value "$@"; backends=$2; shift ;;
    --threads) need_value "$@"; whole_number "$1" "$2"; threads=$2; shift ;;
    --no-build) build=0 ;;
    --out) need_value "$@"; out=$2; shift ;;
    *) die "unknown argument '$1' (--help lists the options)" ;;
  esac
  shift
done
for b in $backends; do
  case $b in seq | openmp) ;; *) die "--backends: '$b' is not seq or openmp" ;; esac
done

B=build/release
targets=(naca_cmesh airfoil_convert)
for b in $backends; do targets+=("airfoil_$b"); done
if [ $build = 1 ]; then
  scripts/build.sh release "${targets[@]}" >/dev/null || die "the build failed"
fi
for exe in meshes/naca_cmesh meshes/airfoil_convert; do
  [ -x "$B/$exe" ] || die "$B/$exe is not built (run without --no-build)"
done
for b in $backends; do
  [ -x "$B/solvers/airfoil/airfoil_$b" ] || die "$B/solvers/airfoil/airfoil_$b is not built (run without --no-build)"
done
py=$(run_python) || die "python3 is needed for the report"
mkdir -p "$out/runs" || die "cannot make $out/runs"

mesh=$out/mesh_${mi}x${mj}.dat permuted=$out/mesh_${mi}x${mj}_permuted_seed$seed.dat
if [ ! -s "$mesh" ]; then
  "$B/meshes/naca_cmesh" -I "$mi" -J "$mj" -o "$mesh" >/dev/null || die "naca_cmesh failed"
fi
if [ ! -s "$permuted" ]; then
  "$B/meshes/airfoil_convert" --permute "$seed" "$mesh" "$permuted" || die "airfoil_convert --permute failed"
fi

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
status=0
for r in $(seq 1 "$rounds"); do
  for b in $backends; do
    threads_opt=()
    [ "$b" = openmp ] && threads_opt=(--op-threads="$threads")
    for m in original permuted; do
      file=$mesh
      [ $m = permuted ] && file=$permuted
      for setting in no yes auto; do
        name=$b-$m-$setting-$r
        echo "round $r/$rounds: $b, $m mesh, renumber=$setting"
        rm -rf "$out/runs/$name"
        "$B/solvers/airfoil/airfoil_$b" inputs/airfoil.in "mesh=$file" "iterations=$iterations" \
          image=none write_solution=no "renumber=$setting" "output_dir=$out/runs/$name" \
          "${threads_opt[@]}" >"$out/runs/$name.log" 2>&1 ||
          { echo "run $name failed: $out/runs/$name.log"; status=1; }
      done
    done
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

"$py" - "$out" "$rounds" "$backends" <<'EOF' >"$out/report.body" || status=1
import json, os, re, statistics, sys
out, rounds, backends = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
def run(name):
    with open(os.path.join(out, "runs", name, "result.json")) as f:
        d = json.load(f)
    with open(os.path.join(out, "runs", name + ".log")) as f:
        m = re.search(r"renumber=\w+: (renumbered|kept the mesh's order) \(mean step bits "
                      r"([0-9.]+)(?: -> ([0-9.]+))?", f.read())
    return d["wall_seconds_total"], d["wall_seconds_main_loop"], m
print("| backend | mesh | renumber | whole run (s) | iterations (s) | whole run / best | "
      "iterations / best | chose | step bits before -> after |")
print("|---|---|---|---:|---:|---:|---:|---|---|")
for b in backends:
    rows, best = [], None
    for mesh in ("original", "permuted"):
        for s in ("no", "yes", "auto"):
            got = [run(f"{b}-{mesh}-{s}-{r}") for r in range(1, rounds + 1)]
            total = statistics.median(g[0] for g in got)
            loop = statistics.median(g[1] for g in got)
            m = got[-1][2]
            chose = (m.group(1) if m else "-").replace("kept the mesh's order", "kept")
            # Without an order sought (the input already too local to gain): no "after".
            bits = (f"{m.group(2)} -> {m.group(3) or '(not sought)'}") if m else "-"
            if best is None:
                best = (total, loop)
            rows.append(f"| {b} | {mesh} | {s} | {total:.2f} | {loop:.2f} | {total / best[0]:.2f} | "
                        f"{loop / best[1]:.2f} | {chose if s != 'no' else '-'} | {bits} |")
    print("\n".join(rows))
EOF

{
  echo "# Renumbering from any order: airfoil, ${mi} x ${mj} C-mesh"
  echo
  echo "- $(date -u '+%Y-%m-%d %H:%M UTC'); $(host_describe)"
  echo "- command \`$cmdline\`; commit $(source_describe .) (build/release)"
  echo "- $rounds interleaved rounds of $iterations iterations; medians; OpenMP with $threads threads;"
  echo "  the permuted mesh from \`airfoil_convert --permute $seed\`"
  echo "- load average before the runs $load_before, after $load_after"
  echo
  cat "$out/report.body"
} >"$out/report.md"
rm -f "$out/report.body"
cat "$out/report.md"
exit $status
