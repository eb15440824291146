#!/usr/bin/env bash
# op2-common-apps.sh - OP2's own applications (OP-DSL/OP2-Common, apps/c),
# built unchanged with this suite (op2_application, op2-gen) and checked
# against what OP2-Common's own build prints for the same run.
#
#   validation/op2-common-apps.sh [options] [OP2_COMMON_DIR]
#
#   OP2_COMMON_DIR    a checkout of OP2-Common (default: $OP2_COMMON_DIR)
#   --fetch           clone OP2-Common into WORK/OP2-Common instead (network)
#   --work DIR        where everything goes (default: build/op2-common)
#   --apps LIST       comma-separated subset of: airfoil_dp, airfoil_sp,
#                     jac1_dp, jac1_sp, jac2, reduction, aero (default: all)
#   --jobs N          build jobs (default: nproc)
#   --compare-only    build and run nothing: judge the runs already in WORK
#                     again (after a change of tolerances, say)
#
# Without a checkout (and without --fetch) it exits 77: skipped.
#
# Per application:
#  1. this suite builds it for seq, OpenMP, the CPU emulation of CUDA and
#     CUDA (when nvcc is there), generic x86-64 without floating-point
#     contraction, so that its arithmetic is OP2's reference build's;
#  2. OP2-Common's own single-threaded build (its op2/src core, sequential
#     and profile sources, the application with op_seq.h) is made with g++;
#  3. runs, each in its own directory under WORK/runs/<app>/:
#       ref     OP2-Common's build
#       seq     this suite's seq backend with OP_PART_SIZE=1048576: on these
#               meshes every loop then visits its elements in order, as the
#               reference does, so results and dumps must be IDENTICAL
#       openmp  OpenMP, 2 threads, the default partition: another order of
#               the indirect increments, so results must agree to RTOL
#       cudaemu generated CUDA code on the CPU emulation (small runs only)
#       cuda    on a GPU, when there is one (else reported as skipped)
#       solver  (airfoil_dp only) this suite's own airfoil solver on the same
#               mesh: the rms it prints every 100 iterations must be OP2's
#     and each run's own verdict (airfoil's "This test is considered PASSED",
#     jac's "Results check PASSED!", reduction's "Reduction application
#     PASSED") must be there.
# Meshes: new_grid.dat from meshes/naca_cmesh (the file OP2's airfoil reads;
# the standard one, 720000 cells); aero's FE_grid.dat is made from a smaller
# C-mesh (aero's own check expects OP2's mesh, so aero is compared only).
#
# Prints a table; exit 0 when every check passed, 1 when one failed, 2 on a
# usage or build error, 77 without a checkout.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD

usage() { sed -n '2,/^set -uo/p' "$0" | sed 's/^# \{0,1\}//; /^set -uo/d'; }

src=${OP2_COMMON_DIR:-}
work=$root/build/op2-common
apps=airfoil_dp,airfoil_sp,jac1_dp,jac1_sp,jac2,reduction,aero
jobs=$(nproc)
fetch=0
compare_only=0
while [ $# -gt 0 ]; do
  case $1 in
    --fetch) fetch=1 ;;
    --compare-only) compare_only=1 ;;
    --work) work=$(realpath -m "$2"); shift ;;
    --apps) apps=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "op2-common-apps: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) src=$1 ;;
  esac
  shift
done


if [ $fetch = 1 ]; then
  src=$work/OP2-Common
  if [ ! -d "$src/.git" ]; then
    mkdir -p "$work"
    git clone --depth 1 https://github.com/OP-DSL/OP2-Common.git "$src" || {
      echo "op2-common-apps: cannot clone OP2-Common" >&2; exit 2; }
  fi
fi
if [ -z "$src" ]; then
  echo "op2-common-apps: no OP2-Common checkout given (argument, OP2_COMMON_DIR or --fetch): skipped"
  exit 77
fi
src=$(realpath "$src")
if [ ! -f "$src/apps/c/airfoil/airfoil_plain/dp/airfoil.cpp" ] || [ ! -d "$src/op2/src" ]; then
  echo "op2-common-apps: $src does not look like an OP2-Common checkout (apps/c, op2/src)" >&2
  exit 2
