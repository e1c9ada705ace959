#!/usr/bin/env bash
# Non-spherical particles in the output (docs/output.md, "Shapes"), end to end:
#  1. 300 dimers (2 parts each) falling at 2 ranks: every snapshot's /shapes holds 84 vertices
#     and 160 triangles per dimer, both ranks' bodies in rank order, triangle indices into
#     their own body's vertices, each vertex on its part's sphere (x + R p, radius r), the body
#     id per triangle; the snapshot's XDMF has the grid "shapes" on those datasets;
#  2. ParaView's XDMF reader (python3-paraview) shows the particles, the floor and the shapes at
#     every time without a filter, also in a run whose shaped particles are poured in after
#     the initial snapshot (its first step has no shapes grid);
#  3. scripts/paraview_view.py draws the dimers (a picture of many colours, with no sphere in
#     the run).
# usage: shape_output_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

cat > "$tmp/dimers.yaml" <<'EOF'
run: {dt: 1.0e-4, end_time: 0.02, thermo_every: 100, seed: 3}
domain: {min: [0, 0, 0], max: [0.02, 0.02, 0.06], decomposition: [2, 1, 1]}
gravity: [0, 0, -9.81]
contact: {model: mdp, threshold: 5.0e-5}
solver: {max_sweeps: 50, tolerance: 1.0e-4}
output: {snapshot_interval: 0.01}
materials:
  - {name: glass, density: 2500, friction: 0.5}
shapes:
  - {name: dimer, type: clump, parts: [{radius: 1.0e-3, position: [-0.6e-3, 0, 0]},
                                       {radius: 1.0e-3, position: [0.6e-3, 0, 0]}]}
bodies:
  - {type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: glass}
particles:
  - {type: random, region: {type: box, min: [0, 0, 0], max: [0.02, 0.02, 0.06]}, count: 300,
     shape: dimer, orientation: random, material: glass}
EOF
# Spheres first, dimers poured in from t = 5 ms: step 0 has no shaped particle.
sed -e 's/, decomposition: \[2, 1, 1\]//' -e '/^particles:/,$d' "$tmp/dimers.yaml" > "$tmp/pour.yaml"
cat >> "$tmp/pour.yaml" <<'EOF'
particles:
  - {type: random, region: {type: box, min: [0, 0, 0], max: [0.02, 0.02, 0.03]}, count: 50,
     radius: 1.0e-3, material: glass}
  - {type: pour, region: {type: box, min: [0, 0, 0.04], max: [0.02, 0.02, 0.06]}, rate: 3000,
     start: 0.005, end: 0.02, shape: dimer, orientation: random, material: glass}
EOF

mpirun -np 2 --oversubscribe "$granite" run "$tmp/dimers.yaml" --output "$tmp/dimers" > "$tmp/dimers.log" 2>&1 \
  || fail "2-rank run of dimers: $(tail -3 "$tmp/dimers.log")"
"$granite" run "$tmp/pour.yaml" --output "$tmp/pour" > "$tmp/pour.log" 2>&1 \
  || fail "run with a pour of dimers: $(tail -3 "$tmp/pour.log")"

# 1. The /shapes datasets and the XDMF grid.
$py - "$tmp/dimers" <<'EOF' || fail "the /shapes datasets of the 2-rank run"
import glob, os, re, sys
import h5py
import numpy as np

def rotation(q):  # unit quaternion (w, x, y, z) -> R
    w, x, y, z = q
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])

