#!/usr/bin/env bash
# A solver stopped by SIGINT in the middle of a long run must keep what it
# has computed: exit 130 (128 + SIGINT), its result files written, and a
# failed verdict "not_interrupted" in result.json.
#
#   interrupt_check.sh DELAY OUTDIR FILE... -- SOLVER ARGS...
#
# Sends SIGINT after DELAY seconds (the run must last longer), with
# output_dir=OUTDIR appended to the solver's arguments; then checks each FILE
# (relative to OUTDIR) exists. Exit 0 when all holds, 1 otherwise.
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
for f in result.json "${files[@]}"; do
  [ -s "$dir/$f" ] || { echo "FAIL: $dir/$f was not written"; status=1; }
done
if [ -s "$dir/result.json" ] && ! grep -q '"not_interrupted"' "$dir/result.json"; then
  echo "FAIL: result.json has no not_interrupted verdict"; status=1
fi
[ $status -eq 0 ] && echo "interrupted run kept its results"
exit $status