fi

# name | source under apps/c | mesh (none, new_grid, fe_grid) | kind | own verdict |
#   seq: whether the seq run must be identical to the reference |
#   rtol, atol: the tolerances of the other comparisons (and of seq's when not
#   identical), from the differences measured and written down in
#   docs/op2-library.md, "OP2's own applications", with a margin
# seq is identical unless a kernel increments one datum several times (aero's
# spMV and res_calc: the CPU backends add up an element's increments before
# adding them to the datum, OP2's reference adds them one by one) or a sum
# is single precision (airfoil_sp's rms: 720000 floats added in another
# association). The atol covers values that are rounding noise around zero
# (airfoil's far-field y-momentum, 1e-16) or converge to it (aero's residual;
# single-precision airfoil's rms, which sinks to single precision's rounding
# floor, about 6e-8 on the 900-cell mesh: there a mere change of the order of
# the increments moves it by up to 3.2e-9, 5% (seq with OP_PART_SIZE=64
# against 1048576), so its comparison is absolute below 1e-6).
catalogue="
airfoil_dp|airfoil/airfoil_plain/dp/airfoil.cpp|new_grid|airfoil|This test is considered PASSED|identical|1e-9|1e-14
airfoil_sp|airfoil/airfoil_plain/sp/airfoil.cpp|new_grid|airfoil|This test is considered PASSED|tolerance|1e-2|1e-8
jac1_dp|jac1/dp/jac.cpp|none|jac|Results check PASSED!|identical|1e-9|0
jac1_sp|jac1/sp/jac.cpp|none|jac|Results check PASSED!|identical|1e-9|0
jac2|jac2/jac.cpp|none|jac|Results check PASSED!|identical|1e-9|0
reduction|reduction/reduction.cpp|new_grid|reduction|Reduction application PASSED|identical|1e-9|0
aero|aero/aero_plain/aero.cpp|fe_grid|aero||tolerance|1e-9|1e-15
"
selected=()
for a in ${apps//,/ }; do
  grep -q "^$a|" <<<"$catalogue" || { echo "op2-common-apps: unknown application $a" >&2; exit 2; }
  selected+=("$a")
done
field() { grep "^$1|" <<<"$catalogue" | cut -d'|' -f"$2"; }

bdir=$work/build
ref=$work/reference
mesh=$work/meshes
if [ $compare_only = 0 ]; then
# ---- 1. the applications built with this suite ---------------------------------------
echo "== building with this suite (OP2-Common at $src)"
mkdir -p "$work/apps"
app_dirs=()
for a in "${selected[@]}"; do
  s=$src/apps/c/$(field "$a" 2)
  d=$work/apps/op2c_$a
  mkdir -p "$d"
  cat >"$d/CMakeLists.txt.new" <<EOF
# OP2-Common's $a, built unchanged with this suite (validation/op2-common-apps.sh).
op2_application(op2c_$a SOURCES $s KERNEL_DIR $(dirname "$s"))
op2_cuda_emulation(op2c_$a)
EOF
  cmp -s "$d/CMakeLists.txt.new" "$d/CMakeLists.txt" 2>/dev/null && rm "$d/CMakeLists.txt.new" ||
    mv "$d/CMakeLists.txt.new" "$d/CMakeLists.txt"
  app_dirs+=("$d")
done
list=$(IFS=';'; echo "${app_dirs[*]}")
cmake -S "$root" -B "$bdir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DOP2_NATIVE=OFF \
  -DOP2_STRICT_FP=ON -DCMAKE_CUDA_ARCHITECTURES=90 "-DOP2_EXTERNAL_APPS=$list" >"$work/configure.log" 2>&1 || {
  echo "op2-common-apps: configuring failed; see $work/configure.log" >&2; exit 2; }
targets=(naca_cmesh airfoil_seq)
all_targets=$(cmake --build "$bdir" --target help 2>/dev/null)
for a in "${selected[@]}"; do
  for b in seq openmp cudaemu cuda; do
    grep -q "^op2c_${a}_$b:" <<<"$all_targets" && targets+=("op2c_${a}_$b")
  done
