#!/bin/sh
# usage: install_check.sh BUILD_DIR WORK_DIR SOURCE_DIR
# Installs the build into WORK_DIR/prefix (cmake --install), then builds the
# tutorial application docs/examples/jacobi against it twice, as an outside
# project would: with CMake (find_package(OP2), op2_application: seq, OpenMP,
# CUDA where nvcc is found, offload where the package has it) and with
# pkg-config (op2-gen run by hand, from the prefix moved elsewhere: nothing in
# the .pc files may name this machine's paths), and runs the seq, OpenMP and
# offload (on the host) executables, which exit 0 only when they reach the
# known solution; builds op2/tests/h5app (its own HDF5 calls, LIBS naming
# HDF5) the same way and runs it, on two processes where the package has MPI. Also checks that the man pages (from each program's --help)
# and result.json's schema are installed. Exit 0 when all of that works, 1
# otherwise.
. "$(dirname "$0")/../scripts/lib/help.sh"
set -eu
build=$1 work=$2 src=$3
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
example=$src/docs/examples/jacobi
step() { echo "== $*"; }
fail() { echo "install_check.sh: FAIL: $*" >&2; exit 1; }

step "cmake --install $build --prefix $prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log" 2>&1 || { cat "$work/install.log"; fail "cmake --install"; }
for f in bin/op2-gen include/op2/op2.h lib/libop2_core.a lib/libop2_seq.a lib/libop2_openmp.a \
         lib/libop2_io.a lib/libop2_text.a lib/cmake/OP2/OP2Config.cmake lib/pkgconfig/op2-seq.pc \
         bin/heat_seq share/op2suite/inputs/heat.in share/op2suite/result.schema.json \
         share/man/man1/op2-gen.1 share/man/man1/heat_seq.1 share/man/man1/airfoil_openmp.1; do
  [ -e "$prefix/$f" ] || fail "$prefix/$f was not installed"
done
# A man page is its program's --help.
"$prefix/bin/heat_seq" --help > "$work/heat_help.txt" || fail "heat_seq --help"
grep -q '^\.TH "heat_seq" "1"' "$prefix/share/man/man1/heat_seq.1" || fail "heat_seq.1: no .TH line"
grep -qF "$(grep -m1 '^usage' "$work/heat_help.txt")" "$prefix/share/man/man1/heat_seq.1" ||
  fail "heat_seq.1 does not hold heat_seq --help's usage line"

step "CMake: find_package(OP2) and op2_application in $example"
cmake -S "$example" -B "$work/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configuring the example"; }
cmake --build "$work/cmake" >"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "building the example"; }
if grep -q "^CMAKE_CUDA_COMPILER:[A-Z]*=/" "$work/cmake/CMakeCache.txt" && \
   [ -n "$(ls "$prefix"/lib/libop2_cuda.a 2>/dev/null)" ]; then
  [ -x "$work/cmake/jacobi_example_cuda" ] || fail "nvcc is there but jacobi_example_cuda was not built"
  echo "jacobi_example_cuda compiled"
fi
"$work/cmake/jacobi_example_seq" 50 || fail "jacobi_example_seq"
"$work/cmake/jacobi_example_openmp" 50 --op-threads=2 || fail "jacobi_example_openmp"
# The offload backend where the package has it: on the host here.
if [ -f "$prefix/lib/libop2_offload.a" ]; then
  [ -x "$work/cmake/jacobi_example_offload" ] || fail "the package has offload but jacobi_example_offload was not built"
  OMP_TARGET_OFFLOAD=DISABLED "$work/cmake/jacobi_example_offload" 50 --op-threads=2 ||
    fail "jacobi_example_offload"
fi

step "CMake: an application that calls HDF5 itself, LIBS hdf5_hl hdf5 (op2/tests/h5app)"
# op2_application gives each executable the HDF5 the package is built on
# whatever the application names: the MPI executables the parallel build.
mkdir -p "$work/h5app-src" "$work/h5app-run"
cat > "$work/h5app-src/CMakeLists.txt" <<EOF_H5APP
cmake_minimum_required(VERSION 3.25)
project(op2_h5app LANGUAGES C)
find_package(OP2 CONFIG REQUIRED)
op2_application(h5app SOURCES $src/op2/tests/h5app/h5app.c LIBS hdf5_hl hdf5)
EOF_H5APP
cmake -S "$work/h5app-src" -B "$work/h5app" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  >"$work/h5app-configure.log" 2>&1 || { cat "$work/h5app-configure.log"; fail "configuring h5app"; }
cmake --build "$work/h5app" >"$work/h5app-build.log" 2>&1 || { cat "$work/h5app-build.log"; fail "building h5app"; }
(cd "$work/h5app-run" && "$work/h5app/h5app_seq") || fail "h5app_seq"
if [ -x "$work/h5app/h5app_mpi" ]; then
  (cd "$work/h5app-run" && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
     mpirun --oversubscribe -np 2 "$work/h5app/h5app_mpi") || fail "h5app_mpi on 2 processes"
fi
# An MPI executable of an application built with -fsanitize=address on the
# installed, unsanitized MPI layer: the layer finds the sanitizer's runtime in
# the process and leaves malloc's settings to it (docs/mpi.md).
if [ -f "$prefix/lib/libop2_mpi_api.a" ] &&
   echo 'int main(void){return 0;}' | cc -x c -fsanitize=address - -o "$work/asan_probe" 2>/dev/null; then
  step "CMake: jacobi_example_mpi with -fsanitize=address on the installed MPI layer"
  cmake -S "$example" -B "$work/asan" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
    -DCMAKE_C_FLAGS=-fsanitize=address -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address \
    >"$work/asan_configure.log" 2>&1 || { cat "$work/asan_configure.log"; fail "configuring the example with ASan"; }
  cmake --build "$work/asan" --target jacobi_example_mpi >"$work/asan_build.log" 2>&1 ||
    { cat "$work/asan_build.log"; fail "building jacobi_example_mpi with ASan"; }
  # One process, started directly (MPI's singleton start); Open MPI's own
  # allocations are not this test's leaks.
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ASAN_OPTIONS=detect_leaks=0 \
    "$work/asan/jacobi_example_mpi" 50 || fail "jacobi_example_mpi built with -fsanitize=address"
