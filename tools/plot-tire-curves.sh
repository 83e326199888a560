#!/usr/bin/env bash
# Renders the steady-state tire curves of every surface with `hilsim tire-curve` and gnuplot
# into docs/img/tire_*.png (embedded in docs/models.md).
# Usage: tools/plot-tire-curves.sh [path/to/hilsim]   (default: build/release/tools/hilsim)
set -euo pipefail
cd "$(dirname "$0")/.."
hilsim=${1:-build/release/tools/hilsim}
out=docs/img
[[ -x $hilsim ]] || { echo "no hilsim at $hilsim: cmake --build build/release --target hilsim" >&2; exit 1; }
if ! command -v gnuplot >/dev/null; then
  echo "installing gnuplot-nox" >&2
  if [[ $(id -u) -eq 0 ]]; then apt-get install -y -q gnuplot-nox; else sudo apt-get install -y -q gnuplot-nox; fi
fi
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

load=4000
for s in dry wet snow ice; do
  "$hilsim" tire-curve --surface $s --load $load --slip -1:1:0.005 >"$tmp/long_$s.csv"
  "$hilsim" tire-curve --surface $s --load $load --slip-angle -0.8:0.8:0.005 >"$tmp/lat_$s.csv"
done
for ci in 300 600 1200; do
  "$hilsim" tire-curve --surface sand --cone-index $ci --load 5000 --deflection 0.015 \
    --slip -1:1:0.002 >"$tmp/sand_$ci.csv"
  "$hilsim" tire-curve --surface clay --cone-index $ci --load 5000 --deflection 0.015 \
    --slip -1:1:0.002 >"$tmp/clay_$ci.csv"
done
"$hilsim" tire-curve --surface dry --load $load --slip 0:1:0.01 --slip-angle 0:0.4:0.1 \
  >"$tmp/combined.csv"

common='set terminal pngcairo size 640,420 font "sans,10"; set grid; set key bottom right;
set datafile separator ","; set key autotitle columnhead'
gnuplot <<GP
$common
set output "$out/tire_longitudinal.png"
set title "Pacejka longitudinal force, N = $load N (ice B = 4)"
set xlabel "slip s (+ driving)"; set ylabel "F_x [N]"
plot for [s in "dry wet snow ice"] "$tmp/long_".s.".csv" using 1:3 with lines lw 2 title s
set output "$out/tire_lateral.png"
set title "Crolla lateral force at s = 0, N = $load N, gamma = 0.09 rad"
set xlabel "slip angle alpha [rad] (+ = sliding left)"; set ylabel "F_y [N]"; set key top right
plot for [s in "dry wet snow ice"] "$tmp/lat_".s.".csv" using 2:4 with lines lw 2 title s
set output "$out/tire_soil.png"
set title "Soil net traction F_x/N, N = 5000 N, delta = 15 mm, HMMWV tire"
set xlabel "slip s (+ driving)"; set ylabel "F_x / N [-]"; set key bottom right
set yrange [-1.05:1.05]
plot for [ci in "300 600 1200"] "$tmp/sand_".ci.".csv" using 1:(\$3/5000) with lines lw 2 \
       title "sand CI ".ci." kPa", \
     for [ci in "300 600 1200"] "$tmp/clay_".ci.".csv" using 1:(\$3/5000) with lines lw 2 dt 2 \
       title "clay CI ".ci." kPa"
set output "$out/tire_combined.png"
set title "Combined slip on dry, friction ellipse, N = $load N"
set xlabel "slip s"; set ylabel "F [N]"; set autoscale y; set key outside right
plot for [i=0:4] "$tmp/combined.csv" every 5::i using 1:3 with lines lw 2 \
       title sprintf("F_x, alpha=%.1f", i*0.1), \
     for [i=0:4] "$tmp/combined.csv" every 5::i using 1:(-\$4) with lines lw 2 dt 2 \
       title sprintf("-F_y, alpha=%.1f", i*0.1)
GP
ls -l "$out"/tire_*.png
