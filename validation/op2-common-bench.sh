#!/usr/bin/env bash
# op2-common-bench.sh - the airfoil standard run of OP2-Common's best CPU
# builds (its generated seq and generated OpenMP code, from its current
# translator, the OpenMP run at its fastest part size) side by side with this
# suite's airfoil_seq and airfoil_openmp, on the same new_grid.dat, in
# interleaved rounds; writes a Markdown table that names the host.
#
#   validation/op2-common-bench.sh [options] OP2_COMMON_GIT
#
#   OP2_COMMON_GIT   OP2-Common's git repository: a checkout (with .git) or a
#                    bare repository (default: $OP2_COMMON_DIR). History is
#                    needed: see scripts/lib/op2_common.sh, "which airfoil".
#   --work DIR       where everything goes (default: build/op2-common/bench)
#   --build DIR      this suite's build (default: build/release)
#   --rounds N       interleaved rounds (default: 3)
#   --threads N      OpenMP threads of both OpenMP builds (default: 2)
#   --translator T   auto (default: translator-v2 where it runs, else
#                    translator/c), v2 or c
#   --part-sizes L   OP_PART_SIZE values of OP2's OpenMP runs, comma-separated
#                    (default: 256,512,1024,2048,4096); each runs once a round
#                    and the fastest median stands for OP2's OpenMP
#   --iterations N   iterations of every run, a multiple of 100 (default:
#                    1000, the standard run; OP2's airfoil has them fixed in
#                    its source, so its exported copy is changed to N before
#                    it is compiled)
#   --no-renumber    leave out this suite's runs with renumber=yes
#   --out FILE       the table (default: WORK/table.md)
#   --note TEXT      a line the table carries (the state of the machine)
#   --update-docs    also put the table into docs/performance.md between its
#                    op2-common-bench.sh markers: it replaces this host's
#                    earlier table of the same translator (hosts differ by
#                    lscpu's model name, family, model and CPU count) or
#                    joins the others, and the summary of every host's ratios
#                    above them is redone
#
# Nothing of OP2-Common enters this tree: its sources are exported from the
# repository into WORK, its translator writes the generated code there, and
# it is compiled there with g++ -O3 -march=native (OP2-Common's own flags for
# GNU compilers) against its op2/src core, sequential and OpenMP back ends
# (scripts/lib/op2_common.sh). This suite's runs read the same mesh
# (inputs/airfoil.in, write_solution=no, image=none).
#
# Each round runs, in this order: OP2 generated seq, suite seq [, suite seq
# renumbered], OP2 generated OpenMP at each part size, suite OpenMP [, suite
# OpenMP renumbered]. Times are each program's own timer around the
# iterations ("Max total runtime" and "N iterations in X s"); the table gives
# every round, the median and range over the rounds and OP2's median over
# ours (validation/op2_common_bench_report.py). The printed rms history of
# every run of the first round is compared with OP2's seq run
# (op2_common_compare.py rms): a faster run that computes something else is
# no comparison.
#
# Exit 0 when every run succeeded and the histories agree, 1 when not, 2 on a
# usage or build error, 77 without a repository.
OP2_HELP_OWN_USAGE=1 . "$(dirname "$0")/../scripts/lib/help.sh" # --version
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
root=$PWD
. scripts/lib/runs.sh
. scripts/lib/op2_common.sh
# runs.sh's Ctrl-C handling is for runs started through run_logged, which
# this script does not use: a signal ends it, as it would without.
trap - INT TERM

