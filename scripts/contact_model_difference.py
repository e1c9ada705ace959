#!/usr/bin/python3
"""Maximum dissipation against Coulomb contact by contact: for every contact of a step's contact
problem (an FCLIB file written by output.export_fclib_steps) and a converged solution r of it
(granite fclib solve --solution DIR), the local problem the Gauss-Seidel sweep solves at that
solution,

    A = W_ii,   b = -(q_i + sum_{j != i} W_ij r_j)    (u_i = A r_i - b: granite contact's form),

is solved by `granite contact` with both models, mdp and coulomb, for the same (A, b, mu). The
script reports the distribution of the relative impulse difference

    d = |x_mdp - x_coulomb| / max(|x_mdp|, |x_coulomb|)

over the closed contacts (b_n > 0: both models press), the cases each model reports, and the
anisotropy of the tangential block, a = 1 - lambda_min / lambda_max of A's 2 x 2 tangential part
(0 for a sphere on a sphere or a plane: there the models coincide, docs/mdp_vs_coulomb.md).

usage:
  contact_model_difference.py [--granite BIN] [--label NAME] [--csv OUT.csv] [--plot OUT.png]
                              PROBLEM.hdf5 SOLUTION.h5 [PROBLEM.hdf5 SOLUTION.h5 ...]

--csv appends one row per contact: label,problem,contact,mu,anisotropy,case_mdp,case_coulomb,
d,x_mdp_n,x_mdp_t,x_mdp_o,x_coulomb_n,x_coulomb_t,x_coulomb_o.
"""
import argparse
import json
import os
import subprocess
import sys

import h5py
import numpy as np
import scipy.sparse as sp


def read_problem(path):
    """W (3nc x 3nc, sparse), q, mu of an FCLIB local problem."""
    with h5py.File(path, "r") as f:
        if "fclib_local" not in f:
            sys.exit(f"error: {path}: no /fclib_local (an FCLIB local problem is needed)")
        g = f["fclib_local"]
        m, n, nz = int(g["W/m"][0]), int(g["W/n"][0]), int(g["W/nz"][0])
        p, i, x = g["W/p"][:], g["W/i"][:], g["W/x"][:]
        q, mu = g["vectors/q"][:], g["vectors/mu"][:]
    if nz == -2:
        W = sp.csr_matrix((x, i, p), shape=(m, n))
    elif nz == -1:
        W = sp.csc_matrix((x, i, p), shape=(m, n))
    else:
        sys.exit(f"error: {path}: W is neither compressed rows (nz = -2) nor columns (nz = -1)")
    if m != n or m != len(q) or m != 3 * len(mu):
        sys.exit(f"error: {path}: W is {m} x {n}, q has {len(q)} entries, mu {len(mu)}")
    return W.tocsr(), q, mu


def local_problems(W, q, mu, r):
    """The (A, b, mu) of every contact at the solution r."""
    u = W @ r + q
    problems = []
    for c in range(len(mu)):
        s = slice(3 * c, 3 * c + 3)
        A = W[s, s].toarray()
        A = 0.5 * (A + A.T)  # symmetric to rounding in the file; granite contact checks it exactly
        b = A @ r[s] - u[s]
        problems.append((A, b, float(mu[c])))
    return problems


def solve(granite, model, problems):
    """x of every problem by `granite contact --model MODEL` (one process for all)."""
    lines = "".join(json.dumps({"A": A.tolist(), "b": b.tolist(), "mu": m}) + "\n"
                    for A, b, m in problems)
    done = subprocess.run([granite, "contact", "--model", model], input=lines, text=True,
                          capture_output=True)
    if done.returncode != 0:
        sys.exit(f"error: granite contact --model {model}: {done.stderr.strip()}")
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    if len(rows) != len(problems):
        sys.exit(f"error: granite contact gave {len(rows)} answers to {len(problems)} problems")
    return np.array([row["x"] for row in rows]), [row["case"] for row in rows]


def anisotropy(A):
    """1 - lambda_min / lambda_max of the tangential block (rows and columns t, o)."""
    values = np.linalg.eigvalsh(A[1:, 1:])
    return 1.0 - values[0] / values[1] if values[1] > 0 else 0.0


