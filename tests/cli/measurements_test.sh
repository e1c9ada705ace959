#!/usr/bin/env bash
# The measurements end to end (docs/measurements.md):
#  1. body_forces: nine spheres dropped 10 um onto a floor, apart from each other: once they
#     rest, the floor's mean force over every interval is their weight, (0, 0, N F) with
#     F = -m g, and its torque about the origin sum_i (y_i F, -x_i F, 0); the first interval
#     too, by momentum balance (at rest at its start and end, the floor gave m g T). The same
#     at 1 and 2 ranks. Tolerance: a resting contact's impulse is m g dt to rounding (a few
#     ulp) and a row sums 100 steps, so 1e-9 relative is far above rounding and far below any
#     error of the measure (a step missed or counted twice is 1e-2);
#  2. a run continued with --restart writes the same rows, bit for bit, as the uninterrupted run
#     (the sums of an unfinished interval are in the checkpoint);
#  3. a zero mass_flow normal or an empty grid box is one error line naming the key, exit 2;
#  4. grid (below);
#  5. orientation and grid's order columns (below).
# (mass_flow against the outflow count: from_test.sh.)
# usage: measurements_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
cat > "$tmp/rest.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 0.05, thermo_every: 100}
domain: {min: [0, 0, 0], max: [0.012, 0.012, 0.01]}
gravity: [0, 0, -9.81]
contact: {model: mdp, threshold: 1.0e-4}
materials:
  - {name: glass, density: 2500, friction: 0.4}
bodies:
  - {type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: glass}
particles:
  - {type: lattice, min: [0, 0, -0.00099], max: [0.012, 0.012, 0.00301], spacing: 0.004,
     radius: 0.001, material: glass}   # 3 x 3 centres 10 um above resting on the floor
measurements:
  body_forces: {interval: 0.01}
  mass_flow:
    interval: 0.01
    planes: [{point: [0, 0, 0.0005], normal: [0, 0, 1]}]
output: {checkpoint_interval: 0.015}
YAML
"$granite" run "$tmp/rest.yaml" --output "$tmp/one" --quiet > "$tmp/one.log" 2>&1 || fail "1 rank: $(tail -3 "$tmp/one.log")"
mpiexec -n 2 --oversubscribe "$granite" run "$tmp/rest.yaml" --output "$tmp/two" --quiet --set 'domain.decomposition=[2,1,1]' \
  > "$tmp/two.log" 2>&1 || fail "2 ranks: $(tail -3 "$tmp/two.log")"
for dir in one two; do
  /usr/bin/python3 - "$tmp/$dir" <<'PY' || fail "$dir: body_forces differ from the analytic floor load"
import math, sys
import h5py, numpy as np
out = sys.argv[1]
rows = np.genfromtxt(out + "/body_forces.csv", delimiter=",", names=True)
assert len(rows) == 5, "expected 5 rows (one per 0.01 s), got %d" % len(rows)
final = h5py.File(out + "/snapshot_00000500.h5", "r")["particles"]
x = final["position"][...]
m = 2500 * 4 / 3 * math.pi * 0.001 ** 3
F = -m * 9.81
n = len(x)
assert n == 9, n
expected = np.array([0, 0, n * F, F * x[:, 1].sum(), -F * x[:, 0].sum(), 0])
scale = abs(n * F)
for row in rows:
    got = np.array([row[k] for k in ("fx_N", "fy_N", "fz_N", "tx_Nm", "ty_Nm", "tz_Nm")])
    worst = np.max(np.abs(got - expected) / np.array([scale, scale, scale, scale * 0.012, scale * 0.012, scale * 0.012]))
    assert row["body"] == 0 and abs(row["averaged_s"] - 0.01) < 1e-12, row
    assert worst < 1e-9, "step %d: %s vs %s (relative %.2e)" % (row["step"], got, expected, worst)
flow = np.genfromtxt(out + "/mass_flow.csv", delimiter=",", names=True)
assert len(flow) == 5 and np.all(flow["crossings"] == 0), flow  # resting: nothing crosses
PY
done

# 2. --restart continues the measurements bit for bit.
"$granite" run "$tmp/rest.yaml" --output "$tmp/half" --quiet --set run.end_time=0.015 > "$tmp/half.log" 2>&1 \
  || fail "short run: $(tail -3 "$tmp/half.log")"
"$granite" run "$tmp/rest.yaml" --output "$tmp/half" --quiet --restart "$tmp/half/checkpoint.h5" > "$tmp/half2.log" 2>&1 \
  || fail "restart: $(tail -3 "$tmp/half2.log")"
for csv in body_forces.csv mass_flow.csv; do
  cmp -s "$tmp/one/$csv" "$tmp/half/$csv" || fail "$csv after --restart differs: $(diff "$tmp/one/$csv" "$tmp/half/$csv" | head -4)"
done

