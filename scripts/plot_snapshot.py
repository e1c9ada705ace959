#!/usr/bin/python3
"""Top view (x-y) and side view (x-z) of a Granite HDF5 snapshot, particles coloured by speed.

usage: plot_snapshot.py SNAPSHOT_H5 OUTPUT_PNG
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import granite_io  # noqa: E402

FIELDS = {"position": 3, "velocity": 3, "radius": 1}


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        snapshot = granite_io.load_snapshot(argv[1], fields=FIELDS, required=FIELDS)
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    x, v, r, time = snapshot["position"], snapshot["velocity"], snapshot["radius"], snapshot.time
    speed = np.linalg.norm(v, axis=1) if len(v) else np.zeros(0)
    fig, axes = plt.subplots(2, 1, figsize=(9, 8))
    for ax, (a, b, name) in zip(axes, [(0, 1, "y"), (0, 2, "z")]):
        order = np.argsort(x[:, 3 - b]) if len(x) else []  # draw the nearest particles last
        sc = ax.scatter(x[order, a], x[order, b], c=speed[order], s=(72 * 2 * r[order] / 0.0254) ** 2 * 0.4,
                        cmap="viridis", edgecolors="none")
        ax.set_aspect("equal")
        ax.set_xlabel("x [m]")
        ax.set_ylabel(f"{name} [m]")
        fig.colorbar(sc, ax=ax, label="speed [m/s]")
    axes[0].set_title(f"{argv[1]}  t = {time:.4g} s, {len(x)} particles")
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
