#!/usr/bin/python3
"""Dolan–Moré performance profiles of Granite's single-contact models on the FCLIB problems,
against Siconos NSGS (the figures in tests/data/fclib/references/summary.json).

usage: performance_profiles.py --granite BIN --problems DIR --summary JSON
                               [--models coulomb coulomb_approx] [--tolerance 1e-8]
                               [--max-sweeps N] [--measure seconds|sweeps] --out PNG [--csv CSV]

For each problem p and solver s, t_{p,s} is the time (or sweeps) to reach the tolerance
(infinite if it is not reached); r_{p,s} = t_{p,s} / min_s t_{p,s}, and the profile is
rho_s(tau) = |{p : r_{p,s} <= tau}| / |problems|. Siconos' times were measured on the same
kind of machine but in another session; compare sweeps where times are too close to call.
"""
import argparse
import csv
import json
import math
import os
import subprocess
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def granite_results(binary, problems, model, tolerance, max_sweeps):
    out_csv = f"/tmp/granite_profiles_{os.getpid()}_{model}.csv"
    cmd = [binary, "fclib", "solve", *problems, "--model", model, "--tolerance", str(tolerance),
           "--max-sweeps", str(max_sweeps), "--output", out_csv]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        raise SystemExit(f"error: {' '.join(cmd[:3])} failed: {run.stderr.strip()}")
    with open(out_csv) as f:
        rows = list(csv.DictReader(f))
    os.remove(out_csv)
    key = "1e-8" if tolerance <= 1e-8 else "1e-4"

    def reached(r):  # the sweep count is -1 (or empty) when the tolerance was not reached
        return bool(r[f"sweeps_to_{key}"]) and float(r[f"sweeps_to_{key}"]) >= 0

    return {r["problem"]: (float(r[f"seconds_to_{key}"]), float(r[f"sweeps_to_{key}"]))
            if reached(r) else (math.inf, math.inf) for r in rows}


def siconos_results(summary, tolerance):
    results = {}
    for name, entry in summary.items():
        runs = [n for n in entry.get("nsgs", []) if abs(n["tolerance"] - tolerance) <= 1e-3 * tolerance]
        if runs and runs[0]["converged"]:
            results[name] = (runs[0]["seconds"], float(runs[0]["sweeps"]))
        else:
            results[name] = (math.inf, math.inf)
    return results


def profiles(table, taus):
    """table: {solver: {problem: t}} -> {solver: [rho(tau)]}."""
    problems = sorted(set.intersection(*(set(t) for t in table.values())))
    best = {p: min(table[s][p] for s in table) for p in problems}
    def ratio(t, b):  # a problem no solver solves counts as unsolved for every solver
        if t == math.inf:
            return math.inf
        return t / b if b > 0 else 1.0

    ratios = {s: [ratio(table[s][p], best[p]) for p in problems] for s in table}
    return problems, {s: [sum(r <= tau for r in ratios[s]) / len(problems) for tau in taus]
                      for s in table}


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--granite", required=True)
    parser.add_argument("--problems", required=True)
    parser.add_argument("--summary", required=True)
    parser.add_argument("--models", nargs="+", default=["coulomb", "coulomb_approx"])
    parser.add_argument("--tolerance", type=float, default=1e-8)
    parser.add_argument("--max-sweeps", type=int, default=200000)
    parser.add_argument("--measure", choices=["seconds", "sweeps"], default="seconds")
    parser.add_argument("--out", required=True)
    parser.add_argument("--csv")
    args = parser.parse_args(argv[1:])
    try:
        with open(args.summary) as f:
            summary = json.load(f)
    except (OSError, ValueError) as e:
        print(f"error: {args.summary}: {e}", file=sys.stderr)
        return 2
    files = sorted(os.path.join(args.problems, f) for f in os.listdir(args.problems)
                   if f.endswith(".hdf5"))
    index = 0 if args.measure == "seconds" else 1
    table = {"Siconos NSGS": {p: v[index] for p, v in siconos_results(summary, args.tolerance).items()}}
    for model in args.models:
        results = granite_results(args.granite, files, model, args.tolerance, args.max_sweeps)
        table[f"Granite {model}"] = {p: v[index] for p, v in results.items()}
    taus = [1.0 + 0.05 * k for k in range(200)]
    problems, rho = profiles(table, taus)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for solver, values in rho.items():
        ax.step(taus, values, where="post", label=solver)
    ax.set_xscale("log")
    ax.set_xlabel(f"tau (ratio to the best {args.measure} to error {args.tolerance:g})")
    ax.set_ylabel("fraction of problems")
    ax.set_ylim(0, 1.05)
    ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"{'problem':40s} " + " ".join(f"{s:>22s}" for s in table))
    for p in problems:
        print(f"{p:40s} " + " ".join(f"{table[s][p]:22.4g}" for s in table))
    for solver, values in rho.items():
        print(f"{solver}: rho(1) = {values[0]:.2f}, rho(2) = {values[20]:.2f}, rho(10) = {values[-1]:.2f}")
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("problem," + ",".join(table) + "\n")
            for p in problems:
                f.write(p + "," + ",".join(str(table[s][p]) for s in table) + "\n")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
