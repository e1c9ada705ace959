#!/usr/bin/env bash
# Rotating global bodies and drums end to end (docs/global_bodies.md):
#  1. a sphere at the bottom of a drum (cylinder with inside: true) that starts turning slowly
#     at w: the wall drags its contact point along with it (no slip after the first steps:
#     mu = 0.5 stops the slip after Rw / (3.5 mu g) = 0.6 ms), so the sphere rolls without
#     slipping on a surface moving at R w. A rolling sphere cannot be carried up: its contact
#     impulse P makes v_c = P/m and spin 5P/(2 m r), and the contact point's speed
#     v_c + 5P/2m = 7P/2m must equal R w, so the centre starts at v0 = (2/7) R w, and then swings
#     as a rolling pendulum, (7/5) rho theta'' = -g sin(theta) (rho = R - r; w enters only
#     through v0): amplitude from (7/10) v0^2 = g rho (1 - cos theta_max) and period
#     2 pi sqrt(7 rho / (5 g)). Checked: the tangential slip at the contact is below 1e-3 R w
#     at every snapshot after 10 ms, the amplitude within 2 % (snapshot sampling 0.2 %, the slip
#     phase ~0.1 %) and the period within 1 % (a sliding sphere's would be 2 pi sqrt(rho/g),
#     15 % shorter);
#  2. the angle comes from the clock: a box turning about an axis 1 cm away while a velocity
#     table lifts it is at c + d(T) + R(w T)(x0 - c) after 1000 steps, to 1e-12 m;
#  3. a tumbling drum of spheres continued with --restart ends bit for bit like the
#     uninterrupted run;
#  4. rotation with velocity, a zero orientation axis: one error line, exit 2.
# usage: rotation_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
compare="/usr/bin/python3 $src/tests/support/compare_snapshots.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 1. A sphere in a slowly turning drum (R = 5 cm, w = 0.2 rad/s: R w = 1 cm/s).
cat > "$tmp/drum.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 0.6, thermo_every: 1000}
domain: {min: [-0.06, -0.03, -0.06], max: [0.06, 0.03, 0.06]}
gravity: [0, 0, -9.81]
contact: {model: mdp, threshold: 1.0e-4}
materials:
  - {name: steel, density: 7800, friction: 0.5}
bodies:
  - {type: cylinder, center: [0, 0, 0], axis: [0, 1, 0], radius: 0.05, half_length: 0.02,
     inside: true, material: steel, rotation: {center: [0, 0, 0], angular_velocity: [0, 0.2, 0]}}
particles:
  - {type: sphere, position: [0, 0, -0.045], radius: 0.005, material: steel}
output: {snapshot_interval: 0.01}
YAML
"$granite" run "$tmp/drum.yaml" --output "$tmp/drum" --quiet > "$tmp/drum.log" 2>&1 || fail "drum: $(tail -3 "$tmp/drum.log")"
/usr/bin/python3 - "$tmp/drum" <<'PY' || fail "sphere in a turning drum"
import glob, math, sys
import h5py
import numpy as np
R, r, w, g = 0.05, 0.005, 0.2, 9.81
rho = R - r
omega = np.array([0.0, w, 0.0])
t, x, slip = [], [], []
for path in sorted(glob.glob(sys.argv[1] + "/snapshot_*.h5")):
    with h5py.File(path, "r") as f:
        p = f["particles/position"][0]
        v = f["particles/velocity"][0]
        spin = f["particles/angular_velocity"][0]
        time = float(f.attrs["time"])
    n = p / np.linalg.norm(p)  # from the axis towards the wall
    xc = p + r * n             # contact point
    rel = v + np.cross(spin, xc - p) - np.cross(omega, xc)
    rel -= rel.dot(n) * n      # tangential slip
    t.append(time); x.append(p[0]); slip.append(np.linalg.norm(rel))
t, x, slip = map(np.array, (t, x, slip))
assert len(t) == 61, len(t)
worst = slip[t >= 0.01].max()
assert worst < 1e-3 * R * w, ("slip", worst)
v0 = 2.0 / 7.0 * R * w
theta_max = math.acos(1.0 - 0.7 * v0 * v0 / (g * rho))
amplitude = np.abs(np.arcsin(x / rho)).max()
assert abs(amplitude / theta_max - 1.0) < 0.02, ("amplitude", amplitude, theta_max)
assert x[1] < 0.0  # the bottom of the wall moves towards -x
crossings = [t[k] - x[k] * (t[k + 1] - t[k]) / (x[k + 1] - x[k])
             for k in range(1, len(t) - 1) if x[k] * x[k + 1] < 0.0]
