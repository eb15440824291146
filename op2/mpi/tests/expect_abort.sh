#!/usr/bin/env bash
# usage: expect_abort.sh [--status N] REGEX COMMAND...
# expect_abort.sh [--status N] REGEX COMMAND... - passes when COMMAND (an
# mpirun line) ends with a non-zero status that is not a timeout (N exactly,
# when given), and its output matches the extended regular expression REGEX: a bad input must end the whole job
# with a clear message (ctest's TIMEOUT catches a job left hanging).
. "$(dirname "$0")/../../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -u
want=""
if [ "$1" = "--status" ]; then
  want=$2
  shift 2
fi
regex=$1
shift
out=$("$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -eq 0 ]; then
  echo "expect_abort: the command succeeded; expected it to abort" >&2
  exit 1
fi
if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
  echo "expect_abort: the command was killed (status $rc), not aborted" >&2
  exit 1
fi
if ! printf '%s\n' "$out" | grep -Ec -- "$regex" >/dev/null; then
  echo "expect_abort: status $rc, but no line matches: $regex" >&2
  exit 1
fi
if [ -n "$want" ] && [ "$rc" -ne "$want" ]; then
  echo "expect_abort: status $rc, expected $want" >&2
  exit 1
fi
echo "expect_abort: status $rc with the expected message"
