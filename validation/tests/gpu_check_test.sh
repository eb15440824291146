#!/usr/bin/env bash
# usage: gpu_check_test.sh SOURCE_DIR WORK_DIR
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
#   time_limit a command that hangs, in a call with --time-limit 20: stopped
#              when the call's time is up ("could not run"), the commands
#              after it not started, the call over within its limit, exit 3
#   op2c       OP2-Common's airfoil beside airfoil_cuda: its default run
#              passing its own check, its OP_AUTO_SOA=1 run failing it
#              (exit 0, rms -nan): a failure of the reference, said in the
#              row and the summary; the rms histories compared
#   offload    scripts/offload-steps.sh at full size with stub executables:
#              a masked run that hangs is stopped by --run-limit and is a
#              row "timed out" (exit 1); the steps that would run the same
#              code as step 3 are rows saying so
#   ab         every candidate against the default on the four benchmarks, in
#              two interleaved rounds, and the table (logs/ab.md, ab.csv): a
#              candidate faster in every round, one slower in every round
#   no_xz      a bundle to unpack and no xz: exit 2 naming xz
#   no_gpu     no nvidia-smi: exit 77, the call not counted in the folder
#
#   gpu_check_test.sh SOURCE_DIR WORK_DIR
# The stubs' bodies are single-quoted on purpose: they expand when they run.
# shellcheck disable=SC2016
. "$(dirname "$0")/../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -u
unset OUT # the cases set it where they mean to
src=$1
work=$2
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
failed=0
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }

# The made-up checkout: the scripts and the report program, and the two
# bundle trees.
root=$work/root
mkdir -p "$root/scripts/lib" "$root/validation" "$root/inputs" "$root/meshes/data"
cp "$src/scripts/gpu-check.sh" "$src/scripts/offload-steps.sh" "$root/scripts/"
cp "$src/scripts/lib/runs.sh" "$src/scripts/lib/relocate_trees.py" "$src/scripts/lib/help.sh" \
   "$src/scripts/lib/suite_version.py" "$root/scripts/lib/"
cp "$src/validation/gpu_report.py" "$src/validation/result_files.py" \
   "$src/validation/op2_common_compare.py" "$src/validation/airfoil_targets.py" \
   "$src/validation/ab_table.py" "$root/validation/"
: >"$root/meshes/data/new_grid.dat"
for t in portable strict; do
  mkdir -p "$root/build/$t"
  : >"$root/build/$t/CTestTestfile.cmake"
done
echo "0123456789ab" >"$root/build/bundle-commit"
P=$root/build/portable
stub() { # stub PATH BODY: an executable shell script
  mkdir -p "$(dirname "$1")"
  printf '#!/usr/bin/env bash\n%s\n' "$2" >"$1"
  chmod +x "$1"
}
# Programs: a result.json in their output_dir (0.5 s, 0.4 s with
# --op-cuda-sync=needed), exit with $STUB_PROGRAM_RC (default 0).
for exe in op2/tests/test_loops_cuda solvers/heat/heat_cuda solvers/jacobi/jacobi_cuda \
           solvers/euler/euler_cuda solvers/airfoil/airfoil_openmp validation/op2-compare; do
  stub "$P/$exe" 'echo "stub $0 $* ${STUB_PROGRAM_SAYS:-}"
