#!/usr/bin/env bash
# usage: bench_mpi_run.sh SOURCE_DIR BUILD_DIR OUT_DIR
# scripts/bench-mpi.sh end to end on a small C-mesh (I = 20, J = 12), two
# rounds of three iterations, with the build it is given:
#
#   bench_mpi_run.sh SOURCE BUILD OUT
#
# Checks: exit 0; every configuration ran as labelled (result.json's backend,
# processes and threads) and computed the same (the rms printed last, to its
# digits); bench-mpi.csv has every run; report.md has a row for each
# configuration, OpenMP on one thread the baseline; --update-docs replaced
# what was between the markers of a copy of the doc and kept the rest.
# Exit 0 when all is as expected, 1 otherwise.
. "$(dirname "$0")/../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -uo pipefail
src=$1 build=$2 out=$3
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
doc=$out/doc.md
printf '%s\n' "# before" "<!-- scripts/bench-mpi.sh: begin -->" "an old table" \
  "<!-- scripts/bench-mpi.sh: end -->" "# after" >"$doc"
"$src/scripts/bench-mpi.sh" --meshes 20x12 --iterations 3 --repeats 2 --build-dir "$build" \
  --mesh-dir "$out/meshes" --out "$out/report" --update-docs --docs "$doc" >"$out.log" 2>&1
rc=$?
cat "$out.log"
[ "$rc" = 0 ] || fail "exit status $rc, expected 0"

rms=
for r in "$out"/report/runs/20x12/*/; do
  name=$(basename "$r")
  [[ $name =~ ^(openmp|mpi|mpi_openmp)_([12])x([12])_r[12]$ ]] || fail "unexpected run $name"
  want="${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}"
  got=$(python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); print(j["backend"], j["processes"], j["threads"])' "$r/result.json") ||
    fail "$name: no result.json"
  # The MPI executables report their shared-memory backend (seq, openmp).
  case $want in
    "mpi "*) want="seq ${want#mpi }" ;;
    "mpi_openmp "*) want="openmp ${want#mpi_openmp }" ;;
  esac
  [ "$got" = "$want" ] || fail "$name ran as backend, processes, threads '$got', expected '$want'"
  # The iteration and the rms (the progress after them is each run's own).
  last=$(grep -oE '^ +3  [0-9.e+-]+' "$r/run.log" | tail -n 1)
  [ -n "$last" ] || fail "$name: no rms line for iteration 3 in its log"
  [ -z "$rms" ] || [ "$last" = "$rms" ] || fail "$name printed '$last', another run '$rms'"
  rms=$last
done
[ "$(tail -n +2 "$out/report/bench-mpi.csv" | wc -l)" = 12 ] || fail "bench-mpi.csv: not 12 runs"
grep -Eq '^\| 720 cells \(I = 20, J = 12\) \| airfoil_openmp \| 1 x 1 \| [0-9.]+ \| [0-9.]+ \| 1\.00 \| [0-9.]+ \|$' \
  "$out/report/report.md" || fail "report.md: no baseline row"
[ "$(grep -c '^| 720 cells (I = 20, J = 12) | airfoil_' "$out/report/report.md")" = 6 ] ||
  fail "report.md: not 6 configurations"
! grep -q 'an old table' "$doc" || fail "$doc: the old table is still there"
[ "$(sed -n 1p "$doc")" = "# before" ] && [ "$(tail -n 1 "$doc")" = "# after" ] ||
  fail "$doc: the text around the markers changed"
[ "$(grep -c '^| 720 cells' "$doc")" = 6 ] || fail "$doc: the table is not between the markers"
echo "PASS: bench-mpi"
