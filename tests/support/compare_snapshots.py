#!/usr/bin/python3
"""Compares two Granite snapshots particle by particle (matched by id).

usage: compare_snapshots.py A.h5 B.h5 [--tolerance T]
Exit 0 if both hold the same ids and every per-particle dataset (all of /particles but id and
owner_rank, which depends on the rank count) agrees (bit for bit, or within the absolute
tolerance T); 1 with a line per difference otherwise; 2 for unreadable files.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import granite_io  # noqa: E402

NOT_COMPARED = ("id", "owner_rank")


def load(path):
    """(ids, {field: array}, step), the rows sorted by id."""
    snapshot = granite_io.load_snapshot(path)
    order = np.argsort(snapshot["id"])
    fields = {k: v[order] for k, v in snapshot.items() if k not in NOT_COMPARED}
    return snapshot["id"][order], fields, snapshot.step


def main(argv):
    parser = argparse.ArgumentParser(description="Compare two Granite snapshots by particle id.")
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("--tolerance", type=float, default=0.0)
    args = parser.parse_args(argv[1:])
    tolerance = args.tolerance
    try:
        (ia, a, sa), (ib, b, sb) = load(args.a), load(args.b)
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    problems = []
    if sa != sb:
        problems.append(f"steps differ: {sa} vs {sb}")
    for k in sorted(set(a) ^ set(b)):
        problems.append(f"{k}: only in {args.a if k in a else args.b}")
    if not np.array_equal(ia, ib):
        problems.append(f"ids differ: {len(ia)} vs {len(ib)} particles")
    else:
        for k in sorted(set(a) & set(b)):
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
