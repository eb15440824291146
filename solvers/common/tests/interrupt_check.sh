#!/usr/bin/env bash
# usage: interrupt_check.sh DELAY OUTDIR FILE... -- SOLVER ARGS...
# A solver stopped by SIGINT in the middle of a long run must keep what it
# has computed: exit 130 (128 + SIGINT), its result files written, as a run
# that did not pass, into OUTDIR/failed (solver_output.h), with a failed
# verdict "not_interrupted" in result.json, and nothing left half-written.
#
#   interrupt_check.sh DELAY OUTDIR FILE... -- SOLVER ARGS...
#
# Sends SIGINT after DELAY seconds (the run must last longer), with
# output_dir=OUTDIR appended to the solver's arguments; then checks each FILE
# (relative to OUTDIR: failed/NAME for the run's results) exists. Then the
# same run stopped at once (SIGHUP) must leave no trace in OUTDIR. Exit 0
# when all holds, 1 otherwise.
. "$(dirname "$0")/../../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -u
delay=$1 dir=$2
shift 2
files=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do files+=("$1"); shift; done
[ $# -gt 1 ] || { echo "usage: interrupt_check.sh DELAY OUTDIR FILE... -- SOLVER ARGS..." >&2; exit 2; }
shift
rm -rf "$dir"
mkdir -p "$dir"
timeout --foreground --preserve-status -s INT "$delay" "$@" "output_dir=$dir" >"$dir.log" 2>&1
rc=$?
status=0
tail -15 "$dir.log"
if [ $rc -ne 130 ]; then
  echo "FAIL: exit status $rc, expected 130 (stopped by SIGINT, results written)"; status=1
fi
grep -q "signal received: finishing" "$dir.log" || { echo "FAIL: no message about the signal"; status=1; }
grep -q "its results .* are in $dir/failed" "$dir.log" || { echo "FAIL: no message saying where the results are"; status=1; }
for f in failed/result.json "${files[@]}"; do
  [ -s "$dir/$f" ] || { echo "FAIL: $dir/$f was not written"; status=1; }
done
if [ -s "$dir/failed/result.json" ] && ! grep -q '"not_interrupted"' "$dir/failed/result.json"; then
  echo "FAIL: result.json has no not_interrupted verdict"; status=1
fi
left=$(find "$dir" -name '.run-*' -o -name '*.tmp' -o -name .lock)
[ -z "$left" ] || { echo "FAIL: left behind: $left"; status=1; }

# A signal that stops the run at once (SIGHUP: the terminal went away; the
# same path as a second SIGINT) leaves no trace: its unfinished outputs go.
before=$(cd "$dir" && find . -type f | sort | xargs -r md5sum)
"$@" "output_dir=$dir" >"$dir.log2" 2>&1 &
pid=$!
sleep "$delay"
kill -HUP $pid
wait $pid
rc=$?
if [ $rc -ne 129 ]; then
  echo "FAIL: stopped by SIGHUP: exit status $rc, expected 129"; status=1
fi
left=$(find "$dir" -name '.run-*' -o -name '*.tmp' -o -name .lock)
[ -z "$left" ] || { echo "FAIL: left behind by a run stopped at once: $left"; status=1; }
after=$(cd "$dir" && find . -type f | sort | xargs -r md5sum)
if [ "$before" != "$after" ]; then
  echo "FAIL: a run stopped at once changed OUTDIR"; diff <(echo "$before") <(echo "$after"); status=1
fi
[ $status -eq 0 ] && echo "interrupted run kept its results; a run stopped at once left no trace"
exit $status
