#!/usr/bin/env bash
# Builds what a GPU machine needs to check the CUDA and OpenMP offload
# backends, into one file that travels with the working tree:
# build/gpu-bundle.tar.xz.
#
#   scripts/gpu-bundle.sh
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
#   build/bundle-mpi  Open MPI's mpirun (orterun) and orted with its components
#                   and help files, and PMIx's, in their own layout, for
#                   gpu-check.sh's mpi step (the GPU machine has no MPI); their
#                   libraries go to build/bundle-lib.
# The bundle holds the test files and executables of the two trees (no
# objects) and those libraries. scripts/gpu-check.sh unpacks and uses it; the
# commands for a machine with a GPU are in docs/cuda.md.
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
# ---- Open MPI for gpu-check.sh's mpi step ----
# Copied in Open MPI's layout under build/bundle-mpi, so that OPAL_PREFIX
# (Open MPI) and PMIX_INSTALL_PREFIX (PMIx: build/bundle-mpi/pmix2) relocate
# every path it has: its components and PMIx's are loaded with dlopen, and the
# libraries they need (ldd) join bundle-lib.
mpi=build/bundle-mpi
rm -rf "$mpi"
if command -v orterun >/dev/null 2>&1 && command -v ompi_info >/dev/null 2>&1 &&
   ls build/portable/solvers/*/*_mpi >/dev/null 2>&1; then
  echo "=== Open MPI"
  ompi_path() { ompi_info --path "$1" --parsable | awk -F: -v k="$1" '$2 == k {print $3; exit}'; }
  prefix=$(ompi_path prefix)
  for d in bindir libdir pkglibdir pkgdatadir; do
    p=$(ompi_path "$d")
    case $p in
      "$prefix"/*) ;;
      *) echo "gpu-bundle.sh: Open MPI's $d ($p) is not under its prefix ($prefix): cannot relocate it" >&2
         exit 1 ;;
    esac
  done
  bindir=$(ompi_path bindir) pkglibdir=$(ompi_path pkglibdir) pkgdatadir=$(ompi_path pkgdatadir)
  mkdir -p "$mpi${bindir#"$prefix"}" "$mpi${pkglibdir#"$prefix"}" "$mpi${pkgdatadir#"$prefix"}"
  cp -L "$(command -v orterun)" "$mpi${bindir#"$prefix"}/orterun"
  cp -L "$(command -v orted)" "$mpi${bindir#"$prefix"}/orted"
  ln -s orterun "$mpi${bindir#"$prefix"}/mpirun"
  cp -L "$pkglibdir"/*.so "$mpi${pkglibdir#"$prefix"}/"
  cp -rL "$pkgdatadir"/. "$mpi${pkgdatadir#"$prefix"}/"
  # PMIx: the prefix of the libpmix Open MPI's component loads.
  libpmix=$(ldd "$pkglibdir"/mca_pmix_ext*.so 2>/dev/null | awk '/libpmix\.so/{print $3; exit}')
  pmix=""
  [ -n "$libpmix" ] && pmix=$(dirname "$(dirname "$(realpath "$libpmix")")")
  if [ -n "$pmix" ] && [ -d "$pmix/lib/pmix" ]; then
    mkdir -p "$mpi/pmix2/lib" "$mpi/pmix2/share"
    cp -rL "$pmix/lib/pmix" "$mpi/pmix2/lib/"
    [ -d "$pmix/share" ] && cp -rL "$pmix/share/." "$mpi/pmix2/share/"
  fi
  # What the launcher, its daemon and every component load.
  ldd "$mpi${bindir#"$prefix"}"/orte* "$mpi${pkglibdir#"$prefix"}"/*.so $(find "$mpi/pmix2" -name '*.so') \
    2>/dev/null | awk '/=> \//{print $1, $3}' | sort -u |
    while read -r soname path; do
      case "$soname" in
        libc.so.*|libm.so.*|libpthread.so.*|libdl.so.*|librt.so.*|libresolv.so.*|libutil.so.*|\
        ld-linux*|libmvec.so.*) continue ;;
      esac
      [ -e "$lib/$soname" ] || cp -L "$path" "$lib/$soname"
    done
  echo "$mpi: $(find "$mpi" -type f | wc -l) files, $(du -sh "$mpi" | cut -f1)"
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
  [ -d build/bundle-mpi ] && find build/bundle-mpi \( -type f -o -type l \)
  echo build/bundle-source-dir
  echo build/bundle-commit
} | sort -u >"$list"
tar -cJf build/gpu-bundle.tar.xz -T "$list"
echo "build/gpu-bundle.tar.xz: $(du -h build/gpu-bundle.tar.xz | cut -f1) ($(wc -l <"$list") files)"
