# scripts/lib/runs.sh - what scripts/regress.sh and scripts/bench.sh share:
# which backends can run here, the command line that runs a solver on one,
# a run that a Ctrl-C ends cleanly, recorded as the reports read it, and the
# Python the reports run on.
# Sourced, not run.

. "$(dirname "${BASH_SOURCE[0]}")/mpi-wait.sh"

# die MESSAGE: the script's name and MESSAGE on stderr; exit status 2.
die() { echo "${0##*/}: $*" >&2; exit 2; }

# usage: the script's help, its head comment.
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }

# need_value OPTION VALUE...: an option's value must be there.
need_value() { [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value (--help lists the options)"; }

# whole_number OPTION VALUE: VALUE must be a whole number >= 1.
whole_number() { [[ $2 =~ ^[1-9][0-9]*$ ]] || die "$1 '$2': expected a whole number >= 1"; }

# Every backend a solver may be built for, in the order reports list them.
# <solver>_<backend> is the executable's name.
RUN_BACKENDS_ALL="seq openmp cuda offload mpi mpi_openmp"

# Threads for the OpenMP backends and MPI ranks (the callers' options set them).
RUN_THREADS=$(nproc)
RUN_RANKS=$(nproc)

# backends_checked LIST: LIST (comma-separated) as words, every one a known
# backend; all of them for an empty LIST.
backends_checked() {
  local b list=${1//,/ }
  for b in $list; do
    [[ " $RUN_BACKENDS_ALL " == *" $b "* ]] || die "--backends: unknown backend '$b' (known: $RUN_BACKENDS_ALL)"
  done
  echo "${list:-$RUN_BACKENDS_ALL}"
}

# read_cases FILE SOLVERS FIELDS [SIZE]: the lines of a cases file into the
# array CASES (comments and blank lines left out): those of the solvers in
# SOLVERS (comma-separated; empty: all), each of FIELDS words at least. With
# SIZE, only the lines whose second word is SIZE, that word taken out.
read_cases() {
  local file=$1 solvers=$2 fields=$3 size=${4:-} line s words all=()
  CASES=()
  [ -f "$file" ] || die "$file: no such file"
  while read -r line; do
    read -ra words <<<"$line"
    [ ${#words[@]} -eq 0 ] || [[ ${words[0]} == \#* ]] && continue
    [ ${#words[@]} -ge "$fields" ] ||
      die "$file: '$line': expected $fields words at least (the comment at its top says which)"
    if [ -n "$size" ]; then
      [ "${words[1]}" = "$size" ] || continue
      words=("${words[0]}" "${words[@]:2}")
    fi
    [[ " ${all[*]} " == *" ${words[0]} "* ]] || all+=("${words[0]}")
    if [ -z "$solvers" ] || [[ ",$solvers," == *",${words[0]},"* ]]; then
      CASES+=("${words[*]}")
    fi
  done <"$file"
  for s in ${solvers//,/ }; do
    [[ " ${all[*]} " == *" $s "* ]] ||
      die "--solvers: no case for '$s' in $file${size:+ of size $size} (solvers: ${all[*]})"
  done
  [ ${#CASES[@]} -gt 0 ] || die "$file: no case to run"
}

# gpu_visible: true when nvidia-smi lists a GPU.
gpu_visible() {
  command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -c '^GPU ' >/dev/null
}

# backend_runs_here BACKEND: true when what BACKEND needs besides its
# executable is here (a GPU for cuda and offload, mpirun for the MPI ones).
backend_runs_here() {
  case $1 in
    seq | openmp) return 0 ;;
    cuda | offload) gpu_visible ;;
    mpi | mpi_openmp) command -v mpirun >/dev/null 2>&1 ;;
    *) return 1 ;;
  esac
}

# backend_describe BACKEND: how it runs, for the reports ("openmp, 2 threads").
backend_describe() {
  case $1 in
    openmp) echo "openmp, $RUN_THREADS threads" ;;
    mpi) echo "mpi, $RUN_RANKS ranks" ;;
    mpi_openmp) echo "mpi_openmp, $(mpi_openmp_ranks) ranks x $(mpi_openmp_threads) threads" ;;
    *) echo "$1" ;;
  esac
}

# MPI+OpenMP: two ranks (one where there is one core; RUN_MPI_OPENMP_RANKS
# when set), the threads shared out.
mpi_openmp_ranks() {
  if [ -n "${RUN_MPI_OPENMP_RANKS:-}" ]; then echo "$RUN_MPI_OPENMP_RANKS"
  elif [ "$RUN_THREADS" -ge 2 ]; then echo 2; else echo 1; fi
}
mpi_openmp_threads() { echo $((RUN_THREADS / $(mpi_openmp_ranks))); }

# backend_command BACKEND EXE: sets the array RUN_CMD to the command line
# that runs EXE on BACKEND (the solver's arguments follow it). Open MPI
# refuses root unless told; --oversubscribe allows more ranks than cores;
# ranks that outnumber the free cores yield while they wait (mpi-wait.sh).
backend_command() {
  local backend=$1 exe=$2 mpi=(env)
  if [ "$(id -u)" -eq 0 ]; then
    mpi+=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1)
  fi
  case $backend in
    mpi) mpi+=($(mpi_yield_env "$RUN_RANKS")) ;;
    mpi_openmp) mpi+=($(mpi_yield_env "$RUN_THREADS")) ;; # ranks x threads
  esac
  mpi+=(mpirun)
  case $backend in
    openmp) RUN_CMD=("$exe" "--op-threads=$RUN_THREADS") ;;
    # On the GPU or not at all: a run that fell back to the host would be timed as the GPU's.
    offload) RUN_CMD=(env OMP_TARGET_OFFLOAD=MANDATORY "$exe") ;;
    mpi) RUN_CMD=("${mpi[@]}" -np "$RUN_RANKS" --oversubscribe "$exe") ;;
    # Unbound, so that each rank's threads may use more than one core.
    mpi_openmp) RUN_CMD=("${mpi[@]}" -np "$(mpi_openmp_ranks)" --oversubscribe --bind-to none
                         "$exe" "--op-threads=$(mpi_openmp_threads)") ;;
    *) RUN_CMD=("$exe") ;;
  esac
}

