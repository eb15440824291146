#!/usr/bin/env bash
# Per-kernel GPU resources of the generated CUDA code, as ptxas reports them:
# registers, stack frame, spill stores/loads, static shared memory, and the
# threads per SM that the register count allows (65536 registers per SM on
# sm_70..sm_90, allocated per warp in units of 256). Needs no GPU: it
# recompiles each generated <app>_cuda.cu of a configured build tree with the
# build's own nvcc command and -Xptxas=-v.
#
# usage: scripts/cuda-resources.sh [BUILD_DIR] [--fail-on-spills]
#
# Prints a markdown table (docs/cuda.md keeps one). With --fail-on-spills it
# exits 1 when any kernel spills registers to local memory.
OP2_HELP_OWN_USAGE=1 . "$(dirname "$0")/lib/help.sh" # --version
set -euo pipefail
build=build/release
fail_on_spills=0
for a in "$@"; do
  case "$a" in
    --fail-on-spills) fail_on_spills=1 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "cuda-resources.sh: unknown option '$a'" >&2; exit 2 ;;
    *) build=$a ;;
  esac
done
[ -f "$build/build.ninja" ] || { echo "cuda-resources.sh: $build is not a configured Ninja build tree" >&2; exit 2; }
command -v c++filt >/dev/null || { echo "cuda-resources.sh: c++filt (binutils) is needed" >&2; exit 2; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The compile command of every generated CUDA file (op2-gen writes them under generated/).
ninja -C "$build" -t commands | grep -E 'nvcc .* -c [^ ]*/generated/[^ ]*_cuda\.cu ' | sort -u >"$tmp/cmds" || true
[ -s "$tmp/cmds" ] || { echo "cuda-resources.sh: no generated CUDA files in $build (built without CUDA?)" >&2; exit 2; }

echo "| source | loop | strategy | registers | stack (B) | spill st/ld (B) | static smem (B) | threads/SM by registers |"
echo "|---|---|---|---:|---:|---:|---:|---:|"
n=0
while IFS= read -r cmd; do
  n=$((n + 1))
  src=$(grep -oE ' -c [^ ]+' <<<"$cmd" | tail -1 | cut -c5-)
  # Same command, verbose ptxas, object into the scratch directory.
  (cd "$build" && eval "${cmd% -o *} -o $tmp/k$n.o -Xptxas=-v") 2>"$tmp/log$n" >/dev/null || {
    echo "cuda-resources.sh: compiling $src failed:" >&2; cat "$tmp/log$n" >&2; exit 1; }
  awk -v src="$(basename "$src")" '
    /Compiling entry function/ { match($0, /\x27[^\x27]+\x27/); fn = substr($0, RSTART + 1, RLENGTH - 2) }
    /bytes stack frame/ { stack = $1; sst = $5; sld = $9 }
    /Used [0-9]+ registers/ {
      regs = $0; sub(/.*Used /, "", regs); sub(/ registers.*/, "", regs)
      smem = 0
      if (match($0, /[0-9]+ bytes smem/)) { smem = substr($0, RSTART, RLENGTH); sub(/ .*/, "", smem) }
      print fn "\t" regs "\t" stack "\t" sst "\t" sld "\t" smem "\t" src
    }' "$tmp/log$n" >>"$tmp/rows"
done <"$tmp/cmds"

while IFS=$'\t' read -r fn regs stack sst sld smem src; do
  name=$(c++filt "$fn" | sed -E 's/\(.*//; s/^op_cuda_//')
  strategy=${name##*_}
  loop=${name%_*}
  # Registers are allocated per warp in units of 256 (8 per thread).
  per_warp=$(( ((regs * 32 + 255) / 256) * 256 ))
  warps=$(( 65536 / per_warp )); [ "$warps" -gt 64 ] && warps=64
  echo "| $src | $loop | $strategy | $regs | $stack | $sst/$sld | $smem | $((warps * 32)) |"
done <"$tmp/rows" | sort -t'|' -k2,2 -k3,3 -k4,4

spills=$(awk -F'\t' '$4 > 0 || $5 > 0' "$tmp/rows" | wc -l)
if [ "$spills" -gt 0 ]; then
  echo "cuda-resources.sh: $spills kernel(s) spill registers" >&2
  [ "$fail_on_spills" = 1 ] && exit 1
fi
exit 0
