#!/usr/bin/env bash
# usage: bench_run.sh SOURCE_DIR BUILD_DIR OUT_DIR MODE
# scripts/bench.sh end to end on the reduced heat benchmark (seq), with the
# build it is given:
#
#   bench_run.sh SOURCE BUILD OUT run|interrupt
#
# run        two runs: exit 0; report.md, bench.json and bench.csv with the
#            two runs, the second's results those of the first (the base),
#            and the copy bandwidth; the plots when a python3 with
#            matplotlib is here
# interrupt  SIGINT once the third of twenty runs has started: exit 130 and a
#            report of the runs done before it (two, or more where a short
#            run ended before the signal came: as many as the log says were
#            done), saying it was interrupted
# Exit 0 when all is as expected, 1 otherwise.
. "$(dirname "$0")/../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -uo pipefail
src=$1 build=$2 out=$3 mode=$4
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$out"
args=(--size small --solvers heat --backends seq --build-dir "$build" --out "$out")
log=$out.log
if [ "$mode" = interrupt ]; then
  bash "$(dirname "$0")/interrupt_after.sh" '\[3/20\]' "$log" \
    "$src/scripts/bench.sh" "${args[@]}" --repeats 20
  rc=$?
  cat "$log"
  [ "$rc" = 130 ] || fail "exit status $rc, expected 130"
  # The signal follows the third run's start by up to a poll interval, which
  # a short run can outlast: the runs done are those the log says ended.
  done_runs=$(grep -c '^bench:   done in' "$log")
  [ "$done_runs" -ge 2 ] && [ "$done_runs" -lt 20 ] ||
    fail "$done_runs runs done before the interrupt, expected 2 to 19"
  grep -q "^\*\*Interrupted\*\* after $done_runs of 20 runs" "$out/report.md" ||
    fail "$out/report.md does not say it was interrupted after $done_runs of 20 runs"
  grep -q '"status": "interrupted"' "$out/bench.json" || fail "bench.json: no status interrupted"
  grep -q "^| heat | seq | $done_runs |" "$out/report.md" ||
    fail "report.md: no row for the $done_runs runs done"
  echo "PASS: interrupt"
  exit 0
fi
"$src/scripts/bench.sh" "${args[@]}" --repeats 2 >"$log" 2>&1
rc=$?
cat "$log"
[ "$rc" = 0 ] || fail "exit status $rc, expected 0"
grep -Eq '^\| heat \| seq \| 2 \| [0-9.]+ \| [0-9.]+-[0-9.]+ \| [0-9.]+ \| [0-9]+% \| base \|' "$out/report.md" ||
  fail "report.md: no row for heat on seq with 2 runs, a time, GB/s, a share of the copy bandwidth and the second run's results those of the first (base)"
grep -Eq '^- copy bandwidth .*: [0-9.]+ GB/s with 1 thread' "$out/report.md" ||
  fail "report.md: no copy bandwidth"
grep -Eq '^\| heat \| seq \| heat_step \| [0-9]+ \| [0-9.e-]+ \| [0-9.]+ \|' "$out/report.md" || fail "report.md: no loop heat_step"
grep -q '^heat,seq,(solve),2,' "$out/bench.csv" || fail "bench.csv: no heat seq row"
grep -q '"status": "done"' "$out/bench.json" || fail "bench.json: status not done"
if grep -q 'no python3 with matplotlib' "$log"; then
  echo "no matplotlib here: the plots are not checked"
else
  for png in bench-time.png bench-loops.png; do
    head -c 8 "$out/$png" 2>/dev/null | grep -c PNG >/dev/null || fail "$out/$png is not a PNG"
  done
fi
echo "PASS: run"
