#!/bin/sh
# usage: check_image.sh EXE LOOPS_HEADER ISA
# check_image.sh EXE LOOPS_HEADER ISA - an offload executable really carries
# device code: the nvptx image (PTX for ISA, as mkoffload embeds it), an entry
# point in it for every loop that op2-gen declared in LOOPS_HEADER, and the
# registration of the image with the OpenMP runtime. A build that silently
# made host code only (no offload compiler, -foffload=disable) fails here.
. "$(dirname "$0")/../../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -u
[ $# -eq 3 ] || { echo "usage: check_image.sh EXE LOOPS_HEADER ISA" >&2; exit 2; }
exe=$1 header=$2 isa=$3
fail() { echo "check_image.sh: $exe: $*" >&2; exit 1; }
[ -r "$exe" ] || fail "cannot read it"
[ -r "$header" ] || fail "cannot read $header"
grep -a -q "^\.target $isa\$" "$exe" || fail "no PTX image for $isa"
grep -a -q "GOMP_offload_register_ver" "$exe" || fail "no registration of an offload image"
loops=$(sed -n 's/^void op_par_loop_\([A-Za-z0-9_]*\)(.*/\1/p' "$header")
[ -n "$loops" ] || fail "$header declares no loops"
n=0
for k in $loops; do
  entries=$(grep -a -c "^\.visible \.entry op_par_loop_$k\\\$_omp_fn\\\$" "$exe")
  [ "$entries" -gt 0 ] || fail "no device entry point for loop $k"
  n=$((n + 1))
  echo "$k: $entries device entry points"
done
echo "check_image.sh: $n loops, each with device code for $isa"
