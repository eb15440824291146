#!/usr/bin/env bash
# op2-common-bench.sh - the airfoil standard run of OP2-Common's best CPU
# builds (its generated seq and generated OpenMP code) side by side with this
# suite's airfoil_seq and airfoil_openmp, on the same new_grid.dat, in
# interleaved rounds; writes a Markdown table.
#
#   validation/op2-common-bench.sh [options] OP2_COMMON_GIT
#
#   OP2_COMMON_GIT   OP2-Common's git repository: a checkout (with .git) or a
#                    bare repository (default: $OP2_COMMON_DIR). History is
#                    needed: see "which airfoil" below.
#   --work DIR       where everything goes (default: build/op2-common/bench)
#   --build DIR      this suite's build (default: build/release)
#   --rounds N       interleaved rounds (default: 3)
#   --threads N      OpenMP threads of both OpenMP builds (default: 2)
#   --no-renumber    leave out this suite's runs with renumber=yes
#   --out FILE       the table (default: WORK/table.md)
#   --note TEXT      a line the table carries (the state of the machine)
#   --update-docs    also write it into docs/performance.md between its
#                    op2-common-bench.sh markers
#
# Nothing of OP2-Common enters this tree: its sources are exported from the
# repository into WORK, its translator (translator/c/op2.py, its own code
# generator) writes the generated code there, and it is compiled there with
# g++ -O3 -march=native (OP2-Common's own flags for GNU compilers) against
# its op2/src core, sequential and OpenMP back ends.
#
# Which airfoil: OP2-Common's airfoil_plain/dp as of the commit before its
# update kernel took op_arg_idx and op_arg_info (which translator/c cannot
# translate): the classic airfoil that OP2's papers time, the same loops as
# solvers/airfoil. It reads new_grid.dat in its working directory and runs
# 1000 iterations (fixed in its source); this suite's runs read the same file
# (inputs/airfoil.in, write_solution=no, image=none).
#
# Each round runs, in this order: OP2 generated seq, suite seq [, suite seq
# renumbered], OP2 generated OpenMP, suite OpenMP [, suite OpenMP
# renumbered]. Times are each program's own timer around the 1000 iterations
# ("Max total runtime" and "N iterations in X s"); the table gives the
# median over the rounds and OP2's median over ours. The printed rms history
# of the first round is compared (op2_common_compare.py rms): a faster run
# that computes something else is no comparison.
#
# Exit 0 when every run succeeded and the histories agree, 1 when not, 2 on a
# usage or build error, 77 without a repository.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
root=$PWD

usage() { sed -n '2,/^set -uo/p' "$0" | sed 's/^# \{0,1\}//; /^set -uo/d'; }

src=${OP2_COMMON_DIR:-}
work=$root/build/op2-common/bench
bdir=$root/build/release
rounds=3
threads=2
renumber=1
out=
update_docs=0
note=
while [ $# -gt 0 ]; do
  case $1 in
    --work) work=$(realpath -m "$2"); shift ;;
    --build) bdir=$(realpath -m "$2"); shift ;;
    --rounds) rounds=$2; shift ;;
    --threads) threads=$2; shift ;;
    --no-renumber) renumber=0 ;;
    --out) out=$(realpath -m "$2"); shift ;;
    --update-docs) update_docs=1 ;;
    --note) note=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "op2-common-bench: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) src=$1 ;;
  esac
  shift
done
case $rounds in ''|*[!0-9]*|0) echo "op2-common-bench: --rounds wants a positive integer, not '$rounds'" >&2; exit 2 ;; esac
case $threads in ''|*[!0-9]*|0) echo "op2-common-bench: --threads wants a positive integer, not '$threads'" >&2; exit 2 ;; esac
[ -n "$out" ] || out=$work/table.md
if [ -z "$src" ]; then
  echo "op2-common-bench: no OP2-Common repository given (argument or OP2_COMMON_DIR); skipped" >&2
  exit 77
