#!/usr/bin/env bash
# usage: regress_planted.sh SOURCE_DIR WORK_DIR MODE
# Tests of scripts/regress.sh on a throwaway repository: a copy of the source
# tree committed as its own base, with one change planted in the work tree.
#
#   regress_planted.sh SOURCE WORK setup
#   regress_planted.sh SOURCE WORK MODE
#
# setup copies SOURCE (its tracked and untracked, not ignored, files) to
# WORK/repo and commits it on branch main. Each MODE restores that commit,
# plants its change in airfoil, runs regress.sh on airfoil's seq build
# (release preset; the base's build and the change's are kept in WORK/repo
# from one mode to the next, so a mode rebuilds only what its change touches)
# and checks what it reports. One mode per kind of result:
#   comment    a comment in the update kernel, 7 pairs: exit 0, CLEAN, every
#              result bitwise equal, each kind listed as compared, no loop
#              slower; skipped (77) where a loop came out SLOWER on a machine
#              too busy to time it, twice (as for slowdown)
#   reduction  the update kernel's rms reduction off by 1e-9 per element (the
#              classic backend bug): history.csv's rms and result.json's
#              final_rms CHANGED (bitwise: base and change are reproducible
#              to the bit), the fields bitwise equal
#   core_reduction  every OP_INC reduction of the library (op_loop.c)
#              multiplied by 1.000000001, the four solvers on seq: results
#              CHANGED in each of them, never "within tolerance"
#   heat_kernel  heat's stencil off by 1e-9 relative: u and the errors
#              CHANGED, the verdict mms_discrete failing with them
#   verdict    the bound of the verdict "completed" moved past its value: the
#              verdict FAILS in the change, the fields bitwise equal
#   picture    the picture's title reworded: mach.ppm and mach.png DIFFERENT,
#              every field bitwise equal
#   exit       the exit status of a run that passed made 3: exit status
#              DIFFERENT, all else bitwise equal; the header says what ran
#              (seq, the whole command line, the host's family and model,
#              the load) and the times why none were taken
#   field      the update kernel's step halved, compared with --rtol and
#              --atol: q.h5's p_q DIFFERENT beyond the tolerance, named with
#              the solver and the backend
#   copied     the repository copied with cp -r, its build folders with it:
#              the copy's build/release and its base clone belong to the
#              original, so regress.sh clones and builds afresh (saying so)
#              and is CLEAN
#   slowdown   a busy loop making the update loop about 30% slower, 7 pairs:
#              update SLOWER, every result bitwise equal; skipped (77) where
#              the machine was too busy to time it, twice (res_calc, which
#              the change left alone, moved by more than 10% in a pair)
#   interrupt  SIGINT after the third run: exit 130, a report saying
#              INTERRUPTED with the runs done so far
# Each of the modes but comment and slowdown runs one pair (--repeats 1): the
# results are compared on every pair, the times need several.
# Exit 0 when the report is as expected, 1 otherwise, 77 when git is missing
# or the machine too busy for a timed verdict (comment, slowdown).
. "$(dirname "$0")/../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -uo pipefail
src=$1 work=$2 mode=$3
command -v git >/dev/null || { echo "git not found: skipped"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
[ "$mode" = setup ] && rm -rf "$work"
mkdir -p "$work" && work=$(cd "$work" && pwd) || fail "cannot create $work"
repo=$work/repo
git_q() { git -C "$repo" -c user.name=regress-test -c user.email=regress-test@localhost "$@"; }

if [ "$mode" = setup ]; then
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
main=$repo/solvers/airfoil/airfoil.c
plant() {  # plant FILE SED-SCRIPT: applies it to FILE, which must change
  cp "$1" "$work/planted.orig"
  sed -i "$2" "$1"
  ! cmp -s "$1" "$work/planted.orig" || fail "the planted change did not apply: $1 changed?"
  git_q diff
}
repeats=1 solvers=airfoil extra=()
case $mode in
  comment)
    plant "$kernel" 's|^  adti = 1.0 / (\*adt);|  /* the inverse of the local time step */\n&|'
    repeats=7 ;;
  reduction) plant "$kernel" 's|\*rms += del \* del;|*rms += 1e-9 + del * del;|' ;;
  core_reduction)
    plant "$repo/op2/core/op_loop.c" 's|gbl\[d\] += p\[d\];|gbl[d] += p[d] * 1.000000001;|'
    solvers=airfoil,jacobi,euler,heat ;;
  heat_kernel)
    plant "$repo/solvers/heat/heat_step.h" 's|heat_r \* u_south\[0\];|heat_r * u_south[0] * (1.0 + 1e-9);|'
    solvers=heat ;;
  verdict) plant "$main" 's|SOLVER_AT_LEAST, niter, "%d of %d iterations"|SOLVER_AT_LEAST, niter + 1, "%d of %d iterations"|' ;;
  picture) plant "$main" 's|"%s after %d iterations", titles|"%s at iteration %d", titles|' ;;
  exit) plant "$main" 's|^  return status;|  return status == 0 ? 3 : status;|' ;;
  # Half the pseudo-time step: the solution still converges, to other values.
  field)
    plant "$kernel" 's|adti = 1.0 / (\*adt);|adti = 0.5 / (*adt);|'
    extra=(--rtol 1e-12 --atol 1e-15) ;;
  copied) ;;
  # Spinning, the same few cycles per cell and call (about a third of the
  # update loop's time on the development machine: docs/regress-bench.md);
  # the results are the same bits.
  slowdown)
    plant "$kernel" 's|^  adti = 1.0 / (\*adt);|  for (volatile int spin = 0; spin < 1; spin++) {\n  }\n&|'
    repeats=7 ;;
  interrupt) ;;
  *) fail "unknown mode '$mode'" ;;
