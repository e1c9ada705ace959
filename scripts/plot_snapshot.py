#!/usr/bin/python3
"""Top view (x-y) and side view (x-z) of a Granite HDF5 snapshot, particles coloured by speed:
one wide panel per view laid out for the domain's aspect ratio, one shared colour bar. A clump
(docs/shapes.md) is drawn as its parts, found from its surface in /shapes (one icosphere per part),
a capsule as discs of its radius along its axis (from the stored configuration's `shapes`), a box
or convex polyhedron and an ellipsoid as the outline of its surface's vertices (from /shapes)
projected on the view.

usage: plot_snapshot.py SNAPSHOT_H5 OUTPUT_PNG
"""
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import yaml  # noqa: E402

import granite_io  # noqa: E402

FIELDS = {"position": 3, "velocity": 3, "radius": 1}


def domain_box(snapshot, x):
    """The domain's corners from the configuration stored in the snapshot, else the particles'."""
    try:
        domain = yaml.safe_load(snapshot.attrs.get("config", ""))["domain"]
        lo, hi = np.array(domain["min"], float), np.array(domain["max"], float)
        if np.all(hi > lo):
            return lo, hi
    except Exception:  # no or a foreign configuration: fall back to the particles
        pass
    if len(x) == 0:
        return np.zeros(3), np.ones(3)
    return x.min(axis=0), np.maximum(x.max(axis=0), x.min(axis=0) + 1e-9)


def surfaces_by_body(path):
    """{id: (V, 3) vertices} of each shaped body's surface in /shapes (a body's triangles use a
    contiguous range of the vertices); empty without /shapes."""
    import h5py

    with h5py.File(path, "r") as f:
        group = f.get("shapes")
        if group is None:
            return {}
        vertices = group["vertices"][...].reshape(-1, 3)
        triangles = group["triangles"][...].reshape(-1, 3)
        owners = group["id"][...]
    out = {}
    for body in np.unique(owners):
        used = triangles[owners == body]
        out[int(body)] = vertices[used.min():used.max() + 1]
    return out


def clump_parts(surfaces, ids, speed, clumps):
    """(centres, radii, speeds) of the parts of the snapshot's clumps (ids in the set `clumps`):
    each part an icosphere of 42 vertices in /shapes (centre: the mean of its vertices, which the
    icosahedron's symmetry makes exact)."""
    speed_of = dict(zip(ids.tolist(), speed.tolist()))
    centres, radii, speeds = [], [], []
    for body in clumps:
        for part in surfaces.get(body, np.zeros((0, 3))).reshape(-1, 42, 3):
            centres.append(part.mean(axis=0))
            radii.append(np.linalg.norm(part[0] - centres[-1]))
            speeds.append(speed_of.get(body, 0.0))
    return np.array(centres).reshape(-1, 3), np.array(radii), np.array(speeds)


def outline(points):
    """The convex hull of 2-D points, counter-clockwise (Andrew's monotone chain)."""
    pts = sorted(map(tuple, points))
    if len(pts) < 3:
        return np.array(pts)

    def half(seq):
        hull = []
        for p in seq:
            while len(hull) >= 2 and ((hull[-1][0] - hull[-2][0]) * (p[1] - hull[-2][1]) -
                                      (hull[-1][1] - hull[-2][1]) * (p[0] - hull[-2][0])) <= 0:
                hull.pop()
            hull.append(p)
        return hull[:-1]

    return np.array(half(pts) + half(reversed(pts)))


