#!/usr/bin/env bash
# usage: failed_runs.sh JACOBI WORK_DIR [LAUNCHER...]
# A run that fails never destroys the last good results (solver_output.h):
#   1. a good run writes its results into OUTDIR;
#   2. a run that does not converge (exit 1) and one that diverges (exit 1)
#      leave OUTDIR's files as they were and put theirs in OUTDIR/failed,
#      saying so;
#   3. a run killed by SIGKILL leaves its staging directory and its lock
#      file, which the next run removes and takes over (and says so);
#   4. nothing half-written (.run-*, *.tmp) and no lock file is left after any of them.
#
#   failed_runs.sh JACOBI OUTDIR [LAUNCHER...]
#
# With a LAUNCHER (mpirun -np 2) every run goes through it, on many processes
# (the root writes, docs/mpi.md), and step 3 is left out: SIGKILL stops the
# launcher, not necessarily the processes it started.
. "$(dirname "$0")/../../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -u
jacobi=$1 dir=$2
shift 2
launch=("$@")
status=0
rm -rf "$dir"
mkdir -p "$dir"
fail() { echo "FAIL: $*"; status=1; }
# The results (the lock file, .lock, is the run's, not a result).
sums() { (cd "$dir" && find . -maxdepth 1 -type f ! -name .lock | sort | xargs -r md5sum); }
clean() {
  local left
  left=$(find "$dir" -name '.run-*' -o -name '*.tmp' -o -name .lock)
  [ -z "$left" ] || fail "$1: left behind: $left"
}
run() { # run NAME EXPECTED-STATUS ARGS...
  local name=$1 want=$2
  shift 2
  "${launch[@]}" "$jacobi" "$@" "output_dir=$dir" >"$dir.$name.log" 2>&1
  local rc=$?
  [ $rc -eq "$want" ] || { fail "$name: exit $rc, expected $want"; tail -5 "$dir.$name.log"; }
}

# 1. A good run.
run good 0 problem=jac nn=6
[ -s "$dir/result.json" ] && [ -s "$dir/u.h5" ] && [ -s "$dir/history.csv" ] ||
  fail "the good run's results are not in $dir"
good=$(sums)
clean "good run"

# 2a. Not converged: exit 1, OUTDIR unchanged, results in failed/.
run not_converged 1 problem=jac nn=6 max_iters=3
[ "$(sums)" = "$good" ] || fail "a run that did not converge changed $dir"
grep -q '"converged": false' "$dir/failed/result.json" 2>/dev/null ||
  fail "failed/result.json of the run that did not converge is missing"
grep -q "the run did not pass: its results .* are in $dir/failed; $dir keeps the results of the last run that passed" \
  "$dir.not_converged.log" || fail "no message saying where the failed run's results are"
clean "run that did not converge"

# 2b. Diverged: A = [1 3; 3 1] is not diagonally dominant; the iteration
# grows by 3 a step until it overflows.
printf '%%%%MatrixMarket matrix coordinate real general\n2 2 4\n1 1 1\n1 2 3\n2 1 3\n2 2 1\n' \
  >"$dir.diverge.mtx"
run diverged 1 problem=mtx "matrix=$dir.diverge.mtx" rhs=ones max_iters=5000
grep -q "diverged" "$dir.diverged.log" || fail "the diverging run did not say it diverged"
[ "$(sums)" = "$good" ] || fail "a run that diverged changed $dir"
grep -q '"finite"' "$dir/failed/result.json" 2>/dev/null ||
  fail "failed/result.json of the diverged run is missing"
clean "run that diverged"

# 3. SIGKILL: nothing can clean up; the next run does.
if [ ${#launch[@]} -gt 0 ]; then
  [ $status -eq 0 ] && echo "failed runs kept the last good results; nothing was left behind"
  exit $status
fi
"$jacobi" problem=dense ndim=60 tolerance=0 max_iters=1000000000 print_every=100000000 \
  max_output_gb=1000 "output_dir=$dir" >"$dir.killed.log" 2>&1 &
pid=$!
sleep 1
kill -KILL $pid
wait $pid 2>/dev/null
[ -n "$(find "$dir" -maxdepth 1 -name '.run-*')" ] || fail "the killed run left no staging directory to test with"
[ "$(sums)" = "$good" ] || fail "a killed run changed $dir"
run after_kill 0 problem=jac nn=6
grep -q "removed .*/.run-.*, left by a run that was killed" "$dir.after_kill.log" ||
  fail "the run after the kill did not remove the staging directory"
grep -q "took over the lock of .*, left by a run that is gone (pid $pid on host " \
  "$dir.after_kill.log" || fail "the run after the kill did not take over the killed run's lock"
[ ! -e "$dir/.lock" ] || fail "the run after the kill left its lock file"
clean "run after a kill"

[ $status -eq 0 ] && echo "failed runs kept the last good results; nothing was left behind"
exit $status
