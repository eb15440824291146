#!/usr/bin/env bash
# Builds what a GPU machine needs to check the CUDA and OpenMP offload
# backends, into one file that travels with the working tree:
# build/gpu-bundle.tar.xz.
#
# usage: scripts/gpu-bundle.sh
#
# The GPU machine has nvcc but neither HDF5 nor netpbm, and cannot install
# them, so everything is built here:
#   build/portable  release build for generic x86-64 (benchmarks, GPU tests
#                   within the stated tolerances)
#   build/strict    no floating-point contraction on host or device (bitwise
#                   GPU tests)
#   build/bundle-lib  the shared libraries those executables need beyond the C
#                   library; both presets link with an RPATH (not RUNPATH, so
#                   that it also serves the libraries' own dependencies) to it.
# The bundle holds the test files and executables of the two trees (no
# objects) and those libraries. scripts/gpu-check.sh unpacks and uses it; the
# commands for a machine with a GPU are in docs/cuda.md.
. "$(dirname "$0")/lib/help.sh"
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
for preset in portable strict; do
  echo "=== build: $preset"
  scripts/build.sh "$preset"
done

trees=(build/portable build/strict)
# Executables of the two trees: ELF files with the executable bit.
mapfile -t exes < <(find "${trees[@]}" -type f -perm -u+x -not -path '*/CMakeFiles/*' \
                      -exec sh -c 'head -c4 "$1" | grep -q ELF' _ {} \; -print)

echo "=== libraries"
lib=build/bundle-lib
rm -rf "$lib"
mkdir -p "$lib"
# The C library and its companions must be the GPU machine's own (they go with
# its dynamic loader); every other library the executables load is copied.
ldd "${exes[@]}" 2>/dev/null | awk '/=> \//{print $1, $3}' | sort -u |
  while read -r soname path; do
    case "$soname" in
      libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|libutil.so.*|\
      ld-linux*|libmvec.so.*) continue ;;
    esac
    cp -L "$path" "$lib/$soname"
  done
# The OpenMP runtime loads its NVIDIA plugin when a program starts (dlopen,
# not a link dependency), found through the same RPATH; the plugin then loads
# the GPU machine's own driver (libcuda.so.1).
plugin=$(ldconfig -p | awk '/libgomp-plugin-nvptx\.so\.1 .*x86-64/{print $NF; exit}')
if [ -n "$plugin" ]; then
  cp -L "$plugin" "$lib/libgomp-plugin-nvptx.so.1"
elif ls build/portable/solvers/*/*_offload >/dev/null 2>&1; then
  echo "gpu-bundle.sh: offload executables but no libgomp-plugin-nvptx.so.1 (scripts/install-deps.sh)" >&2
  exit 1
fi
echo "$(find "$lib" -type f | wc -l) libraries, $(du -sh "$lib" | cut -f1)"

echo "=== bundle"
# Where the trees were configured: their test files name it.
echo "$root" >build/bundle-source-dir
# The commit the trees were built from, for the report (the GPU machine's
# copy of the checkout may have no git history).
{ git rev-parse --short=12 HEAD 2>/dev/null || echo unknown; } | tr -d '\n' >build/bundle-commit
git diff --quiet HEAD 2>/dev/null || printf ' (with uncommitted changes)' >>build/bundle-commit
echo >>build/bundle-commit
list=$(mktemp)
trap 'rm -f "$list"' EXIT
{
  printf '%s\n' "${exes[@]}"
  find "${trees[@]}" -type f \( -name 'CTestTestfile.cmake' -o -name 'CMakeCache.txt' \)
  # Files the tests read from the build trees (written at configure time).
  find "${trees[@]}" -type f -not -path '*/CMakeFiles/*' -not -path '*/Testing/*' \
       -not -path '*/test-work/*' -not -path '*/generated/*' \
       \( -name '*.in' -o -name '*.mtx' -o -name '*.dat' -o -name '*.sh' -o -name '*.cmake' \) \
       -not -name 'cmake_install.cmake'
  find "$lib" -type f
  echo build/bundle-source-dir
  echo build/bundle-commit
} | sort -u >"$list"
tar -cJf build/gpu-bundle.tar.xz -T "$list"
echo "build/gpu-bundle.tar.xz: $(du -h build/gpu-bundle.tar.xz | cut -f1) ($(wc -l <"$list") files)"
