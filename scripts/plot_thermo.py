#!/usr/bin/python3
"""Plot a run's thermo table (OUTPUT/thermo.csv): kinetic energy, contacts, sweeps and
maximum penetration against simulated time.

usage: plot_thermo.py THERMO_CSV OUTPUT_PNG
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        data = np.genfromtxt(argv[1], delimiter=",", names=True)
    except OSError as e:
        print(f"error: {argv[1]}: {e}", file=sys.stderr)
        return 2
    data = np.atleast_1d(data)
    if data.size == 0 or "time_s" not in data.dtype.names:
        print(f"error: {argv[1]}: not a Granite thermo.csv", file=sys.stderr)
        return 2
    t = data["time_s"]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7), sharex=True)
    panels = [("kinetic_energy_J", "kinetic energy [J]"), ("contacts", "contacts"),
              ("sweeps", "relaxation sweeps"), ("max_penetration_m", "max penetration [m]")]
    for ax, (key, label) in zip(axes.flat, panels):
        ax.plot(t, data[key])
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("time [s]")
    fig.suptitle(argv[1])
    fig.tight_layout()
    fig.savefig(argv[2], dpi=110)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