src=${OP2_COMMON_DIR:-}
work=$root/build/op2-common/bench
bdir=$root/build/release
rounds=3
threads=2
translator=auto
part_sizes=256,512,1024,2048,4096
iterations=1000
renumber=1
out=
update_docs=0
note=
cmd_args=()  # the command as the table gives it: the repository as path/to/OP2-Common
while [ $# -gt 0 ]; do
  case $1 in
    --note) cmd_args+=("$1" "\"${2:-}\"") ;;
    --*) cmd_args+=("$1") ;;
  esac
  case $1 in
    --work) need_value "$@"; work=$(realpath -m "$2"); cmd_args+=("$2"); shift ;;
    --build) need_value "$@"; bdir=$(realpath -m "$2"); cmd_args+=("$2"); shift ;;
    --rounds) need_value "$@"; whole_number "$1" "$2"; rounds=$2; cmd_args+=("$2"); shift ;;
    --threads) need_value "$@"; whole_number "$1" "$2"; threads=$2; cmd_args+=("$2"); shift ;;
    --translator) need_value "$@"; translator=$2; cmd_args+=("$2"); shift ;;
    --part-sizes) need_value "$@"; part_sizes=$2; cmd_args+=("$2"); shift ;;
    --iterations) need_value "$@"; whole_number "$1" "$2"; iterations=$2; cmd_args+=("$2"); shift ;;
    --no-renumber) renumber=0 ;;
    --out) need_value "$@"; out=$(realpath -m "$2"); cmd_args+=("$2"); shift ;;
    --update-docs) update_docs=1 ;;
    --note) need_value "$@"; note=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option $1 (--help lists the options)" ;;
    *) src=$1; cmd_args+=(path/to/OP2-Common) ;;
  esac
  shift
done
case $translator in auto | v2 | c) ;; *) die "--translator '$translator': expected auto, v2 or c" ;; esac
# Both airfoils print their rms every 100 iterations (this suite's also at
# the last): the histories compare when the iterations are hundreds.
[ $((iterations % 100)) = 0 ] || die "--iterations $iterations: a multiple of 100 (the rms history is printed every 100)"
for p in ${part_sizes//,/ }; do whole_number --part-sizes "$p"; done
[ -n "${part_sizes//,/}" ] || die "--part-sizes: at least one part size"
[ -n "$out" ] || out=$work/table.md
if [ -z "$src" ]; then
  echo "op2-common-bench: no OP2-Common repository given (argument or OP2_COMMON_DIR); skipped" >&2
  exit 77
fi
for e in solvers/airfoil/airfoil_seq solvers/airfoil/airfoil_openmp meshes/naca_cmesh; do
  [ -x "$bdir/$e" ] || die "$bdir/$e is missing: build the release preset first"
done
py=$(run_python) || die "python3 is needed"

# ---- 1. OP2-Common's sources, exported into WORK and translated (scripts/lib/op2_common.sh) --
op2c_sources "$src" "$work" "$translator" || exit 2

# ---- 2. its build -------------------------------------------------------------------------
log=$work/build.log
: >"$log"
bin=$work/bin/${OP2C_TRANSLATOR//\//-}-$iterations
mkdir -p "$bin" || die "cannot create $bin"
echo "== building OP2-Common's generated seq and OpenMP airfoil ($OP2C_TRANSLATOR, g++ -O3 -march=native)"
for kind in seq openmp; do
  [ -x "$bin/op2_$kind" ] || op2c_build_cpu "$work" "$kind" "$bin/op2_$kind" "$iterations" || exit 2
done

# ---- 3. the mesh: naca_cmesh's standard C-mesh, read by every run ---------------------------
mesh=$work/new_grid.dat
[ -f "$mesh" ] || "$bdir/meshes/naca_cmesh" -o "$mesh" >>"$log" 2>&1 || die "naca_cmesh failed; see $log"

# ---- 4. interleaved rounds ----------------------------------------------------------------
# variant NAME: the command of one run (in its own directory, new_grid.dat linked there).
variant() {
  local deck=(inputs/airfoil.in "mesh=$mesh" write_solution=no image=none "iterations=$iterations")
  case $1 in
    op2-seq) echo "$bin/op2_seq" ;;
    op2-openmp-*) echo "env OMP_NUM_THREADS=$threads $bin/op2_openmp OP_PART_SIZE=${1#op2-openmp-}" ;;
    seq) echo "$bdir/solvers/airfoil/airfoil_seq ${deck[*]}" ;;
    seq-renumber) echo "$bdir/solvers/airfoil/airfoil_seq ${deck[*]} renumber=yes" ;;
    openmp) echo "env OMP_NUM_THREADS=$threads $bdir/solvers/airfoil/airfoil_openmp ${deck[*]}" ;;
    openmp-renumber) echo "env OMP_NUM_THREADS=$threads $bdir/solvers/airfoil/airfoil_openmp ${deck[*]} renumber=yes" ;;
  esac
}
# solve_time FILE: the program's own time of the iterations.
solve_time() {
  sed -n 's/^Max total runtime = \([0-9.]*\).*/\1/p; s/^airfoil: [0-9]* iterations in \([0-9.]*\) s.*/\1/p' "$1" | tail -n 1
}
order=(op2-seq seq)
[ $renumber = 0 ] || order+=(seq-renumber)
for p in ${part_sizes//,/ }; do order+=("op2-openmp-$p"); done
order+=(openmp)
[ $renumber = 0 ] || order+=(openmp-renumber)

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
loads=()
status=0
: >"$work/times.tsv"
for r in $(seq 1 "$rounds"); do
  for v in "${order[@]}"; do
    dir=$work/runs/$r/$v
    rm -rf "$dir" && mkdir -p "$dir" && ln -s "$mesh" "$dir/new_grid.dat"
    cmd=$(variant "$v")
    # shellcheck disable=SC2086 # the command is words by design
    case $v in op2-*) (cd "$dir" && $cmd >"$dir/out.txt" 2>&1); rc=$? ;;
               *) (cd "$root" && $cmd output_dir="$dir/out" >"$dir/out.txt" 2>&1); rc=$? ;;
    esac
    t=$(solve_time "$dir/out.txt")
    if [ $rc != 0 ] || [ -z "$t" ]; then
      echo "op2-common-bench: round $r, $v failed (exit $rc); see $dir/out.txt" >&2
      status=1; t=nan
    fi
    printf '%s\t%s\t%s\n' "$v" "$r" "$t" >>"$work/times.tsv"
    load=$(cut -d' ' -f1 /proc/loadavg)
    loads+=("$load")
    printf '  round %d  %-22s %8s s   (load %s)\n' "$r" "$v" "$t" "$load"
  done
