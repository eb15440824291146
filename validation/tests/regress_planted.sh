#!/usr/bin/env bash
# Tests of scripts/regress.sh on a throwaway repository: a copy of the source
# tree committed as its own base, with one change planted in the work tree.
#
#   regress_planted.sh SOURCE WORK setup
#   regress_planted.sh SOURCE WORK unchanged|result|slowdown|interrupt
#
# setup copies SOURCE (its tracked and untracked, not ignored, files) to
# WORK/repo and commits it on branch main. Each other mode restores that
# commit, plants its change, runs regress.sh on airfoil's seq build (release
# preset) and checks what it reports:
#   unchanged  exit 0, CLEAN
#   result     one operation of the update kernel altered: exit 1, airfoil's
#              p_q DIFFERENT (named with the solver and the backend)
#   slowdown   a busy loop in the update kernel: exit 1, loop update SLOWER,
#              every result still bitwise equal
#   interrupt  SIGINT after the third run: exit 130, a report saying
#              INTERRUPTED with the runs done so far
# Exit 0 when the report is as expected, 1 otherwise, 77 when git is missing.
set -uo pipefail
src=$1 work=$2 mode=$3
repo=$work/repo
command -v git >/dev/null || { echo "git not found: skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
git_q() { git -C "$repo" -c user.name=regress-test -c user.email=regress-test@localhost "$@"; }

if [ "$mode" = setup ]; then
  rm -rf "$work"
  mkdir -p "$repo" || fail "cannot create $repo"
  if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
    (cd "$src" && git ls-files -z --cached --others --exclude-standard |
      while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done |
      tar --null -T - -cf -) | tar -xf - -C "$repo" || fail "cannot copy $src"
  else
    tar -C "$src" --exclude=./build --exclude=./outputs -cf - . | tar -xf - -C "$repo" ||
      fail "cannot copy $src"
  fi
  git_q init -q -b main && git_q add -A && git_q commit -q -m base || fail "cannot commit the copy"
  echo "base committed in $repo"
  exit 0
fi

[ -d "$repo/.git" ] || fail "no repository in $repo (the setup test makes it)"
git_q checkout -q -- . && git_q clean -q -fd -e /build -e /outputs || fail "cannot restore $repo"
kernel=$repo/solvers/airfoil/update.h
plant() {  # plant SED-SCRIPT: applies it to the update kernel, which must change
  cp "$kernel" "$work/update.h.orig"
  sed -i "$1" "$kernel"
  ! cmp -s "$kernel" "$work/update.h.orig" || fail "the planted change did not apply: $kernel changed?"
  git_q diff --stat
}
case $mode in
  unchanged) ;;
  # Half the pseudo-time step: the solution still converges, to other values.
  result) plant 's|adti = 1.0 / (\*adt);|adti = 0.5 / (*adt);|' ;;
  # A few hundred cycles of spinning per cell and call: update takes several
  # times as long, the results are the same bits.
  slowdown) plant 's|^  adti = 1.0 / (\*adt);|  for (volatile int spin = 0; spin < 40; spin++) {\n  }\n&|' ;;
  interrupt) ;;
  *) fail "unknown mode '$mode'" ;;
esac

out=$work/out-$mode
log=$work/$mode.log
# BASE omitted: the merge base of HEAD with main, the commit itself.
args=(--solvers airfoil --backends seq --presets release --out "$out")
if [ "$mode" = interrupt ]; then
  bash "$(dirname "$0")/interrupt_after.sh" '\[4/100\]' "$log" \
    "$repo/scripts/regress.sh" "${args[@]}" --repeats 50
  rc=$?
else
  "$repo/scripts/regress.sh" "${args[@]}" >"$log" 2>&1
  rc=$?
fi
cat "$log"
expect() { grep -Eq "$1" "$log" || fail "no line matching '$1' in the output"; }
reject() { ! grep -Eq "$1" "$log" || fail "a line matches '$1' in the output"; }
case $mode in
  unchanged)
    [ "$rc" = 0 ] || fail "exit status $rc, expected 0"
    expect '^regress: CLEAN'
    expect 'release +airfoil +small +seq +\(all 5 fields\) +bitwise equal'
    reject 'SLOWER|DIFFERENT' ;;
  result)
    [ "$rc" = 1 ] || fail "exit status $rc, expected 1"
    expect 'release +airfoil +small +seq +/p_q +DIFFERENT +[0-9.e+-]+ .*row [0-9]+, comp [0-9]'
    expect '^  release airfoil/small seq: /p_q [0-9]+ of [0-9]+ elements beyond the tolerance'
    expect '^regress: REGRESSION' ;;
  slowdown)
    [ "$rc" = 1 ] || fail "exit status $rc, expected 1"
    expect '^airfoil +small +seq +update +7 +[0-9.e-]+ +[0-9.e-]+ +[0-9.]+ +[0-9.]+-[0-9.]+ +SLOWER'
    expect '^  airfoil/small seq: loop update [0-9.]+x the base'
    expect 'release +airfoil +small +seq +\(all 5 fields\) +bitwise equal'
    reject 'DIFFERENT' ;;
  interrupt)
    [ "$rc" = 130 ] || fail "exit status $rc, expected 130"
    expect '^regress: INTERRUPTED after [0-9]+ of 100 runs'
    grep -q 'INTERRUPTED after' "$out/report.md" || fail "$out/report.md does not say INTERRUPTED"
    grep -q '"status": "interrupted"' "$out/report.json" || fail "$out/report.json: no status interrupted" ;;
esac
echo "PASS: $mode"