# Ctrl-C and SIGTERM: RUN_STOP becomes 1 and the run under way is asked to
# stop (the solvers end the step they are in and write their results). The
# run is in a process session of its own (setsid), so that a Ctrl-C at the terminal reaches
# it once, through here, not also directly (a second signal would stop it at
# once, without its results).
RUN_STOP=0
RUN_CHILD=
run_on_signal() {
  RUN_STOP=1
  if [ -n "$RUN_CHILD" ]; then kill -INT "$RUN_CHILD" 2>/dev/null; fi
}
trap run_on_signal INT TERM

# run_logged DIR LOG CMD...: runs CMD in DIR with its output in LOG; returns
# CMD's exit status. With RUN_TICK=N (seconds), a line every N seconds says
# how long the run has taken and what it printed last (its progress).
RUN_TICK=0
run_logged() {
  local dir=$1 log=$2 rc ticker=
  shift 2
  (cd "$dir" && exec setsid "$@") >"$log" 2>&1 &
  RUN_CHILD=$!
  if [ "$RUN_TICK" -gt 0 ]; then
    run_ticker "$log" &
    ticker=$!
  fi
  while :; do
    wait "$RUN_CHILD"
    rc=$?
    # A trapped signal ends wait early, with the run still going: wait again.
    kill -0 "$RUN_CHILD" 2>/dev/null || break
  done
  if [ -n "$ticker" ]; then
    kill "$ticker" 2>/dev/null
    wait "$ticker" 2>/dev/null
  fi
  RUN_CHILD=
  return "$rc"
}

