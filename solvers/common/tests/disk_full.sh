#!/usr/bin/env bash
# A full disk (ENOSPC) on a small tmpfs:
#   1. a run whose outputs cannot fit is refused before it computes anything,
#      with the estimate and the free space in the message;
#   2. forced past that check (max_output_gb), it fails when a write fails:
#      the history as the disk fills up (ENOSPC), or u.h5 whose size is
#      checked against the free space before it is written: exit 2, a message
#      naming the file, the last good results untouched and nothing
#      half-written left;
#   3. on a disk with no space at all it stops before iterating.
# Needs mount(2) (root, or a container that allows it): exit 77 otherwise.
#
#   disk_full.sh JACOBI SCRATCH
set -u
jacobi=$1 scratch=$2
mnt=$scratch/tmpfs
mkdir -p "$mnt"
umount "$mnt" 2>/dev/null
if ! mount -t tmpfs -o size=1m tmpfs "$mnt" 2>/dev/null; then
  echo "cannot mount a tmpfs here (needs root and mount rights): skipped"
  exit 77
fi
trap 'umount "$mnt" 2>/dev/null' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }
dir=$mnt/out
sums() { (cd "$dir" && find . -maxdepth 1 -type f | sort | xargs -r md5sum); }
clean() {
  local left
  left=$(find "$mnt" -name '.run-*' -o -name '*.tmp')
  [ -z "$left" ] || fail "$1: left behind: $left"
}

# A good small run first.
"$jacobi" problem=jac nn=6 max_iters=1000 "output_dir=$dir" >"$scratch/good.log" 2>&1 ||
  { fail "the good run failed"; cat "$scratch/good.log"; }
good=$(sums)

# 1. u.h5 of 360 x 360 unknowns is 1 MB: more than the free space.
"$jacobi" problem=jac nn=361 tolerance=0 max_iters=2 "output_dir=$dir" >"$scratch/refused.log" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a run that cannot fit: exit $rc, expected 2"
grep -q "refusing to run: its outputs would take about .* free in $dir" "$scratch/refused.log" ||
  fail "no refusal naming the free space"
cat "$scratch/refused.log"

# 2a. Forced: a history that fills the disk (about 90 bytes an iteration).
"$jacobi" problem=jac nn=6 tolerance=0 max_iters=1000000 max_output_gb=1 "output_dir=$dir" \
  >"$scratch/enospc.log" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a history on a full disk: exit $rc, expected 2"
grep -q "cannot write .*history.csv: No space left on device" "$scratch/enospc.log" ||
  fail "no message about the failed write of history.csv"
tail -1 "$scratch/enospc.log"
[ "$(sums)" = "$good" ] || fail "a run that ran out of disk changed $dir"
clean "run out of disk"

# 2b. Forced: u.h5, whose size is known, checked before it is written.
"$jacobi" problem=jac nn=361 tolerance=0 max_iters=2 max_output_gb=1 "output_dir=$dir" \
  >"$scratch/reserve.log" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "u.h5 on a full disk: exit $rc, expected 2"
grep -q "u.h5 needs .* but only .* are free" "$scratch/reserve.log" ||
  fail "no message about the space u.h5 needs"
tail -1 "$scratch/reserve.log"
[ "$(sums)" = "$good" ] || fail "a run that could not write u.h5 changed $dir"
clean "run that could not write u.h5"

# 3. No space at all: refused before computing.
head -c 2000000 /dev/zero >"$mnt/filler" 2>/dev/null
"$jacobi" problem=jac nn=6 "output_dir=$dir" >"$scratch/full.log" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "a full disk: exit $rc, expected 2"
grep -Eq "^ +[0-9]+  [0-9]" "$scratch/full.log" && fail "it iterated on a full disk before failing"
tail -1 "$scratch/full.log"
rm -f "$mnt/filler"
[ "$(sums)" = "$good" ] || fail "a run on a full disk changed $dir"
clean "run on a full disk"

[ $status -eq 0 ] && echo "a full disk stopped the runs cleanly; the good results were kept"
exit $status