def main():
    parser = argparse.ArgumentParser(usage=__doc__.split("usage:")[1].split("--csv")[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--granite", default="build/granite")
    parser.add_argument("--label", default="")
    parser.add_argument("--csv")
    parser.add_argument("--plot")
    args = parser.parse_args()
    if len(args.files) % 2:
        sys.exit("error: expected pairs PROBLEM.hdf5 SOLUTION.h5")
    rows = []
    for problem_path, solution_path in zip(args.files[::2], args.files[1::2]):
        W, q, mu = read_problem(problem_path)
        with h5py.File(solution_path, "r") as f:
            r = f["r"][:]
        if len(r) != len(q):
            sys.exit(f"error: {solution_path}: r has {len(r)} entries, the problem {len(q)}")
        problems = local_problems(W, q, mu, r)
        x_mdp, case_mdp = solve(args.granite, "mdp", problems)
        x_coulomb, case_coulomb = solve(args.granite, "coulomb", problems)
        name = os.path.basename(problem_path)
        for c, (A, b, m) in enumerate(problems):
            scale = max(np.linalg.norm(x_mdp[c]), np.linalg.norm(x_coulomb[c]))
            d = np.linalg.norm(x_mdp[c] - x_coulomb[c]) / scale if scale > 0 else 0.0
            rows.append((name, c, m, anisotropy(A), b[0] > 0, case_mdp[c], case_coulomb[c], d,
                         x_mdp[c], x_coulomb[c]))
    closed = [row for row in rows if row[4]]
    if not closed:
        sys.exit("error: no closed contact (b_n > 0) in the given problems")
    d = np.array([row[7] for row in closed])
    a = np.array([row[3] for row in closed])
    label = args.label or "contacts"
    print(f"{label}: {len(rows)} contacts, {len(closed)} closed (b_n > 0)")
    print(f"  anisotropy a of the tangential block: median {np.median(a):.3g}, "
          f"90th percentile {np.percentile(a, 90):.3g}, max {a.max():.3g}")
    for kind in ("sticking", "sliding"):
        mdp = sum(row[5] == kind for row in closed)
        coulomb = sum(row[6] == kind for row in closed)
        print(f"  {kind:9s} mdp {mdp / len(closed):6.1%}  coulomb {coulomb / len(closed):6.1%}")
    print("  relative impulse difference d = |x_mdp - x_coulomb| / max|x|:")
    print(f"    median {np.median(d):.3g}, 90th percentile {np.percentile(d, 90):.3g}, "
          f"99th {np.percentile(d, 99):.3g}, max {d.max():.3g}")
    for threshold in (1e-6, 1e-3, 1e-2, 1e-1):
        print(f"    d > {threshold:g}: {np.mean(d > threshold):6.1%}")
    sliding = np.array([row[5] == "sliding" or row[6] == "sliding" for row in closed])
    if sliding.any():
        print(f"    among contacts sliding in either model ({sliding.sum()}): median "
              f"{np.median(d[sliding]):.3g}, d > 1e-2 in {np.mean(d[sliding] > 1e-2):.1%}")
    if args.csv:
        new = not os.path.exists(args.csv)
        with open(args.csv, "a") as f:
            if new:
                f.write("label,problem,contact,mu,anisotropy,case_mdp,case_coulomb,d,"
                        "x_mdp_n,x_mdp_t,x_mdp_o,x_coulomb_n,x_coulomb_t,x_coulomb_o\n")
            for name, c, m, an, _, cm, cc, dd, xm, xc in closed:
                f.write(f"{label},{name},{c},{m:.17g},{an:.6g},{cm},{cc},{dd:.6g},"
                        + ",".join(f"{v:.17g}" for v in (*xm, *xc)) + "\n")
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        floor = 1e-16
        axes[0].hist(np.log10(np.maximum(d, floor)), bins=60)
        axes[0].set_xlabel("log10 d (d < 1e-16 shown at -16)")
        axes[0].set_ylabel("closed contacts")
        axes[0].set_title(f"{label}: |x_mdp - x_coulomb| / max|x|")
        for mask, name in ((sliding, "sliding in either model"), (~sliding, "sticking, frictionless")):
            axes[1].scatter(a[mask], np.maximum(d[mask], floor), s=3, label=name)
        axes[1].legend(loc="center right")
        axes[1].set_yscale("log")
        axes[1].set_xlabel("tangential anisotropy 1 - λmin/λmax")
        axes[1].set_ylabel("d")
        fig.tight_layout()
        fig.savefig(args.plot, dpi=120)


if __name__ == "__main__":
    main()
