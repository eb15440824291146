#!/usr/bin/env bash
# scripts/gpu-check.sh without a GPU: its plumbing, on a made-up checkout whose
# bundle trees hold stub programs and whose PATH has stub nvidia-smi,
# compute-sanitizer and ctest. Each case checks the report and exit status:
#   killed     a call killed in its fourth command leaves report.md with the
#              rows of the three before it (the report is written as it goes),
#              in the output folder and its copy in $OUT
#   accumulate two calls into one folder: one report with both calls' rows
#   unsupported  compute-sanitizer saying "Device not supported": "could not
#              run", not a pass or a defect, and exit 3
#   defect     compute-sanitizer exiting 9: "DEFECT FOUND", exit 1
#   program    the program failing under the sanitizer, saying something a
#              tool might: FAILED, exit 1
#   mesh       naca_cmesh failing: the airfoil runs are FAILED (not run) with
#              the reason, exit 1
#   no_xz      a bundle to unpack and no xz: exit 2 naming xz
#   no_gpu     no nvidia-smi: exit 77, the call not counted in the folder
#
#   gpu_check_test.sh SOURCE_DIR WORK_DIR
# The stubs' bodies are single-quoted on purpose: they expand when they run.
# shellcheck disable=SC2016
set -u
unset OUT # the cases set it where they mean to
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# The made-up checkout: the script, and the two bundle trees.
root=$work/root
mkdir -p "$root/scripts" "$root/inputs"
cp "$src/scripts/gpu-check.sh" "$root/scripts/"
for t in portable strict; do
  mkdir -p "$root/build/$t"
  : >"$root/build/$t/CTestTestfile.cmake"
done
echo "$root" >"$root/build/bundle-source-dir"
echo "0123456789ab" >"$root/build/bundle-commit"
P=$root/build/portable
stub() { # stub PATH BODY: an executable shell script
  mkdir -p "$(dirname "$1")"
  printf '#!/usr/bin/env bash\n%s\n' "$2" >"$1"
  chmod +x "$1"
}
# Programs: exit with $STUB_PROGRAM_RC (default 0).
for exe in op2/tests/test_loops_cuda solvers/airfoil/airfoil_cuda solvers/heat/heat_cuda \
           solvers/jacobi/jacobi_cuda solvers/euler/euler_cuda; do
  stub "$P/$exe" 'echo "stub $0 $* ${STUB_PROGRAM_SAYS:-}"; exit "${STUB_PROGRAM_RC:-0}"'
done
stub "$P/op2/backends/cuda/op2-gpu-bandwidth" 'echo "copy 3000.0 GB/s"'
# naca_cmesh: writes its -o file, or fails with STUB_MESH=fail.
stub "$P/meshes/naca_cmesh" '[ "${STUB_MESH:-}" = fail ] && { echo "naca_cmesh: cannot write"; exit 1; }
while [ $# -gt 0 ]; do [ "$1" = -o ] && echo mesh >"$2"; shift; done'
# Tools on PATH.
bin=$work/bin
stub "$bin/nvidia-smi" 'echo "Stub GPU, 999.99, 81559 MiB, 1980 MHz, 2619 MHz"'
stub "$bin/ctest" 'echo "100% tests passed, 0 tests failed out of 3"'
# compute-sanitizer: STUB_CS=ok (runs the program), defect (exit 9),
# unsupported (the tool refuses the GPU); STUB_CS_SLOW=TOOL sleeps in TOOL.
stub "$bin/compute-sanitizer" 'tool=$2; shift 4
[ "$tool" = "${STUB_CS_SLOW:-}" ] && sleep 60
echo "========= COMPUTE-SANITIZER"
case ${STUB_CS:-ok} in
  defect) echo "========= Invalid __global__ read of size 8 bytes"; echo "========= ERROR SUMMARY: 1 error"; exit 9 ;;
  unsupported) echo "========= Error: Device not supported"; exit 1 ;;
esac
"$@"'
export PATH="$bin:$PATH"

check() { # check CASE WANT_RC RC REGEX...: the exit status and report.md lines
  local name=$1 want=$2 rc=$3 re
  shift 3
  [ "$rc" = "$want" ] || fail "$name: exit $rc, expected $want"
  for re in "$@"; do
    grep -q -E -- "$re" "$out/report.md" 2>/dev/null || fail "$name: report.md lacks /$re/"
  done
}
gc() { (cd "$root" && scripts/gpu-check.sh --out "$out" "$@") >"$out.log" 2>&1; }

