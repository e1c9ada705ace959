#!/usr/bin/python3
"""Performance profiles on the FCLIB set (issue 15): Granite's block Gauss-Seidel with the
Coulomb-type models and with ccp, APGD on the CCP, and Siconos 4.4 (the timings stored with the
references: plain NSGS from r = 0, and the reference solver, NSN_AC, to <= 1e-10).

Each solver is timed to error 1e-4 and 1e-8 in its own problem's error (fc3d for the Coulomb
solvers and Siconos, the CCP error for ccp and APGD; the CCP is a different problem wherever a
contact slides, docs/solvers.md). The profile of Dolan & More (Math. Program. 91, 2002):
rho_s(tau) = fraction of problems that solver s solves within tau times the fastest solver's
time on that problem. Prints the times, the profile at tau = 1, 2, 4, 10, 100, and writes
fclib_profiles.png.

usage: benchmarks/fclib_profiles.py [BUILD_DIR] [OUT_DIR]  (defaults build, fclib_profiles;
       about 3 minutes on one core: the spheres-in-a-box and local_problem_test solves run to
       the sweep limit). docs/solvers.md has the figures.
Timings of Siconos were taken in another session on the same kind of machine (the reference
README: up to 2.5x between sessions), Granite's now: compare profiles with that in mind.
"""
import csv
import json
import os
import subprocess
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "tests", "data", "fclib")
SOLVERS = [  # label, granite fclib solve arguments
    ("GS mdp", ["--solver", "gs", "--model", "mdp"]),
    ("GS coulomb", ["--solver", "gs", "--model", "coulomb"]),
    ("GS ccp", ["--solver", "gs", "--model", "ccp"]),
    ("APGD ccp", ["--solver", "apgd", "--model", "ccp"]),
]
TAUS = [1, 2, 4, 10, 100]


def granite_times(build, out, label, arguments, problems):
    """{problem: (seconds to 1e-4 or None, seconds to 1e-8 or None)} of one Granite solver
    (the CSV has one row per file, in the order given)."""
    path = os.path.join(out, label.replace(" ", "_") + ".csv")
    command = [os.path.join(build, "granite"), "fclib", "solve", *problems, *arguments,
               "--tolerance", "1e-8", "--max-sweeps", "3000", "--output", path]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if len(rows) != len(problems):
        sys.exit("%s: %d rows for %d problems" % (path, len(rows), len(problems)))
    times = {}
    for name, row in zip(names_of(problems), rows):
        t4, t8 = float(row["seconds_to_1e-4"]), float(row["seconds_to_1e-8"])
        reached4, reached8 = int(row["sweeps_to_1e-4"]) >= 0, int(row["sweeps_to_1e-8"]) >= 0
        times[name] = (t4 if reached4 else None, t8 if reached8 else None)
    return times


def names_of(files):
    return [os.path.basename(f)[:-len(".hdf5")] for f in files]


def siconos_times(summary):
    """NSGS to 1e-4 and 1e-8, and the reference solver (it reached <= 1e-10, so 1e-8 too)."""
    nsgs, reference = {}, {}
    for name, entry in summary.items():
        runs = {run["tolerance"]: run for run in entry["nsgs"]}
        nsgs[name] = tuple(runs[t]["seconds"] if runs[t]["converged"] else None
                           for t in (1e-4, 1e-8))
        ref = entry["reference"]
        reference[name] = (None, ref["seconds"] if ref["error"] <= 1e-8 else None)
    return nsgs, reference


def profile(times, tolerance_index, problems):
    """rho_s(tau) for every solver: fraction of problems within tau x the best time."""
    ratios = {s: [] for s in times}
    for p in problems:
        solved = [t[p][tolerance_index] for t in times.values()
                  if t.get(p) and t[p][tolerance_index] is not None]
        if not solved:
            continue
        best = max(min(solved), 1e-7)  # 0.1 us floor: a 1-sweep solve is timed as ~0
        for s, t in times.items():
            value = t.get(p, (None, None))[tolerance_index]
            ratios[s].append(np.inf if value is None else max(value, 1e-7) / best)
    return ratios


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    out = sys.argv[2] if len(sys.argv) > 2 else "fclib_profiles"
    os.makedirs(out, exist_ok=True)
    names = sorted(f[:-5] for f in os.listdir(os.path.join(DATA, "problems"))
                   if f.endswith(".hdf5"))
    files = [os.path.join(DATA, "problems", n + ".hdf5") for n in names]
    with open(os.path.join(DATA, "references", "summary.json")) as f:
        summary = json.load(f)
    times = {}
    for label, arguments in SOLVERS:
        times[label] = granite_times(build, out, label, arguments, files)
    times["Siconos NSGS"], times["Siconos NSN_AC (ref.)"] = siconos_times(summary)

    print("# seconds to error 1e-4 / 1e-8 (- not reached within 3000 sweeps or iterations; "
          "Siconos NSGS within 10^6 sweeps)")
    print("%-40s" % "problem" + "".join("%22s" % s for s in times))
    for n in names:
        cells = []
        for s in times:
            t4, t8 = times[s].get(n, (None, None))
            cells.append("%10s/%-11s" % ("-" if t4 is None else "%.3g" % t4,
                                         "-" if t8 is None else "%.3g" % t8))
        print("%-40s" % n + "".join("%22s" % c for c in cells))

    figure, axes = plt.subplots(1, 2, figsize=(11, 4.2), sharey=True)
    for index, tolerance in enumerate(("1e-4", "1e-8")):
        ratios = profile(times, index, names)
        print("# performance profile to %s: fraction of problems within tau x the fastest" %
              tolerance)
        print("%-24s" % "solver" + "".join("%8s" % ("tau=%d" % t) for t in TAUS))
        for s, r in ratios.items():
            r = np.array(r)
            if len(r) == 0 or (index == 0 and s.startswith("Siconos NSN")):
                continue  # the reference run has no time to 1e-4
            print("%-24s" % s + "".join("%8.2f" % np.mean(r <= t) for t in TAUS))
            taus = np.logspace(0, 3, 400)
            axes[index].step(taus, [np.mean(r <= t) for t in taus], where="post", label=s)
        axes[index].set_xscale("log")
        axes[index].set_xlabel("tau (time / fastest time)")
        axes[index].set_title("FCLIB set, error %s" % tolerance)
        axes[index].grid(True, alpha=0.3)
    axes[0].set_ylabel("fraction of problems")
    axes[1].legend(fontsize=8, loc="lower right")
    figure.tight_layout()
    figure.savefig(os.path.join(out, "fclib_profiles.png"), dpi=120)
    print("# wrote %s" % os.path.join(out, "fclib_profiles.png"))


if __name__ == "__main__":
    main()
