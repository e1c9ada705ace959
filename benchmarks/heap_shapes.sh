#!/usr/bin/env bash
# Heaps of three grain shapes of the same volume and friction (issue 39's heap benchmark):
# configs/heap_shapes.yaml poured as spheres (ball), tetrahedral clumps (tetra) and bricks
# (brick), mu = 0.5, no rolling resistance; the angle of each fitted by scripts/repose_angle.py.
# DEM and experiments put angular and interlocking grains steeper than spheres. One run takes
# one to three minutes on one core.
# usage: benchmarks/heap_shapes.sh [BUILD_DIR] [SHAPE ...]   (default ball tetra brick)
set -euo pipefail
build=${1:-build}; shift || true
shapes=${*:-ball tetra brick}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf "%-8s %8s %8s %8s %10s %8s %12s\n" shape left right mean grains wall[s] us/grain-step
for shape in $shapes; do
  start=$(date +%s.%N)
  "$build/granite" run "$src/configs/heap_shapes.yaml" --output "$tmp/$shape" --quiet \
    --set "particles[0].shape=$shape" > "$tmp/$shape.log" 2>&1 \
    || { echo "$shape: the run failed: $(tail -2 "$tmp/$shape.log")"; exit 1; }
  wall=$(/usr/bin/python3 -c "import time; print(f'{time.time() - $start:.0f}')")
  cost=$(/usr/bin/python3 -c "
import json; r = json.load(open('$tmp/$shape/run.json'))
print(f\"{1e6 / r['steps_per_second'] / max(r['particles']['final'], 1):.2f}\")")
  /usr/bin/python3 "$src/scripts/repose_angle.py" "$tmp/$shape" > "$tmp/$shape.angle" \
    || { echo "$shape: no angle: $(cat "$tmp/$shape.angle")"; continue; }
  left=$(awk '/^left:/ {print $2}' "$tmp/$shape.angle")
  right=$(awk '/^right:/ {print $2}' "$tmp/$shape.angle")
  mean=$(awk '/^angle of repose:/ {print $4}' "$tmp/$shape.angle")
  count=$(awk 'NR == 1 {print $6}' "$tmp/$shape.angle")
  printf "%-8s %8s %8s %8s %10s %8s %12s\n" "$shape" "$left" "$right" "$mean" "$count" "$wall" "$cost"
done
echo "(degrees; the flanks between 20 % and 80 % of the peak height; us per grain-step at the end's count)"
