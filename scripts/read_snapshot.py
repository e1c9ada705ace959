#!/usr/bin/python3
"""Print a summary of a Granite HDF5 snapshot (docs/output.md describes the layout).

usage: scripts/read_snapshot.py SNAPSHOT.h5

Prints the particle count, time, step, ranks and the min/max/mean speed. Exits 2 with one
"error: ..." line for a missing file, a file that is not HDF5, or an HDF5 file that is not a
Granite snapshot.
"""
import sys

import granite_io

REQUIRED = {
    "position": 3, "velocity": 3, "angular_velocity": 3, "orientation": 4,
    "radius": 1, "material": 1, "owner_rank": 1,
}
ROWS_PER_READ = 1 << 20  # velocities are read in blocks, so huge snapshots fit in memory


def summarise(path):
    import numpy as np

    with granite_io.open_particles(path, required=REQUIRED) as (attrs, particles, _):
        n = particles["id"].shape[0]
        velocity = particles["velocity"]
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
    print(f"granite        {attrs.get('granite_version', '?')} "
          f"(git {attrs.get('git_commit', '?')})")
    if n > 0:
        print(f"speed (m/s)    min {lowest:.6g}  max {highest:.6g}  mean {total / n:.6g}")
    else:
        print("speed (m/s)    no particles")
    return 0


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) != 2:
        return granite_io.print_error("usage: read_snapshot.py SNAPSHOT.h5")
    try:
        return summarise(argv[1])
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
