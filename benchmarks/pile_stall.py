#!/usr/bin/python3
"""Where the slow tail of the CCP error on a resting pile comes from (docs/solvers.md).

Exports the first step of a run from a settled pile's checkpoint as an FCLIB problem
(output.export_fclib_steps), then solves it and variants of it with `granite fclib solve`
from r = 0 and prints the final error after k sweeps (Gauss-Seidel) or iterations (APGD):
  - the problem itself, --model ccp (CCP error) and --model mdp (fc3d error);
  - mu = 5 and mu = 0 everywhere (same W and q);
  - W + delta I, delta = 1e-3 and 1e-2 times the mean diagonal of W (strongly convex).
usage: benchmarks/pile_stall.py [BUILD_DIR] CHECKPOINT
       CHECKPOINT: e.g. OUTPUT/checkpoint.h5 of `granite run configs/resting_pile.yaml`.
       About 6 minutes on one core.
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def solve(granite, problem, model, solver, sweeps, tmp):
    """Final error and sweeps to 1e-4 of one `granite fclib solve` (its CSV row)."""
    out = os.path.join(tmp, "row.csv")
    if os.path.exists(out):
        os.remove(out)
    subprocess.run([granite, "fclib", "solve", problem, "--model", model, "--solver", solver,
                    "--max-sweeps", str(sweeps), "--output", out],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        row = next(csv.DictReader(f))
    return float(row["final_error"]), row["sweeps_to_1e-4"], row["sweeps_to_1e-8"]


def variant(source, target, mu=None, delta=None):
    """A copy of the FCLIB problem with every mu set, or delta times mean(diag W) added to W."""
    shutil.copy(source, target)
    with h5py.File(target, "r+") as f:
        if mu is not None:
            m = f["fclib_local/vectors/mu"]
            m[...] = np.full(m.shape, mu)
        if delta is not None:
            p = f["fclib_local/W/p"][:]
            i = f["fclib_local/W/i"][:]
            x = f["fclib_local/W/x"][:]
            if f["fclib_local/W/nz"][0] != -2 and f["fclib_local/W/nz"][0] != -1:
                sys.exit("error: expected W in compressed (column or row) form")
            n = len(p) - 1
            diagonal = np.empty(n, dtype=np.int64)
            for c in range(n):
                rows = i[p[c]:p[c + 1]]
                hit = np.nonzero(rows == c)[0]
                if len(hit) != 1:
                    sys.exit(f"error: column {c} of W has no single diagonal entry")
                diagonal[c] = p[c] + hit[0]
            x[diagonal] += delta * x[diagonal].mean()
            f["fclib_local/W/x"][...] = x


def main():
    args = sys.argv[1:]
    if len(args) == 1:
        args = ["build"] + args
    if len(args) != 2:
        sys.exit(__doc__.strip().splitlines()[-3])
    build, checkpoint = args
    granite = os.path.abspath(os.path.join(build, "granite"))
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "export")
        subprocess.run([granite, "run", os.path.join(ROOT, "configs/resting_pile.yaml"),
                        "--from", checkpoint, "--output", out, "--quiet",
                        "--set", "run.end_time=0.0001", "--set", "output.export_fclib_steps=[1]",
                        "--set", "output.snapshot_interval=0",
                        "--set", "output.snapshot_initial=false"],
                       check=True, stdout=subprocess.DEVNULL)
        problem = os.path.join(out, "contact_problem_1.hdf5")
        with h5py.File(problem) as f:
            contacts = len(f["fclib_local/vectors/mu"])
        print(f"# first step from {checkpoint}: {contacts} contacts")
        ks = (250, 1000, 2000, 5000)
        print("%-30s" % "case (final error after k)" + "".join("%11s" % k for k in ks))
        mu5 = os.path.join(tmp, "mu5.hdf5")
        variant(problem, mu5, mu=5.0)
        for label, path, model, solver in (("GS ccp", problem, "ccp", "gs"),
                                           ("APGD ccp", problem, "ccp", "apgd"),
                                           ("GS mdp (fc3d)", problem, "mdp", "gs"),
                                           ("GS ccp, mu = 5", mu5, "ccp", "gs"),
                                           ("APGD ccp, mu = 5", mu5, "ccp", "apgd")):
            errors = [solve(granite, path, model, solver, k, tmp)[0] for k in ks]
            print("%-30s" % label + "".join("%11.2e" % e for e in errors), flush=True)
        print("%-30s %11s %11s %11s" % ("case (to convergence)", "to 1e-4", "to 1e-8", "final"))
        mu0 = os.path.join(tmp, "mu0.hdf5")
        variant(problem, mu0, mu=0.0)
        cases = [("mu = 0", mu0)]
        for delta in (1e-3, 1e-2):
            path = os.path.join(tmp, f"delta{delta:g}.hdf5")
            variant(problem, path, delta=delta)
            cases.append((f"W + {delta:g} mean(diag W) I", path))
        for label, path in cases:
            for solver in ("gs", "apgd"):
                error, to4, to8 = solve(granite, path, "ccp", solver, 5000, tmp)
                print("%-30s %11s %11s %11.2e" % (f"{solver} {label}", to4, to8, error),
                      flush=True)


if __name__ == "__main__":
    main()
