#!/usr/bin/env bash
# usage: gpu_bundle_test.sh SOURCE_DIR BUILD_TREE WORK_DIR
# scripts/gpu-bundle.sh and scripts/gpu-check.sh on this build tree, as on a
# GPU machine, without a GPU:
#   sigpipe  gpu-bundle.sh with an ldconfig whose list goes on long after the
#            OpenMP plugin's line (a reader that leaves at the first match
#            kills it with SIGPIPE, which pipefail made the script's death,
#            exit 141, on a GPU machine): the bundle is made
#   fresh    the bundle unpacked by gpu-check.sh in a fresh folder (the
#            checkout's sources, none of its build outputs: no test-output
#            folders), its trees relocated there, the build machine's CMake
#            taken away (the GPU machine has none at its path), test_loops
#            and op2app on the CPU emulation of CUDA, the other CUDA programs
#            skipping (no device): ctest -L gpu there passes, every test run
#            or skipped, none "Not Run" and none failed (the fixtures make
#            the folders, no test needs cmake)
#
#   gpu_bundle_test.sh SOURCE_DIR BUILD_DIR WORK_DIR
# The stubs' bodies are single-quoted on purpose: they expand when they run.
# shellcheck disable=SC2016
. "$(dirname "$0")/../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -u
unset OUT
src=$(cd "$1" && pwd)
tree=$(cd "$2" && pwd)
work=$3
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
command -v xz >/dev/null || { echo "xz not found: skipped"; exit 77; }
command -v ctest >/dev/null || { echo "ctest not found on PATH: skipped"; exit 77; }
name=${tree##*/}

stub() { mkdir -p "$(dirname "$1")"; printf '#!/usr/bin/env bash\n%s\n' "$2" >"$1"; chmod +x "$1"; }
bin=$work/bin
# ldconfig: the plugin's line, then 20000 more (far beyond a pipe's 64 KiB).
: >"$work/libgomp-plugin-nvptx.so.1"
stub "$bin/ldconfig" "echo '	libgomp-plugin-nvptx.so.1 (libc6,x86-64) => $work/libgomp-plugin-nvptx.so.1'"'
for i in $(seq 1 20000); do echo "	libfiller$i.so.1 (libc6,x86-64) => /usr/lib/libfiller$i.so.1"; done'
stub "$bin/nvidia-smi" 'case "$*" in -L) echo "GPU 0: Stub GPU (UUID: GPU-0)" ;;
  *) echo "Stub GPU, 999.99, 81559 MiB, 1980 MHz, 2619 MHz" ;; esac'

# sigpipe: the bundle of this tree.
(cd "$src" && PATH="$bin:$PATH" scripts/gpu-bundle.sh --tree "$tree" --out "$work/bundle.tar") \
  >"$work/bundle.log" 2>&1
rc=$?
[ "$rc" = 0 ] || fail "sigpipe: gpu-bundle.sh exit $rc (see $work/bundle.log)"
if [ "$rc" = 0 ]; then
  tar -tf "$work/bundle.tar" >"$work/bundle.list"
  for f in build/bundle-lib/libgomp-plugin-nvptx.so.1 build/bundle-paths build/bundle-trees \
           "build/$name/CTestTestfile.cmake"; do
    grep -qx -- "$f" "$work/bundle.list" || fail "sigpipe: the bundle lacks $f"
  done
  grep -q -- "/test-output/" "$work/bundle.list" && fail "sigpipe: the bundle carries test outputs"
  grep -q -- "_cudaemu$" "$work/bundle.list" && fail "sigpipe: the bundle carries the CPU emulation"
fi

# fresh: a checkout of the sources only, the bundle beside.
fresh=$work/fresh
mkdir -p "$fresh/build"
for e in "$src"/* "$src"/.[!.]*; do
  b=${e##*/}
  case $b in build|outputs|.git|'.[!.]*') continue ;; esac
  ln -s "$e" "$fresh/$b"
done
if [ "$rc" = 0 ]; then
  xz -0 -T0 -c "$work/bundle.tar" >"$fresh/build/gpu-bundle.tar.xz"
  gc() { (cd "$fresh" && PATH="$bin:$PATH" scripts/gpu-check.sh --out "$work/check" "$@") >>"$work/check.log" 2>&1; }
  # info: unpacks and relocates (the bandwidth probe skips: no device).
  gc info
  rc=$?
  [ "$rc" = 0 ] || fail "fresh: gpu-check.sh info: exit $rc (see $work/check.log)"
  [ -d "$fresh/build/$name/test-output" ] && fail "fresh: the unpacked tree has test outputs before any test"
  # (The fresh folder may lie inside the tree: only what is left once its path is cut counts.)
  sed "s|$fresh||g" "$fresh/build/$name/CTestTestfile.cmake" | grep -cF -- "$tree" >/dev/null &&
    fail "fresh: the unpacked tree's test files still name $tree"
  grep -qF -- "$fresh/build/$name" "$fresh/build/$name/CTestTestfile.cmake" ||
    fail "fresh: the unpacked tree's test files do not name $fresh/build/$name"
  # The GPU machine has no CMake at the build machine's path.
  cm=$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$tree/CMakeCache.txt")
  find "$fresh/build/$name" -name CTestTestfile.cmake -exec sed -i "s|\"$cm\"|\"/nonexistent/cmake\"|g" {} +
  # CUDA on the emulation where it is quick; the rest skip (exit 77).
  for e in op2/tests/test_loops op2/tests/op2app; do
    [ -x "$tree/${e}_cudaemu" ] && cp "$tree/${e}_cudaemu" "$fresh/build/$name/${e}_cuda"
  done
  gc tests
  rc=$?
  log=$work/check/logs/ctest-$name.log
  [ "$rc" = 0 ] || fail "fresh: gpu-check.sh tests: exit $rc (see $log)"
  grep -E "Not Run|\*\*\*Failed|tests failed out of" "$log" | grep -v " 0 tests failed" |
    sed 's/^/  /' | grep . && fail "fresh: ctest -L gpu has tests not run or failed (above)"
  if [ -x "$tree/op2/tests/op2app_cudaemu" ]; then
    for t in op2.op2app.cuda airfoil.small_mesh op2.loops.cuda.default; do
      grep -qE "Test +#[0-9]+: $t \.+ +Passed" "$log" || fail "fresh: $t did not run and pass"
    done
  fi
fi

if [ "$failed" -gt 0 ]; then
  echo "gpu_bundle_test: $failed check(s) failed (outputs in $work)"
  exit 1
fi
echo "gpu_bundle_test: every case behaved"