t=0.5; case " $* " in *" --op-cuda-sync=needed "*) t=0.4 ;; esac
for a; do case $a in output_dir=*) mkdir -p "${a#*=}" && echo "{\"wall_seconds_main_loop\": $t}" >"${a#*=}/result.json" ;; esac; done
exit "${STUB_PROGRAM_RC:-0}"'
done
# airfoil_cuda prints the rms history of OP2's airfoil and its time.
rms='for k in 100 200 300 400 500 600 700 800 900 1000; do printf "%6d  %.5e\n" $k "5.0${k:0:1}e-04"; done'
# Its result.json: 0.629 s, 0.7 s with --op-cuda-sync=needed (slower).
stub "$P/solvers/airfoil/airfoil_cuda" "echo \"stub \$0 \$*\"; $rms"'
echo "airfoil: 1000 iterations in 0.629 s (0.629 ms per iteration)"
t=0.629; case " $* " in *" --op-cuda-sync=needed "*) t=0.7 ;; esac
for a; do case $a in output_dir=*) mkdir -p "${a#*=}" && echo "{\"wall_seconds_main_loop\": $t}" >"${a#*=}/result.json" ;; esac; done
exit "${STUB_PROGRAM_RC:-0}"'
# OP2-Common's airfoil: its own check fails (rms -nan) with OP_AUTO_SOA=1, and exits 0 either way.
stub "$root/build/op2-common/airfoil_cuda" '[ -f new_grid.dat ] || { echo "cannot open new_grid.dat"; exit 1; }
if [ "${OP_AUTO_SOA:-0}" = 1 ]; then
  for k in 100 200; do printf " %d        -nan \n" $k; done
  echo "Test problem with 720000 cells is within NAN % of the expected solution"
  echo "This test is considered FAILED"
else
  '"$rms"' | sed "s/^ *//; s/^/ /"
  echo "Test problem with 720000 cells is within 2.494005002517952E-11 % of the expected solution"
  echo "This test is considered PASSED"
fi
echo "Total plan time:   0.3670"; echo "Max total runtime = 3.186555"'
stub "$P/tools/op2-gpu-bandwidth" 'echo "copy 3000.0 GB/s"'
# naca_cmesh: writes its -o file, or fails with STUB_MESH=fail.
stub "$P/meshes/naca_cmesh" '[ "${STUB_MESH:-}" = fail ] && { echo "naca_cmesh: cannot write"; exit 1; }
while [ $# -gt 0 ]; do [ "$1" = -o ] && echo mesh >"$2"; shift; done'
# Offload and the CUDA runs of offload-steps.sh: a result.json in output_dir;
# STUB_HANG=mask hangs in the masked runs.
for exe in solvers/jacobi/jacobi_offload solvers/heat/heat_offload; do
  stub "$P/$exe" 'dir=; mask=0
for a; do case $a in output_dir=*) dir=${a#output_dir=} ;; --op-offload-strategy=mask) mask=1 ;; esac; done
[ "${STUB_HANG:-}" = mask ] && [ $mask = 1 ] && sleep 60
mkdir -p "$dir" && echo "{\"wall_seconds_main_loop\": 0.5}" >"$dir/result.json"'
done
# Tools on PATH.
bin=$work/bin
stub "$bin/nvidia-smi" 'case "$*" in -L) echo "GPU 0: Stub GPU (UUID: GPU-0)" ;;
  *) echo "Stub GPU, 999.99, 81559 MiB, 1980 MHz, 2619 MHz" ;; esac'
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
calls_in() { python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["calls"]))' "$1/ledger.json"; }

# killed: the fourth sanitizer run (initcheck) hangs; the call is killed.
out=$work/killed
# (An inner shell, whose stderr is dropped, takes the "Killed" notice.)
# $OUT (the output folder a GPU machine sends back) gets the same, as it goes.
bash -c 'cd "$1" && STUB_CS_SLOW=initcheck OUT="$2-out" timeout -s KILL 10 scripts/gpu-check.sh \
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
  '^  2\. .*bundle built from commit 0123456789ab: sanitize-heat$' '^8 passed, 0 failed or found a defect, 0 could not run' \
  '^\| info \| [0-9.]+ \| 1 \|$' '^\| sanitize-heat \| [0-9.]+ \| 2 \|$'

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

# time_limit: racecheck hangs; the call has 20 s.
out=$work/time_limit
t0=$(date +%s)
STUB_CS_SLOW=racecheck gc --time-limit 20 sanitize-heat
rc=$?
took=$(($(date +%s) - t0))
check time_limit 3 $rc '\| sanitize-memcheck-heat-staged \| passed' \
  "\\| sanitize-racecheck-heat-staged \\| could not run \\(stopped after 1[0-9] s: the call's time limit\\)" \
  "\\| sanitize-memcheck-heat-atomic \\| could not run \\(not started: the call's time limit of 20 s was reached\\)" \
  '1 passed, 0 failed or found a defect, 5 could not run'
