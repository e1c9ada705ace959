#!/usr/bin/env bash
# Angle of repose against rolling resistance (issue 38's benchmark): configs/heap.yaml (a ridge
# of glass spheres, mu = 0.5, poured onto a rough floor) for each rolling_friction, the angle
# fitted by scripts/repose_angle.py. Published DEM curves (Zhou et al., Powder Technol. 125,
# 2002; Ai et al., Powder Technol. 206, 2011) rise from about 20 deg without rolling resistance
# to 35-40 deg at large mu_r. One run takes about a minute on one core.
# usage: benchmarks/repose_angle.sh [BUILD_DIR] [MU_R ...]   (default 0 0.05 0.1 0.2 0.4)
set -euo pipefail
build=${1:-build}; shift || true
values=${*:-0 0.05 0.1 0.2 0.4}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$src/benchmarks/lib.sh"
printf "%-8s %8s %8s %8s %10s %8s %12s\n" mu_r left right mean grains wall[s] us/grain-step
for mu_r in $values; do
  heap_row "$mu_r" "$src/configs/heap.yaml" "$tmp/$mu_r" --set "materials[0].rolling_friction=$mu_r" || exit 1
done
echo "(degrees; the flanks between 20 % and 80 % of the peak height)"
