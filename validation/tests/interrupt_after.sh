#!/usr/bin/env bash
# usage: interrupt_after.sh PATTERN LOG COMMAND...
# interrupt_after.sh PATTERN LOG COMMAND...: runs COMMAND with its output in
# LOG, sends it SIGINT once LOG has a line matching PATTERN (grep -E), or
# after 5 minutes, and exits with COMMAND's exit status. Job control is on, so
# that COMMAND, in the background, takes SIGINT as a command at a terminal
# does (a script's background commands ignore it otherwise).
. "$(dirname "$0")/../../scripts/lib/help.sh" # --help, --version: its usage, and nothing run
set -uo pipefail
pattern=$1 log=$2
shift 2
set -m
"$@" >"$log" 2>&1 &
pid=$!
set +m
for _ in $(seq 1 1500); do
  grep -Eq "$pattern" "$log" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.2
done
kill -INT "$pid" 2>/dev/null
wait "$pid"
