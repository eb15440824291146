#!/usr/bin/env bash
# Draws the plots of a run as PNG, with gnuplot, from the CSV files the
# solvers (and solvers/heat/convergence.sh) write:
#
# usage: scripts/plots.sh OUTPUT_DIR...
#
#   history.csv      airfoil: the rms residual per iteration      -> history.png
#                    jacobi:  the update norm per iteration        -> history.png
#                    euler:   the time step and wave speed per step -> history.png
#                    heat:    the error against the exact solution  -> history.png
#   profile.csv      euler, 1D Riemann problems: density, velocity and pressure
#                    along the direction against the exact solution -> profile.png
#   convergence.csv  heat's convergence study: RMS error against dx, with
#                    the slope of second order                      -> convergence.png
#
# The histories' keys go below the plot, where they cover no curve (euler's
# dt climbs into the top right corner, where gnuplot puts a key by default).
# Each PNG is written to a temporary name and renamed. Exit status: 0 when
# every plot was drawn, 1 when one failed, 2 on bad usage (or a directory with
# none of these files), 77 when gnuplot is missing (scripts/install-deps.sh
# installs gnuplot-nox).
. "$(dirname "$0")/lib/help.sh"
set -euo pipefail
if [ $# -lt 1 ]; then
  echo "usage: scripts/plots.sh OUTPUT_DIR..." >&2
  exit 2
fi
if ! command -v gnuplot >/dev/null 2>&1; then
  echo "plots.sh: gnuplot not found (scripts/install-deps.sh installs gnuplot-nox)" >&2
  exit 77
fi

# plot PNG WIDTH,HEIGHT GNUPLOT_COMMANDS: the commands after the terminal and output.
plot() {
  local png=$1 tmp="$1.tmp"
  if ! gnuplot -e "set terminal pngcairo size $2 font 'sans,11'; set output '$tmp'; set datafile separator ','; set grid" \
               -e "$3" 2>"$tmp.log"; then
    echo "plots.sh: gnuplot failed on $png:" >&2
    cat "$tmp.log" >&2
    rm -f "$tmp" "$tmp.log"
    return 1
  fi
  rm -f "$tmp.log"
  mv "$tmp" "$png"
  echo "plots.sh: $png"
}

status=0
for dir in "$@"; do
  drawn=0
  h="$dir/history.csv"
  if [ -f "$h" ]; then
    case "$(head -n 1 "$h")" in
      iteration,rms*)
        plot "$dir/history.png" 960,640 "set title 'airfoil: rms residual'; set key below; set xlabel 'iteration'; set ylabel 'rms of the update'; set logscale y; set format y '10^{%T}';
          plot '$h' using 1:2 with lines lw 2 title 'rms'" || status=1 ;;
      iteration,update_norm*)
        plot "$dir/history.png" 960,640 "set title 'jacobi: convergence'; set key below; set xlabel 'iteration'; set ylabel '2-norm of the update'; set logscale y; set format y '10^{%T}';
          plot '$h' using 1:2 with lines lw 2 title 'update norm'" || status=1 ;;
      step,time,dt,max_wave_speed*)
        plot "$dir/history.png" 960,640 "set title 'euler: time step and largest wave speed'; set key below; set xlabel 'time'; set ylabel 'dt'; set y2label 'max(|u| + a)'; set ytics nomirror; set y2tics;
          plot '$h' using 2:3 with lines lw 2 title 'dt', '' using 2:4 axes x1y2 with lines lw 2 title 'largest wave speed'" || status=1 ;;
      step,time,l2_error*)
        plot "$dir/history.png" 960,640 "set title 'heat: error against the manufactured solution'; set key below; set xlabel 'time'; set ylabel 'error';
          plot '$h' using 2:3 with linespoints lw 2 title 'L2', '' using 2:5 with linespoints lw 2 title 'max'" || status=1 ;;
      *) echo "plots.sh: $h: unknown columns '$(head -n 1 "$h")'" >&2; status=1 ;;
    esac
    drawn=1
  fi
  p="$dir/profile.csv"
  if [ -f "$p" ]; then
    plot "$dir/profile.png" 960,1100 "set multiplot layout 3,1 title 'euler: 1D Riemann problem against the exact solution'; set key bottom center opaque;
      set xlabel 'position along the direction';
      set ylabel 'density'; plot '$p' using 1:5 with lines lw 2 lc rgb 'black' title 'exact', '' using 1:2 with points pt 7 ps 0.5 lc rgb 'blue' title 'computed';
      set ylabel 'velocity'; plot '$p' using 1:6 with lines lw 2 lc rgb 'black' title 'exact', '' using 1:3 with points pt 7 ps 0.5 lc rgb 'blue' title 'computed';
      set ylabel 'pressure'; plot '$p' using 1:7 with lines lw 2 lc rgb 'black' title 'exact', '' using 1:4 with points pt 7 ps 0.5 lc rgb 'blue' title 'computed';
      unset multiplot" || status=1
    drawn=1
  fi
  c="$dir/convergence.csv"
  if [ -f "$c" ]; then
    # The reference line of slope 2 through the finest grid's error.
    ref=$(awk -F, 'NR > 1 { dx = $2; e = $4 } END { printf "%.17g", e / (dx * dx) }' "$c")
    plot "$dir/convergence.png" 960,640 "set title 'heat: convergence in space (r fixed)'; set xlabel 'dx'; set ylabel 'RMS error'; set logscale xy; set format x '10^{%T}'; set format y '10^{%T}'; set key top left;
      plot '$c' using 2:4 with linespoints lw 2 pt 7 title 'RMS error', $ref * x**2 with lines dt 2 lc rgb 'black' title 'second order (slope 2)'" || status=1
    drawn=1
  fi
  if [ $drawn -eq 0 ]; then
    echo "plots.sh: $dir: no history.csv, profile.csv or convergence.csv" >&2
    status=2
  fi
done
exit $status
