#!/usr/bin/env bash
# Checks a change against a base: builds BASE and the working tree side by
# side, runs the small decks of validation/regress_cases.txt on every backend
# present in both builds, base and change interleaved, compares everything
# each run of the change wrote with its base's (exit status, verdicts,
# result.json, histories, HDF5 fields, pictures, any other file:
# validation/result_compare.py) and times every loop. Base and change run on
# the same backend, preset and machine, where the runs give the same bits
# every time: any bit that moves is reported (results CHANGED), unless a
# tolerance is asked for or the backend is not reproducible run to run
# (cuda, offload: their atomic increments; the case's tolerance then).
#
#   scripts/regress.sh [BASE] [options]
#
# BASE is a git ref; default: the merge base of HEAD with main. Options:
#   --solvers LIST     solvers to run (comma-separated; default: all in the cases)
#   --backends LIST    backends to run (default: every one built in both trees
#                      that runs here: seq, openmp, cuda and offload with a
#                      GPU, mpi and mpi_openmp with mpirun)
#   --presets LIST     build presets (default: release,strict); times are taken
#                      in the first of them, results compared in all
#   --repeats N        base/change pairs timed per case and backend (default 7)
#   --threshold PCT    a loop slower than this (median of the pairs) fails
#                      (default 10; docs/regress-bench.md says how it was chosen)
#   --min-seconds S    loops taking less than S a run are not judged (default 0.02)
#   --rtol R, --atol A compare every result within |a - b| <= A + R |b| instead
#                      of bitwise (default: bitwise; on cuda and offload the
#                      case's tolerance of the cases file)
#   --bitwise          bitwise on every backend, cuda and offload included
#   --threads N        OpenMP threads (default: every core), MPI ranks the same
#   --cases FILE       the decks (default validation/regress_cases.txt)
#   --base-dir DIR     where BASE is checked out and built, kept for the next
#                      run (default build/regress-base)
#   --out DIR          the report (default outputs/regress)
# Writes report.md and report.json in the report folder (what was compared,
# case by case), with runs/ (each run's log, exit status and output folder).
# Ctrl-C stops after the run under way and writes the report of what was
# measured.
# A build folder configured for another source folder (a copied tree) is
# left alone: the side is built afresh in build/regress-own/PRESET.
# Exit: 0 clean; 1 a result changed (bitwise, or beyond the tolerance), a
# verdict that passed in the base fails in the change, an exit status
# changed, or a loop slowed beyond the threshold; 2 bad usage or a build
# failed; 130 interrupted.
OP2_HELP_OWN_USAGE=1 . "$(dirname "$0")/lib/help.sh" # --version
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
. scripts/lib/runs.sh
# The command as given, every option, for the report.
command_line="scripts/regress.sh$(printf ' %q' "$@")"

base_ref= base_name= solvers= backends= presets=release,strict repeats=7 threshold=10
min_seconds=0.02 bitwise=0 rtol= atol= cases=validation/regress_cases.txt
base_dir=build/regress-base out=outputs/regress
while [ $# -gt 0 ]; do
  opt=$1 val=
  case $opt in
    --*=*) val=${opt#*=}; opt=${opt%%=*}; set -- "$opt" "$val" "${@:2}" ;;
  esac
  case $opt in
    --solvers | --backends | --presets | --repeats | --threshold | --min-seconds | --threads | \
    --cases | --base-dir | --out | --rtol | --atol)
      need_value "$@"
      case $opt in
        --rtol) rtol=$2 ;; --atol) atol=$2 ;;
        --solvers) solvers=$2 ;; --backends) backends=$2 ;; --presets) presets=$2 ;;
        --repeats) repeats=$2 ;; --threshold) threshold=$2 ;; --min-seconds) min_seconds=$2 ;;
        --threads) RUN_THREADS=$2 RUN_RANKS=$2 ;; --cases) cases=$2 ;;
        --base-dir) base_dir=$2 ;; --out) out=$2 ;;
      esac
      shift ;;
    --bitwise) bitwise=1 ;;
    -h | --help) usage; exit 0 ;;
    -*) die "unknown option '$opt' (--help lists them)" ;;
    *) [ -z "$base_ref" ] || die "one BASE only ('$base_ref', then '$opt')"; base_ref=$opt ;;
  esac
  shift
done
whole_number --repeats "$repeats"
whole_number --threads "$RUN_THREADS"
[[ $threshold =~ ^[0-9]+([.][0-9]+)?$ ]] || die "--threshold '$threshold': expected a percentage >= 0"
[[ $min_seconds =~ ^[0-9]+([.][0-9]+)?([eE]-?[0-9]+)?$ ]] ||
  die "--min-seconds '$min_seconds': expected a number of seconds >= 0"
for t in rtol atol; do
  [ -z "${!t}" ] || [[ ${!t} =~ ^[0-9]+([.][0-9]*)?([eE][-+]?[0-9]+)?$ ]] ||
    die "--$t '${!t}': expected a number >= 0"
