#!/usr/bin/env bash
# usage: disk_full.sh JACOBI SCRATCH_DIR
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
. "$(dirname "$0")/../../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
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

# stops NAME ITERATES REGEX ARGS...: jacobi with ARGS must exit 2 with REGEX
# in its output, iterate first only when ITERATES is yes, and leave the good
# results as they were and nothing half-written.
stops() {
  local name=$1 iterates=$2 regex=$3
  shift 3
  "$jacobi" "$@" "output_dir=$dir" >"$scratch/$name.log" 2>&1
  local rc=$?
  [ $rc -eq 2 ] || fail "$name: exit $rc, expected 2"
  grep -q -e "$regex" "$scratch/$name.log" || fail "$name: no message '$regex'"
  grep -Eq "^ +[0-9]+  [0-9]" "$scratch/$name.log" && [ "$iterates" = no ] &&
    fail "$name: it iterated before failing"
  grep -v -E "^ +[0-9]+  [0-9]" "$scratch/$name.log" | tail -1
  [ "$(sums)" = "$good" ] || fail "$name: the run changed $dir"
  clean "$name"
}

# 1. u.h5 of 360 x 360 unknowns is 1 MB: more than the free space.
stops refused no "refusing to run: its outputs would take about .* free in $dir" \
  problem=jac nn=361 tolerance=0 max_iters=2
# 2a. Forced: a history that fills the disk (about 90 bytes an iteration).
stops enospc yes "cannot write .*history.csv: No space left on device" \
  problem=jac nn=6 tolerance=0 max_iters=1000000 max_output_gb=1
# 2b. Forced: u.h5, whose size is known, checked before it is written.
stops reserve yes "u.h5 needs .* but only .* are free" \
  problem=jac nn=361 tolerance=0 max_iters=2 max_output_gb=1
# 3. No space at all: refused before computing.
head -c 2000000 /dev/zero >"$mnt/filler" 2>/dev/null
stops full no "refusing to run: its outputs would take about .* more than the 0 bytes free" \
  problem=jac nn=6
rm -f "$mnt/filler"

[ $status -eq 0 ] && echo "a full disk stopped the runs cleanly; the good results were kept"
exit $status