parts = np.array([[-0.6e-3, 0, 0], [0.6e-3, 0, 0]])  # symmetric: the centre of mass is at 0
radius = 1.0e-3
snapshots = sorted(glob.glob(os.path.join(sys.argv[1], "snapshot_*.h5")))
assert len(snapshots) == 3, snapshots
for path in snapshots:
    with h5py.File(path, "r") as f:
        p, s = f["particles"], f["shapes"]
        ids, owner = p["id"][:], p["owner_rank"][:]
        x, q = p["position"][:], p["orientation"][:]
        assert (p["shape"][:] == 0).all() and len(ids) == 300
        assert set(owner) == {0, 1}, f"{path}: owners {set(owner)}"
        vertices, triangles, body = s["vertices"][:], s["triangles"][:], s["id"][:]
        assert vertices.shape == (300 * 84, 3) and vertices.dtype == np.float64, vertices.shape
        assert triangles.shape == (300 * 160, 3) and triangles.dtype == np.int64, triangles.shape
        assert body.shape == (300 * 160,) and body.dtype == np.int64, body.shape
        assert s.attrs["vertex_count"] == 300 * 84 and s.attrs["triangle_count"] == 300 * 160
        assert s.attrs["icosphere_subdivisions"] == 1
        # Body j of the mesh: triangles 160 j .., vertices 84 j .., in the rows' order.
        assert (body.reshape(300, 160) == ids[:, None]).all(), f"{path}: ids not in row order"
        assert (triangles // 84 == np.arange(300)[:, None].repeat(160, 0)).all(), \
            f"{path}: a triangle uses another body's vertex"
        for j in range(300):
            centres = x[j] + parts @ rotation(q[j]).T
            v = vertices[84 * j:84 * (j + 1)].reshape(2, 42, 3)
            d = np.linalg.norm(v - centres[:, None, :], axis=2)
            assert np.abs(d - radius).max() < 1e-15, f"{path}: body {ids[j]} off by {np.abs(d - radius).max()}"
    xdmf = open(path[:-3] + ".xdmf").read()
    name = os.path.basename(path)
    for rows, dataset in ((f"{300 * 160} 3", "triangles"), (f"{300 * 84} 3", "vertices"),
                          (f"{300 * 160}", "id")):
        assert re.search(f'Dimensions="{rows}" [^>]*>{name}:/shapes/{dataset}<', xdmf), (dataset, xdmf)
    assert '<Grid Name="shapes" GridType="Uniform">' in xdmf
    assert '<Topology TopologyType="Triangle" NumberOfElements="48000">' in xdmf
    assert '<Attribute Name="id" AttributeType="Scalar" Center="Cell">' in xdmf
series = open(os.path.join(sys.argv[1], "series.xdmf")).read()
assert series.count('<Grid Name="shapes"') == 3, "series.xdmf: not 3 shapes grids"
EOF

# 2. What ParaView's reader makes of both series.
cat > "$tmp/reader.py" <<'EOF'
import glob, os, sys
import h5py
try:
    from paraview import servermanager
    from paraview.simple import XDMFReader
except ImportError as e:
    sys.exit(f"ParaView's Python modules are missing ({e}); install python3-paraview")
out = sys.argv[1]
reader = XDMFReader(FileNames=[os.path.join(out, "series.xdmf")])
snapshots = sorted(glob.glob(os.path.join(out, "snapshot_*.h5")))
assert len(reader.TimestepValues) == len(snapshots) == 3, (reader.TimestepValues, snapshots)
for time, path in zip(reader.TimestepValues, snapshots):
    reader.UpdatePipeline(time)
    data = servermanager.Fetch(reader)
    assert data.IsA("vtkMultiBlockDataSet"), f"t = {time}: {data.GetClassName()}, not the collection"
    blocks = {data.GetMetaData(i).Get(data.NAME()).split("[")[0]: data.GetBlock(i)
              for i in range(data.GetNumberOfBlocks())}
    with h5py.File(path, "r") as f:
        count = int(f.attrs["particle_count"])
        shapes = (f["shapes"].attrs["vertex_count"], f["shapes"].attrs["triangle_count"]) \
            if "shapes" in f else None
    expected = {"particles", "global_bodies"} | ({"shapes"} if shapes else set())
    assert set(blocks) == expected, f"t = {time}: blocks {sorted(blocks)}, expected {sorted(expected)}"
    assert blocks["particles"].GetNumberOfPoints() == count
    if shapes:
        mesh = blocks["shapes"]
        assert (mesh.GetNumberOfPoints(), mesh.GetNumberOfCells()) == shapes, \
            f"t = {time}: {mesh.GetNumberOfPoints()} points, {mesh.GetNumberOfCells()} cells, HDF5 {shapes}"
        assert mesh.GetCellType(0) == 5, "not triangles"  # VTK_TRIANGLE
        assert mesh.GetCellData().GetArray("id") is not None, "no cell array id"
    print(f"t = {time}: {sorted(blocks)}")
EOF
(cd "$tmp" && $py reader.py "$tmp/dimers" > reader_dimers.log 2>&1) \
  || fail "ParaView's view of the dimers: $(grep -v WARN "$tmp/reader_dimers.log" | tail -3)"
(cd "$tmp" && $py reader.py "$tmp/pour" > reader_pour.log 2>&1) \
  || fail "ParaView's view of the pour: $(grep -v WARN "$tmp/reader_pour.log" | tail -3)"
grep -q "t = 0.0: \['global_bodies', 'particles'\]" "$tmp/reader_pour.log" \
  || fail "the pour's initial step: $(cat "$tmp/reader_pour.log")"

# 3. scripts/paraview_view.py (pvbatch; xvfb-run gives it a display on a headless machine).
xvfb=()
[ -z "${DISPLAY:-}" ] && xvfb=(xvfb-run -a)
(cd "$tmp" && "${xvfb[@]}" pvbatch "$src/scripts/paraview_view.py" "$tmp/dimers" --png "$tmp/png" \
  --size 400 400 > "$tmp/pv.log" 2>&1) || fail "paraview_view.py: $(tail -3 "$tmp/pv.log")"
$py - "$tmp/png/view_00000200.png" <<'EOF' || fail "paraview_view.py's picture of the dimers"
import sys
import matplotlib.image as image
import numpy as np
picture = image.imread(sys.argv[1])[..., :3]
# The run has no sphere: the colours are the dimers' (each body its own, shaded).
colours = len(np.unique((picture * 255).astype(int).reshape(-1, 3), axis=0))
assert colours > 200, f"only {colours} colours"
EOF

[ "$failures" -eq 0 ] && echo "shape_output: all checks passed"
exit $((failures > 0))