# run_recorded RUNDIR DIR CMD...: one measured run of a solver, as both
# reports read it (validation/result_compare.py): CMD run in DIR with
# output_dir=RUNDIR/out added, its output in RUNDIR/log and its exit status
# in RUNDIR/exit; returns that status. A run stopped by Ctrl-C is not a
# measurement: RUNDIR is removed (the caller sees RUN_STOP=1).
run_recorded() {
  local rundir=$1 dir=$2 rc
  shift 2
  mkdir -p "$rundir" || die "cannot create $rundir"
  run_logged "$dir" "$rundir/log" "$@" "output_dir=$rundir/out"
  rc=$?
  if [ "$RUN_STOP" = 1 ]; then
    rm -rf "$rundir"
    return "$rc"
  fi
  echo "$rc" >"$rundir/exit" || die "cannot write $rundir/exit"
  return "$rc"
}

run_ticker() {
  local log=$1 t=0 last
  while sleep "$RUN_TICK"; do
    t=$((t + RUN_TICK))
    last=$(grep -v '^ *$' "$log" 2>/dev/null | tail -n 1 | cut -c1-110)
    printf '        %5d s  %s\n' "$t" "$last"
  done
}

# run_python [MODULE]: prints the python3 that imports MODULE (none: any),
# $PYTHON first, then Debian's, then the first on PATH; fails when none does.
run_python() {
  local py
  for py in ${PYTHON:-} /usr/bin/python3 python3; do
    command -v "$py" >/dev/null 2>&1 || continue
    if [ -z "${1:-}" ] || "$py" -c "import $1" >/dev/null 2>&1; then
      command -v "$py"
      return 0
    fi
  done
  return 1
}

# build_has_target BUILD_DIR TARGET: true when the configured tree has it.
build_has_target() {
  local targets
  targets=$(cmake --build "$1" --target help 2>/dev/null) || return 1
  grep -q "^$2: " <<<"$targets"
}

# source_describe DIR: the commit checked out in DIR, "+ uncommitted changes"
# when the work tree differs from it.
source_describe() {
  local sha
  sha=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || { echo "not a git checkout"; return; }
  if [ -n "$(git -C "$1" status --porcelain 2>/dev/null)" ]; then
    echo "$sha + uncommitted changes"
  else
    echo "$sha"
  fi
}

# host_describe: the machine as tables of figures name it, from lscpu: model
# name, CPU family and model, CPUs, threads per core and the hypervisor (a
# guest's CPU is not always the same from one boot of the guest to the next).
host_describe() {
  local cpu family model ncpu tpc hyper
  cpu=$(lscpu_field 'Model name') family=$(lscpu_field 'CPU family') model=$(lscpu_field 'Model')
  ncpu=$(lscpu_field 'CPU(s)') tpc=$(lscpu_field 'Thread(s) per core') hyper=$(lscpu_field 'Hypervisor vendor')
  printf '%s (family %s, model %s), %s CPUs (%s thread(s) per core)%s\n' "${cpu:-unknown CPU}" "${family:-?}" \
    "${model:-?}" "${ncpu:-?}" "${tpc:-?}" "${hyper:+, $hyper guest}"
}

# host_key: a short name of the machine for file and section names: lscpu's
# model name (without its parentheses), family, model and CPUs, lower case.
host_key() {
  echo "$(lscpu_field 'Model name')-f$(lscpu_field 'CPU family')-m$(lscpu_field 'Model')-$(lscpu_field 'CPU(s)')" |
    tr '[:upper:]' '[:lower:]' | sed 's/([^)]*)//g; s/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//'
}

# lscpu_field NAME: the value of lscpu's line "NAME:" (empty without lscpu).
lscpu_field() { LC_ALL=C lscpu 2>/dev/null | sed -n "s/^$1: *//p" | sed -n 1p; }
