#!/usr/bin/env bash
# Prescribed motion of global bodies end to end (docs/global_bodies.md):
#  1. a sphere on a floor vibrating vertically, d = a (sin(w t + pi/2) - 1): while a w^2 < g it
#     never leaves the floor: the floor's force (measurements.body_forces every step) never
#     drops below half of m (g - a w^2) > 0 (the least contact force in contact is
#     m (g - a w^2); the step's mean acceleration differs by O(a w^3 dt), 1 % of it here); with
#     a w^2 > g the force is zero in at least 10 % of the steps (the sphere flies);
#  2. a gate (a box with active_until) holds a sphere, then lets it fall freely: after the gate
#     opens at t_off the sphere's velocity is -g (T - t_off) within g dt;
#  3. a velocity table moves a plane by the exact integral (checkpoint's global-body positions,
#     1e-12 m);
#  4. a vibrated run continued with --restart ends bit for bit like the uninterrupted one;
#  5. velocity and motion together, or table times that do not increase: one error line, exit 2.
# usage: motion_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
compare="/usr/bin/python3 $src/tests/support/compare_snapshots.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cat > "$tmp/vibrated.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 0.2, thermo_every: 500}
domain: {min: [-0.01, -0.01, -0.01], max: [0.01, 0.01, 0.05]}
gravity: [0, 0, -9.81]
contact: {model: mdp, threshold: 1.0e-4}
materials:
  - {name: glass, density: 2500, friction: 0.4}
bodies:
  - type: plane
    point: [0, 0, 0]
    normal: [0, 0, 1]
    material: glass
    motion: {type: oscillation, amplitude: [0, 0, 3.0e-4], frequency: 20, phase: 1.5707963267948966}
particles:
  - {type: sphere, position: [0, 0, 0.001], radius: 0.001, material: glass}
measurements:
  body_forces: {interval: 1.0e-4}
output: {checkpoint_interval: 0.1}
YAML
"$granite" run "$tmp/vibrated.yaml" --output "$tmp/low" --quiet > "$tmp/low.log" 2>&1 || fail "a w^2 < g: $(tail -3 "$tmp/low.log")"
"$granite" run "$tmp/vibrated.yaml" --output "$tmp/high" --quiet --set 'bodies[0].motion.amplitude=[0,0,1.0e-3]' \
  > "$tmp/high.log" 2>&1 || fail "a w^2 > g: $(tail -3 "$tmp/high.log")"
/usr/bin/python3 - "$tmp" <<'PY' || fail "vibrated floor"
import math, sys
import numpy as np
tmp = sys.argv[1]
m = 2500 * 4 / 3 * math.pi * 0.001 ** 3
w = 2 * math.pi * 20
low = np.genfromtxt(tmp + "/low/body_forces.csv", delimiter=",", names=True)
high = np.genfromtxt(tmp + "/high/body_forces.csv", delimiter=",", names=True)
assert len(low) == 2000 and len(high) == 2000, (len(low), len(high))
least = m * (9.81 - 3.0e-4 * w * w)
assert least > 0
pressing = -low["fz_N"]
assert pressing.min() > 0.5 * least, (pressing.min(), least)
flying = np.mean(high["fz_N"] == 0.0)
assert 1.0e-3 * w * w > 9.81 and flying >= 0.1, flying
print("low: least force %.3e N (bound %.3e); high: %.0f %% of steps in flight" % (pressing.min(), 0.5 * least, 100 * flying))
PY

# 2. A gate.
cat > "$tmp/gate.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 0.1, thermo_every: 500}
domain: {min: [-0.01, -0.01, -0.1], max: [0.01, 0.01, 0.05]}
gravity: [0, 0, -9.81]
contact: {model: mdp, threshold: 1.0e-4}
materials:
  - {name: glass, density: 2500, friction: 0.4}
bodies:
  - {type: box, center: [0, 0, -0.001], half_extents: [0.005, 0.005, 0.001], material: glass,
     active_until: 0.05}
particles:
  - {type: sphere, position: [0, 0, 0.001], radius: 0.001, material: glass}
YAML
"$granite" run "$tmp/gate.yaml" --output "$tmp/gate" --quiet > "$tmp/gate.log" 2>&1 || fail "gate: $(tail -3 "$tmp/gate.log")"
/usr/bin/python3 - "$tmp/gate/snapshot_00001000.h5" <<'PY' || fail "gate"
import sys
import h5py
v = h5py.File(sys.argv[1], "r")["particles/velocity"][0]
expected = -9.81 * 0.05
assert abs(v[2] - expected) <= 9.81 * 1e-4, (v, expected)
PY

# 3. A velocity table: v = 2 t m/s^2 up to 0.05 s, then 0.1 m/s: d(0.1 s) = 0.0025 + 0.005 m.
cat > "$tmp/table.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 0.1, thermo_every: 500}
domain: {min: [0, 0, 0], max: [0.1, 0.1, 0.1]}
contact: {model: mdp}
materials:
  - {name: steel, density: 7800}
bodies:
  - type: plane
    point: [0.01, 0, 0]
    normal: [1, 0, 0]
    material: steel
    motion: {type: table, times: [0, 0.05], velocities: [[0, 0, 0], [0.1, 0, 0]]}
YAML
"$granite" run "$tmp/table.yaml" --output "$tmp/table" --quiet > "$tmp/table.log" 2>&1 || fail "table: $(tail -3 "$tmp/table.log")"
/usr/bin/python3 - "$tmp/table/checkpoint.h5" <<'PY' || fail "velocity table"
import sys
import h5py
x = h5py.File(sys.argv[1], "r")["state/global_anchors"][...]
assert abs(x[0] - (0.01 + 0.0075)) < 1e-12 and x[1] == 0 and x[2] == 0, x
PY

# 4. --restart of a vibrated run.
"$granite" run "$tmp/vibrated.yaml" --output "$tmp/half" --quiet --set 'bodies[0].motion.amplitude=[0,0,1.0e-3]' \
  --set run.end_time=0.1 > "$tmp/half.log" 2>&1 || fail "half run: $(tail -3 "$tmp/half.log")"
"$granite" run "$tmp/vibrated.yaml" --output "$tmp/half" --quiet --set 'bodies[0].motion.amplitude=[0,0,1.0e-3]' \
  --restart "$tmp/half/checkpoint.h5" > "$tmp/half2.log" 2>&1 || fail "restart: $(tail -3 "$tmp/half2.log")"
$compare "$tmp/high/snapshot_00002000.h5" "$tmp/half/snapshot_00002000.h5" > /dev/null || fail "--restart of a vibrated run differs"

# 5. Bad input.
for bad in "bodies[0].velocity=[0,0,1]" "bodies[0].motion={type: table, times: [0.1, 0.05], velocities: [[0,0,0],[1,0,0]]}"; do
  "$granite" check "$tmp/vibrated.yaml" --set "$bad" > "$tmp/bad.log" 2>&1; rc=$?
  [ "$rc" -eq 2 ] && [ "$(grep -c '^error:' "$tmp/bad.log")" -eq 1 ] || fail "--set $bad: exit $rc: $(cat "$tmp/bad.log")"
done

[ "$failures" -eq 0 ] && echo "PASS: motion" || { echo "$failures failure(s)"; exit 1; }
