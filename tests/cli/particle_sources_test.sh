#!/usr/bin/env bash
# Particle generators end to end (docs/particle_sources.md):
#  1. a random fill (log-normal radii by mass) in a box around an obstacle, a random fill to a
#     solid fraction in a cylinder, and a lattice of a two-material mixture: the initial
#     snapshot is the same bit for bit at 1, 2, 3 and 4 ranks; no two spheres (nor a sphere and
#     the obstacle) overlap by more than 1e-12 m; the count and the fraction are reached and
#     recorded in run.json "particle_sources";
#  2. a target beyond random sequential addition's jamming limit: the run goes on, with one
#     warning line naming the source and the shortfall in run.json;
#  3. bad input (radius and size, size.max <= min, an unknown mixture material, count and
#     solid_fraction): one error line, exit 2;
#  4. a pour (2 ranks): every particle, in the snapshot of the step that created it, overlaps
#     nothing by more than 1e-12 m; floor(rate x window) inserted, as run.json says; the
#     snapshot of a step before any contact is the same at 1 and 2 ranks; a run continued with
#     --restart in the middle of the pour ends bit for bit like the uninterrupted one; a
#     region too small for the rate: the shortfall is one warning line and run.json;
#  5. `type: file`: a tiny CSV (comment and blank lines, materials by name, groups) gives its
#     three particles as written; the snapshot of case 1 read back gives every particle's state
#     bit for bit (new ids in the order of the old); a malformed CSV (a bad number, an unknown
#     column, a short row), a missing file and a file that is no snapshot: one error line
#     naming the file (and line), exit 2;
#  6. a mixture of rods and spheres by mass: the same fill at 1 and 2 ranks, both kinds in it;
#     a component with both radius and shape refused;
#  7. rods filled by their true geometry: beyond what their bounding spheres allow, none
#     overlapping.
# usage: particle_sources_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
compare="/usr/bin/python3 $src/tests/support/compare_snapshots.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_input_error() {  # NAME, then the command: exit 2 and one "error:" line
  local name=$1; shift
  "$@" > "$tmp/err.log" 2>&1; local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc (expected 2): $(tail -3 "$tmp/err.log")"
  [ "$(grep -c '^error:' "$tmp/err.log")" -eq 1 ] || fail "$name: expected one error line: $(cat "$tmp/err.log")"
}
cat > "$tmp/fill.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 1.0e-4, seed: 11}
domain: {min: [0, 0, 0], max: [0.024, 0.024, 0.024]}
contact: {threshold: 1.0e-4}
materials:
  - {name: glass, density: 2500}
  - {name: steel, density: 7800}
bodies:
  - {type: cylinder, center: [0.006, 0.006, 0.006], axis: [0, 0, 1], radius: 0.002, half_length: 0.006, material: steel}
particles:
  - type: random
    region: {type: box, min: [0, 0, 0], max: [0.012, 0.012, 0.012]}
    count: 300
    size: {type: lognormal, median: 4.0e-4, sigma: 0.3, min: 2.0e-4, max: 8.0e-4, by: mass}
    material: glass
    perturbation: [0.01, 0.01, 0.01]
  - type: random
    region: {type: cylinder, center: [0.018, 0.018, 0.012], axis: [0, 0, 1], radius: 0.005, half_length: 0.011}
    solid_fraction: 0.2
    radius: 6.0e-4
    material: glass
  - type: lattice
    min: [0, 0.013, 0]
    max: [0.012, 0.024, 0.012]
    spacing: 0.002
    size: {type: mixture, components: [{radius: 5.0e-4, fraction: 0.5}, {radius: 9.0e-4, fraction: 0.5, material: steel}]}
    material: glass
YAML
for n in 1 2 3 4; do
  mpiexec -n $n --oversubscribe "$granite" run "$tmp/fill.yaml" --output "$tmp/r$n" --quiet > "$tmp/r$n.log" 2>&1 \
    || fail "fill at $n ranks: $(tail -3 "$tmp/r$n.log")"
done
for n in 2 3 4; do
  $compare "$tmp/r1/snapshot_00000000.h5" "$tmp/r$n/snapshot_00000000.h5" > "$tmp/cmp$n.log" 2>&1 \
    || fail "the initial particles at $n ranks differ from 1 rank: $(head -3 "$tmp/cmp$n.log")"
