#!/usr/bin/env bash
# Ellipsoids and convex shapes read from mesh files (docs/shapes.md), end to end:
#  1. a convex shape from an ASCII STL, from the same solid as a binary STL and as an OBJ, and
#     from its vertices listed in the configuration: a run of 10 steps logs the same shape line
#     (volume, bounding radius, centre of mass) for all four (the binary file's single
#     precision to 1e-5);
#  2. bad mesh input is one error line naming the file and exit code 2, on every rank: a
#     missing file, a binary STL that declares 10^9 triangles and holds 1, both `vertices` and
#     `file`, neither;
#  3. ellipsoids and STL grains in a drum at 2 ranks: the run ends, nothing is lost, and every
#     ellipsoid's surface in /shapes lies on its ellipsoid (x + R D u with |u| = 1).
# usage: mesh_shapes_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
source "$(dirname "$0")/refused_at_ranks.sh"

# 1. One solid in four spellings: the STL shipped with the configs, written again as binary
#    STL and OBJ, and its distinct vertices as a list.
$py - "$src/configs/meshes/grain.stl" "$tmp" <<'EOF' || fail "writing the mesh files"
import struct, sys
facets, v = [], []
for line in open(sys.argv[1]):
    w = line.split()
    if w and w[0] == "vertex":
        v.append(tuple(float(t) for t in w[1:4]))
        if len(v) == 3:
            facets.append(v)
            v = []
out = sys.argv[2]
with open(out + "/grain_bin.stl", "wb") as f:
    f.write(b"solid header of a binary file".ljust(80, b" "))
    f.write(struct.pack("<I", len(facets)))
    for t in facets:
        f.write(struct.pack("<3f", 0, 0, 0))
        for p in t:
            f.write(struct.pack("<3f", *p))
        f.write(b"\0\0")
points = sorted({p for t in facets for p in t})
with open(out + "/grain.obj", "w") as f:
    f.write("# the grain\no grain\n")
    for p in points:
        f.write("v %r %r %r\n" % p)
    for t in facets:
        f.write("f " + " ".join(str(points.index(p) + 1) for p in t) + "\n")
with open(out + "/vertices.txt", "w") as f:
    f.write("[" + ", ".join("[%r, %r, %r]" % p for p in points) + "]")
# A binary STL that declares 10^9 triangles and holds one.
with open(out + "/huge.stl", "wb") as f:
    f.write(b" " * 80 + struct.pack("<I", 10**9) + b"\0" * 50)
EOF
scene() {  # scene SHAPE_KEYS: a one-shape configuration
  cat <<EOF
run: {dt: 1.0e-4, end_time: 0.001, seed: 1}
domain: {min: [0, 0, 0], max: [0.02, 0.02, 0.02]}
materials: [{name: glass, density: 2500, friction: 0.5}]
shapes:
  - {name: rock, type: convex, $1}
particles:
  - {type: body, shape: rock, position: [0.01, 0.01, 0.01], material: glass}
EOF
}
scene "file: $src/configs/meshes/grain.stl, scale: 0.001" > "$tmp/ascii.yaml"
scene "file: $tmp/grain_bin.stl, scale: 0.001" > "$tmp/binary.yaml"
scene "file: $tmp/grain.obj, scale: 0.001" > "$tmp/obj.yaml"
scene "vertices: $(cat "$tmp/vertices.txt"), scale: 0.001" > "$tmp/list.yaml"
for c in ascii binary obj list; do
  "$granite" run "$tmp/$c.yaml" --output "$tmp/run_$c" > "$tmp/$c.log" 2>&1 \
    || fail "run of the $c spelling: $(tail -2 "$tmp/$c.log")"
  grep "shape rock:" "$tmp/$c.log" > "$tmp/$c.line" || fail "no shape line for the $c spelling"
done
for c in obj list; do  # the same doubles: the same line
  cmp -s "$tmp/ascii.line" "$tmp/$c.line" \
    || fail "the $c shape differs: $(cat "$tmp/$c.line") vs $(cat "$tmp/ascii.line")"
done
grep -q "12 vertices and 20 faces" "$tmp/ascii.line" || fail "the STL's hull: $(cat "$tmp/ascii.line")"
$py - "$tmp/ascii.line" "$tmp/binary.line" <<'EOF' || fail "the binary STL's shape differs"
import re, sys
number = r"-?\d+(?:\.\d*)?(?:e[-+]\d+)?"
values = [[float(x) for x in re.findall(number, open(p).read())] for p in sys.argv[1:]]
assert len(values[0]) == len(values[1]) and values[0], values
for a, b in zip(*values):
    assert abs(a - b) <= 1e-5 * max(abs(a), 1e-9), (a, b)
EOF

# 2. Bad mesh input: one line, exit code 2, on every rank.
bad() {  # bad NAME REGEX SHAPE_KEYS
  scene "$3" > "$tmp/$1.yaml"
  refused_at_ranks "$1" "$2" "$tmp/$1.yaml" "$tmp/out_$1"
}
bad missing "nowhere\.stl.*no such file" "file: $tmp/nowhere.stl"
bad huge "huge\.stl.*declares 1000000000 triangles" "file: $tmp/huge.stl"
bad both "give vertices or file, not both" "file: $tmp/grain.obj, vertices: $(cat "$tmp/vertices.txt")"
bad neither "missing vertices \(or file\)" "scale: 0.001"

# 3. The drum of ellipsoids and grains at 2 ranks, shortened.
(cd "$src" && mpirun -np 2 --oversubscribe "$granite" run configs/ellipsoid_drum.yaml \
   --set run.end_time=0.05 --set output.snapshot_interval=0.05 --output "$tmp/drum") \
   > "$tmp/drum.log" 2>&1 || fail "2-rank drum: $(tail -3 "$tmp/drum.log")"
grep -q " 0 lost" "$tmp/drum.log" || fail "the drum lost particles: $(grep '^done' "$tmp/drum.log")"
$py - "$tmp/drum" <<'EOF' || fail "the ellipsoids' surfaces in /shapes"
import glob, os, sys
import h5py
import numpy as np

def rotation(q):  # unit quaternion (w, x, y, z) -> R
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])

axes = np.array([2.4e-3, 1.6e-3, 1.2e-3])
path = sorted(glob.glob(os.path.join(sys.argv[1], "snapshot_*.h5")))[-1]
with h5py.File(path, "r") as f:
    p, s = f["particles"], f["shapes"]
    ids, kind, x, q = p["id"][:], p["shape"][:], p["position"][:], p["orientation"][:]
    vertices, triangles, body = s["vertices"][:], s["triangles"][:], s["id"][:]
assert (kind == 0).sum() > 50 and (kind == 1).sum() > 20, np.bincount(kind)
for i in np.flatnonzero(kind == 0):
    mine = np.unique(triangles[body == ids[i]])
    assert len(mine) == 42, len(mine)
    local = (vertices[mine] - x[i]) @ rotation(q[i])  # rows R^T (v - x)
    level = np.linalg.norm(local / axes, axis=1)
    assert np.abs(level - 1).max() < 1e-9, np.abs(level - 1).max()
print(f"{(kind == 0).sum()} ellipsoids on their surfaces")
EOF

[ "$failures" -eq 0 ] && echo "mesh_shapes: all checks passed"
exit $((failures > 0))
