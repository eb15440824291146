#!/usr/bin/env bash
# usage: once.sh REGEX COMMAND...
#
# Runs COMMAND (an mpirun line of validation/bad_inputs/cases.txt), prints
# its output, then one line about the first line that matches the extended
# regular expression REGEX (the refusal): "printed once, no signal message:
# LINE" when it is the only such line and no process said that a signal was
# received, else "printed N time(s), M signal message(s): LINE". Exits with
# COMMAND's status. A case asks for "printed once, no signal message: ...":
# a refusal said once by the job, not once by each process (docs/mpi.md).
. "$(dirname "$0")/../../scripts/lib/help.sh"
set -u
regex=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
n=$(printf '%s\n' "$out" | grep -E -c -e "$regex")
line=$(printf '%s\n' "$out" | grep -E -e "$regex" | sed -n 1p)
signals=$(printf '%s\n' "$out" | grep -c 'signal received')
if [ "$n" -eq 1 ] && [ "$signals" -eq 0 ]; then
  echo "printed once, no signal message: $line"
else
  echo "printed $n time(s), $signals signal message(s): $line"
fi
exit $rc
