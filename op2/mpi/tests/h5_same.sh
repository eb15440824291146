#!/usr/bin/env bash
# usage: h5_same.sh A.h5 B.h5 [OBJECT...]
# h5_same.sh A.h5 B.h5 [OBJECT...] - passes when the objects (all, when none
# are named) hold the same data and attributes in both files (h5diff, exact).
# Exits 77 (skipped) when h5diff is not installed (Debian: hdf5-tools).
. "$(dirname "$0")/../../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -u
command -v h5diff >/dev/null 2>&1 || { echo "h5diff not found (hdf5-tools): skipped"; exit 77; }
a=$1 b=$2
shift 2
if [ $# -eq 0 ]; then
  h5diff -r "$a" "$b" || { echo "h5_same: $a and $b differ" >&2; exit 1; }
  echo "h5_same: $a and $b hold the same objects"
  exit 0
fi
for obj in "$@"; do
  h5diff -r "$a" "$b" "/$obj" "/$obj" || { echo "h5_same: '$obj' differs between $a and $b" >&2; exit 1; }
done
echo "h5_same: $* the same in $a and $b"