esac

out=$work/out-$mode
log=$work/$mode.log
# BASE omitted: the merge base of HEAD with main, the commit itself.
args=(--solvers "$solvers" --backends seq --presets release --out "$out" "${extra[@]}")
run_regress() { "$repo/scripts/regress.sh" "${args[@]}" --repeats "$repeats" >"$log" 2>&1; }
if [ "$mode" = interrupt ]; then
  bash "$(dirname "$0")/interrupt_after.sh" '\[4/100\]' "$log" \
    "$repo/scripts/regress.sh" "${args[@]}" --repeats 50
  rc=$?
elif [ "$mode" = copied ]; then
  # The copy, as cp -r makes it: its build folders (build/release and the
  # base's clone with its own) were configured for, and cloned from, $repo.
  # Those folders exist once any mode has run in $repo; when this mode runs
  # first (ctest's order), one run of regress.sh in $repo makes them.
  if [ ! -f "$repo/build/release/CMakeCache.txt" ] || [ ! -d "$repo/build/regress-base/src" ]; then
    "$repo/scripts/regress.sh" "${args[@]}" --repeats 1 >"$work/copied-first.log" 2>&1 ||
      fail "regress.sh in $repo, before the copy (log: $work/copied-first.log)"
  fi
  copy=$work/copy
  rm -rf "$copy" && cp -r "$repo" "$copy" || fail "cannot copy $repo"
  "$copy/scripts/regress.sh" "${args[@]}" --repeats 1 >"$log" 2>&1
  rc=$?
