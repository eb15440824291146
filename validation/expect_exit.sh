#!/bin/sh
# expect_exit.sh - runs a command and checks its exit status (and output), so
# that CTest can test tools whose "failure" exit codes are the expected result.
#
# usage: expect_exit.sh [--match ERE]... [--no-match ERE]... [--lines N] CODE command [args...]
#   CODE         the exit status the command must return
#   --match      the output (stdout and stderr together) must match ERE
#   --no-match   the output must not match ERE
#   --lines N    stdout must have exactly N lines
# Exits 0 when every check holds, 1 otherwise (printing why), 2 on bad usage.
. "$(dirname "$0")/../scripts/lib/help.sh"

set -u
me=expect_exit.sh
matches=""
nomatches=""
lines=""
nl='
'
while [ $# -gt 0 ]; do
  case "$1" in
    --match) [ $# -ge 2 ] || { echo "$me: --match needs a pattern" >&2; exit 2; }
             matches="$matches$2$nl"; shift 2 ;;
    --no-match) [ $# -ge 2 ] || { echo "$me: --no-match needs a pattern" >&2; exit 2; }
             nomatches="$nomatches$2$nl"; shift 2 ;;
    --lines) [ $# -ge 2 ] || { echo "$me: --lines needs a number" >&2; exit 2; }
             lines="$2"; shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 2 ]; then
  echo "usage: $me [--match ERE]... [--no-match ERE]... [--lines N] CODE command [args...]" >&2
  exit 2
fi
want="$1"
shift
case "$want" in
  ''|*[!0-9]*) echo "$me: CODE '$want' is not a number" >&2; exit 2 ;;
esac

tmp=$(mktemp -d) || { echo "$me: mktemp failed" >&2; exit 2; }
trap 'rm -rf "$tmp"' EXIT
"$@" >"$tmp/out" 2>"$tmp/err"
got=$?
cat "$tmp/out"
cat "$tmp/err" >&2
cat "$tmp/out" "$tmp/err" >"$tmp/all"

ok=0
if [ "$got" -ne "$want" ]; then
  echo "$me: FAIL: '$*' exited with $got, expected $want" >&2
  ok=1
fi
old_ifs=$IFS
IFS=$nl
for pattern in $matches; do
  if ! grep -Eq -e "$pattern" "$tmp/all"; then
    echo "$me: FAIL: output does not match '$pattern'" >&2
    ok=1
  fi
done
for pattern in $nomatches; do
  if grep -Eq -e "$pattern" "$tmp/all"; then
    echo "$me: FAIL: output matches '$pattern'" >&2
    ok=1
  fi
done
IFS=$old_ifs
if [ -n "$lines" ]; then
  n=$(wc -l <"$tmp/out")
  if [ "$n" -ne "$lines" ]; then
    echo "$me: FAIL: stdout has $n lines, expected $lines" >&2
    ok=1
  fi
fi
exit $ok