done
/usr/bin/python3 - "$tmp/r1" <<'PY' || fail "fill: overlap, count or fraction"
import json, math, sys
import h5py, numpy as np
from scipy.spatial import cKDTree
out = sys.argv[1]
p = h5py.File(out + "/snapshot_00000000.h5", "r")["particles"]
x, r, ids, mat = p["position"][...], p["radius"][...], p["id"][...], p["material"][...]
pairs = cKDTree(x).query_pairs(2 * r.max())
worst = max((r[i] + r[j] - np.linalg.norm(x[i] - x[j]) for i, j in pairs), default=-1)
assert worst <= 1e-12, "overlap %g m" % worst
# The obstacle: a cylinder of radius 2 mm about x = y = 6 mm, z in [0, 12] mm.
inside = x[:, 2] < 0.012
gap = np.hypot(x[:, 0] - 0.006, x[:, 1] - 0.006) - 0.002 - r
assert gap[inside].min() >= -1e-12, gap[inside].min()
first = ids < 300
assert first.sum() == 300 and np.all((r[first] >= 2e-4) & (r[first] <= 8e-4))
record = json.load(open(out + "/run.json"))
s = record["particle_sources"]
assert [e["source"] for e in s] == [0, 1] and not any(e["shortfall"] for e in s), s
assert s[0]["created"] == 300, s
second = (ids >= 300) & (ids < 300 + s[1]["created"])
fraction = (4 / 3 * math.pi * r[second] ** 3).sum() / (math.pi * 0.005 ** 2 * 0.022)
assert abs(fraction - s[1]["solid_fraction"]) < 1e-12 and 0.2 <= fraction < 0.2 + 4 / 3 * math.pi * 6e-4 ** 3 / (math.pi * 0.005 ** 2 * 0.022), fraction
lattice = ids >= 300 + s[1]["created"]
assert lattice.sum() == 6 * 5 * 6 and set(np.unique(r[lattice])) == {5e-4, 9e-4}, lattice.sum()
assert np.all((r[lattice] == 9e-4) == (mat[lattice] == 1)), "mixture material"
print("fill: %d particles, worst overlap %.3g m, cylinder fraction %.4f" % (len(ids), worst, fraction))
PY

# 2. A shortfall is a warning.
"$granite" run "$tmp/fill.yaml" --output "$tmp/short" --quiet --set 'particles[1].solid_fraction=0.6' \
  --set 'particles[1].attempts=100' > "$tmp/short.log" 2>&1 || fail "shortfall run: $(tail -3 "$tmp/short.log")"
grep -q "^warning: particles\[1\] (random): [0-9]* spheres, solid fraction 0\.[0-3][0-9]*; short of the target solid fraction 0\.6" "$tmp/short.log" \
  || fail "no shortfall warning: $(cat "$tmp/short.log")"
/usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['particle_sources'][1]; assert s['shortfall'] and s['solid_fraction'] < 0.385, s" "$tmp/short/run.json" \
  || fail "shortfall not in run.json"

# 3. Bad input.
expect_input_error "radius and size" "$granite" check "$tmp/fill.yaml" --set 'particles[0].radius=1.0e-3'
expect_input_error "size.max <= min" "$granite" check "$tmp/fill.yaml" --set 'particles[0].size.max=1.0e-4'
expect_input_error "unknown material" "$granite" check "$tmp/fill.yaml" --set 'particles[2].size.components[0].material=gold'
expect_input_error "count and fraction" "$granite" check "$tmp/fill.yaml" --set 'particles[1].count=5'
expect_input_error "lattice spacing" "$granite" check "$tmp/fill.yaml" --set 'particles[2].spacing=0.0015'

# 4. A pour.
cat > "$tmp/pour.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 0.015, seed: 5}
domain: {min: [-0.01, -0.01, 0], max: [0.01, 0.01, 0.03]}
contact: {threshold: 1.0e-4}
materials:
  - {name: glass, density: 2500}
bodies:
  - {type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: glass}
particles:
  - type: pour
    region: {type: box, min: [-0.008, -0.008, 0.02], max: [0.008, 0.008, 0.028]}
    rate: 20000
    start: 0.002
    end: 0.012
    size: {type: uniform, min: 4.0e-4, max: 6.0e-4}
    material: glass
    velocity: [0, 0, -0.5]
    perturbation: [0.05, 0.05, 0.05]
output: {snapshot_interval: 1.0e-4, checkpoint_interval: 0.005}
YAML
mpiexec -n 2 --oversubscribe "$granite" run "$tmp/pour.yaml" --output "$tmp/pour" --quiet > "$tmp/pour.log" 2>&1 \
  || fail "pour: $(tail -3 "$tmp/pour.log")"
