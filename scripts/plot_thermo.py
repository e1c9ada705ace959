#!/usr/bin/python3
"""Plot a run's thermo table (OUTPUT/thermo.csv): kinetic energy, contacts, sweeps and
maximum penetration against simulated time.

usage: plot_thermo.py THERMO_CSV OUTPUT_PNG
"""
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import granite_io  # noqa: E402

PANELS = [("kinetic_energy_J", "kinetic energy [J]"), ("contacts", "contacts"),
          ("sweeps", "relaxation sweeps"), ("max_penetration_m", "max penetration [m]")]


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        data = granite_io.load_table(argv[1], "thermo.csv", ["time_s"] + [k for k, _ in PANELS])
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    t = data["time_s"]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7), sharex=True)
    for ax, (key, label) in zip(axes.flat, PANELS):
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
