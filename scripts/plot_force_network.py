#!/usr/bin/python3
"""Force network of a snapshot's /contacts group (output.contacts: true), projected on a plane.

usage: plot_force_network.py SNAPSHOT_H5 OUTPUT_PNG [--plane xz|xy|yz]

Each particle-particle contact is a line between the two centres, each contact with a wall
(global body) a line from the particle's centre to its witness point on the wall. The line
width is proportional to the normal force f_n = force . n (/contacts/force = impulse/dt), the
widest line being the largest force; contacts without normal force are not drawn. The centres
are those at detection (point1 + r1 n, point2 - r2 n), the configuration the forces act on.
The particles are drawn as light circles. Default plane: xz (a side view, gravity down).
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.collections import LineCollection  # noqa: E402

import granite_io  # noqa: E402

PLANES = {"xy": (0, 1), "xz": (0, 2), "yz": (1, 2)}


def segments(contacts, ids, radii):
    """(segments N x 2 x 3, normal forces N): the line of each contact with f_n > 0."""
    radius = {int(i): float(r) for i, r in zip(ids, radii)}
    n = contacts["normal"]
    fn = np.einsum("ij,ij->i", contacts["force"], n) if len(n) else np.zeros(0)
    lines, forces = [], []
    for j in range(len(n)):
        if not fn[j] > 0:
            continue
        b1, b2 = int(contacts["body1"][j]), int(contacts["body2"][j])
        start = contacts["point1"][j] + radius[b1] * n[j]
        end = contacts["point2"][j] - radius[b2] * n[j] if b2 >= 0 else contacts["point2"][j]
        lines.append((start, end))
        forces.append(fn[j])
    return np.array(lines).reshape(-1, 2, 3), np.array(forces)


def main(argv):
    args = list(argv[1:])
    plane = "xz"
    if "--plane" in args:
        k = args.index("--plane")
        plane = args[k + 1] if k + 1 < len(args) else ""
        del args[k:k + 2]
    if len(args) != 2 or plane not in PLANES:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        contacts = granite_io.load_contacts(args[0])
        particles = granite_io.load_snapshot(args[0], fields={"id": 1, "radius": 1, "position": 3},
                                             required={"radius": 1, "position": 3})
        lines, forces = segments(contacts, particles["id"], particles["radius"])
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    except KeyError as e:
        return granite_io.print_error(f"{args[0]}: contact with body {e} that is not in "
                                      "/particles")
    a, b = PLANES[plane]
    fig, ax = plt.subplots(figsize=(8, 7))
    x, r = particles["position"], particles["radius"]
    for centre, radius in zip(x, r):
        ax.add_patch(plt.Circle((centre[a], centre[b]), radius, color="0.88", lw=0))
    if len(forces):
        widths = 0.3 + 4.7 * forces / forces.max()
        ax.add_collection(LineCollection(lines[:, :, [a, b]], linewidths=widths, colors="k"))
        peak = f", largest normal force {forces.max():.4g} N"
    else:
        peak = ""
    if len(x):
        pad = float(r.max())
        ax.set_xlim(x[:, a].min() - pad, x[:, a].max() + pad)
        ax.set_ylim(min(x[:, b].min(), lines[:, :, b].min() if len(lines) else np.inf) - pad,
                    x[:, b].max() + pad)
    ax.set_aspect("equal")
    ax.set_xlabel(f"{plane[0]} [m]")
    ax.set_ylabel(f"{plane[1]} [m]")
    ax.set_title(f"{args[0]}\nt = {contacts.attrs.get('time', float('nan')):.4g} s, "
                 f"{len(forces)} loaded contacts{peak}", fontsize=9)
    fig.tight_layout()
    fig.savefig(args[1], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