fi
for e in solvers/airfoil/airfoil_seq solvers/airfoil/airfoil_openmp meshes/naca_cmesh; do
  [ -x "$bdir/$e" ] || { echo "op2-common-bench: $bdir/$e is missing: build the release preset first" >&2; exit 2; }
done

# ---- 1. OP2-Common's sources, exported into WORK and translated (scripts/lib/op2_common.sh) --
. scripts/lib/op2_common.sh
op2c_sources "$src" "$work" || exit 2
head=$OP2C_HEAD app_commit=$OP2C_APP_COMMIT
op2=$work/OP2-Common
gen=$work/generated

# ---- 2. its build -------------------------------------------------------------------------
log=$work/build.log
: >"$log"
echo "== building OP2-Common's generated seq and OpenMP airfoil (g++ -O3 -march=native)"
cxx=(g++ -O3 -march=native -std=c++17 -fopenmp -I"$op2/op2/include")
core=()
for f in core/op_lib_core core/op_rt_support core/SafeLong core/op_dummy_singlenode \
         externlib/op_profile sequential/op_seq openmp/op_openmp_decl; do
  o=$work/obj/$(basename "$f").o
  [ -f "$o" ] || "${cxx[@]}" -c "$op2/op2/src/$f.cpp" -o "$o" >>"$log" 2>&1 || {
    echo "op2-common-bench: OP2-Common's $f.cpp does not build; see $log" >&2; exit 2; }
  case $f in sequential/*|openmp/*) ;; *) core+=("$o") ;; esac
done
[ -x "$work/op2_genseq" ] ||
  "${cxx[@]}" -I"$gen" "$gen/airfoil_op.cpp" "$gen/seq/airfoil_seqkernels.cpp" "${core[@]}" \
    "$work/obj/op_seq.o" -o "$work/op2_genseq" >>"$log" 2>&1 || {
    echo "op2-common-bench: OP2-Common's generated seq airfoil does not build; see $log" >&2; exit 2; }
[ -x "$work/op2_openmp" ] ||
  "${cxx[@]}" -I"$gen" "$gen/airfoil_op.cpp" "$gen/openmp/airfoil_kernels.cpp" "${core[@]}" \
    "$work/obj/op_openmp_decl.o" -o "$work/op2_openmp" >>"$log" 2>&1 || {
    echo "op2-common-bench: OP2-Common's generated OpenMP airfoil does not build; see $log" >&2; exit 2; }

# ---- 3. the mesh: naca_cmesh's standard C-mesh, read by every run ---------------------------
mesh=$work/new_grid.dat
[ -f "$mesh" ] || "$bdir/meshes/naca_cmesh" -o "$mesh" >>"$log" 2>&1 || {
  echo "op2-common-bench: naca_cmesh failed; see $log" >&2; exit 2; }

# ---- 4. interleaved rounds ----------------------------------------------------------------
# variant NAME: the command of one run (in its own directory, new_grid.dat linked there).
variant() {
  local deck=(inputs/airfoil.in "mesh=$mesh" write_solution=no image=none)
  case $1 in
    op2-seq) echo "$work/op2_genseq" ;;
    op2-openmp) echo "env OMP_NUM_THREADS=$threads $work/op2_openmp" ;;
    seq) echo "$bdir/solvers/airfoil/airfoil_seq ${deck[*]}" ;;
    seq-renumber) echo "$bdir/solvers/airfoil/airfoil_seq ${deck[*]} renumber=yes" ;;
    openmp) echo "env OMP_NUM_THREADS=$threads $bdir/solvers/airfoil/airfoil_openmp ${deck[*]}" ;;
    openmp-renumber) echo "env OMP_NUM_THREADS=$threads $bdir/solvers/airfoil/airfoil_openmp ${deck[*]} renumber=yes" ;;
  esac
}
# solve_time FILE: the program's own time of the 1000 iterations.
solve_time() {
  sed -n 's/^Max total runtime = \([0-9.]*\).*/\1/p; s/^airfoil: [0-9]* iterations in \([0-9.]*\) s.*/\1/p' "$1" | tail -1
}
order=(op2-seq seq)
[ $renumber = 0 ] || order+=(seq-renumber)
order+=(op2-openmp openmp)
[ $renumber = 0 ] || order+=(openmp-renumber)

