#!/usr/bin/env bash
# Mesh walls (bodies of type mesh, docs/global_bodies.md), end to end:
#  1. bad mesh walls are one error line and exit code 2, at 1 and 2 ranks: a missing file, a
#     binary STL that declares 10^9 triangles and holds 1, a NaN coordinate, a file of
#     zero-area triangles only, a mesh wholly outside the domain, a box shape next to a mesh
#     wall, a flat_angle out of range;
#     a mesh floor that is a conveyor belt drags a sphere to 2/7 of its speed;
#  2. configs/hopper_stl.yaml at 2 ranks, the first 0.2 s: the fill settles into the hopper held by
#     the mesh (nothing lost, no particle below the orifice), every snapshot's XDMF draws the
#     mesh's 3840 triangles as body 1 (/global_bodies), the log reports the mesh, and body_forces carries the
#     mesh's load;
#  3. the hopper turning about its axis (rotation), continued with --restart at 2 ranks, ends
#     bit for bit where the uninterrupted run ends.
# usage: mesh_wall_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
py=/usr/bin/python3
compare="$py $src/tests/support/compare_snapshots.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
source "$(dirname "$0")/refused_at_ranks.sh"

# 1. Bad mesh walls.
$py - "$tmp" <<'EOF' || fail "writing the mesh files"
import struct, sys
out = sys.argv[1]
def binary(path, facets, declared=None):
    with open(path, "wb") as f:
        f.write(b" " * 80 + struct.pack("<I", len(facets) if declared is None else declared))
        for t in facets:
            f.write(struct.pack("<3f", 0, 0, 0))
            for p in t:
                f.write(struct.pack("<3f", *p))
            f.write(b"\0\0")
square = [[(0, 0, 0), (1, 0, 0), (1, 1, 0)], [(0, 0, 0), (1, 1, 0), (0, 1, 0)]]
binary(out + "/floor.stl", square)
binary(out + "/huge.stl", square[:1], declared=10**9)
binary(out + "/flat.stl", [[(0, 0, 0), (1, 0, 0), (2, 0, 0)]])
with open(out + "/nan.stl", "w") as f:
    f.write("solid s\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 nan\n"
            "vertex 1 1 0\nendloop\nendfacet\nendsolid s\n")
EOF
scene() {  # scene MESH_KEYS [EXTRA]: a sphere over a mesh floor in the unit box
  cat <<EOF
run: {dt: 1.0e-4, end_time: 0.001, seed: 1}
domain: {min: [0, 0, 0], max: [1, 1, 1]}
materials: [{name: glass, density: 2500, friction: 0.5}]
bodies:
  - {type: mesh, material: glass, $1}
particles:
  - {type: sphere, position: [0.5, 0.5, 0.1], radius: 0.05, material: glass}
${2:-}
EOF
}
bad() {  # bad NAME REGEX MESH_KEYS [EXTRA]
  scene "$3" "${4:-}" > "$tmp/$1.yaml"
  refused_at_ranks "$1" "$2" "$tmp/$1.yaml" "$tmp/out_$1"
}
bad missing "nowhere\.stl.*no such file" "file: $tmp/nowhere.stl"
bad huge "huge\.stl.*declares 1000000000 triangles" "file: $tmp/huge.stl"
bad nan "nan\.stl.*line 5" "file: $tmp/nan.stl"
bad flat "flat\.stl \(mesh wall\): triangle mesh: no triangle of non-zero area among 1" "file: $tmp/flat.stl"
bad outside "bodies\[0\]: the mesh lies wholly outside the domain" "file: $tmp/floor.stl, position: [5, 0, 0]"
bad angle "bodies\[0\]\.flat_angle" "file: $tmp/floor.stl, flat_angle: 0.5"
# The good floor as a conveyor belt (surface_velocity, 0.3 m/s along x): the sphere falls onto
# it (0.1 s), is dragged and rolls at 2/7 of the belt speed (docs/global_bodies.md).
scene "file: $tmp/floor.stl, surface_velocity: [0.3, 0, 0]" > "$tmp/good.yaml"
"$granite" run "$tmp/good.yaml" --output "$tmp/good" --set run.end_time=0.2 > "$tmp/good.log" 2>&1 \
  || fail "a mesh belt: $(tail -3 "$tmp/good.log")"
