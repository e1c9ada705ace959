#!/usr/bin/python3
"""The scaling-study generator's decompositions for 1, 2, 4, 8, 64, 640 ranks: product equal to
the rank count, minimal total cut surface (checked by brute force here, independently of the
generator), subdomains at least one halo width thick; impossible counts refused (exit 2, one
line naming the limit); --balance writes domain.balance into every point's config.

usage: scaling_study_test.py SOURCE_DIR
"""
import os
import subprocess
import sys
import tempfile

import yaml


def main(src):
    config = f"{src}/configs/channel_ci.yaml"
    generator = [sys.executable, f"{src}/cluster/scaling_study.py", "dims", "--config", config]
    with open(config) as f:
        cfg = yaml.safe_load(f)
    lo, hi = cfg["domain"]["min"], cfg["domain"]["max"]
    extent = [b - a for a, b in zip(lo, hi)]
    radius = max(p["radius"] for p in cfg["particles"] + [cfg["inflow"]["layer"]])
    halo = 2 * radius + cfg["contact"]["threshold"]
    failures = []
    ranks = [1, 2, 4, 8, 64, 640]
    out = subprocess.run(generator + ["--ranks", ",".join(map(str, ranks))],
                         capture_output=True, text=True)
    if out.returncode != 0:
        print(f"FAIL: generator exited {out.returncode}: {out.stderr}")
        return 1
    for line in out.stdout.split("\n"):
        if not line.strip():
            continue
        n, dims = line.split()
        n, dims = int(n), [int(d) for d in dims.split("x")]

        def surface(p):
            return ((p[0] - 1) * extent[1] * extent[2] + (p[1] - 1) * extent[0] * extent[2]
                    + (p[2] - 1) * extent[0] * extent[1])

        feasible = [(a, b, n // a // b) for a in range(1, n + 1) if n % a == 0
                    for b in range(1, n // a + 1) if (n // a) % b == 0
                    if all(e / p >= halo for e, p in zip(extent, (a, b, n // a // b)))]
        best = min(surface(p) for p in feasible)
        if dims[0] * dims[1] * dims[2] != n:
            failures.append(f"{n} ranks: {dims} does not multiply to {n}")
        elif surface(dims) > best * (1 + 1e-12):
            failures.append(f"{n} ranks: {dims} has cut surface {surface(dims):.4g} > minimum {best:.4g}")
        elif any(e / p < halo for e, p in zip(extent, dims)):
            failures.append(f"{n} ranks: {dims} gives subdomains thinner than the halo {halo}")
    seen = [int(line.split()[0]) for line in out.stdout.split("\n") if line.strip()]
    if seen != ranks:
        failures.append(f"expected lines for {ranks}, got {seen}")
    bad = subprocess.run(generator + ["--ranks", "100000"], capture_output=True, text=True)
    if bad.returncode != 2 or len(bad.stderr.strip().split("\n")) != 1 or "at most" not in bad.stderr:
        failures.append(f"100000 ranks: expected exit 2 with one line naming the limit, got "
                        f"{bad.returncode}: {bad.stderr!r}")
    with tempfile.TemporaryDirectory() as study:
        write = subprocess.run([sys.executable, f"{src}/cluster/scaling_study.py", "--config", config,
                                "--ranks", "1,4", "--mode", "strong", "--out", study,
                                "--balance", "dynamic"], capture_output=True, text=True)
        if write.returncode != 0:
            failures.append(f"--balance dynamic: exit {write.returncode}: {write.stderr!r}")
        else:
            for n in (1, 4):
                with open(os.path.join(study, f"r{n:05d}", "config.yaml")) as f:
                    balance = (yaml.safe_load(f)["domain"] or {}).get("balance")
                if balance != "dynamic":
                    failures.append(f"--balance dynamic: {n} ranks' config has balance {balance!r}")
    for f in failures:
        print("FAIL:", f)
    if not failures:
        print("decompositions correct:", out.stdout.replace("\n", "; "))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