elif [ "$mode" = slowdown ] || [ "$mode" = comment ]; then
  # The timed verdicts. Whether regress.sh can tell a 30% slowdown from none
  # in every pair depends on the machine: each run shares its conditions with
  # every loop in it, so res_calc, the longest loop and one the change left
  # alone, shows what they did to each pair. Where res_calc moved by less
  # than 10% in every pair, the verdict must be right (update SLOWER, or no
  # loop SLOWER for the comment); where it moved by more, the machine was too
  # busy for a timed verdict: measured once more, and skipped if it still is.
  if [ "$mode" = slowdown ]; then
    right() { grep -Eq '^airfoil .* update .* SLOWER' "$log"; }
    wrong="update not SLOWER"
  else
    right() { ! grep -Eq ' SLOWER$' "$log"; }
    wrong="a loop SLOWER for a comment"
  fi
  quiet() { python3 "$(dirname "$0")/regress_quiet.py" "$out/report.json" res_calc 0.10; }
  for try in 1 2; do
    run_regress
    rc=$?
    right && break
    cat "$log"
    quiet
    case $? in
      0) fail "$wrong on a machine quiet enough to time it" ;;
      1) [ "$try" = 1 ] && echo "--- $wrong, the machine too busy to time it: measured again" ;;
      *) fail "no times of res_calc in $out/report.json" ;;
    esac
  done
  right || { echo "skipped: $wrong, the machine too busy to time it (twice)"; exit 77; }
else
  run_regress
  rc=$?