done
if ! cmake --build "$bdir" -j "$jobs" --target "${targets[@]}" >"$work/build.log" 2>&1; then
  grep -E "error|FAILED" "$work/build.log" | sed -n 1,20p
  echo "op2-common-apps: building failed; see $work/build.log" >&2
  exit 1
fi

# ---- 2. OP2-Common's own reference build ------------------------------------------------
echo "== building OP2-Common's single-threaded reference"
mkdir -p "$ref/obj"
cxx=(g++ -O2 -std=c++17 -ffp-contract=off -I"$src/op2/include")
objs=()
for f in core/op_lib_core core/op_rt_support core/SafeLong core/op_dummy_singlenode \
         sequential/op_seq externlib/op_profile; do
  o=$ref/obj/$(basename "$f").o
  if [ ! -f "$o" ] || [ "$src/op2/src/$f.cpp" -nt "$o" ]; then
    "${cxx[@]}" -c "$src/op2/src/$f.cpp" -o "$o" >"$ref/build.log" 2>&1 || {
      echo "op2-common-apps: OP2-Common's $f.cpp does not build; see $ref/build.log" >&2; exit 2; }
  fi
  objs+=("$o")
done
for a in "${selected[@]}"; do
  s=$src/apps/c/$(field "$a" 2)
  "${cxx[@]}" -I"$(dirname "$s")" "$s" "${objs[@]}" -o "$ref/$a" >>"$ref/build.log" 2>&1 || {
    echo "op2-common-apps: OP2-Common's own build of $a failed; see $ref/build.log" >&2; exit 2; }
done

# ---- 3. meshes -------------------------------------------------------------------------------
mkdir -p "$mesh"
naca=$bdir/meshes/naca_cmesh
[ -f "$mesh/new_grid.dat" ] || "$naca" -o "$mesh/new_grid.dat" 2>/dev/null || exit 2
[ -f "$mesh/small/new_grid.dat" ] || { mkdir -p "$mesh/small" &&
  "$naca" -I 20 -J 15 -o "$mesh/small/new_grid.dat" 2>/dev/null; } || exit 2
# aero's finite-element grid from a smaller C-mesh (op2_common_fe_grid.py).
if [ ! -f "$mesh/FE_grid.dat" ]; then
  mkdir -p "$mesh/fe"
  "$naca" -I 100 -J 75 -o "$mesh/fe/new_grid.dat" 2>/dev/null &&
    python3 "$root/validation/op2_common_fe_grid.py" "$mesh/fe/new_grid.dat" "$mesh/FE_grid.dat" ||
    exit 2
fi
fi # compare_only

# ---- 4. runs and checks ------------------------------------------------------------------------
status=0
rows=()

# run APP VARIANT MESHDIR COMMAND...: runs in WORK/runs/APP/VARIANT; stdout+stderr in out.txt.
run() {
  local a=$1 v=$2 m=$3 dir=$work/runs/$1/$2
  shift 3
  if [ $compare_only = 1 ]; then
    [ -f "$dir/status" ] || { mkdir -p "$dir" && echo "99 0" >"$dir/status"; }
    return
  fi
  rm -rf "$dir" && mkdir -p "$dir"
  case $m in
    new_grid) ln -s "$mesh/new_grid.dat" "$dir/new_grid.dat" ;;
    small_grid) ln -s "$mesh/small/new_grid.dat" "$dir/new_grid.dat" ;;
    fe_grid) ln -s "$mesh/FE_grid.dat" "$dir/FE_grid.dat" ;;
  esac
  local t0=$SECONDS
  (cd "$dir" && "$@" >out.txt 2>&1)
  local rc=$?
  echo "$rc $((SECONDS - t0))" >"$dir/status"
}