/usr/bin/python3 - "$tmp/pour" <<'PY' || fail "pour: overlap at creation or count"
import glob, json, sys
import h5py, numpy as np
from scipy.spatial import cKDTree
out = sys.argv[1]
seen, worst, created = set(), -1.0, 0
for path in sorted(glob.glob(out + "/snapshot_*.h5")):
    p = h5py.File(path, "r")["particles"]
    ids, x, r = p["id"][...], p["position"][...], p["radius"][...]
    new = np.array([i not in seen for i in ids], dtype=bool)
    if new.any():
        tree = cKDTree(x)
        for k in np.nonzero(new)[0]:
            for j in tree.query_ball_point(x[k], 2 * r.max()):
                if j != k:
                    worst = max(worst, r[k] + r[j] - np.linalg.norm(x[k] - x[j]))
        created += int(new.sum())
    seen.update(ids.tolist())
assert worst <= 1e-12, "a new particle overlaps by %g m" % worst
record = json.load(open(out + "/run.json"))
entry = [e for e in record["particle_sources"] if e["type"] == "pour"][0]
assert entry["requested"] == 200 and entry["inserted"] == 200 and not entry["shortfall"], entry
assert created == 200 and record["particles"]["generated"] == 200, (created, record["particles"])
assert min(seen) >= 2 ** 40, min(seen)
print("pour: %d created, worst overlap at creation %.3g m" % (created, worst))
PY
"$granite" run "$tmp/pour.yaml" --output "$tmp/pour1" --quiet --set run.end_time=0.004 > "$tmp/pour1.log" 2>&1 \
  || fail "pour at 1 rank: $(tail -3 "$tmp/pour1.log")"
$compare "$tmp/pour/snapshot_00000040.h5" "$tmp/pour1/snapshot_00000040.h5" > "$tmp/cmp.log" 2>&1 \
  || fail "the poured particles differ between 1 and 2 ranks: $(head -3 "$tmp/cmp.log")"
mpiexec -n 2 --oversubscribe "$granite" run "$tmp/pour.yaml" --output "$tmp/half" --quiet --set run.end_time=0.005 \
  > "$tmp/half.log" 2>&1 || fail "half pour: $(tail -3 "$tmp/half.log")"
mpiexec -n 2 --oversubscribe "$granite" run "$tmp/pour.yaml" --output "$tmp/half" --quiet \
  --restart "$tmp/half/checkpoint.h5" > "$tmp/half2.log" 2>&1 || fail "pour restart: $(tail -3 "$tmp/half2.log")"
$compare "$tmp/pour/snapshot_00000150.h5" "$tmp/half/snapshot_00000150.h5" > "$tmp/cmp.log" 2>&1 \
  || fail "--restart in the middle of a pour differs: $(head -3 "$tmp/cmp.log")"
"$granite" run "$tmp/pour.yaml" --output "$tmp/pourshort" --quiet --set run.end_time=0.013 \
  --set 'particles[0].region.min=[-0.002,-0.002,0.02]' --set 'particles[0].region.max=[0.002,0.002,0.022]' \
  --set output.snapshot_interval=0 > "$tmp/pourshort.log" 2>&1 || fail "short pour: $(tail -3 "$tmp/pourshort.log")"
grep -q "^warning: pour particles\[0\]: inserted [0-9]* particles (.* kg) of 200 particles requested" "$tmp/pourshort.log" \
  || fail "no pour shortfall warning: $(tail -5 "$tmp/pourshort.log")"
/usr/bin/python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['particle_sources'][0]; assert s['shortfall'] and s['inserted'] < 200, s" \
  "$tmp/pourshort/run.json" || fail "pour shortfall not in run.json"

# 5. Particles from a file: a tiny CSV, and the snapshot the random fill of case 1 wrote.
cat > "$tmp/scene.csv" <<'CSV'
# three spheres made elsewhere
x,y,z,radius,vx,vy,vz,material,group
0.002,0.002,0.002,0.001,0.1,0,0,glass,4
0.005,0.002,0.002,0.0015,0,0,0,steel,5

0.009,0.002,0.002,0.001,0,0,-0.2,glass,6
CSV
cat > "$tmp/file.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 1.0e-4}
domain: {min: [0, 0, 0], max: [0.024, 0.024, 0.024]}
materials:
  - {name: glass, density: 2500}
  - {name: steel, density: 7800}
particles:
  - {type: file, path: scene.csv, material: glass}