# 4. grid: a simple cubic stack (4 x 4 x 4 spheres of radius 1 mm touching, on a floor, under
#    gravity) in 2 x 2 x 1 cells of 4 x 4 x 8 mm: solid fraction pi/6, and the forces are carried
#    by the vertical contacts only, 7 contact ends per column of 4 (3 sphere pairs + the floor),
#    so Z = 28 / 16 = 1.75; then free spheres with random velocities: the mean velocity and the
#    granular temperature equal those computed from the snapshot's velocities (the CSV's
#    10 significant digits: 2e-9 relative).
cat > "$tmp/grid.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 0.01, thermo_every: 100}
domain: {min: [0, 0, 0], max: [0.008, 0.008, 0.012]}
gravity: [0, 0, -9.81]
contact: {model: mdp, threshold: 1.0e-4}
solver: {max_sweeps: 200, tolerance: 1.0e-10}
materials:
  - {name: glass, density: 2500, friction: 0.4}
bodies:
  - {type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: glass}
particles:
  - {type: lattice, min: [0, 0, 0], max: [0.008, 0.008, 0.008], spacing: 0.002, radius: 0.001,
     material: glass}
measurements:
  grid: {interval: 0.005, min: [0, 0, 0], max: [0.008, 0.008, 0.008], cells: [2, 2, 1]}
YAML
"$granite" run "$tmp/grid.yaml" --output "$tmp/grid" --quiet > "$tmp/grid.log" 2>&1 || fail "grid run: $(tail -3 "$tmp/grid.log")"
"$granite" run "$tmp/grid.yaml" --output "$tmp/gas" --quiet --set gravity=[0,0,0] --set 'particles[0].spacing=0.004' \
  --set 'particles[0].perturbation=[0.1,0.1,0.1]' > "$tmp/gas.log" 2>&1 || fail "gas run: $(tail -3 "$tmp/gas.log")"
/usr/bin/python3 - "$tmp" <<'PY' || fail "grid measures"
import math, sys
import h5py, numpy as np
tmp = sys.argv[1]
stack = np.genfromtxt(tmp + "/grid/grid.csv", delimiter=",", names=True)
assert len(stack) == 8, len(stack)  # 4 cells at 0.005 s and 0.01 s
assert np.all(stack["particles"] == 16), stack["particles"]
# the CSV keeps 10 significant digits: 1e-9 relative
assert np.all(np.abs(stack["solid_fraction"] - math.pi / 6) < 1e-9), stack["solid_fraction"]
assert np.all(stack["coordination"] == 1.75), stack["coordination"]
gas = np.genfromtxt(tmp + "/gas/grid.csv", delimiter=",", names=True)
last = gas[gas["step"] == 100]
v = h5py.File(tmp + "/gas/snapshot_00000100.h5", "r")["particles/velocity"][...]
x = h5py.File(tmp + "/gas/snapshot_00000100.h5", "r")["particles/position"][...]
for row in last:
    inside = (x[:, 0] >= row["x_m"] - 0.002) & (x[:, 0] < row["x_m"] + 0.002) & \
             (x[:, 1] >= row["y_m"] - 0.002) & (x[:, 1] < row["y_m"] + 0.002) & (x[:, 2] < 0.008)
    assert row["particles"] == inside.sum() > 0, (row, inside.sum())
    mean = v[inside].mean(axis=0)
    temperature = ((v[inside] - mean) ** 2).sum(axis=1).mean() / 3
    got = np.array([row["vx_m_s"], row["vy_m_s"], row["vz_m_s"]])
    assert np.all(np.abs(got - mean) < 1e-9 * 0.1), (got, mean)
    assert abs(row["temperature_m2_s2"] - temperature) < 2e-9 * temperature, (row["temperature_m2_s2"], temperature)
PY

# 3. Bad input.
"$granite" run "$tmp/rest.yaml" --output "$tmp/bad" --set 'measurements.mass_flow.planes[0].normal=[0,0,0]' \
  > "$tmp/bad.log" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q "measurements.mass_flow.planes\[0\].normal: expected a non-zero vector" "$tmp/bad.log" \
  || fail "zero normal: exit $rc: $(cat "$tmp/bad.log")"
"$granite" run "$tmp/grid.yaml" --output "$tmp/bad2" --set 'measurements.grid.max=[0.008,0.008,0]' > "$tmp/bad.log" 2>&1; rc=$?
[ "$rc" -eq 2 ] && grep -q "measurements.grid.max: expected > measurements.grid.min" "$tmp/bad.log" \
  || fail "empty grid box: exit $rc: $(cat "$tmp/bad.log")"

# 5. orientation and grid's order columns (scenario/order_tensor.hpp):
#    - a lattice of capsules in their own frame (long axis x) over one of spheres: S = 1 and the
#      director x to rounding (1e-12), in orientation.csv and in each grid cell; only the
#      capsules counted;
#    - N = 400 capsules at random orientations (uniform over rotations): S is the largest
#      eigenvalue of the sample's traceless Q, at most √(2/3) ‖Q‖_F, and E‖Q‖_F² = 3/(2N) for
#      uniform axes (‖(3/2)(uuᵀ − I/3)‖_F² = 3/2 per grain), so S <= 5 √(2/3) √(3/(2N)) = 5/√N
#      holds with margin (five times the rms); and the same S at 1 and 2 ranks to 1e-12;
#    - the same rods turned about z only (orientation_axis): Q_zz = −1/2, S = 1/4 ± 5/√N.
cat > "$tmp/rods.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 0.0002, thermo_every: 1}
domain: {min: [0, 0, 0], max: [0.04, 0.04, 0.04]}
gravity: [0, 0, 0]
contact: {model: mdp, threshold: 1.0e-5}
materials:
  - {name: glass, density: 2500, friction: 0.4}
