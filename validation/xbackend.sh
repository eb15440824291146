#!/usr/bin/env bash
# Cross-backend check: runs a reference command and a test command, each with
# output_dir=<dir>/<ref|test> appended, then compares one result file of the
# two runs with op2-compare.
#
#   xbackend.sh COMPARE DIR FILE "COMPARE_ARGS" REF_CMD... -- TEST_CMD...
#
# COMPARE_ARGS is "" for a bitwise comparison, or e.g. "--rtol 1e-12 --atol 0".
# Exit: 0 equal, 1 different or a run failed, 2 usage error.
set -u
if [ $# -lt 6 ]; then
  echo "usage: xbackend.sh COMPARE DIR FILE COMPARE_ARGS REF_CMD... -- TEST_CMD..." >&2
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
echo "test: ${test[*]}"
"${test[@]}" "output_dir=$dir/test" > "$dir/test.log" 2>&1
rc=$?
if [ $rc -eq 77 ]; then
  echo "the test run was skipped (exit 77)"; tail -5 "$dir/test.log"; exit 77
fi
if [ $rc -ne 0 ]; then
  echo "the test run failed (exit $rc); its log:"; tail -30 "$dir/test.log"; exit 1
fi
# shellcheck disable=SC2086
"$compare" $cargs "$dir/test/$file" "$dir/ref/$file"