done
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# The printed rms history of every run of round 1 against OP2's seq.
: >"$work/agree.txt"
for v in "${order[@]}"; do
  [ "$v" = op2-seq ] && continue
  if "$py" validation/op2_common_compare.py rms "$work/runs/1/op2-seq" "$work/runs/1/$v" \
      >"$work/runs/1/$v/compare.txt" 2>&1; then
    echo "$v: the rms history agrees with OP2's seq run" >>"$work/agree.txt"
  else
    echo "$v: the rms history DIFFERS from OP2's seq run (see $work/runs/1/$v/compare.txt)" >>"$work/agree.txt"
    status=1
  fi
done

# ---- 5. the table -------------------------------------------------------------------------
{
  # A translator/c table stands beside the host's translator-v2 one, not for it.
  echo "host_key=$(host_key)$([ "$OP2C_TRANSLATOR" = translator-v2 ] || echo -translator-c)"
  echo "host=$(host_describe)"
  echo "date=$(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "command=validation/op2-common-bench.sh ${cmd_args[*]}"
  echo "suite_commit=$(source_describe "$root")"
  echo "build=${bdir#"$root"/}"
  echo "op2_commit=${OP2C_HEAD:0:12}"
  echo "app_commit=${OP2C_APP_COMMIT:0:12}"
  echo "tree_commit=${OP2C_TREE_COMMIT:0:12}"
  echo "translator=$OP2C_TRANSLATOR"
  [ "$translator" = c ] || echo "translator_why=$OP2C_WHY"
  echo "threads=$threads"
  echo "iterations=$iterations"
  echo "rounds=$rounds"
  echo "load_before=$load_before"
  echo "load_after=$load_after"
  echo "load_runs=$(printf '%s\n' "${loads[@]}" | sort -g | sed -n '1p;$p' | paste -sd-)"
  [ -z "$note" ] || echo "note=$note"
} >"$work/meta.txt"
docs=()
[ $update_docs = 0 ] || docs=(--docs docs/performance.md)
"$py" validation/op2_common_bench_report.py "$work" "${docs[@]}" || exit 2
if [ "$out" != "$work/table.md" ]; then
  cp "$work/table.md" "$out.tmp" && mv "$out.tmp" "$out" || die "cannot write $out"
fi
exit $status
