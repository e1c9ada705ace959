#!/usr/bin/env bash
# The cost of shapes (issue 37's benchmark): µs per particle-step, by phase, of a settled pile,
# spheres against clumps, capsules and polyhedra of the same bounding radius (dimers,
# tetrahedral clumps, capsules of aspect ratio 2.5, bricks of 4 x 2 x 1, 12-vertex convex
# grains and ellipsoids of 1 x 0.7 x 0.5, at random orientations), one rank, the same solver
# settings. Each pile starts as a lattice (spacing 2 x bounding radius) on a floor, settles for
# SETTLE s, then is restarted from its checkpoint for STEPS steps, which are the ones measured
# (run.json timings of the restart). The ratio is each kind's step cost (total less output) against the spheres'.
# usage: [KINDS="sphere rod ..."] benchmarks/shapes_cost.sh [BUILD_DIR] [N] [STEPS] [SETTLE]
#   N x N x 2N lattice points (default 12: 3456 particles), 50 steps, settled 0.4 s (~10
#   minutes). The lattices of shaped bodies collapse: at 0.1 s the top layers are still falling
#   (the brick pile rebuilds its neighbour lists 15 times per 100 steps there); by 0.4 s the
#   piles rest (docs/shapes.md). SETTLE 0.1 gives the quicker figures of earlier tables.
set -euo pipefail
build=${1:-build}; n=${2:-12}; steps=${3:-50}; settle=${4:-0.4}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
py() { /usr/bin/python3 -c "print($1)"; }
r=1.0e-3; layers=$((2 * n))
side=$(py "$n * 2 * $r"); height=$(py "($layers * 2 + 4) * $r")
write_config() {  # FILE SIZE_KEYS
  cat > "$1" <<YAML
run: {dt: 1.0e-4, end_time: $settle, thermo_every: 100000, seed: 5}
domain: {min: [0, 0, 0], max: [$side, $side, $height]}
gravity: [0, 0, -9.81]
contact: {model: mdp, threshold: 5.0e-5}
solver: {max_sweeps: 10, tolerance: 1.0e-4, convergence: impulse_change}
output: {snapshot_interval: 0, snapshot_initial: false, thermo_file: false}
materials: [{name: glass, density: 2500, friction: 0.5}]
shapes:
  - {name: dimer, type: clump, parts: [{radius: 0.625e-3, position: [-0.375e-3, 0, 0]},
                                       {radius: 0.625e-3, position: [0.375e-3, 0, 0]}]}
  - {name: tetra, type: clump, parts: [{radius: 0.5e-3, position: [0.28867e-3, 0.28867e-3, 0.28867e-3]},
                                       {radius: 0.5e-3, position: [0.28867e-3, -0.28867e-3, -0.28867e-3]},
                                       {radius: 0.5e-3, position: [-0.28867e-3, 0.28867e-3, -0.28867e-3]},
                                       {radius: 0.5e-3, position: [-0.28867e-3, -0.28867e-3, 0.28867e-3]}]}
  - {name: rod, type: capsule, radius: 0.4e-3, half_length: 0.6e-3}
  - {name: brick, type: box, half_extents: [0.873e-3, 0.436e-3, 0.218e-3]}
  - {name: grain, type: convex, vertices: [[1.0e-3, 0, 0], [-1.0e-3, 0, 0], [0, 0.8e-3, 0.3e-3],
                                           [0, -0.8e-3, -0.3e-3], [0.3e-3, 0, 0.9e-3],
                                           [-0.3e-3, 0, -0.9e-3], [0.5e-3, 0.5e-3, -0.5e-3],
                                           [-0.5e-3, -0.5e-3, 0.5e-3], [0.5e-3, -0.5e-3, -0.5e-3],
                                           [-0.5e-3, 0.5e-3, 0.5e-3], [0.6e-3, 0.6e-3, 0.2e-3],
                                           [-0.6e-3, -0.6e-3, -0.2e-3]]}
  - {name: pebble, type: ellipsoid, semi_axes: [1.0e-3, 0.7e-3, 0.5e-3]}
bodies:
  - {type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: glass}
  - {type: plane, point: [0, 0, 0], normal: [1, 0, 0], material: glass}
  - {type: plane, point: [$side, 0, 0], normal: [-1, 0, 0], material: glass}
  - {type: plane, point: [0, 0, 0], normal: [0, 1, 0], material: glass}
  - {type: plane, point: [0, $side, 0], normal: [0, -1, 0], material: glass}
particles:
  - {type: lattice, min: [0, 0, 0], max: [$side, $side, $(py "$layers * 2 * $r")],
     spacing: $(py "2 * $r"), material: glass, $2}
YAML
}
echo "== a pile of $((n * n * layers)) particles (bounding radius $r m) settled for $settle s, then $steps steps measured, 1 rank"
printf "%-8s %10s %10s %10s %10s %10s %9s %12s %12s\n" kind detection setup relaxation step contacts ratio per_contact "overlap_um"
base=0:0
for kind in ${KINDS:-sphere dimer tetra rod brick grain pebble}; do
  keys="radius: $r"; [ "$kind" != sphere ] && keys="shape: $kind, orientation: random"
  write_config "$tmp/$kind.yaml" "$keys"
  "$build/granite" run "$tmp/$kind.yaml" --output "$tmp/$kind" --quiet > "$tmp/$kind.log" 2>&1 \
    || { echo "$kind: settling failed: $(tail -3 "$tmp/$kind.log")"; exit 1; }
  "$build/granite" run "$tmp/$kind.yaml" --output "$tmp/$kind" --quiet --restart "$tmp/$kind/checkpoint.h5" \
    --set run.end_time="$(py "$settle + $steps * 1e-4")" > "$tmp/$kind.2.log" 2>&1 \
    || { echo "$kind: measured run failed: $(tail -3 "$tmp/$kind.2.log")"; exit 1; }
  row=$(/usr/bin/python3 - "$tmp/$kind/run.json" "$kind" "$base" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
ps = run["steps"]["done"] * run["particles"]["final"]
t = run["timings"]
us = {k: 1e6 * t[k]["max" if "max" in t[k] else "avg"] / ps for k in ("detection", "setup", "relaxation", "total", "output")}
us["step"] = us["total"] - us["output"]  # the final snapshot and checkpoint are not a step's
# the step per contact: µs per particle-step over the contacts per particle
per_contact = us["step"] * run["particles"]["final"] / max(run["final"]["contacts"], 1)
base, base_pc = (float(x) for x in sys.argv[3].split(":"))
ratio = f"{us['step'] / base:.2f}x" if base > 0 else "1"
ratio_pc = f"{per_contact / base_pc:.2f}x" if base_pc > 0 else "1"
print(f"{sys.argv[2]:<8} {us['detection']:10.3f} {us['setup']:10.3f} {us['relaxation']:10.3f} "
      f"{us['step']:10.3f} {run['final']['contacts']:>10} {ratio:>9} {ratio_pc:>12} "
      f"{1e6 * run['final']['max_penetration_m']:12.2f} {us['step']}:{per_contact}")
PY
)
  [ "$kind" = sphere ] && base=${row##* }
  echo "${row% *}"
done
echo "(µs per particle-step by phase; step: the run's total less its output (the final snapshot"
echo " and checkpoint, which the surfaces of shaped bodies make dearer); ratio: step against the spheres';"
echo " per_contact: the step over the contacts per particle, against the spheres';"
echo " overlap_um: the deepest contact's overlap at the end, µm)"
