"""Opens a run's series.xdmf with ParaView's XDMF reader (python3-paraview) and checks what a
user sees in ParaView: every time step holds the particles of its HDF5 snapshot with the
velocity and radius arrays, and the global bodies' grid with the obstacle's bounding box
where the configuration puts it; the first time is exactly 0, the second exactly the
snapshot interval.

usage: paraview_series_check.py OUTPUT_DIR CONFIG.yaml OBSTACLE_INDEX SNAPSHOT_INTERVAL
"""
import glob
import os
import sys

import h5py
import numpy as np
import yaml

out_dir, config_file, obstacle, interval = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])

try:
    from paraview import servermanager
    from paraview.simple import XDMFReader
    from vtkmodules.util.numpy_support import vtk_to_numpy
except ImportError as e:
    sys.exit(f"FAIL: ParaView's Python modules are missing ({e}); install python3-paraview "
             "(scripts/setup installs it)")

failures = []


def check(condition, message):
    if not condition:
        failures.append(message)


def bounding_box_of(part):
    """Axis-aligned box of one part of a global body (boxes unrotated, cylinders any axis)."""
    c = np.array(part["center"], float)
    if part["type"] == "box":
        assert "orientation" not in part, "the check handles unrotated boxes"
        h = np.array(part["half_extents"], float)
        return c - h, c + h
    if part["type"] == "cylinder":
        a = np.array(part["axis"], float)
        a /= np.linalg.norm(a)
        r, hl = part["radius"], part["half_length"]
        # Extent of a capped cylinder along each world axis: hl |a_i| + r sqrt(1 - a_i^2).
        e = hl * np.abs(a) + r * np.sqrt(np.clip(1 - a * a, 0, 1))
        return c - e, c + e
    raise ValueError(part["type"])


config = yaml.safe_load(open(config_file))
body = config["bodies"][obstacle]
parts = body.get("parts", [body])
boxes = [bounding_box_of(p) for p in parts]
expected_lo = np.min([b[0] for b in boxes], axis=0)
expected_hi = np.max([b[1] for b in boxes], axis=0)

reader = XDMFReader(FileNames=[os.path.join(out_dir, "series.xdmf")])
times = list(reader.TimestepValues)
snapshots = sorted(glob.glob(os.path.join(out_dir, "snapshot_*.h5")))
check(len(times) == len(snapshots), f"{len(times)} time steps for {len(snapshots)} snapshot files")
check(times[0] == 0.0, f"first time {times[0]!r}, expected exactly 0")
check(len(times) > 1 and times[1] == interval,
      f"second time {times[1] if len(times) > 1 else None!r}, expected exactly {interval!r}")

for time, snapshot in zip(times, snapshots):
    reader.UpdatePipeline(time)
    data = servermanager.Fetch(reader)
    # The reader names the blocks of later steps "particles[1]", ...: the grid name before "[".
    blocks = {data.GetMetaData(i).Get(data.NAME()).split("[")[0]: data.GetBlock(i)
              for i in range(data.GetNumberOfBlocks())}
    check(set(blocks) == {"particles", "global_bodies"}, f"t = {time}: blocks {sorted(blocks)}")
    with h5py.File(snapshot, "r") as f:
        count = int(f.attrs["particle_count"])
        check(float(f.attrs["time"]) == time, f"{snapshot}: time {f.attrs['time']} != {time}")
        radius = f["particles/radius"][:]
    particles = blocks.get("particles")
    if particles is not None:
        check(particles.GetNumberOfPoints() == count,
              f"t = {time}: {particles.GetNumberOfPoints()} points, the HDF5 file has {count}")
        point_data = particles.GetPointData()
        for name in ("velocity", "radius"):
            check(point_data.GetArray(name) is not None, f"t = {time}: no point array {name}")
        if point_data.GetArray("radius") is not None:
            shown = np.sort(vtk_to_numpy(point_data.GetArray("radius")))
            check(np.array_equal(shown, np.sort(radius)), f"t = {time}: radii differ from HDF5")
        velocity = point_data.GetArray("velocity")
        check(velocity is not None and velocity.GetNumberOfComponents() == 3,
              f"t = {time}: velocity is not a 3-vector")
    surfaces = blocks.get("global_bodies")
    if surfaces is None:
        continue
    body_of_cell = vtk_to_numpy(surfaces.GetCellData().GetArray("body"))
    points = vtk_to_numpy(surfaces.GetPoints().GetData())
    ids = vtk_to_numpy(surfaces.GetCells().GetConnectivityArray()) if hasattr(
        surfaces.GetCells(), "GetConnectivityArray") else None
    check(ids is not None and len(ids) == 3 * surfaces.GetNumberOfCells(),
          f"t = {time}: the global bodies are not triangles")
    if ids is None:
        continue
    triangles = ids.reshape(-1, 3)
    corners = points[triangles[body_of_cell == obstacle].ravel()]
    check(len(corners) > 0, f"t = {time}: no triangles of body {obstacle}")
    if len(corners):
        lo, hi = corners.min(axis=0), corners.max(axis=0)
        # The cylinder's facets have vertices on the +-x and +-y extremes (48 segments, a
        # multiple of 4), so the box is exact up to rounding in cos/sin: 1e-12 m.
        check(np.allclose(lo, expected_lo, atol=1e-12) and np.allclose(hi, expected_hi, atol=1e-12),
              f"t = {time}: obstacle box {lo} .. {hi}, expected {expected_lo} .. {expected_hi}")
    check(set(np.unique(body_of_cell)) == set(range(len(config["bodies"]))),
          f"t = {time}: bodies drawn {sorted(set(np.unique(body_of_cell)))}")

for message in failures:
    print("FAIL:", message)
print(f"paraview: {len(times)} time steps checked" if not failures else "")
sys.exit(1 if failures else 0)
