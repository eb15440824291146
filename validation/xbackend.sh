#!/usr/bin/env bash
# Cross-backend check: runs a reference command and a test command, each with
# output_dir=<dir>/<ref|test> appended, then compares one result file of the
# two runs with op2-compare.
#
# usage: xbackend.sh [--lines ERE] [--parts ERE] [--same FILE]... COMPARE DIR FILE "COMPARE_ARGS"
#               REF_CMD... -- TEST_CMD...
#
# COMPARE_ARGS is "" for a bitwise comparison, or e.g. "--rtol 1e-12 --atol 0".
# --lines ERE: the lines of the two printouts that match ERE must be the same
# (e.g. a residual history as printed); --parts ERE: the parts of the lines
# that match ERE must be the same (lines that go on with a run's own times,
# as airfoil's residual lines with their progress); --same FILE: FILE of the
# two runs must be the same bytes (pictures, XDMF, HDF5: when an HDF5 file
# must be, the test run starts at least a second after the reference ended,
# so that a time written into the file would differ).
# Exit: 0 equal, 1 different or a run failed, 2 usage error.
. "$(dirname "$0")/../scripts/lib/help.sh"
set -u
lines="" parts="" same=()
while [ $# -gt 0 ]; do
  case "$1" in
    --lines) lines=$2; shift 2 ;;
    --parts) parts=$2; shift 2 ;;
    --same) same+=("$2"); shift 2 ;;
    *) break ;;
  esac
done
if [ $# -lt 6 ]; then
  echo "usage: xbackend.sh [--lines ERE] [--parts ERE] [--same FILE]... COMPARE DIR FILE COMPARE_ARGS REF_CMD... -- TEST_CMD..." >&2
  exit 2
fi
compare=$1 dir=$2 file=$3 cargs=$4
shift 4
ref=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do ref+=("$1"); shift; done
[ $# -gt 0 ] && shift
test=("$@")
if [ ${#ref[@]} -eq 0 ] || [ ${#test[@]} -eq 0 ]; then
  echo "xbackend.sh: both a reference and a test command are needed" >&2
  exit 2
fi
rm -rf "$dir/ref" "$dir/test"
mkdir -p "$dir/ref" "$dir/test"
echo "reference: ${ref[*]}"
"${ref[@]}" "output_dir=$dir/ref" > "$dir/ref.log" 2>&1
rc=$?
if [ $rc -ne 0 ]; then
  echo "the reference run failed (exit $rc); its log:"; tail -30 "$dir/ref.log"; exit 1
fi
for f in "${same[@]}"; do
  case $f in *.h5) sleep 1.1; break ;; esac
done
echo "test: ${test[*]}"
"${test[@]}" "output_dir=$dir/test" > "$dir/test.log" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
  echo "the test run was skipped (exit 77)"; tail -5 "$dir/test.log"; exit 77
fi
if [ $rc -ne 0 ]; then
  echo "the test run failed (exit $rc); its log:"; tail -30 "$dir/test.log"; exit 1
fi
status=0
if [ -n "$lines" ]; then
  grep -E -- "$lines" "$dir/ref.log" > "$dir/ref.lines"
  grep -E -- "$lines" "$dir/test.log" > "$dir/test.lines"
  if [ ! -s "$dir/ref.lines" ]; then
    echo "no line of the reference printout matches '$lines'"; status=1
  elif ! diff "$dir/ref.lines" "$dir/test.lines"; then
    echo "the printed lines matching '$lines' differ (above: < reference, > test)"; status=1
  else
    echo "printed lines matching '$lines': the same ($(wc -l < "$dir/ref.lines") lines)"
  fi
fi
if [ -n "$parts" ]; then
  grep -oE -- "$parts" "$dir/ref.log" > "$dir/ref.parts"
  grep -oE -- "$parts" "$dir/test.log" > "$dir/test.parts"
  if [ ! -s "$dir/ref.parts" ]; then
    echo "no line of the reference printout matches '$parts'"; status=1
  elif ! diff "$dir/ref.parts" "$dir/test.parts"; then
    echo "the printed parts matching '$parts' differ (above: < reference, > test)"; status=1
  else
    echo "printed parts matching '$parts': the same ($(wc -l < "$dir/ref.parts") lines)"
  fi
fi
for f in "${same[@]}"; do
  if cmp "$dir/ref/$f" "$dir/test/$f"; then
    echo "$f: the same bytes"
  else
    status=1
  fi
done
# shellcheck disable=SC2086
"$compare" $cargs "$dir/test/$file" "$dir/ref/$file" || status=1
exit $status
