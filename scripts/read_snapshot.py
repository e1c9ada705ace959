#!/usr/bin/python3
"""Print a summary of a Granite HDF5 snapshot (docs/output.md describes the layout).

usage: scripts/read_snapshot.py SNAPSHOT.h5

Prints the particle count, time, step, ranks and the min/max/mean speed. Exits 2 with one
"error: ..." line for a missing file, a file that is not HDF5, or an HDF5 file that is not a
Granite snapshot.
"""
import os
import sys

REQUIRED = {
    "id": 1, "position": 3, "velocity": 3, "angular_velocity": 3, "orientation": 4,
    "radius": 1, "material": 1, "owner_rank": 1,
}
ROWS_PER_READ = 1 << 20  # velocities are read in blocks, so huge snapshots fit in memory


def fail(message):
    print(f"error: {message}", file=sys.stderr)
    sys.exit(2)


def text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) != 2:
        fail("usage: read_snapshot.py SNAPSHOT.h5")
    path = argv[1]
    try:
        import h5py
        import numpy as np
    except ImportError as missing:
        fail(f"{missing.name} is not installed (Debian: apt-get install python3-h5py)")

    if not os.path.exists(path):
        fail(f"{path}: no such file")
    if os.path.isdir(path):
        fail(f"{path}: is a directory, expected a snapshot .h5 file")
    try:
        snapshot = h5py.File(path, "r")
    except OSError:
        fail(f"{path}: not an HDF5 file")

    with snapshot:
        if text(snapshot.attrs.get("format", "")) != "granite-snapshot":
            fail(f"{path}: not a Granite snapshot (no attribute format = 'granite-snapshot')")
        group = snapshot.get("particles")
        if not isinstance(group, h5py.Group):
            fail(f"{path}: not a Granite snapshot (no group /particles)")
        n = None
        for name, columns in REQUIRED.items():
            dataset = group.get(name)
            if not isinstance(dataset, h5py.Dataset):
                fail(f"{path}: damaged Granite snapshot (no dataset /particles/{name})")
            expected_ndim = 1 if columns == 1 else 2
            if dataset.ndim != expected_ndim or (columns > 1 and dataset.shape[1] != columns):
                fail(f"{path}: damaged Granite snapshot (/particles/{name} has shape "
                     f"{dataset.shape})")
            if n is None:
                n = dataset.shape[0]
            elif dataset.shape[0] != n:
                fail(f"{path}: damaged Granite snapshot (/particles/{name} has "
                     f"{dataset.shape[0]} rows, /particles/id has {n})")

        attrs = snapshot.attrs
        velocity = group["velocity"]
        lowest, highest, total = np.inf, -np.inf, 0.0
        for start in range(0, n, ROWS_PER_READ):
            speed = np.linalg.norm(velocity[start:start + ROWS_PER_READ], axis=1)
            lowest = min(lowest, float(speed.min()))
            highest = max(highest, float(speed.max()))
            total += float(speed.sum())

        decomposition = attrs.get("decomposition")
        print(f"file           {path}")
        print(f"particles      {n}")
        print(f"time           {float(attrs.get('time', float('nan'))):.9g} s")
        print(f"step           {int(attrs.get('step', -1))}")
        ranks = int(attrs.get("ranks", 0))
        if decomposition is not None:
            grid = " x ".join(str(int(d)) for d in decomposition)
            print(f"ranks          {ranks} (decomposition {grid})")
        else:
            print(f"ranks          {ranks}")
        print(f"granite        {text(attrs.get('granite_version', '?'))} "
              f"(git {text(attrs.get('git_commit', '?'))})")
        if n > 0:
            print(f"speed (m/s)    min {lowest:.6g}  max {highest:.6g}  mean {total / n:.6g}")
        else:
            print("speed (m/s)    no particles")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