fi
cat "$log"
expect() { grep -Eq "$1" "$log" || fail "no line matching '$1' in the output"; }
reject() { ! grep -Eq "$1" "$log" || fail "a line matches '$1' in the output"; }
row='^release +airfoil +small +seq +'
regression() {
  [ "$rc" = 1 ] || fail "exit status $rc, expected 1"
  expect '^regress: REGRESSION'
}
changed() {
  [ "$rc" = 1 ] || fail "exit status $rc, expected 1"
  expect '^regress: RESULTS CHANGED'
}
fields_equal() { reject "${row}q\.h5: .*(DIFFERENT|within)"; expect 'q\.h5 \(10 fields\)'; }
case $mode in
  comment)
    [ "$rc" = 0 ] || fail "exit status $rc, expected 0"
    expect "${row}\(all [0-9]+ results\) +bitwise equal"
    expect "${row}bitwise +exit status, 2 verdicts, history\.csv \(2 columns, 300 rows\), mach\.png \([0-9]+ x [0-9]+ pixels\), mach\.ppm \([0-9]+ x [0-9]+ pixels\), q\.h5 \(10 fields\), q\.xmf \(text\), result\.json \([0-9]+ values\)$"
    expect "^regress: CLEAN: every result as the base's \(exit status, verdicts, result\.json, histories \(CSV\), HDF5 fields, pictures, other text files of 1 case run\(s\), each listed above\); no loop slower \([3-9] loops judged over 7 pairs\)( on a machine too busy to time)?$"
    expect '^airfoil +small +seq +update +7 '
    reject 'SLOWER|DIFFERENT|FAILS' ;;
  reduction)
    changed
    expect "${row}history\.csv: rms +CHANGED +[0-9.e+-]+ +[0-9.e+-]+ +line [0-9]+ +[0-9]+ of 300 values changed \(bitwise, no tolerance\)"
    expect "${row}result\.json: final_rms +CHANGED"
    expect '^  release airfoil/small seq: history\.csv: rms CHANGED'
    expect "^regress: RESULTS CHANGED: [0-9]+ result\(s\) changed bits .*\(airfoil/small seq\); the largest difference: .* abs [0-9.e+-]+, rel [0-9.e+-]+"
    fields_equal
    reject "${row}(mach|exit|verdict).*(DIFFERENT|CHANGED)" ;;
  core_reduction)
    changed
    for s in airfoil/small euler/riemann2d heat/small jacobi/dense; do
      expect "^  release $s seq: .* CHANGED"
    done
    expect "^regress: RESULTS CHANGED: .*\(airfoil/small seq, euler/riemann2d seq, heat/small seq, jacobi/dense seq\)"
    reject 'within tolerance' ;;
  heat_kernel)
    # The verdict mms_discrete (u against the discrete solution, to 1e-10)
    # fails too: a REGRESSION, of which the fields and errors CHANGED.
    regression
    expect '^release +heat +small +seq +u\.h5: /u +CHANGED'
    expect '^  release heat/small seq: result\.json: errors\.[a-z0-9_]+ CHANGED'
    expect '^regress: REGRESSION: [0-9]+ problem\(s\), of which [0-9]+ result\(s\) changed bits .*\(heat/small seq\)'
    reject 'within tolerance' ;;
  verdict)
    regression
    expect "${row}verdict completed +FAILS in the change .*passed in the base, fails in the change: 300 >= 300 in the base, 300 >= 301 in the change"
    expect '^  release airfoil/small seq: verdict completed FAILS in the change'
    fields_equal
    reject "${row}(mach|history).*DIFFERENT" ;;
  picture)
    regression
    expect "${row}mach\.ppm +DIFFERENT .*[0-9]+ of [0-9]+ pixels differ"
    expect "${row}mach\.png +DIFFERENT .*[0-9]+ of [0-9]+ pixels differ"
    fields_equal
    reject "${row}(history|result|exit|verdict).*DIFFERENT" ;;
  exit)
    regression
    expect "${row}exit status +DIFFERENT .*0 in the base, 3 in the change"
    expect "${row}\(the other [0-9]+ results\) +bitwise equal"
    reject "${row}(q\.h5|mach|history|result|verdict).*(DIFFERENT|FAILS|CHANGED)"
    # What ran, where: seq only; the command with every option; the host.
    expect '^ran: seq$'
    reject 'OpenMP with'
    expect "^command: scripts/regress\.sh --solvers airfoil --backends seq --presets release --out $out --repeats 1$"
    expect '^host: .* \(family [0-9]+, model [0-9]+\), [0-9]+ CPUs'
    expect '^load: (TOO BUSY TO TIME: )?load average \(1 minute\) [0-9.]+ before the runs, [0-9.]+ after them, on [0-9]+ cores'
    expect '^change: working tree at [0-9a-f]+ \+ uncommitted changes$'
    # No time taken, and why.
    expect "^\(none: airfoil/small seq: nothing timed: the change's runs exited 3 \(1 of 1\)\)$" ;;
  field)
    regression
    expect "${row}rtol 1e-12, atol 1e-15 "
    expect "${row}q\.h5: /p_q +DIFFERENT +[0-9.e+-]+ .*row [0-9]+, comp [0-9]"
    expect '^  release airfoil/small seq: q\.h5: /p_q DIFFERENT: [0-9]+ of [0-9]+ elements beyond the tolerance' ;;
  copied)
    [ "$rc" = 0 ] || fail "exit status $rc, expected 0"
    expect "^regress: build/release was configured for another source folder, $repo \(CMakeCache\.txt's CMAKE_HOME_DIRECTORY; a copied tree\?\): building the change afresh in build/regress-own/release$"
    expect "^regress: build/regress-base/src is a clone of $repo, not of $copy \(a copied tree\?\): cloning afresh$"
    expect "${row}\(all [0-9]+ results\) +bitwise equal"
    expect '^regress: CLEAN'
    [ -f "$copy/build/regress-own/release/CMakeCache.txt" ] || fail "no build in $copy/build/regress-own/release"
    rm -rf "$copy" ;;
  slowdown)
    regression
    expect '^airfoil +small +seq +update +7 +[0-9.e-]+ +[0-9.e-]+ +[0-9.]+ +[0-9.]+-[0-9.]+ +SLOWER'
    expect '^  airfoil/small seq: loop update [0-9.]+x the base'
    expect "${row}\(all [0-9]+ results\) +bitwise equal"
    reject 'DIFFERENT' ;;
  interrupt)
    [ "$rc" = 130 ] || fail "exit status $rc, expected 130"
    expect '^regress: INTERRUPTED after [0-9]+ of 100 runs'
    grep -q 'INTERRUPTED after' "$out/report.md" || fail "$out/report.md does not say INTERRUPTED"
    grep -q '"status": "interrupted"' "$out/report.json" || fail "$out/report.json: no status interrupted" ;;
esac
echo "PASS: $mode"