fi

step "pkg-config from the prefix moved elsewhere: op2-gen by hand, cc with op2-seq.pc and op2-openmp.pc"
if ! command -v pkg-config >/dev/null 2>&1; then
  fail "pkg-config not found (scripts/install-deps.sh installs it)"
fi
mv "$prefix" "$work/moved"
prefix=$work/moved
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
# What the .pc files give must not name this machine: the system's libraries
# by their pkg-config names (Requires.private), no absolute path but the CUDA
# toolkit's (which has no pkg-config module), no static system archive.
for pc in "$prefix"/lib/pkgconfig/op2-*.pc; do
  m=$(basename "$pc" .pc)
  flags="$(pkg-config --cflags "$m") $(pkg-config --static --libs "$m" | tr ' ' '\n' |
           grep -v -e "^-L$prefix/" -e "^-I$prefix/" | tr '\n' ' ')"
  own=$(grep -E '^(Cflags|Libs|Libs.private):' "$pc" | tr ' ' '\n' | grep -E '^(-[IL])?/' |
        grep -v -e '^-[IL]/usr/local/cuda' || true)
  [ -z "$own" ] || fail "$pc names paths of this machine: $own"
  ! grep -qE 'lib(pthread|dl)\.a' "$pc" || fail "$pc links a static system archive"
  echo "$m: $flags"
done
gen=$work/pc/generated
mkdir -p "$gen"
"$(pkg-config --variable=op2gen op2-seq)" --app jacobi_example --out "$gen" --kernel-dir "$example" \
  --backends seq,openmp "$example/jacobi_example.c" || fail "op2-gen"
for b in seq openmp; do
  # shellcheck disable=SC2046
  cc -std=c17 -O2 -DOP2_GENERATED_LOOPS='"jacobi_example_loops.h"' $(pkg-config --cflags op2-$b) \
     -I"$example" -I"$gen" "$example/jacobi_example.c" "$gen/jacobi_example_$b.c" \
     $(pkg-config --static --libs op2-$b) -o "$work/pc/jacobi_example_$b" || fail "compiling with op2-$b.pc"
  "$work/pc/jacobi_example_$b" 50 || fail "jacobi_example_$b built with pkg-config"
done
# Offload through op2-offload.pc where the package has it (run on the host).
if [ -f "$prefix/lib/pkgconfig/op2-offload.pc" ]; then
  "$(pkg-config --variable=op2gen op2-offload)" --app jacobi_example --out "$gen" --kernel-dir "$example" \
    --backends offload "$example/jacobi_example.c" || fail "op2-gen --backends offload"
  # shellcheck disable=SC2046
  cc -std=c17 -O2 -DOP2_GENERATED_LOOPS='"jacobi_example_loops.h"' $(pkg-config --cflags op2-offload) \
     -I"$example" -I"$gen" "$example/jacobi_example.c" "$gen/jacobi_example_offload.c" \
     $(pkg-config --static --libs op2-offload) -o "$work/pc/jacobi_example_offload" || fail "compiling with op2-offload.pc"
  OMP_TARGET_OFFLOAD=DISABLED "$work/pc/jacobi_example_offload" 50 ||
    fail "jacobi_example_offload built with pkg-config"
fi
# CUDA through op2-cuda.pc where nvcc is: nvcc compiles the generated loops,
# cc the application and the link; the run needs a GPU (exit 77 without one).
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
if [ -x "$nvcc" ] && [ -f "$prefix/lib/pkgconfig/op2-cuda.pc" ]; then
  "$(pkg-config --variable=op2gen op2-cuda)" --app jacobi_example --out "$gen" --kernel-dir "$example" \
    --backends cuda "$example/jacobi_example.c" || fail "op2-gen --backends cuda"
  # shellcheck disable=SC2046
  "$nvcc" -c -DOP2_GENERATED_LOOPS='"jacobi_example_loops.h"' $(pkg-config --cflags op2-cuda) \
    -I"$example" -I"$gen" "$gen/jacobi_example_cuda.cu" -o "$work/pc/loops_cuda.o" || fail "nvcc with op2-cuda.pc"
  # shellcheck disable=SC2046
  cc -std=c17 -c -DOP2_GENERATED_LOOPS='"jacobi_example_loops.h"' $(pkg-config --cflags op2-cuda) \
    -I"$example" -I"$gen" "$example/jacobi_example.c" -o "$work/pc/main_cuda.o" || fail "cc with op2-cuda.pc"
  # shellcheck disable=SC2046
  cc "$work/pc/main_cuda.o" "$work/pc/loops_cuda.o" $(pkg-config --static --libs op2-cuda) \
    -o "$work/pc/jacobi_example_cuda" || fail "linking with op2-cuda.pc"
  set +e
  "$work/pc/jacobi_example_cuda" 50
  rc=$?
  set -e
  [ $rc -eq 0 ] || [ $rc -eq 77 ] || fail "jacobi_example_cuda built with pkg-config exited $rc"
  echo "jacobi_example_cuda built with op2-cuda.pc (exit $rc; 77: no GPU here)"
fi
echo "install_check.sh: the installed OP2 builds and runs an outside application"