# verdict APP VARIANT KIND OWN_VERDICT REFERENCE_VARIANT [RTOL [ATOL]]
verdict() {
  local a=$1 v=$2 kind=$3 own=$4 against=$5 rtol=${6:-} atol=${7:-0}
  local dir=$work/runs/$a/$v rc secs own_ok="-" cmp_ok="-"
  read -r rc secs <"$dir/status"
  if [ "$rc" = 77 ]; then
    rows+=("$a|$v|skipped (no GPU)|-|-")
    return
  fi
  if [ -n "$own" ]; then
    if grep -qF "$own" "$dir/out.txt" && [ "$rc" = 0 ]; then own_ok=passed; else own_ok=FAILED; status=1; fi
  elif [ "$rc" != 0 ]; then
    own_ok="FAILED (exit $rc)"; status=1
  fi
  if [ -n "$against" ]; then
    if python3 "$root/validation/op2_common_compare.py" "$kind" "$work/runs/$a/$against" "$dir" \
         ${rtol:+--rtol "$rtol" --atol "$atol"} >"$dir/compare.txt" 2>&1; then
      cmp_ok=$([ -n "$rtol" ] && echo "agree to $rtol" || echo identical)
    else
      cmp_ok=DIFFER; status=1
      sed -n '1,12s/^/    /p' "$dir/compare.txt"
    fi
  fi
  rows+=("$a|$v|$own_ok|$cmp_ok|${secs}s")
}

for a in "${selected[@]}"; do
  m=$(field "$a" 3)
  kind=$(field "$a" 4)
  own=$(field "$a" 5)
  RTOL=$(field "$a" 7)
  atol=$(field "$a" 8)
  seq_rtol=$([ "$(field "$a" 6)" = identical ] || echo "$RTOL")
  exe=$bdir/external/op2c_$a/op2c_$a
  echo "== $a"
  run "$a" ref "$m" "$ref/$a"
  verdict "$a" ref "$kind" "$own" ""
  run "$a" seq "$m" "${exe}_seq" OP_PART_SIZE=1048576
  verdict "$a" seq "$kind" "$own" ref "$seq_rtol" "$atol"
  run "$a" openmp "$m" env OMP_NUM_THREADS=2 "${exe}_openmp"
  verdict "$a" openmp "$kind" "$own" ref "$RTOL" "$atol"
  # The emulation runs kernels one CUDA thread after another: the small apps
  # as they are, airfoil and reduction on the small mesh against the
  # reference on that mesh (their own verdicts are for the standard mesh).
  if [ -x "${exe}_cudaemu" ]; then
    case $m in
      none|fe_grid) run "$a" cudaemu "$m" "${exe}_cudaemu"
                    verdict "$a" cudaemu "$kind" "$own" ref "$RTOL" "$atol" ;;
      new_grid) small_own=$([ "$kind" = airfoil ] || echo "$own")
                run "$a" ref-small small_grid "$ref/$a"
                verdict "$a" ref-small "$kind" "$small_own" ""
                run "$a" cudaemu-small small_grid "${exe}_cudaemu"
                verdict "$a" cudaemu-small "$kind" "$small_own" ref-small "$RTOL" "$atol" ;;
    esac
  fi
  if [ -x "${exe}_cuda" ]; then
    run "$a" cuda "$m" "${exe}_cuda"
    verdict "$a" cuda "$kind" "$own" ref "$RTOL" "$atol"
  fi
  if [ "$a" = airfoil_dp ]; then
    run "$a" solver none "$bdir/solvers/airfoil/airfoil_seq" "mesh=$mesh/new_grid.dat" \
      generate_mesh=no iterations=1000 print_every=100 write_solution=no output_dir=.
    verdict "$a" solver rms "" ref
  fi
done

echo
printf "%-12s %-14s %-18s %-24s %s\n" application run "own check" "vs OP2-Common's build" time
printf "%-12s %-14s %-18s %-24s %s\n" ------------ -------------- ------------------ \
  ------------------------ -----
for r in "${rows[@]}"; do
  IFS='|' read -r a v o c t <<<"$r"
  printf "%-12s %-14s %-18s %-24s %s\n" "$a" "$v" "$o" "$c" "$t"
done
echo
[ $status = 0 ] && echo "op2-common-apps: every check passed" || echo "op2-common-apps: a check FAILED"
exit $status
