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
source "$src/benchmarks/lib.sh"
printf "%-8s %8s %8s %8s %10s %8s %12s\n" shape left right mean grains wall[s] us/grain-step
for shape in $shapes; do
  heap_row "$shape" "$src/configs/heap_shapes.yaml" "$tmp/$shape" --set "particles[0].shape=$shape" || exit 1
done
echo "(degrees; the flanks between 20 % and 80 % of the peak height; us per grain-step at the end's count)"