period = 2.0 * math.pi * math.sqrt(7.0 * rho / (5.0 * g))
assert len(crossings) >= 2, crossings
assert abs(crossings[1] / period - 1.0) < 0.01, ("period", crossings, period)
print("slip %.2e m/s (bound %.1e); amplitude %.5f rad (theory %.5f); period %.4f s (theory %.4f)"
      % (worst, 1e-3 * R * w, amplitude, theta_max, crossings[1], period))
PY

# 2. The angle from the clock: box centre (0.02, 0, 0), axis z through (0.01, 0, 0) at 3 rad/s,
#    lifted at 0.1 m/s: at T = 0.1 s it is at (0.01 + 0.01 cos 0.3, 0.01 sin 0.3, 0.01).
cat > "$tmp/turn.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 0.1, thermo_every: 500}
domain: {min: [-0.05, -0.05, -0.05], max: [0.05, 0.05, 0.05]}
materials:
  - {name: steel, density: 7800}
bodies:
  - {type: box, center: [0.02, 0, 0], half_extents: [0.002, 0.003, 0.004], material: steel,
     orientation: {axis: [1, 0, 0], angle: 30},
     rotation: {center: [0.01, 0, 0], angular_velocity: [0, 0, 3]},
     motion: {type: table, times: [0], velocities: [[0, 0, 0.1]]}}
YAML
"$granite" run "$tmp/turn.yaml" --output "$tmp/turn" --quiet > "$tmp/turn.log" 2>&1 || fail "turn: $(tail -3 "$tmp/turn.log")"
/usr/bin/python3 - "$tmp/turn/checkpoint.h5" <<'PY' || fail "rotation angle from the clock"
import math, sys
import h5py
x = h5py.File(sys.argv[1], "r")["state/global_anchors"][...]
expected = (0.01 + 0.01 * math.cos(0.3), 0.01 * math.sin(0.3), 0.01)
assert max(abs(a - b) for a, b in zip(x, expected)) < 1e-12, (list(x), expected)
PY

# 3. --restart with a tumbling drum: the drum of case 1 at 3 rad/s with 16 spheres.
tumble=(--set run.end_time=0.2 --set 'bodies[0].rotation.angular_velocity=[0,3,0]'
  --set 'particles=[{type: lattice, min: [-0.035, -0.006, -0.045], max: [0.035, 0.006, -0.005], spacing: 0.0105, radius: 0.005, material: steel}]'
  --set 'output={checkpoint_interval: 0.1}')
"$granite" run "$tmp/drum.yaml" "${tumble[@]}" --output "$tmp/full" --quiet > "$tmp/full.log" 2>&1 || fail "tumble: $(tail -3 "$tmp/full.log")"
"$granite" run "$tmp/drum.yaml" "${tumble[@]}" --output "$tmp/half" --quiet --set run.end_time=0.1 > "$tmp/half.log" 2>&1 || fail "half: $(tail -3 "$tmp/half.log")"
"$granite" run "$tmp/drum.yaml" "${tumble[@]}" --output "$tmp/half" --quiet --restart "$tmp/half/checkpoint.h5" \
  > "$tmp/half2.log" 2>&1 || fail "restart: $(tail -3 "$tmp/half2.log")"
$compare "$tmp/full/snapshot_00002000.h5" "$tmp/half/snapshot_00002000.h5" > /dev/null || fail "--restart of a tumbling drum differs"

# scripts/drum_surface.py reads the run (a line per snapshot and the mean), and refuses a
# missing one with one error line, exit 2.
/usr/bin/python3 "$src/scripts/drum_surface.py" "$tmp/full" --from 0 --omega 3 --radius 0.05 \
  | grep -q "^mean surface angle" || fail "drum_surface.py on the tumbling drum"
/usr/bin/python3 "$src/scripts/drum_surface.py" "$tmp/none" > /dev/null 2> "$tmp/err.log"; rc=$?
[ "$rc" -eq 2 ] && [ "$(grep -c '^error:' "$tmp/err.log")" -eq 1 ] || fail "drum_surface.py on a missing run: exit $rc"

# 4. Bad input.
for bad in "bodies[0].velocity=[0,0,1]" "bodies[0].orientation={axis: [0,0,0], angle: 10}"; do
  "$granite" check "$tmp/turn.yaml" --set "$bad" > "$tmp/bad.log" 2>&1; rc=$?
  [ "$rc" -eq 2 ] && [ "$(grep -c '^error:' "$tmp/bad.log")" -eq 1 ] || fail "--set $bad: exit $rc: $(cat "$tmp/bad.log")"
done

[ "$failures" -eq 0 ] && echo "PASS: rotation" || { echo "$failures failure(s)"; exit 1; }
