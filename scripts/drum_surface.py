#!/usr/bin/python3
"""The free surface of a rotating drum's bed from a Granite run's snapshots.

usage: drum_surface.py OUTPUT [--from T] [--axis-point X Y Z] [--omega W]

For a drum turning about the y axis through the axis point (configs/rotating_drum.yaml), and
every snapshot at time >= T (default 1 s): the highest particle top (z + r) in each x column
(two diameters wide, at least 5 columns) over the middle 60 % of the bed's width, a straight line fitted through
them, and its angle with the horizontal (the dynamic angle of repose; positive: rising
towards +x). With --omega W (rad/s, about +y): the mean speed of the spheres that touch the
mantle in the lowest quarter of the drum, against the wall's W (R − r) at their centres (they
are carried along with the wall in the rolling regime). Prints one line per snapshot and the
mean; exit 2 with one error line on an unreadable run.
"""
import argparse
import math
import sys

import numpy as np

import granite_io


def surface_angle(x, z, r, diameter):
    """Degrees of the line through the column tops of the bed (x, z: centres; r: radii)."""
    lo, hi = x.min(), x.max()
    middle = 0.5 * (lo + hi)
    half = 0.3 * (hi - lo)
    width = min(2.0 * diameter, 0.4 * half)  # at least 5 columns
    edges = np.arange(middle - half, middle + half + 1e-12, width)
    xs, tops = [], []
    for a, b in zip(edges[:-1], edges[1:]):
        inside = (x >= a) & (x < b)
        if inside.any():
            xs.append(0.5 * (a + b))
            tops.append((z + r)[inside].max())
    if len(xs) < 3:
        raise granite_io.GraniteIOError("too few particles to fit a surface")
    slope = np.polyfit(xs, tops, 1)[0]
    return math.degrees(math.atan(slope))


def main(argv):
    parser = argparse.ArgumentParser(description="Free-surface angle of a rotating drum.")
    parser.add_argument("output")
    parser.add_argument("--from", dest="start", type=float, default=1.0)
    parser.add_argument("--axis-point", type=float, nargs=3, default=(0.0, 0.0, 0.0))
    parser.add_argument("--omega", type=float, default=None)
    parser.add_argument("--radius", type=float, default=None, help="drum radius R (m)")
    args = parser.parse_args(argv[1:])
    try:
        angles, ratios = [], []
        for _, path in granite_io.snapshot_series(args.output):
            s = granite_io.load_snapshot(path)
            if s.time < args.start - 1e-12:
                continue
            p = s["position"] - np.array(args.axis_point)
            r = s["radius"]
            angle = surface_angle(p[:, 0], p[:, 2], r, 2.0 * r.max())
            angles.append(angle)
            line = "t = %.3f s: surface angle %.1f deg" % (s.time, angle)
            if args.omega is not None and args.radius is not None:
                dist = np.hypot(p[:, 0], p[:, 2])
                wall = (dist > args.radius - r - 2e-4) & (p[:, 2] < -0.7 * args.radius)
                if wall.any():
                    v = s["velocity"]
                    # tangential velocity of the wall at (x, z): w e_y x (x, 0, z) = (w z, 0, -w x)
                    ex = np.stack([p[:, 2], -p[:, 0]], axis=1) / dist[:, None]
                    speed = (v[:, 0] * ex[:, 0] + v[:, 2] * ex[:, 1])[wall]
                    expected = args.omega * dist[wall]
                    ratio = float(np.mean(speed / expected))
                    ratios.append(ratio)
                    line += "; %d spheres at the wall move at %.3f x the wall speed" % (
                        wall.sum(), ratio)
            print(line)
        if not angles:
            raise granite_io.GraniteIOError("%s: no snapshot at t >= %g s" % (args.output, args.start))
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    summary = "mean surface angle %.1f deg (sd %.1f) over %d snapshots" % (
        np.mean(angles), np.std(angles), len(angles))
    if ratios:
        summary += "; spheres at the wall at %.3f x the wall speed" % np.mean(ratios)
    print(summary)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