status=0
declare -A times
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
    [ -z "$t" ] || t=$(printf '%.2f' "$t")
    if [ $rc != 0 ] || [ -z "$t" ]; then
      echo "op2-common-bench: round $r, $v failed (exit $rc); see $dir/out.txt" >&2
      status=1; t=nan
    fi
    times[$v]+="$t "
    printf '  round %d  %-16s %8s s\n' "$r" "$v" "$t"
  done
done

# The printed rms history of every run of round 1 against OP2's seq.
agree=()
for v in "${order[@]}"; do
  [ "$v" = op2-seq ] && continue
  if python3 validation/op2_common_compare.py rms "$work/runs/1/op2-seq" "$work/runs/1/$v" \
      >"$work/runs/1/$v/compare.txt" 2>&1; then
    agree+=("$v: the rms history agrees with OP2's")
  else
    agree+=("$v: the rms history DIFFERS from OP2's (see $work/runs/1/$v/compare.txt)")
    status=1
  fi
done

# ---- 5. the table -------------------------------------------------------------------------
median() { tr ' ' '\n' | grep -v '^$' | sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else if (NR % 2) print a[(NR+1)/2]; else print (a[NR/2]+a[NR/2+1])/2}'; }
{
  echo "Airfoil standard run (new_grid.dat from naca_cmesh, 720000 cells, 1000 iterations): time of the iterations; rounds: $rounds, interleaved; the median of the rounds."
  echo
  echo "- $(date -u '+%Y-%m-%d %H:%M UTC'); command \`validation/op2-common-bench.sh --rounds $rounds --threads $threads\`; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
  [ -z "$note" ] || echo "- $note"
  echo "- OP2-Common ${head:0:12} (airfoil as of ${app_commit:0:12}), generated by its translator/c/op2.py, g++ -O3 -march=native; this suite: ${bdir#"$root"/} (commit $(git rev-parse --short=12 HEAD))"
  for a in "${agree[@]}"; do echo "- $a"; done
  echo
  echo "| build | rounds (s) | median (s) | OP2-Common's median over this |"
  echo "|---|---|---:|---:|"
  for v in "${order[@]}"; do
    m=$(echo "${times[$v]}" | median)
    case $v in
      op2-seq) base=$m; ratio= ; name="OP2-Common generated seq" ;;
      op2-openmp) base=$m; ratio= ; name="OP2-Common generated OpenMP, $threads threads" ;;
      seq) name="airfoil_seq" ;;
      seq-renumber) name="airfoil_seq renumber=yes" ;;
      openmp) name="airfoil_openmp, $threads threads" ;;
      openmp-renumber) name="airfoil_openmp renumber=yes, $threads threads" ;;
    esac
    case $v in op2-*) ;; *) ratio=$(awk -v b="$base" -v m="$m" 'BEGIN {printf "%.2fx", b / m}') ;; esac
    echo "| $name | ${times[$v]% } | $m | $ratio |"
  done
} >"$out.tmp" && mv "$out.tmp" "$out"
cat "$out"
if [ $update_docs = 1 ]; then
  python3 - "$out" <<'PY' || status=2
import sys
sys.path.insert(0, "validation")
from result_files import replace_between_markers
replace_between_markers("docs/performance.md", "<!-- validation/op2-common-bench.sh: begin -->",
                        "<!-- validation/op2-common-bench.sh: end -->", open(sys.argv[1]).read())
PY
fi
exit $status