def capsule_discs(snapshot, shapes, speed):
    """(centres, radii, speeds): each capsule as discs of its radius spaced at most r/2 apart
    along its axis x ± h R e_x (R from the orientation quaternion w, x, y, z)."""
    centres, radii, speeds = [], [], []
    for i, k in enumerate(snapshot["shape"]):
        if k < 0 or shapes[k].get("type") != "capsule":
            continue
        r, h = float(shapes[k]["radius"]), float(shapes[k]["half_length"])
        w, x, y, z = snapshot["orientation"][i]
        axis = np.array([1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)])
        for t in np.linspace(-h, h, int(np.ceil(4 * h / r)) + 1):
            centres.append(snapshot["position"][i] + t * axis)
            radii.append(r)
            speeds.append(speed[i])
    return np.array(centres).reshape(-1, 3), np.array(radii), np.array(speeds)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        snapshot = granite_io.load_snapshot(argv[1], required=FIELDS)
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    x, v, r, time = snapshot["position"], snapshot["velocity"], snapshot["radius"], snapshot.time
    speed = np.linalg.norm(v, axis=1) if len(v) else np.zeros(0)
    lo, hi = domain_box(snapshot, x)
    count = len(x)
    polyhedra = []
    if "shape" in snapshot and np.any(snapshot["shape"] >= 0):  # shapes: parts and discs
        try:
            shapes = yaml.safe_load(snapshot.attrs.get("config", ""))["shapes"]
        except Exception:  # no configuration: every shape drawn as a clump
            shapes = [{"type": "clump"}] * (int(snapshot["shape"].max()) + 1)
        kinds = [s.get("type") for s in shapes]
        clumps = {int(i) for i, k in zip(snapshot["id"], snapshot["shape"])
                  if k >= 0 and kinds[k] == "clump"}
        surfaces = surfaces_by_body(argv[1])
        parts = clump_parts(surfaces, snapshot["id"], speed, clumps)
        discs = capsule_discs(snapshot, shapes, speed)
        polyhedra = [(surfaces[int(i)], s) for i, k, s in zip(snapshot["id"], snapshot["shape"], speed)
                     if k >= 0 and kinds[k] in ("box", "convex", "ellipsoid") and int(i) in surfaces]
        spheres = snapshot["shape"] < 0
        x = np.concatenate([x[spheres], parts[0], discs[0]])
        r = np.concatenate([r[spheres], parts[1], discs[1]])
        speed = np.concatenate([speed[spheres], parts[2], discs[2]])
    # One wide panel per view, each as tall as its extent (15 x 6.5 x 2 cm: the side view is a
    # strip under the top view), and one colour bar for both.
    width = 11.0
    heights = [hi[1] - lo[1], hi[2] - lo[2]]
    panel = width * 0.8 / (hi[0] - lo[0])  # inches per metre along x
    fig, axes = plt.subplots(2, 1, figsize=(width, panel * sum(heights) + 1.6), sharex=True,
                             gridspec_kw={"height_ratios": heights})
    everything = np.concatenate([speed, [s for _, s in polyhedra]])
    vmax = float(everything.max()) if len(everything) and everything.max() > 0 else 1.0
    points_per_metre = 72 * panel * 0.85  # marker: the diameter in points (axes narrower than 0.8 w)
    for ax, (a, b, name) in zip(axes, [(0, 1, "y"), (0, 2, "z")]):
        order = np.argsort(x[:, 3 - b]) if len(x) else []  # draw the nearest particles last
        sc = ax.scatter(x[order, a], x[order, b], c=speed[order], s=(points_per_metre * 2 * r[order]) ** 2,
                        cmap="viridis", vmin=0.0, vmax=vmax, edgecolors="none")
        if polyhedra:  # drawn nearest last, as the discs
            from matplotlib.collections import PolyCollection

            order = np.argsort([v[:, 3 - b].mean() for v, _ in polyhedra])
            outlines = PolyCollection([outline(polyhedra[k][0][:, [a, b]]) for k in order],
                                      array=np.array([polyhedra[k][1] for k in order]),
                                      cmap="viridis", edgecolors="k", linewidths=0.2)
            outlines.set_clim(0.0, vmax)
            ax.add_collection(outlines)
        ax.set_xlim(lo[0], hi[0])
        ax.set_ylim(lo[b], hi[b])
        ax.set_aspect("equal")
        ax.set_ylabel(f"{name} [m]")
    axes[1].set_xlabel("x [m]")
    axes[0].set_title(f"{os.path.basename(argv[1])}: t = {time:.4g} s, {count} particles "
                      "(top: x-y, bottom: x-z)", fontsize=10)
    fig.colorbar(sc, ax=list(axes), label="speed [m/s]", fraction=0.04, pad=0.02)
    fig.savefig(argv[2], dpi=110, bbox_inches="tight")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
