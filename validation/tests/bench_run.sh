#!/usr/bin/env bash
# usage: bench_run.sh SOURCE_DIR BUILD_DIR OUT_DIR MODE
# scripts/bench.sh end to end on the reduced heat benchmark (seq), with the
# build it is given:
#
#   bench_run.sh SOURCE BUILD OUT run|interrupt|small
#
# run        two runs: exit 0; report.md, bench.json and bench.csv with the
#            two runs, the second's results those of the first (the base),
#            and the copy bandwidth; the plots when a python3 with
#            matplotlib is here; what ran, where: the command line with
#            every option, the host's CPU family and model, the load before
#            and after the runs against the cores, on the terminal too
# small      every solver's small deck once on seq: each is small, at most
#            1 GB moved (OP2's count of all loops) in at most 1200 loop
#            calls, what a fraction of a second on an idle core moves, so
#            that the small set (4 CPU backends, 3 repeats) takes about a
#            minute on two idle cores
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
if [ "$mode" = small ]; then
  "$src/scripts/bench.sh" --size small --backends seq --repeats 1 --build-dir "$build" \
    --out "$out" >"$log" 2>&1
  rc=$?
  cat "$log"
  [ "$rc" = 0 ] || fail "exit status $rc, expected 0"
  python3 - "$out/runs" <<'PY' || fail "a small deck is not small"
import glob, json, os, sys
GB, CALLS = 1e9, 1200
bad, seen = [], []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*", "seq", "1", "out", "result.json"))):
    solver = path.split(os.sep)[-5]
    loops = json.load(open(path))["loops"]
    moved, calls = sum(l["bytes"] for l in loops), sum(l["calls"] for l in loops)
    seen.append(solver)
    print(f"{solver}: {moved / 1e9:.2f} GB in {calls} loop calls")
    if moved > GB or calls > CALLS:
        bad.append(f"{solver} ({moved / 1e9:.2f} GB, {calls} calls)")
if sorted(seen) != ["airfoil", "euler", "heat", "jacobi"]:
    bad.append(f"runs of {seen}, expected the four solvers")
if bad:
    print(f"FAIL: beyond 1 GB or {CALLS} loop calls: {', '.join(bad)}")
    sys.exit(1)
PY
  echo "PASS: small"
  exit 0
fi
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
# What ran, where.
grep -Fq -- "command \`scripts/bench.sh ${args[*]} --repeats 2\`" "$out/report.md" ||
  fail "report.md: the command line is not recorded with every option"
grep -Eq '^- machine: .* \(family [0-9]+, model [0-9]+\), [0-9]+ CPUs' "$out/report.md" ||
  fail "report.md: no CPU family and model"
grep -Eq '^- (TOO BUSY TO TIME: )?load average \(1 minute\) [0-9.]+ before the runs, [0-9.]+ after them, on [0-9]+ cores' "$out/report.md" ||
  fail "report.md: no load before and after the runs"
grep -Eq '^bench: load average \(1 minute\) [0-9.]+ on [0-9]+ cores before the runs' "$log" &&
  grep -Eq '^bench: (TOO BUSY TO TIME: )?load average \(1 minute\) [0-9.]+ before the runs, [0-9.]+ after them' "$log" ||
  fail "the terminal: no load before the runs and verdict after them"
grep -Eq '^- commit [0-9a-f]+( \+ uncommitted changes)?, ' "$out/report.md" || fail "report.md: no commit"
if grep -q 'no python3 with matplotlib' "$log"; then
  echo "no matplotlib here: the plots are not checked"
else
  for png in bench-time.png bench-loops.png; do
    head -c 8 "$out/$png" 2>/dev/null | grep -c PNG >/dev/null || fail "$out/$png is not a PNG"
  done
fi
echo "PASS: run"