done
[ "$bitwise" = 0 ] || [ -z "$rtol$atol" ] || die "--bitwise and --rtol/--atol: give one or the other"
for p in ${presets//,/ }; do
  grep -q "\"name\": \"$p\"" CMakePresets.json || die "--presets: no preset '$p' in CMakePresets.json"
done
py=$(run_python) || die "no python3 found (scripts/install-deps.sh installs it)"
backends=$(backends_checked "$backends") || exit 2

# ---- the cases: solver case rtol atol args... ----
read_cases "$cases" "$solvers" 4
case_lines=("${CASES[@]}")

# ---- the base: a clone sharing this repository's objects, at BASE ----
git rev-parse --git-dir >/dev/null 2>&1 || die "$root is not a git checkout: no base to compare with"
if [ -z "$base_ref" ]; then
  for m in main origin/main; do
    git rev-parse -q --verify "$m^{commit}" >/dev/null || continue
    base_ref=$(git merge-base HEAD "$m") || die "HEAD and $m have no merge base: give BASE"
    base_name="the merge base of HEAD and $m"
    break
  done
  [ -n "$base_ref" ] || die "no branch main to take the merge base with: give BASE"
fi
base_sha=$(git rev-parse -q --verify "$base_ref^{commit}") || die "BASE '$base_ref' is not a commit here"
base_src=$base_dir/src
mkdir -p "$base_dir" || die "cannot create $base_dir"
# A clone of another repository (the base folder came with a copied tree)
# shares that one's objects, not this one's: cloned afresh.
if [ -d "$base_src/.git" ]; then
  origin=$(git -C "$base_src" config --get remote.origin.url)
  if [ -z "$origin" ] || [ "$(cd "$origin" 2>/dev/null && pwd -P)" != "$(pwd -P)" ]; then
    echo "regress: $base_src is a clone of ${origin:-another repository}, not of $root (a copied tree?): cloning afresh"
    rm -rf "$base_src" || die "cannot remove $base_src"
  fi
fi
if [ ! -d "$base_src/.git" ]; then
  echo "regress: cloning the base into $base_src (shares this repository's objects)"
  git clone -q --shared --no-checkout "$root" "$base_src" || die "cannot clone $root into $base_src"
fi
# A checkout rewrites only the files that differ, so the base's build stays
# incremental from one BASE to the next.
git -C "$base_src" checkout -q --force --detach "$base_sha" ||
  die "cannot check out $base_sha in $base_src"
git -C "$base_src" clean -q -fd -e /build || die "cannot clean $base_src"
base_src=$(cd "$base_src" && pwd)
base_desc="${base_name:-$base_ref} ($(git rev-parse --short=12 "$base_sha"))"
change_desc="working tree at $(source_describe "$root")"
echo "regress: base $base_desc against the $change_desc"

mkdir -p "$out" || die "cannot create $out"
out=$(cd "$out" && pwd)
rm -rf "$out/runs" "$out/work" "$out/logs"
mkdir -p "$out/runs" "$out/logs"

# ---- build: both sides, each preset, the executables the cases need ----
# side_dir SIDE: the source tree of a side.
side_dir() { if [ "$1" = base ]; then echo "$base_src"; else echo "$root"; fi; }
# cache_home DIR: the source folder the build folder DIR was configured for.
cache_home() { sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$1/CMakeCache.txt" 2>/dev/null; }
# foreign DIR SRC: DIR was configured for another source folder than SRC.
foreign() {
  local home
  home=$(cache_home "$1")
  [ -n "$home" ] && [ "$(cd "$home" 2>/dev/null && pwd -P)" != "$(cd "$2" && pwd -P)" ]
}
# choose_build SIDE PRESET: sets BUILD[SIDE:PRESET], the side's build folder:
# build/PRESET, or build/regress-own/PRESET where build/PRESET was configured
# for another source folder (CMake would refuse it: a copied tree's build).
declare -A BUILD
choose_build() {
  local src dir own
  src=$(side_dir "$1")
  dir=$src/build/$2
  if foreign "$dir" "$src"; then
    own=$src/build/regress-own/$2
    echo "regress: ${dir#"$root"/} was configured for another source folder, $(cache_home "$dir") (CMakeCache.txt's CMAKE_HOME_DIRECTORY; a copied tree?): building the $1 afresh in ${own#"$root"/}"
    dir=$own
    if foreign "$dir" "$src"; then rm -rf "$dir" || die "cannot remove $dir"; fi
  fi
  BUILD[$1:$2]=$dir
}
# build_side SIDE PRESET WHAT CMD...: runs a cmake command in SIDE's tree,
# its output added to the side's build log; stops on a failure or Ctrl-C.
build_side() {
  local side=$1 preset=$2 what=$3 log=$out/logs/build-$1-$2.log
  shift 3
  echo "regress: $what $side ($preset)"
  (cd "$(side_dir "$side")" && "$@") >>"$log" 2>&1
  local rc=$?
  [ "$RUN_STOP" = 0 ] || { echo "regress: interrupted while building: nothing measured"; exit 130; }
  [ "$rc" = 0 ] || { tail -30 "$log"; die "$what $side ($preset) failed: $log"; }
}
# configured SIDE PRESET: the side's build of PRESET is configured since its
# presets last changed (cmake --build configures again by itself when a
# CMakeLists.txt changes, not when a preset does).
configured() {
  local dir cache f
  dir=$(side_dir "$1")
  cache=${BUILD[$1:$2]}/CMakeCache.txt
  [ -f "$cache" ] && [ -f "${BUILD[$1:$2]}/build.ninja" ] || return 1
  for f in "$dir/CMakePresets.json" "$dir/CMakeUserPresets.json"; do
    [ ! -e "$f" ] || [ "$cache" -nt "$f" ] || return 1
  done
}
presets=${presets//,/ }
timing_preset=${presets%% *}
declare -A present   # preset:solver -> the backends built in both trees
for preset in $presets; do
  for side in base change; do
    choose_build "$side" "$preset"
    configured "$side" "$preset" ||
      build_side "$side" "$preset" configuring cmake --preset "$preset" -B "${BUILD[$side:$preset]}"
  done
  targets=(op2-compare)
  for solver in $(printf '%s\n' "${case_lines[@]}" | awk '{print $1}' | sort -u); do
    list=
    for b in $backends; do
      backend_runs_here "$b" || continue
      build_has_target "${BUILD[base:$preset]}" "${solver}_$b" || continue
      build_has_target "${BUILD[change:$preset]}" "${solver}_$b" || continue
      list="$list $b"
      targets+=("${solver}_$b")
    done
    present[$preset:$solver]=${list# }
    [ -n "$list" ] || echo "regress: $solver ($preset): no backend built in both trees runs here"
  done
  for side in base change; do
    build_side "$side" "$preset" building cmake --build "${BUILD[$side:$preset]}" --target "${targets[@]}"
  done
done
compare=${BUILD[change:$timing_preset]}/validation/op2-compare

# ---- the runs: base and change interleaved, in pairs ----
planned=0
for preset in $presets; do
  n=1; [ "$preset" = "$timing_preset" ] && n=$repeats
  for line in "${case_lines[@]}"; do
    set -- $line
    for b in ${present[$preset:$1]}; do planned=$((planned + 2 * n)); done
  done
done
[ "$planned" -gt 0 ] || die "no solver has a backend built in both trees that runs here"
done_runs=0
load_before=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
echo "regress: load average ${load_before:-unknown} on $(nproc) cores before the runs"

for preset in $presets; do
  n=1; [ "$preset" = "$timing_preset" ] && n=$repeats
  for line in "${case_lines[@]}"; do
    read -r solver name _ _ rest <<<"$line"   # the tolerance is the report's
    for b in ${present[$preset:$solver]}; do
      dir=$out/runs/$preset/$solver.$name/$b
      for k in $(seq 1 "$n"); do
        # The order alternates from pair to pair (base first in odd ones), so
        # that what running second does to a run cancels, as a drift does.
        order="base change"
        [ $((k % 2)) = 0 ] && order="change base"
        for side in $order; do
          [ "$RUN_STOP" = 0 ] || break 5
          src=$(side_dir $side)
          work=$out/work/$preset/$side
          rundir=$dir/$side/$k
          mkdir -p "$work"
          args=()
          for a in $rest; do args+=("${a//\{work\}/$work}"); done
          backend_command "$b" "${BUILD[$side:$preset]}/solvers/$solver/${solver}_$b"
          printf 'regress: [%d/%d] %s %s/%s %s: %s run %d of %d\n' $((done_runs + 1)) "$planned" \
            "$preset" "$solver" "$name" "$b" "$side" "$k" "$n"
          run_recorded "$rundir" "$src" "${RUN_CMD[@]}" "${args[@]}"
          rc=$?
          [ "$RUN_STOP" = 0 ] || break 5
          [ "$rc" = 0 ] || echo "regress:   exit status $rc (log: $rundir/log)"
          done_runs=$((done_runs + 1))
        done
      done
    done
  done
done

load_after=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
extra=()
[ "$RUN_STOP" = 1 ] && extra+=(--interrupted)
for b in $RUN_BACKENDS_ALL; do extra+=(--backend-label "$b=$(backend_describe "$b")"); done
"$py" validation/regress_report.py --runs "$out/runs" --cases "$cases" --out "$out" \
  --base "$base_desc" --change "$change_desc" --timing-preset "$timing_preset" \
  --threshold "$threshold" --min-seconds "$min_seconds" --bitwise "$bitwise" \
  --rtol "$rtol" --atol "$atol" --planned "$planned" --compare "$compare" \
  --command "$command_line" --host "$(host_describe)" --cores "$(nproc)" \
  --load-before "$load_before" --load-after "$load_after" "${extra[@]}"
status=$?
[ "$RUN_STOP" = 1 ] && exit 130
exit $status
