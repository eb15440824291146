#!/bin/sh
# usage: offload_no_device.sh EXE [ARGS...]
# offload_no_device.sh EXE [ARGS...] - with OMP_TARGET_OFFLOAD=MANDATORY and no
# device, an offload executable exits 77 (skipped, for ctest) and says why,
# before doing any work; any other outcome fails. Where OpenMP does find a
# device (as the executable reports it, in DEFAULT mode with --op-diags=1) the
# case cannot arise, and this test reports itself skipped (77).
. "$(dirname "$0")/../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -u
[ $# -ge 1 ] || { echo "usage: offload_no_device.sh EXE [ARGS...]" >&2; exit 2; }
out=$(OMP_TARGET_OFFLOAD=DEFAULT "$@" --op-diags=1 2>&1)
devices=$(printf '%s\n' "$out" | sed -n 's/^OP2 offload: \([0-9][0-9]*\) device(s).*/\1/p' | sed -n 1p)
if [ -z "$devices" ]; then
  printf '%s\n' "$out" | tail -5
  echo "offload_no_device.sh: the run did not report its device count" >&2
  exit 1
fi
if [ "$devices" -gt 0 ]; then
  echo "offload_no_device.sh: OpenMP finds $devices device(s) here: nothing to test"
  exit 77
fi
out=$(OMP_TARGET_OFFLOAD=MANDATORY "$@" 2>&1)
rc=$?
printf '%s\n' "$out"
if [ "$rc" -ne 77 ]; then
  echo "offload_no_device.sh: exit status $rc with OMP_TARGET_OFFLOAD=MANDATORY and no device, expected 77" >&2
  exit 1
fi
case "$out" in
  "no offload device: skipping ("*) ;;
  *) echo "offload_no_device.sh: exit 77 without the line 'no offload device: skipping (...)' first" >&2
     exit 1 ;;
esac
echo "offload_no_device.sh: exit 77, with the reason"
exit 0
