#!/usr/bin/python3
"""The table of benchmarks/mdp_vs_coulomb.sh: each scene's figures per model, as the mean and the
standard deviation over the seeds, and whether the two models' means differ beyond the spread.

A difference counts as beyond the spread when |mean_mdp - mean_coulomb| exceeds twice its
standard error sqrt(s_mdp^2 / n_mdp + s_coulomb^2 / n_coulomb) (Welch; about the 95 % level for
normal seed-to-seed scatter). With 5 seeds per model that test is coarse: "within" means no
difference was resolved, not that there is none.

usage: mdp_vs_coulomb.py RESULTS_DIR
RESULTS_DIR holds SCENE-MODEL-SEED/ run directories (scene channel, heap or silo) and, for the
heap, SCENE-MODEL-SEED.angle (scripts/repose_angle.py's output).
"""
import glob
import json
import math
import os
import re
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import granite_io  # noqa: E402

CHANNEL_FROM = 0.3  # s: the channel's averages start here (the script's --set of average_from)


def channel_figures(run):
    stats = granite_io.load_table(os.path.join(run, "statistics.csv"), "statistics.csv",
                                  ("time_s", "particles", "solid_fraction", "contacts_per_particle",
                                   "kinetic_translational_J", "kinetic_rotational_J",
                                   "max_penetration_m"))
    keep = stats["time_s"] >= CHANNEL_FROM
    if not keep.any():
        raise ValueError(f"{run}: no statistics at t >= {CHANNEL_FROM} s")
    mean = lambda key: float(np.mean(stats[key][keep]))
    return {
        "particles": mean("particles"),
        "solid fraction of the bed (%)": 100.0 * mean("solid_fraction"),
        "contacts per particle": mean("contacts_per_particle"),
        "translational energy per particle (uJ)":
            1e6 * float(np.mean(stats["kinetic_translational_J"][keep] / stats["particles"][keep])),
        "rotational energy per particle (uJ)":
            1e6 * float(np.mean(stats["kinetic_rotational_J"][keep] / stats["particles"][keep])),
        "max. penetration (um)": 1e6 * float(np.max(stats["max_penetration_m"][keep])),
    }


def heap_figures(run):
    text = open(run + ".angle").read()
    angle = re.search(r"^angle of repose:\s+(\S+)", text, re.M)
    left = re.search(r"^left:\s+(\S+)", text, re.M)
    right = re.search(r"^right:\s+(\S+)", text, re.M)
    record = json.load(open(os.path.join(run, "run.json")))
    return {
        "angle of repose (deg)": float(angle.group(1)),
        "left flank (deg)": float(left.group(1)),
        "right flank (deg)": float(right.group(1)),
        "grains in the heap": float(record["particles"]["final"]),
    }


def silo_figures(run):
    flow = granite_io.load_table(os.path.join(run, "mass_flow.csv"), "mass_flow.csv", ("time_s", "crossings", "rate_per_s"))
    record = json.load(open(os.path.join(run, "run.json")))
    crossings = np.cumsum(flow["crossings"])
    return {
        "grains discharged": float(crossings[-1]),
        "mean rate over the run (1/s)": float(crossings[-1] / flow["time_s"][-1]),
        "grains left in the silo": float(record["particles"]["final"]),
    }


FIGURES = {"channel": channel_figures, "heap": heap_figures, "silo": silo_figures}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-4])
    root = sys.argv[1]
    for scene, figures in FIGURES.items():
        runs = {}
        for model in ("mdp", "coulomb"):
            for path in sorted(glob.glob(os.path.join(root, f"{scene}-{model}-*"))):
                if not os.path.isdir(path):
                    continue
                try:
                    row = figures(path)
                    runs.setdefault(model, []).append(row)
                except (OSError, ValueError, KeyError, AttributeError, granite_io.GraniteIOError) as e:
                    print(f"# {scene}: {path} skipped: {e}")
        if len(runs) < 2:
            continue
        n = {m: len(v) for m, v in runs.items()}
        print(f"== {scene}: {n['mdp']} seeds mdp, {n['coulomb']} seeds coulomb "
              "(mean ± standard deviation over the seeds)")
        print(f"{'':42s} {'mdp':>20s} {'coulomb':>20s} {'difference':>12s}  beyond 2 s.e.?")
        for key in runs["mdp"][0]:
            values = {m: np.array([r[key] for r in runs[m]]) for m in runs}
            mean = {m: v.mean() for m, v in values.items()}
            std = {m: v.std(ddof=1) if len(v) > 1 else math.nan for m, v in values.items()}
            error = math.sqrt(sum(std[m] ** 2 / len(values[m]) for m in values))
            difference = mean["mdp"] - mean["coulomb"]
            beyond = "yes" if abs(difference) > 2 * error else "no"
            cell = lambda m: f"{mean[m]:.4g} ± {std[m]:.2g}"
            print(f"{key:42s} {cell('mdp'):>20s} {cell('coulomb'):>20s} {difference:+12.3g}  {beyond}")
        print()


if __name__ == "__main__":
    main()