shapes:
  - {name: rod, type: capsule, radius: 0.5e-3, half_length: 1.5e-3}
particles:
  - {type: lattice, min: [0.001, 0.001, 0.001], max: [0.039, 0.039, 0.01], spacing: 0.006,
     shape: rod, orientation: identity, material: glass}
  - {type: lattice, min: [0.001, 0.001, 0.02], max: [0.039, 0.039, 0.03], spacing: 0.006,
     radius: 0.001, material: glass}
measurements:
  orientation: {interval: 0.0001}
  grid: {interval: 0.0001, min: [0, 0, 0], max: [0.04, 0.04, 0.04], cells: [2, 1, 1]}
YAML
"$granite" run "$tmp/rods.yaml" --output "$tmp/rods" --quiet > "$tmp/rods.log" 2>&1 \
  || fail "aligned rods: $(tail -3 "$tmp/rods.log")"
sed -e 's/shape: rod, orientation: identity/shape: rod, orientation: random/' \
    -e "s/spacing: 0.006,/spacing: 0.0045,/" "$tmp/rods.yaml" > "$tmp/random.yaml"
sed -i 's/max: \[0.039, 0.039, 0.01\]/max: [0.039, 0.039, 0.039]/; /radius: 0.001, material/d; /min: \[0.001, 0.001, 0.02\]/d' "$tmp/random.yaml"
"$granite" run "$tmp/random.yaml" --output "$tmp/random1" --quiet > "$tmp/random1.log" 2>&1 \
  || fail "random rods: $(tail -3 "$tmp/random1.log")"
mpiexec -n 2 --oversubscribe "$granite" run "$tmp/random.yaml" --output "$tmp/random2" --quiet \
  > "$tmp/random2.log" 2>&1 || fail "random rods at 2 ranks: $(tail -3 "$tmp/random2.log")"
sed 's/orientation: random,/orientation: random, orientation_axis: [0, 0, 2],/' "$tmp/random.yaml" \
  > "$tmp/planar.yaml"
"$granite" run "$tmp/planar.yaml" --output "$tmp/planar" --quiet > "$tmp/planar.log" 2>&1 \
  || fail "planar rods: $(tail -3 "$tmp/planar.log")"
/usr/bin/python3 - "$tmp" <<'PY' || fail "the order tensor"
import sys
import numpy as np
tmp = sys.argv[1]
o = np.genfromtxt(tmp + "/rods/orientation.csv", delimiter=",", names=True)
assert len(o) == 2, o
import json
particles = json.load(open(tmp + "/rods/run.json"))["particles"]["initial"]
rods = particles // 2  # the rods' lattice and the spheres' have the same layout
for row in o:
    assert row["grains"] == rods, row
    assert abs(row["order_S"] - 1) < 1e-12 and abs(row["director_x"] - 1) < 1e-12, row
g = np.genfromtxt(tmp + "/rods/grid.csv", delimiter=",", names=True)
assert len(g) == 4 and (g["elongated"] > 0).all() and g["elongated"].sum() == 2 * rods, g
assert (abs(g["order_S"] - 1) < 1e-12).all() and (abs(g["director_x"] - 1) < 1e-12).all(), g
r1 = np.genfromtxt(tmp + "/random1/orientation.csv", delimiter=",", names=True)
r2 = np.genfromtxt(tmp + "/random2/orientation.csv", delimiter=",", names=True)
n = r1["grains"][0]
assert n >= 300, n
assert (r1["order_S"] <= 5 / np.sqrt(n)).all(), (r1["order_S"], 5 / np.sqrt(n))
assert (abs(r1["order_S"] - r2["order_S"]) < 1e-12).all() and (r1["grains"] == r2["grains"]).all()
# Rods turned about z only (orientation_axis): u_z = 0, so Q_zz = −1/2 exactly, and the axes
# uniform in the plane give Q = diag(1/4, 1/4, −1/2): S = 1/4 within the same 5/√N.
p = np.genfromtxt(tmp + "/planar/orientation.csv", delimiter=",", names=True)
assert (abs(p["Qzz"] + 0.5) < 1e-12).all(), p["Qzz"]
assert (abs(p["order_S"] - 0.25) <= 5 / np.sqrt(p["grains"])).all(), p["order_S"]
print(f"aligned: S = 1 over {rods} rods; random: S = {r1['order_S'][-1]:.4f} over {int(n)} rods "
      f"(bound {5 / np.sqrt(n):.4f})")
PY

[ "$failures" -eq 0 ] && echo "PASS: measurements" || { echo "$failures failure(s)"; exit 1; }
