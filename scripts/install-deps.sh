#!/usr/bin/env bash
# Installs the system packages the suite needs, when any is missing (Debian).
# One package per line, with what needs it, so that additions merge cleanly.
set -euo pipefail
need=(
  cmake          # build
  ninja-build    # build
  gcc            # library, solvers, tools
  libc6-dev
  libhdf5-dev    # HDF5 output, meshes, checkpoints
  hdf5-tools     # h5dump in tests
  libnetpbm-dev  # PPM images
  python3        # validation scripts
  clang          # fuzzers of the readers (validation/fuzz, debug preset)
  libclang-rt-14-dev  # libFuzzer and the sanitizer runtimes for clang
  python3-matplotlib  # plots of scripts/bench.sh
  git            # scripts/regress.sh (the base is a commit)
  openmpi-bin          # MPI layer (op2/mpi): mpirun for the mpi tests
  libopenmpi-dev       # MPI layer: headers and libraries
  libptscotch-dev      # MPI layer: PT-Scotch k-way partitioning
  libhdf5-openmpi-dev  # MPI layer: parallel HDF5 (beside the serial libhdf5-dev)
)
missing=()
for p in "${need[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}"
fi
