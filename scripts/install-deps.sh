#!/usr/bin/env bash
# usage: scripts/install-deps.sh
#
# Installs the system packages the suite needs, when any is missing (Debian:
# apt-get, through sudo when not root). One package per line below, with what
# needs it, so that additions merge cleanly.
. "$(dirname "$0")/lib/help.sh"
set -euo pipefail
if [ $# -gt 0 ]; then
  echo "install-deps.sh: no arguments expected, got '$1'" >&2
  exit 2
fi
need=(
  cmake          # build
  ninja-build    # build
  gcc            # library, solvers, tools
  g++            # C++ applications (OP2's own are C++), the CPU emulation of CUDA
  libc6-dev
  libhdf5-dev    # HDF5 output, meshes, checkpoints
  hdf5-tools     # h5dump in tests
  libnetpbm-dev  # PPM images
  python3        # validation scripts
  pkg-config     # the installed-package test builds through op2-seq.pc too
  libpng-dev     # PNG images beside the PPM ones
  gnuplot-nox    # plots (residual history, Riemann profiles, convergence) as PNG
  python3-jsonschema  # result.json checked against docs/result.schema.json
  python3-h5py   # the ParaView test compares what ParaView reads with the HDF5 files
  python3-paraview    # pvpython: the test that ParaView reads every .xmf (pulls paraview)
  xvfb           # xvfb-run: an X display for pvpython to render on (scripts/render.py, paraview.render.*)
  xauth          # xvfb-run's authority file
  clang          # fuzzers of the readers (validation/fuzz, debug preset)
  libclang-rt-14-dev  # libFuzzer and the sanitizer runtimes for clang
  python3-matplotlib  # plots of scripts/bench.sh
  git            # scripts/regress.sh (the base is a commit)
  openmpi-bin          # MPI layer (op2/mpi): mpirun for the mpi tests
  libopenmpi-dev       # MPI layer: headers and libraries
  libptscotch-dev      # MPI layer: PT-Scotch k-way partitioning
  libhdf5-openmpi-dev  # MPI layer: parallel HDF5 (beside the serial libhdf5-dev)
  gcc-12-offload-nvptx # OpenMP offload backend: GCC's offloading to NVIDIA GPUs (pulls nvptx-tools, libgomp-plugin-nvptx1)
  python3-clang-16     # OP2-Common's translator-v2 (validation/op2-common-bench.sh): libclang 16 parses C++17 by default, as OP2's headers need (python3-clang, 14, does not)
  python3-sympy        # OP2-Common's translator-v2
  python3-jinja2       # OP2-Common's translator-v2
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
  # No recommended extras: paraview's would add its documentation and an MPI
  # launcher, minutes of download that nothing here uses.
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
