#!/usr/bin/python3
"""The angle of repose of a heap or a ridge (configs/heap.yaml), fitted to its free surface.

The last snapshot of OUTPUT (or the given .h5 file) is read; the heap's axis is the x of its
highest point. On each side, |x - axis| is cut into bins of one mean diameter; a bin's surface
height is the largest z + r of its particles. A straight line is fitted (least squares) to the
surface heights between 20 % and 80 % of the peak height on each side, the flank well away from
the rounded top and from the toe; the angle is atan of minus its slope. Prints each side's angle,
the number of bins fitted and the mean; exit code 1 if a side has fewer than 3 bins.

usage: repose_angle.py OUTPUT_OR_SNAPSHOT [--bins-per-diameter N]
"""
import glob
import math
import os
import sys

import h5py
import numpy as np


def last_snapshot(path):
    if path.endswith(".h5"):
        return path
    snapshots = sorted(glob.glob(os.path.join(path, "snapshot_*.h5")))
    if not snapshots:
        sys.exit(f"repose_angle.py: no snapshot_*.h5 in {path}")
    return snapshots[-1]


def flank(distance, top, width, peak):
    """Surface heights per bin along one side and the fitted angle (degrees)."""
    edges = np.arange(0.0, distance.max() + width, width)
    centres, heights = [], []
    for lo, hi in zip(edges[:-1], edges[1:]):
        inside = (distance >= lo) & (distance < hi)
        if inside.any():
            centres.append(0.5 * (lo + hi))
            heights.append(top[inside].max())
    centres, heights = np.array(centres), np.array(heights)
    fit = (heights >= 0.2 * peak) & (heights <= 0.8 * peak)
    if fit.sum() < 3:
        return None, int(fit.sum())
    slope = np.polyfit(centres[fit], heights[fit], 1)[0]
    return math.degrees(math.atan(-slope)), int(fit.sum())


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    per_diameter = 1.0
    if "--bins-per-diameter" in argv:
        per_diameter = float(argv[argv.index("--bins-per-diameter") + 1])
    path = last_snapshot(argv[1])
    with h5py.File(path, "r") as f:
        x = f["particles/position"][:]
        r = f["particles/radius"][:]
        time = f.attrs.get("time", float("nan"))
    top = x[:, 2] + r
    axis = x[np.argmax(top), 0]
    peak = top.max()
    width = 2.0 * r.mean() / per_diameter
    print(f"{os.path.basename(path)}: t = {time:.3f} s, {len(r)} particles, peak {peak * 1e3:.2f} mm "
          f"at x = {axis * 1e3:.2f} mm")
    angles = []
    for name, side in (("left", x[:, 0] < axis), ("right", x[:, 0] >= axis)):
        angle, bins = flank(np.abs(x[side, 0] - axis), top[side], width, peak)
        if angle is None:
            print(f"{name}: only {bins} bins between 20 % and 80 % of the peak height")
            return 1
        angles.append(angle)
        print(f"{name}: {angle:.1f} deg ({bins} bins)")
    print(f"angle of repose: {np.mean(angles):.1f} deg")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
