#!/usr/bin/env bash
# A bounded libFuzzer run from the corpus kept in the tree (docs/errors.md).
#
# usage: run_fuzz.sh FUZZER CORPUS WORKDIR SECONDS MAX_LEN [LEAKS]
#
# New inputs go to WORKDIR/new (never into CORPUS); a crash, a leak (LEAKS=1)
# or a timeout leaves its input in WORKDIR/artifacts and fails the test with
# the report. Exit 77 when FUZZER is "" (clang with libFuzzer missing).
. "$(dirname "$0")/../../scripts/lib/help.sh"
set -u
fuzzer=$1 corpus=$2 work=$3 seconds=$4 max_len=$5 leaks=${6:-1}
if [ -z "$fuzzer" ]; then
  echo "clang with libFuzzer (clang, libclang-rt-14-dev) is not installed: skipped"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work/new" "$work/artifacts" "$work/tmp"
export TMPDIR=$work/tmp
export ASAN_OPTIONS=detect_leaks=$leaks:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len="$max_len" \
  -artifact_prefix="$work/artifacts/" -print_final_stats=1 "$work/new" "$corpus" \
  >"$work/log" 2>&1
rc=$?
grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::new_units_added)" "$work/log"
if [ $rc -ne 0 ]; then
  echo "FAIL: $fuzzer exited $rc; the report:"
  grep -v -E "^#[0-9]+ +(NEW|REDUCE|pulse)" "$work/log" | tail -60
  ls -l "$work/artifacts"
  exit 1
fi
echo "$(basename "$fuzzer"): no crash, leak or timeout in ${seconds} s"