YAML
(cd "$tmp" && "$granite" run file.yaml --output csv --quiet > csv.log 2>&1) || fail "csv: $(tail -3 "$tmp/csv.log")"
/usr/bin/python3 - "$tmp/csv/snapshot_00000000.h5" <<'PY' || fail "csv particles"
import math, sys
import h5py, numpy as np
p = h5py.File(sys.argv[1], "r")["particles"]
o = np.argsort(p["id"][...])
assert list(p["id"][...][o]) == [0, 1, 2]
assert np.array_equal(p["radius"][...][o], [0.001, 0.0015, 0.001])
assert np.array_equal(p["material"][...][o], [0, 1, 0]) and np.array_equal(p["group"][...][o], [4, 5, 6])
assert np.array_equal(p["velocity"][...][o][0], [0.1, 0, 0]) and np.array_equal(p["position"][...][o][2], [0.009, 0.002, 0.002])
print("csv: 3 particles as written")
PY
(cd "$tmp" && "$granite" run file.yaml --output snap --quiet --set 'particles[0].path=r1/snapshot_00000000.h5' > snap.log 2>&1) \
  || fail "snapshot: $(tail -3 "$tmp/snap.log")"
/usr/bin/python3 - "$tmp/r1/snapshot_00000000.h5" "$tmp/snap/snapshot_00000000.h5" <<'PY' || fail "snapshot particles differ"
import sys
import h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r")["particles"], h5py.File(sys.argv[2], "r")["particles"]
ia, ib = np.argsort(a["id"][...]), np.argsort(b["id"][...])
assert np.array_equal(b["id"][...][ib], np.arange(len(ia)))  # new ids, in the order of the old
for f in ("position", "velocity", "angular_velocity", "orientation", "radius", "material", "group"):
    assert np.array_equal(a[f][...][ia], b[f][...][ib]), f
print("snapshot: %d particles taken as written" % len(ia))
PY
printf 'x,y,z,radius\n0.001,0.001,0.001,0.0005\n0.003,0.001,abc,0.0005\n' > "$tmp/bad.csv"
expect_input_error "csv: bad number" "$granite" run "$tmp/file.yaml" --output "$tmp/bad" --set "particles[0].path=$tmp/bad.csv"
grep -q "^error: $tmp/bad.csv:3: z: expected a finite number, got 'abc'" "$tmp/err.log" || fail "csv error line: $(cat "$tmp/err.log")"
printf 'x,y,z,r\n' > "$tmp/bad2.csv"
expect_input_error "csv: unknown column" "$granite" run "$tmp/file.yaml" --output "$tmp/bad" --set "particles[0].path=$tmp/bad2.csv"
grep -q "^error: $tmp/bad2.csv:1: unknown column 'r'" "$tmp/err.log" || fail "csv header error line: $(cat "$tmp/err.log")"
printf 'x,y,z,radius\n0.001,0.001,0.001\n' > "$tmp/bad3.csv"
expect_input_error "csv: short row" "$granite" run "$tmp/file.yaml" --output "$tmp/bad" --set "particles[0].path=$tmp/bad3.csv"
expect_input_error "missing file" "$granite" run "$tmp/file.yaml" --output "$tmp/bad" --set "particles[0].path=$tmp/none.h5"
expect_input_error "not a snapshot" "$granite" run "$tmp/file.yaml" --output "$tmp/bad" --set "particles[0].path=$tmp/fill.yaml"

# 6. A mixture of shapes and spheres (issue 39): a random fill, 40 % of the mass rods (capsules),
#    the rest spheres, some of steel. The initial snapshot is the same bit for bit at 1 and 2
#    ranks; it holds both kinds (/particles/shape 0 and -1), the rods with their bounding radius.
#    A component with both radius and shape is refused.
cat > "$tmp/mix.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 1.0e-4, seed: 5}
domain: {min: [0, 0, 0], max: [0.02, 0.02, 0.02]}
contact: {threshold: 1.0e-4}
materials:
  - {name: glass, density: 2500}
  - {name: steel, density: 7800}
shapes:
  - {name: rod, type: capsule, radius: 5.0e-4, half_length: 1.0e-3}
particles:
  - type: random
    region: {type: box, min: [0, 0, 0], max: [0.02, 0.02, 0.02]}
    count: 250
    orientation: random
    material: glass
    size: {type: mixture, by: mass, components: [{shape: rod, fraction: 0.4}, {radius: 6.0e-4, fraction: 0.4}, {radius: 6.0e-4, fraction: 0.2, material: steel}]}
YAML
for n in 1 2; do
  mpirun -np $n --oversubscribe "$granite" run "$tmp/mix.yaml" --output "$tmp/mix$n" > "$tmp/mix$n.log" 2>&1 \
    || fail "the mixture at $n ranks: $(tail -3 "$tmp/mix$n.log")"
done
$compare "$tmp/mix1/snapshot_00000000.h5" "$tmp/mix2/snapshot_00000000.h5" > /dev/null \
  || fail "the mixture's fill differs between 1 and 2 ranks"