# killed: the fourth sanitizer run (initcheck) hangs; the call is killed.
out=$work/killed
# (An inner shell, whose stderr is dropped, takes the "Killed" notice.)
# $OUT (the device tool's folder) gets the same, as it goes.
bash -c 'cd "$1" && STUB_CS_SLOW=initcheck OUT="$2-out" timeout -s KILL 8 scripts/gpu-check.sh \
  --out "$2" info sanitize-loops >"$2.log" 2>&1' _ "$root" "$out" 2>/dev/null
rc=$?
for out in "$work/killed" "$work/killed-out"; do
  check killed "137" "$rc" '\| nvidia-smi \| passed' '\| gpu-bandwidth \| passed' \
    '\| sanitize-memcheck-test_loops-staged \| passed' '\| sanitize-synccheck-test_loops-staged \| passed'
  grep -q initcheck "$out/report.md" 2>/dev/null && fail "killed: the killed run has a row in $out"
  [ -f "$out/logs/sanitize-racecheck-test_loops-staged.log" ] || fail "killed: no log of a finished run in $out"
done

# accumulate: info, then sanitize-heat, into one folder.
out=$work/acc
gc info
rc1=$?
gc sanitize-heat
check accumulate 0 "$rc1" '\| nvidia-smi \| passed \| [0-9.]+ \| 1 \|' \
  '\| sanitize-racecheck-heat-colour \| passed \| [0-9.]+ \| 2 \|' '^  1\. .*: info$' \
  '^  2\. .*bundle built from commit 0123456789ab: sanitize-heat$' '^8 passed, 0 failed or found a defect, 0 could not run'

# unsupported: the tool refuses the device.
out=$work/unsupported
STUB_CS=unsupported gc sanitize-jacobi
check unsupported 3 $? '\| sanitize-memcheck-jacobi-staged \| could not run \(Device not supported\)' \
  '0 passed, 0 failed or found a defect, 6 could not run'

# defect: the tool finds one.
out=$work/defect
STUB_CS=defect gc sanitize-euler
check defect 1 $? '\| sanitize-racecheck-euler-atomic \| DEFECT FOUND'

# program: the program fails under a working sanitizer.
out=$work/program
STUB_PROGRAM_RC=4 STUB_PROGRAM_SAYS="libfoo.so could not be loaded" gc sanitize-heat
check program 1 $? '\| sanitize-memcheck-heat-staged \| FAILED \(exit 4\)'
grep -q "| could not run" "$out/report.md" && fail "program: a failing program reported as could not run"

# mesh: naca_cmesh fails.
out=$work/mesh
STUB_MESH=fail gc sanitize-airfoil
check mesh 1 $? '\| sanitize-memcheck-airfoil-staged \| FAILED \(not run: naca_cmesh failed'

# no_xz: the trees are missing, a bundle is there, xz is not.
nox=$work/noxz-bin
mkdir -p "$nox"
for d in /usr/local/bin /usr/bin /bin; do
  for f in "$d"/*; do
    b=${f##*/}
    [ "$b" = xz ] || [ -e "$nox/$b" ] || ln -s "$f" "$nox/$b"
  done
done
mv "$root/build/portable" "$work/portable.away"
: >"$root/build/gpu-bundle.tar.xz"
out=$work/noxz
(cd "$root" && PATH="$bin:$nox" scripts/gpu-check.sh --out "$out" info) >"$out.log" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "no_xz: exit $rc, expected 2"
grep -q "'xz' is needed to unpack" "$out.log" || fail "no_xz: the message does not name xz: $(cat "$out.log")"
mv "$work/portable.away" "$root/build/portable"
rm "$root/build/gpu-bundle.tar.xz"

# no_gpu: nvidia-smi missing; an earlier call's folder keeps its calls.
mv "$bin/nvidia-smi" "$work/nvidia-smi.away"
out=$work/acc
gc info
rc=$?
[ "$rc" = 77 ] || fail "no_gpu: exit $rc, expected 77"
[ "$(wc -l <"$out/calls.tsv")" = 2 ] || fail "no_gpu: the call without a GPU was counted"
mv "$work/nvidia-smi.away" "$bin/nvidia-smi"

if [ "$failed" -gt 0 ]; then
  echo "gpu_check_test: $failed check(s) failed (outputs in $work)"
  exit 1
fi
echo "gpu_check_test: every case behaved"
