#!/usr/bin/env bash
# Every bad input of validation/bad_inputs/cases.txt, run against the built
# solvers: each must end with the exit status and the message recorded there,
# within its time limit, leaving nothing half-written (docs/errors.md).
#
# usage: run.sh BUILD_DIR WORK_DIR [--markdown FILE]
#
# BUILD_DIR is a build tree (build/release); WORK_DIR is scratch space.
# --markdown writes the table of docs/bad-inputs.md from what was observed.
# Exit 0 when every case behaves as recorded, 1 otherwise.
. "$(dirname "$0")/../../scripts/lib/help.sh"
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$(cd "$1" && pwd)
work=$2
markdown=""
[ "${3:-}" = "--markdown" ] && markdown=$4
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)

# What the cases use (cases.txt names them as $VARIABLES).
export S=$root T=$work/files O=$work/out
export AIRFOIL=$build/solvers/airfoil/airfoil_seq
export AIRFOIL_OMP=$build/solvers/airfoil/airfoil_openmp
export AIRFOIL_CUDAEMU=$build/solvers/airfoil/airfoil_cudaemu
export JACOBI=$build/solvers/jacobi/jacobi_seq
export HEAT=$build/solvers/heat/heat_seq
export HEAT_OMP=$build/solvers/heat/heat_openmp
export EULER=$build/solvers/euler/euler_seq
export CONVERT=$build/meshes/airfoil_convert
export NACA=$build/meshes/naca_cmesh
export TAMPER=$build/solvers/airfoil/airfoil_tamper_h5
mkdir -p "$T" "$O"
bash "$here/make_files.sh" >"$work/make_files.log" 2>&1 || {
  echo "making the bad files failed:"; cat "$work/make_files.log"; exit 1; }

status=0 n=0 failed=0
table=$work/table.md
: >"$table"
category=""
row() { # the markdown row: escape | and keep one line
  printf '%s' "$1" | tr '\n' ' ' | sed -e 's/|/\\|/g' -e 's/`/'"'"'/g'
}
while IFS= read -r line || [ -n "$line" ]; do
  case "$line" in
    "## "*) category=${line#\#\# }; printf '\n### %s\n\n| # | input | exit | message |\n|---|---|---|---|\n' "$category" >>"$table"; continue ;;
    ""|"#"*) continue ;;
  esac
  id=${line%% | *}; rest=${line#* | }
  want=${rest%% | *}; rest=${rest#* | }
  regex=${rest%% | *}; cmd=${rest#* | }
  n=$((n + 1))
  out=$work/case_$id.log
  # Each case gets its own output directory; 30 s at most.
  ( cd "$work" && OUT=$O/$id timeout -s KILL 30 bash -c "$cmd" ) >"$out" 2>&1
  rc=$?
  msg=$(grep -v -E '^ *$' "$out" | grep -E -m1 "$regex" || true)
  [ -n "$msg" ] || msg=$(grep -v -E '^ *$' "$out" | tail -1)
  ok=1
  [ "$rc" = "$want" ] || ok=0
  grep -E -q -e "$regex" "$out" || ok=0
  left=$(find "$O" -name '.run-*' -o -name '*.tmp' 2>/dev/null)
  [ -z "$left" ] || { ok=0; msg="left behind: $left"; rm -rf $left; }
  if [ $ok -eq 0 ]; then
    failed=$((failed + 1)); status=1
    echo "FAIL $id: exit $rc (expected $want), regex '$regex'"
    echo "  command: $cmd"
    sed 's/^/  | /' "$out" | tail -8
  fi
  # Paths as the command line writes them: $T, $OUT, $S.
  shown=${msg//"$O/$id"/\$OUT}
  shown=${shown//"$T"/\$T}
  shown=${shown//"$root"/\$S}
  [ ${#shown} -gt 220 ] && shown="${shown:0:160} ... ${shown: -50}"
  printf '| %s | `%s` | %s | %s |\n' "$id" "$(row "$cmd")" "$rc" "$(row "$shown")" >>"$table"
done <"$here/cases.txt"

echo "$n bad inputs run, $failed not as recorded"
if [ -n "$markdown" ]; then
  {
    sed -n '1,/^<!-- table -->$/p' "$markdown"
    cat "$table"
  } >"$markdown.new" && mv "$markdown.new" "$markdown"
  echo "table written into $markdown"
fi
exit $status
