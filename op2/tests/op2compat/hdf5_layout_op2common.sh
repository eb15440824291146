#!/bin/sh
# usage: hdf5_layout_op2common.sh HDF5_LAYOUT WORK_DIR
# The HDF5 files of each library read by the other, with OP2_COMMON_DIR set
# to a checkout of OP2-Common (the sources and headers of its op2 folder, as
# validation/op2-common-apps.sh builds it): its single-threaded library with
# HDF5 is compiled with g++ into WORK_DIR, and a program on it
# (hdf5_layout_op2common.cpp) reads the files hdf5_layout writes
# (HDF5_LAYOUT, the seq executable), updates a dat in place in one of them
# (OP2-Common's op_fetch_data_hdf5_file checks the dataset's size, dim and
# type attributes first), then writes its own dump, which hdf5_layout reads.
# Exit 77 (skipped) when OP2_COMMON_DIR is unset, 0 when every step passes,
# 1 otherwise.
. "$(dirname "$0")/../../../scripts/lib/help.sh"
set -eu
layout=$1 work=$2
if [ -z "${OP2_COMMON_DIR:-}" ]; then
  echo "hdf5_layout_op2common.sh: OP2_COMMON_DIR is not set: skipped"
  exit 77
fi
src=$OP2_COMMON_DIR
fail() { echo "hdf5_layout_op2common.sh: FAIL: $*" >&2; exit 1; }
[ -f "$src/op2/src/externlib/op_hdf5.cpp" ] && [ -f "$src/op2/include/op_seq.h" ] ||
  fail "$src does not look like an OP2-Common checkout (op2/src, op2/include)"
mkdir -p "$work/obj"
rm -f "$work"/*.h5 "$work/reader"
hdf5_inc=$(pkg-config --cflags-only-I hdf5-serial 2>/dev/null || echo -I/usr/include/hdf5/serial)
hdf5_lib=$(pkg-config --libs hdf5-serial 2>/dev/null || echo "-L/usr/lib/$(gcc -print-multiarch)/hdf5/serial -lhdf5")
objs=""
for f in core/op_lib_core core/op_rt_support core/SafeLong core/op_dummy_singlenode \
         sequential/op_seq externlib/op_profile externlib/op_hdf5 externlib/op_util; do
  o=$work/obj/$(basename "$f").o
  objs="$objs $o"
  [ "$o" -nt "$src/op2/src/$f.cpp" ] && continue
  # shellcheck disable=SC2086
  g++ -O1 -std=c++17 -I"$src/op2/include" $hdf5_inc -c "$src/op2/src/$f.cpp" -o "$o" \
    >>"$work/build.log" 2>&1 || { cat "$work/build.log"; fail "OP2-Common's $f.cpp does not build"; }
done
# shellcheck disable=SC2086
g++ -O1 -std=c++17 -I"$src/op2/include" $hdf5_inc "$(dirname "$0")/hdf5_layout_op2common.cpp" \
  $objs $hdf5_lib -o "$work/reader" >>"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "building the reader on OP2-Common"; }
# Every step runs, whatever the one before found (the files are written
# before hdf5_layout checks them).
failed=""
"$layout" write "$work" || failed="$failed; hdf5_layout's check of its own files"
if [ -f "$work/layout_dump.h5" ] && [ -f "$work/layout_fetch.h5" ]; then
  (cd "$work" && ./reader layout_dump.h5 layout_fetch.h5 op2common_dump.h5) ||
    failed="$failed; OP2-Common reading the suite's files"
  if [ -f "$work/op2common_dump.h5" ]; then
    "$layout" read "$work/op2common_dump.h5" || failed="$failed; the suite reading OP2-Common's dump"
  fi
else
  failed="$failed; hdf5_layout wrote no files"
fi
[ -z "$failed" ] || fail "${failed#; }"
echo "hdf5_layout_op2common.sh: PASSED"
