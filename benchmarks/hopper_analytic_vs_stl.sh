#!/usr/bin/env bash
# The STL hopper against the same hopper built from analytic bodies (issue 40: "discharge rate
# within 2 %, at 1 and 2 ranks"). A wedge hopper: two walls 30 degrees from the vertical, each
# a box (2 mm thick, 80 mm long, across the 12 mm depth), with a slot orifice 8 mm wide, 30 mm
# above a floor, between planes at y = 0 and y = 12 mm; 1000 glass spheres (radius 0.9-1.1 mm)
# fill it at random, settle on a gate and discharge from 0.2 s. The walls are given once as the
# two `box` bodies and once as one `mesh` body: the two boxes' surfaces as 24 triangles in an
# ASCII STL written here with every coordinate in full double precision, so the two hoppers
# are the same solid and a sphere's contacts with them the same up to rounding (faces: one
# contact; the rims: the box's edge and the mesh's convex edge give the same closest point).
# The runs then differ by rounding and by the order of the contacts, which the flow amplifies:
# the figure to compare is the mean rate. Prints, for each of 1 and 2 ranks and each hopper,
# the particles through the orifice between 0.3 s and 0.7 s, the mean rate and the spread of
# the 20 ms samples, and the STL hopper's rate relative to the analytic one's.
# usage: benchmarks/hopper_analytic_vs_stl.sh [BUILD_DIR] [RANKS...]   (default ranks: 1 2)
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
shift || true
ranks=("$@"); [ ${#ranks[@]} -gt 0 ] || ranks=(1 2)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# The walls' boxes (centre, orientation angle about y, half extents) and the same boxes'
# surfaces as an ASCII STL.
/usr/bin/python3 - "$tmp" <<'EOF'
import math, sys
import numpy as np
out = sys.argv[1]
t, depth, length, slot, z0, angle = 0.002, 0.012, 0.08, 0.008, 0.03, 30.0
boxes = []
for side in (1, -1):  # right wall, left wall
    a = math.radians(side * angle)
    along = np.array([math.sin(a), 0.0, math.cos(a)])        # from the rim up the wall
    inward = np.array([-side * math.cos(a), 0.0, side * math.sin(a)])  # the wall's inner normal
    rim = np.array([side * slot / 2, depth / 2, z0])
    centre = rim + 0.5 * length * along - 0.5 * t * inward
    half = np.array([t / 2, depth / 2 + 0.002, length / 2])
    boxes.append((centre, side * angle, half))
with open(out + "/walls.yaml", "w") as f:
    for centre, deg, half in boxes:
        f.write("  - {type: box, center: [%r, %r, %r], half_extents: [%r, %r, %r], "
                "orientation: {axis: [0, 1, 0], angle: %r}, material: steel}\n"
                % (*centre, *half, deg))
# The boxes' corners turned as Granite turns them (about y by the angle), 12 triangles each.
quads = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
with open(out + "/walls.stl", "w") as f:
    f.write("solid walls\n")
    for centre, deg, half in boxes:
        a = math.radians(deg)
        R = np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])
        corners = [centre + R @ (half * np.array([1 if i & 1 else -1, 1 if i & 2 else -1,
                                                  1 if i & 4 else -1])) for i in range(8)]
        for q in quads:
            for tri in ((q[0], q[1], q[2]), (q[0], q[2], q[3])):
                f.write("facet normal 0 0 0\nouter loop\n")
                for k in tri:
                    f.write("vertex %r %r %r\n" % tuple(corners[k]))
                f.write("endloop\nendfacet\n")
    f.write("endsolid walls\n")
EOF

scene() {  # scene WALLS: the hopper with these wall bodies (YAML list items)
  cat <<EOF
run: {dt: 1.0e-4, end_time: 0.7, thermo_every: 1000, seed: 3}
domain: {min: [-0.06, 0.0, 0.0], max: [0.06, 0.012, 0.11], outflow: [x-, x+]}
gravity: [0, 0, -9.81]
contact: {model: mdp, threshold: 1.0e-4, error_reduction: 0.2}
solver: {max_sweeps: 30, tolerance: 1.0e-4, convergence: impulse_change}
materials:
  - {name: steel, density: 7850, friction: 0.3}
  - {name: glass, density: 2500, friction: 0.4}
bodies:
  - {type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: steel}
  - {type: plane, point: [0, 0, 0], normal: [0, 1, 0], material: steel}
  - {type: plane, point: [0, 0.012, 0], normal: [0, -1, 0], material: steel}
  - {type: box, center: [0, 0.006, 0.029], half_extents: [0.006, 0.008, 0.001], material: steel,
     active_until: 0.2}
$1
particles:
  - {type: random, region: {type: box, min: [-0.016, 0.0011, 0.06], max: [0.016, 0.0109, 0.1]},
     count: 1000, size: {type: uniform, min: 0.9e-3, max: 1.1e-3}, material: glass}
measurements:
  mass_flow: {interval: 0.02, planes: [{point: [0, 0, 0.025], normal: [0, 0, -1]}]}
output: {snapshot_interval: 0, snapshot_initial: false, thermo_file: false}
EOF
}
scene "$(cat "$tmp/walls.yaml")" > "$tmp/analytic.yaml"
scene "  - {type: mesh, file: walls.stl, material: steel}" > "$tmp/stl.yaml"

printf "%-6s %-9s %10s %12s %12s %10s\n" ranks hopper through rate[1/s] spread[1/s] stl/analytic
for n in "${ranks[@]}"; do
  for hopper in analytic stl; do
    launch=("$build/granite"); [ "$n" -gt 1 ] && launch=(mpiexec -n "$n" --oversubscribe "$build/granite")
    "${launch[@]}" run "$tmp/$hopper.yaml" --output "$tmp/$hopper$n" --quiet > "$tmp/$hopper$n.log" 2>&1 \
      || { echo "$hopper at $n ranks: the run failed: $(tail -2 "$tmp/$hopper$n.log")"; exit 1; }
    read -r through rate spread < <(/usr/bin/python3 - "$tmp/$hopper$n/mass_flow.csv" <<'EOF'
import csv, statistics, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if 0.3 < float(r["time_s"]) <= 0.7 + 1e-9]
rates = [float(r["rate_per_s"]) for r in rows]
print(sum(int(r["crossings"]) for r in rows), statistics.mean(rates), statistics.stdev(rates))
EOF
)
    [ "$hopper" = analytic ] && base=$rate
    printf "%-6s %-9s %10s %12.0f %12.0f %10.3f\n" "$n" "$hopper" "$through" "$rate" "$spread" \
      "$(/usr/bin/python3 -c "print($rate / $base)")"
  done
done