/usr/bin/python3 - "$tmp/mix1/snapshot_00000000.h5" <<'EOF' || fail "the mixture's particles"
import sys, h5py, numpy as np
p = h5py.File(sys.argv[1], "r")["particles"]
shape, radius, material = p["shape"][:], p["radius"][:], p["material"][:]
assert len(shape) == 250, len(shape)
rods = shape == 0
assert 0 < rods.sum() < 250, rods.sum()
assert np.all(radius[rods] == 1.5e-3) and np.all(radius[~rods] == 6e-4), "radii"
assert np.all(material[rods] == 0) and set(material[~rods]) == {0, 1}, "materials"
EOF
expect_input_error "radius and shape" "$granite" check "$tmp/mix.yaml" \
  --set 'particles[0].size.components[0].radius=1.0e-3'

# 7. Rods placed by their true geometry (issue 39): a random fill of capsules (radius 0.4 mm,
#    half length 1.2 mm, at random orientations) aiming at a solid fraction of 0.5 reaches
#    more than random sequential addition of their bounding spheres can: that jams at 0.3841
#    of the bounding spheres' volume, i.e. 0.3841 x V_rod / V_bounding = 0.033 of rods; and no
#    two rods' axes come closer than 2 r (they do not overlap).
cat > "$tmp/rods.yaml" <<'YAML'
run: {dt: 1.0e-4, end_time: 1.0e-4, seed: 5}
domain: {min: [0, 0, 0], max: [0.02, 0.02, 0.02]}
contact: {threshold: 1.0e-4}
materials:
  - {name: glass, density: 2500}
shapes:
  - {name: rod, type: capsule, radius: 4.0e-4, half_length: 1.2e-3}
particles:
  - {type: random, region: {type: box, min: [0, 0, 0], max: [0.02, 0.02, 0.02]}, solid_fraction: 0.5,
     shape: rod, orientation: random, material: glass}
YAML
"$granite" run "$tmp/rods.yaml" --output "$tmp/rods" > "$tmp/rods.log" 2>&1 \
  || fail "the rods' fill: $(tail -3 "$tmp/rods.log")"
/usr/bin/python3 - "$tmp/rods" <<'EOF' || fail "the rods' fill by true geometry"
import json, sys, h5py, numpy as np
out = sys.argv[1]
r, h = 4.0e-4, 1.2e-3
reached = json.load(open(out + "/run.json"))["particle_sources"][0]["solid_fraction"]
v_rod = np.pi * r * r * 2 * h + 4 / 3 * np.pi * r ** 3
bound = 0.3841 * v_rod / (4 / 3 * np.pi * (r + h) ** 3)
assert reached > bound, (reached, bound)
p = h5py.File(out + "/snapshot_00000000.h5", "r")["particles"]
x, q = p["position"][:], p["orientation"][:]
w, v = q[:, :1], q[:, 1:]
e = np.array([1.0, 0.0, 0.0])  # the capsule's axis in its frame: R e = e + 2w (v x e) + 2 v x (v x e)
t = np.cross(v, e)
axis = e + 2 * w * t + 2 * np.cross(v, t)
a, b = x - h * axis, x + h * axis
def segment_distance(p1, q1, p2, q2):  # Ericson 5.1.9, for one pair
    d1, d2, rr = q1 - p1, q2 - p2, p1 - p2
    A, E, F = d1 @ d1, d2 @ d2, d2 @ rr
    C, B = d1 @ rr, d1 @ d2
    den = A * E - B * B
    s = np.clip((B * F - C * E) / den, 0, 1) if den > 1e-30 else 0.0
    t = (B * s + F) / E
    if t < 0: t, s = 0.0, np.clip(-C / A, 0, 1)
    elif t > 1: t, s = 1.0, np.clip((B - C) / A, 0, 1)
    return np.linalg.norm(p1 + d1 * s - p2 - d2 * t)
n = len(x)
near = 0
for i in range(n):
    for j in np.nonzero(np.linalg.norm(x[i + 1:] - x[i], axis=1) < 2 * (r + h))[0] + i + 1:
        near += 1
        d = segment_distance(a[i], b[i], a[j], b[j])
        assert d >= 2 * r - 1e-12, (i, j, d)
assert near > n, near  # many rods lie within each other's bounding spheres
print(f"rods: {n}, solid fraction {reached:.4f} (bounding-sphere RSA at most {bound:.4f}), {near} close pairs")
EOF

[ "$failures" -eq 0 ] && echo "particle sources: all checks passed"
exit $(( failures > 0 ))