[ "$took" -le 22 ] || fail "time_limit: the call took $took s, over its 20 s"

# op2c: OP2-Common's airfoil beside airfoil_cuda.
out=$work/op2c
gc bench-airfoil
check op2c 1 $? '\| op2c-airfoil-1 \| passed' \
  '\| op2c-airfoil-soa-2 \| OP2-Common FAILED its own check: NAN % from its expected solution \|' \
  '\| op2c-rms-compare \| passed' '\| airfoil-cuda-pair-2 \| passed' \
  '^[0-9]+ passed, 1 failed or found a defect' '\| airfoil-targets \| FAILED' \
  "2 of OP2-Common's runs failed \\(the reference, not this suite\\)" \
  "^\\| OP2-Common airfoil_cuda \\(its defaults\\) \\| 3.187 \\| 3.187 \\| 0.367, 0.367 \\| passed \\|" \
  "^\\| this suite's airfoil_cuda \\(tuned\\) \\| 0.629 \\| 0.629 \\|"

# offload: the steps at full size, the masked runs hanging.
out=$work/offload
mkdir -p "$out"
t0=$(date +%s)
(cd "$root" && STUB_HANG=mask scripts/offload-steps.sh --build "$P" --out "$out" --run-limit 2) \
  >"$out.log" 2>&1
rc=$?
took=$(($(date +%s) - t0))
[ "$rc" = 1 ] || fail "offload: exit $rc, expected 1 (timed-out runs)"
[ "$took" -le 40 ] || fail "offload: took $took s with two hanging runs of at most 2 s (+10 s to kill)"
for re in '^\| jacobi \| 1 per-loop \| .* \| 1 \|  \|  \|  \| timed out after 2 s \|$' \
          '^\| jacobi \| 3 branchless \| .* \| 20 \| 0.5 \| 0.025 \| 141.2 \|  \|$' \
          '^\| jacobi \| 4 coalesced \| .*not run: the same code as step 3' \
          '^\| heat \| 5 atomic \| .*not run: the same code as step 3 \(heat_step writes' \
          '^\| heat \| cuda \(tuned\) \| .* \| 10 \| 0.5 \| 0.05 \|'; do
  grep -q -E -- "$re" "$out/steps.md" 2>/dev/null || fail "offload: steps.md lacks /$re/"
done

# ab: the candidates against the default, interleaved, and the table.
out=$work/ab
gc ab
check ab 0 $? '\| ab-airfoil-default-1 \| passed' '\| ab-euler-sync-needed-2 \| passed' \
  '\| ab-table \| passed'
for re in '^\| heat \| sync-needed \| 0\.4000, 0\.4000 \| 0\.4000 \| 0\.800 \| faster \|$' \
          '^\| airfoil \| sync-needed \| 0\.7000, 0\.7000 \| 0\.7000 \| 1\.113 \| slower \|$' \
          '^\| jacobi \| default \| 0\.5000, 0\.5000 \| 0\.5000 \| 1\.000 \| the default \|$'; do
  grep -q -E -- "$re" "$out/logs/ab.md" 2>/dev/null || fail "ab: logs/ab.md lacks /$re/"
done
grep -q '^euler,sync-needed,2,0.400000,0.8000,faster' "$out/logs/ab.csv" 2>/dev/null ||
  fail "ab: logs/ab.csv lacks euler's row"
# Interleaved: round 1 of every benchmark before round 2 of any.
order=$(grep -o 'ab-[a-z]*-[a-z-]*-[12]' "$out/report.md" | sed 's/.*-//' | tr -d '\n')
[ "$order" = "11111111222222222" ] || [ "$order" = "1111111122222222" ] ||
  fail "ab: the runs are not in interleaved rounds: $order"

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
[ "$(calls_in "$out")" = 2 ] || fail "no_gpu: the call without a GPU was counted"
mv "$work/nvidia-smi.away" "$bin/nvidia-smi"

if [ "$failed" -gt 0 ]; then
  echo "gpu_check_test: $failed check(s) failed (outputs in $work)"
  exit 1
fi
echo "gpu_check_test: every case behaved"
