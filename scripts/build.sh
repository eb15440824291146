#!/usr/bin/env bash
# usage: scripts/build.sh [PRESET] [TARGET...]
#
# Configures the CMake preset PRESET (default release, in build/release; also
# debug, strict, portable: CMakePresets.json) and builds the targets named,
# with what they depend on (default: every target). scripts/run.sh builds the
# one solver it runs; scripts/test.sh builds everything.
. "$(dirname "$0")/lib/help.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:-release}
case "$preset" in
  -*) echo "build.sh: unknown option '$preset' (usage: scripts/build.sh [PRESET] [TARGET...])" >&2
      exit 2 ;;
esac
[ $# -gt 0 ] && shift
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset" "${targets[@]}"
