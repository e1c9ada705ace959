#!/usr/bin/python3
"""Runout and height of a granular column collapse (configs/column_collapse.yaml) over time.

usage: column_profile.py OUTPUT_DIR [--gate X]

For every snapshot of the run: the time, the particle count, the front (the largest x + r of
the deposit: the particles sorted by x up to the first gap wider than 3 largest diameters, so
that a lone sphere ahead is not the front), x95 (95 % of the particles lie behind it: the
bulk of the deposit, less sensitive to the spheres rolling ahead), the height at the back wall (the largest z + r of
the particles within one largest diameter of x = 0) and the solid fraction behind the gate (the
spheres' volume over gate x depth x the top of the particles there; meaningful while the gate
holds them). The last line: the final runout beyond the gate and the final height.
"""
import argparse
import sys

import numpy as np

import granite_io


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output")
    parser.add_argument("--gate", type=float, default=0.02, help="gate position x (m)")
    args = parser.parse_args(argv[1:])
    try:
        series = granite_io.snapshot_series(args.output)
        run = granite_io.load_run(args.output)
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    config = run["config"]
    depth = config["domain"]["max"][1] - config["domain"]["min"][1]
    print("%8s %9s %10s %10s %10s %10s" % ("time[s]", "particles", "front[m]", "x95[m]", "height[m]",
                                          "fraction"))
    rows = []
    for step, path in series:
        p = granite_io.load_snapshot(path, fields=["position", "radius"])
        x, r = p["position"], p["radius"]
        xs_order = np.argsort(x[:, 0])
        xs, rs = x[xs_order, 0], r[xs_order]
        gaps = np.nonzero(np.diff(xs) > 6.0 * rs.max())[0]
        last = gaps[0] if len(gaps) else len(xs) - 1
        front = xs[last] + rs[last]
        back = x[:, 0] < 2.0 * r.max()
        height = (x[back, 2] + r[back]).max() if back.any() else 0.0
        behind = x[:, 0] < args.gate
        top = (x[behind, 2] + r[behind]).max() if behind.any() else 0.0
        fraction = (4.0 / 3.0 * np.pi * r[behind] ** 3).sum() / (args.gate * depth * top) if top > 0 else 0.0
        x95 = np.percentile(x[:, 0], 95)
        rows.append((step, front, x95, height))
        print("%8.3f %9d %10.4f %10.4f %10.4f %10.3f" % (step * config["run"]["dt"], len(r), front, x95,
                                                      height, fraction))
    if rows:
        _, front, x95, height = rows[-1]
        print("final: runout %.4f m beyond the gate (front at %.4f m, x95 at %.4f m), height %.4f m"
              % (front - args.gate, front, x95, height))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
