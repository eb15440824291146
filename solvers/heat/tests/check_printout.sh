#!/bin/sh
# check_printout.sh PATTERNS command [args...]
#
# Runs the command and checks the first lines of its standard output, one by
# one and in order, against PATTERNS: line k of PATTERNS is an extended regular
# expression that line k of the output must match as a whole. Used to hold
# heat to the tutorial's printout. Exits 0 when the command exits 0 and every
# line matches, 1 otherwise (printing the first mismatch), 2 on bad usage.
. "$(dirname "$0")/../../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -u
if [ $# -lt 2 ]; then
  echo "usage: check_printout.sh PATTERNS command [args...]" >&2
  exit 2
fi
patterns=$1
shift
[ -r "$patterns" ] || { echo "check_printout.sh: cannot read $patterns" >&2; exit 2; }
out=$(mktemp) || exit 2
trap 'rm -f "$out"' EXIT
"$@" >"$out"
rc=$?
cat "$out"
if [ $rc -ne 0 ]; then
  echo "check_printout.sh: FAIL: the command exited with $rc" >&2
  exit 1
fi
awk -v out="$out" '
  {
    want = $0
    if ((getline got < out) <= 0) {
      printf "check_printout.sh: FAIL: the output ends before line %d (want /%s/)\n", NR, want
      bad = 1; exit
    }
    if (got !~ ("^" want "$")) {
      printf "check_printout.sh: FAIL: line %d is \"%s\", want /%s/\n", NR, got, want
      bad = 1; exit
    }
  }
  END { if (!bad) printf "check_printout.sh: the first %d lines match\n", NR; exit bad }
' "$patterns" >&2
