#!/usr/bin/python3
"""Compares two Granite snapshots particle by particle (matched by id).

usage: compare_snapshots.py A.h5 B.h5 [--tolerance T]
Exit 0 if both hold the same ids and every per-particle dataset agrees (bit for bit, or within
the absolute tolerance T); 1 with a line per difference otherwise; 2 for unreadable files.
"""
import argparse
import sys

import h5py
import numpy as np

FIELDS = ["position", "velocity", "angular_velocity", "orientation", "radius", "material"]


def load(path):
    with h5py.File(path, "r") as f:
        ids = f["particles/id"][...]
        order = np.argsort(ids)
        return ids[order], {k: f["particles/" + k][...][order] for k in FIELDS}, int(f.attrs["step"])


def main(argv):
    parser = argparse.ArgumentParser(description="Compare two Granite snapshots by particle id.")
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--tolerance", type=float, default=0.0)
    args = parser.parse_args(argv[1:])
    tolerance = args.tolerance
    try:
        (ia, a, sa), (ib, b, sb) = load(args.a), load(args.b)
    except (OSError, KeyError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    problems = []
    if sa != sb:
        problems.append(f"steps differ: {sa} vs {sb}")
    if not np.array_equal(ia, ib):
        problems.append(f"ids differ: {len(ia)} vs {len(ib)} particles")
    else:
        for k in FIELDS:
            diff = np.max(np.abs(a[k].astype(float) - b[k].astype(float))) if len(ia) else 0.0
            if diff > tolerance:
                problems.append(f"{k}: max difference {diff:.3e} > {tolerance:g}")
    for p in problems:
        print(p)
    if not problems:
        print(f"identical within {tolerance:g}: {len(ia)} particles at step {sa}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
