#!/bin/sh
# usage: check_plots.sh PYTHON DIR=PLOT[,PLOT...]...
# Runs scripts/plots.sh on each DIR, then checks that each named PLOT
# (history, profile, convergence) is there as a valid PNG, and that no other
# plot appeared (check_pictures.py). Exit status: that of plots.sh when it
# fails (77: gnuplot missing, the test is skipped), 1 when a check fails.
. "$(dirname "$0")/../scripts/lib/help.sh"
set -u
here=$(dirname "$0")
python=$1
shift
dirs="" pngs=""
for a in "$@"; do
  dir=${a%%=*}
  dirs="$dirs $dir"
  for p in $(echo "${a#*=}" | tr ',' ' '); do pngs="$pngs $dir/$p.png"; done
  for p in history profile convergence; do
    case ",${a#*=}," in *",$p,"*) ;; *) rm -f "$dir/$p.png" ;; esac
  done
done
# shellcheck disable=SC2086
bash "$here/../scripts/plots.sh" $dirs || exit $?
status=0
for a in "$@"; do
  dir=${a%%=*}
  for p in history profile convergence; do
    case ",${a#*=}," in
      *",$p,"*) ;;
      *) if [ -e "$dir/$p.png" ]; then echo "FAIL: $dir/$p.png was not expected"; status=1; fi ;;
    esac
  done
done
# shellcheck disable=SC2086
"$python" "$here/check_pictures.py" png $pngs || status=1
exit $status
