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
printf "%-8s %8s %8s %8s %10s %8s\n" mu_r left right mean particles wall[s]
for mu_r in $values; do
  start=$(date +%s.%N)
  "$build/granite" run "$src/configs/heap.yaml" --output "$tmp/$mu_r" --quiet \
    --set "materials[0].rolling_friction=$mu_r" > "$tmp/$mu_r.log" 2>&1 \
    || { echo "mu_r $mu_r: the run failed: $(tail -2 "$tmp/$mu_r.log")"; exit 1; }
  wall=$(/usr/bin/python3 -c "import time; print(f'{time.time() - $start:.0f}')")
  /usr/bin/python3 "$src/scripts/repose_angle.py" "$tmp/$mu_r" > "$tmp/$mu_r.angle" \
    || { echo "mu_r $mu_r: no angle: $(cat "$tmp/$mu_r.angle")"; continue; }
  left=$(awk '/^left:/ {print $2}' "$tmp/$mu_r.angle")
  right=$(awk '/^right:/ {print $2}' "$tmp/$mu_r.angle")
  mean=$(awk '/^angle of repose:/ {print $4}' "$tmp/$mu_r.angle")
  count=$(awk 'NR == 1 {print $6}' "$tmp/$mu_r.angle")
  printf "%-8s %8s %8s %8s %10s %8s\n" "$mu_r" "$left" "$right" "$mean" "$count" "$wall"
done
echo "(degrees; the flanks between 20 % and 80 % of the peak height)"