$py - "$tmp/good/snapshot_00002000.h5" <<'EOF' || fail "the sphere on the mesh belt"
import sys, h5py
v = h5py.File(sys.argv[1], "r")["particles/velocity"][0]
assert abs(v[0] - 0.3 * 2 / 7) < 1e-9 and abs(v[1]) < 1e-12 and abs(v[2]) < 1e-12, v
EOF

# 2. The hopper at 2 ranks: 0.2 s, the gate closed (it opens at 0.25 s).
hopper=(run "$src/configs/hopper_stl.yaml" --set output.snapshot_interval=0.05)
mpirun -np 2 --oversubscribe "$granite" "${hopper[@]}" --set run.end_time=0.2 --output "$tmp/hopper" \
  > "$tmp/hopper.log" 2>&1 || fail "the hopper: $(tail -3 "$tmp/hopper.log")"
grep -q "mesh bodies\[1\]: 3840 triangles" "$tmp/hopper.log" || fail "no mesh line in the log: $(grep -i mesh "$tmp/hopper.log")"
grep -q " 0 lost" "$tmp/hopper.log" || fail "the hopper lost particles: $(grep '^done' "$tmp/hopper.log")"
$py - "$tmp/hopper" <<'EOF' || fail "the hopper's snapshots or forces"
import csv, glob, os, re, sys
import h5py
import numpy as np
out = sys.argv[1]
snaps = sorted(glob.glob(os.path.join(out, "snapshot_*.h5")))
assert len(snaps) == 5, snaps
with h5py.File(snaps[-1], "r") as f:
    x = f["particles/position"][:]
assert len(x) == 3000, len(x)
# Held by the mesh above the gate: no centre below the orifice's plane (z = 35 mm) less a
# radius, none outside the cone or bin.
assert x[:, 2].min() > 0.035 - 0.0011, x[:, 2].min()
r_wall = np.where(x[:, 2] < 0.035 + 0.04157, 0.006 + (x[:, 2] - 0.035) * np.tan(np.pi / 6), 0.030)
assert (np.hypot(x[:, 0], x[:, 1]) < r_wall + 1e-4).all(), (np.hypot(x[:, 0], x[:, 1]) - r_wall).max()
for s in snaps:
    assert 'Name="global_bodies"' in open(s[:-3] + ".xdmf").read(), s
    with h5py.File(s, "r") as f:
        bodies = list(f["global_bodies/body"][:])
    assert bodies.count(1) == 3840, (s, bodies.count(1))
# The mesh (body 1) and the gate (body 2) carry the fill's weight at the end, the mesh most of it.
rows = list(csv.DictReader(open(os.path.join(out, "body_forces.csv"))))
last = [r for r in rows if float(r["time_s"]) == float(rows[-1]["time_s"])]
fz = {int(r["body"]): float(r["fz_N"]) for r in last}
with h5py.File(snaps[-1], "r") as f:
    weight = (2500 * 4 / 3 * np.pi * f["particles/radius"][:] ** 3 * 9.81).sum()  # glass
print(f"load on the mesh {fz[1]:.4g} N, on the gate {fz[2]:.4g} N, weight {weight:.4g} N")
assert fz[1] < -0.3 * weight, (fz, weight)
assert abs(fz[1] + fz[2] + weight) < 0.25 * weight, (fz, weight)
EOF

