#!/bin/sh
# Every solver across its sizes (validation/size_sweep/cases.txt): each case, a
# correct run of a shipped deck on a small grid or at the edge of a validated
# range, must exit 0 and print what its line expects; a verdict that fails a
# correct run (a bound carried beyond the sizes it was measured on) fails it.
#
# usage: run.sh BUILD_DIR WORK_DIR
#
# BUILD_DIR is a build tree (build/release); WORK_DIR is scratch space.
# SIZE_SWEEP_ONLY=REGEX in the environment runs only the cases whose id matches.
# Exit 0 when every case passes, 1 otherwise, 2 on bad usage.
. "$(dirname "$0")/../../scripts/lib/help.sh"
set -u
if [ $# -ne 2 ]; then
  echo "usage: run.sh BUILD_DIR WORK_DIR" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
S=$(cd "$here/../.." && pwd)
B=$(cd "$1" && pwd) || exit 2
work=$2
rm -rf "$work" && mkdir -p "$work" || exit 2
work=$(cd "$work" && pwd)
EULER=$B/solvers/euler/euler_seq EULER_OMP=$B/solvers/euler/euler_openmp
HEAT=$B/solvers/heat/heat_seq HEAT_OMP=$B/solvers/heat/heat_openmp
JACOBI=$B/solvers/jacobi/jacobi_seq AIRFOIL=$B/solvers/airfoil/airfoil_seq
export S B EULER EULER_OMP HEAT HEAT_OMP JACOBI AIRFOIL
cd "$S" || exit 2

failed=0 ran=0
tab=$(printf '\t')
# Each case: "ID | REGEX | COMMAND"; comments and blank lines skipped.
grep -v '^#' "$here/cases.txt" | grep -v '^[[:space:]]*$' | sed 's/ | /\t/; s/ | /\t/' >"$work/cases.tsv"
while IFS="$tab" read -r id regex cmd; do
  if [ -n "${SIZE_SWEEP_ONLY:-}" ] && ! printf '%s\n' "$id" | grep -Ec "$SIZE_SWEEP_ONLY" >/dev/null; then
    continue
  fi
  OUT=$work/$id
  export OUT
  log=$work/$id.log
  sh -c "$cmd" >"$log" 2>&1 </dev/null
  rc=$?
  ran=$((ran + 1))
  why=""
  if [ $rc -ne 0 ]; then
    why="exit $rc"
  elif [ "$regex" != "-" ] && ! grep -Eq -- "$regex" "$log"; then
    why="no line matches '$regex'"
  fi
  if [ -n "$why" ]; then
    failed=$((failed + 1))
    printf 'FAIL %-6s %s: %s\n' "$id" "$why" "$cmd"
    grep -E 'FAIL|error|refus' "$log" | sed -n '1,5s/^/       /p'
  else
    printf 'ok   %-6s %s\n' "$id" "$cmd"
  fi
done <"$work/cases.tsv"
if [ $ran -eq 0 ]; then
  echo "size_sweep: no case ran (SIZE_SWEEP_ONLY='${SIZE_SWEEP_ONLY:-}')" >&2
  exit 1
fi
echo "size_sweep: $((ran - failed)) of $ran correct runs passed"
[ $failed -eq 0 ]