# restart_matches NAME END MID SNAPSHOT ARGS...: at 2 ranks, a run of ARGS to END (into
# NAME_full), and one to MID continued with --restart to END (into NAME_part): SNAPSHOT the same.
restart_matches() {
  local name=$1 end=$2 mid=$3 snapshot=$4; shift 4
  local run=(mpirun -np 2 --oversubscribe "$granite" "$@")
  "${run[@]}" --set run.end_time="$end" --output "$tmp/${name}_full" > "$tmp/${name}_full.log" 2>&1 \
    || fail "$name: $(tail -3 "$tmp/${name}_full.log")"
  "${run[@]}" --set run.end_time="$mid" --output "$tmp/${name}_part" > "$tmp/${name}_part.log" 2>&1 \
    || fail "$name to $mid s: $(tail -3 "$tmp/${name}_part.log")"
  "${run[@]}" --set run.end_time="$end" --output "$tmp/${name}_part" --restart "$tmp/${name}_part/checkpoint.h5" \
    > "$tmp/${name}_restart.log" 2>&1 || fail "$name's restart: $(tail -3 "$tmp/${name}_restart.log")"
  $compare "$tmp/${name}_full/$snapshot" "$tmp/${name}_part/$snapshot" \
    || fail "$name: the restart differs from the uninterrupted run"
}

# 3. The hopper turning at 2 rad/s about its axis: a restart continues bit for bit.
turn=(--set 'bodies[1].rotation={center: [0, 0, 0], angular_velocity: [0, 0, 2]}' --set output.snapshot_interval=0)
restart_matches turning 0.03 0.02 snapshot_00000300.h5 "${hopper[@]}" "${turn[@]}"

# 4. Bricks and pebbles in the still hopper at 2 ranks under equal cuts (domain.balance none;
#    auto balances beside this 3840-triangle mesh), so each rank keeps its part of the mesh:
#    0.12 s (they fall into the cone), nothing lost, none through the wall, and a restart at
#    0.1 s continues bit for bit.
shaped=(--set 'shapes=[{name: brick, type: box, half_extents: [1.2e-3, 0.8e-3, 0.5e-3]}, {name: pebble, type: ellipsoid, semi_axes: [1.2e-3, 0.9e-3, 0.6e-3]}]'
        --set 'particles=[{type: random, region: {type: cylinder, center: [0, 0, 0.0965], axis: [0, 0, 1], radius: 0.027, half_length: 0.0185}, count: 300, shape: brick, orientation: random, material: glass}, {type: random, region: {type: cylinder, center: [0, 0, 0.0965], axis: [0, 0, 1], radius: 0.027, half_length: 0.0185}, count: 200, shape: pebble, orientation: random, material: glass}]'
        --set output.snapshot_interval=0 --set domain.balance=none)
restart_matches bricks 0.12 0.1 snapshot_00001200.h5 "${hopper[@]}" "${shaped[@]}"
grep -q "each rank keeps [0-9]*\.\.[0-9]* near its subdomain" "$tmp/bricks_full.log" \
  || fail "the still hopper's mesh is not split: $(grep 'mesh bodies' "$tmp/bricks_full.log")"
grep -q " 0 lost" "$tmp/bricks_full.log" || fail "the bricks' hopper lost particles"
$py - "$tmp/bricks_full/snapshot_00001200.h5" <<'EOF' || fail "a brick or pebble went through the hopper's wall"
import sys, h5py, numpy as np
x = h5py.File(sys.argv[1], "r")["particles/position"][:]
assert len(x) == 500, len(x)
r_wall = np.where(x[:, 2] < 0.035 + 0.04157, 0.006 + (x[:, 2] - 0.035) * np.tan(np.pi / 6), 0.030)
assert x[:, 2].min() > 0.035, x[:, 2].min()
assert (np.hypot(x[:, 0], x[:, 1]) < r_wall).all(), (np.hypot(x[:, 0], x[:, 1]) - r_wall).max()
EOF

[ "$failures" -eq 0 ] && echo "mesh_wall: all checks passed"
exit $((failures > 0))
