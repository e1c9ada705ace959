#!/usr/bin/python3
"""Scaling records of Granite runs, and speedup / parallel efficiency from them.

  scaling_collect.py record LOG [--mode strong|weak] [--decomposition PXxPYxPZ] [--out JSON]
      parse one granite log into a JSON record (format: cluster/README.md)
  scaling_collect.py report PATH... [--mode strong|weak] [--phase total] [--out PREFIX]
      PATH: record JSON files, granite logs, or directories searched recursively for
      record-*.json / *.json records (and granite*.log where a directory has no record);
      prints a table and writes PREFIX.csv and PREFIX.png (default PREFIX: scaling)

Speedup and efficiency use the smallest rank count n0 as reference, with the wall time t of
the phase (default: total, the max over ranks for per-phase entries):
  strong: speedup S = t(n0) / t(n), efficiency E = S * n0 / n
  weak:   efficiency E = t(n0) / t(n), speedup S = E * n / n0 (scaled speedup)
Times are per step (the runs may have different step counts, e.g. chained segments).
"""
import argparse
import csv
import json
import os
import re
import sys

PHASES = ["detection", "setup", "relaxation", "communication", "integration", "output", "other"]
FORMAT = "granite-scaling-record/1"

HEADER_RE = re.compile(r"^granite run (?P<config>\S+): (?P<particles>\d+) particles, .*?"
                       r"(?P<total_steps>\d+) steps of (?P<dt>[0-9.eE+-]+) s, model (?P<model>\S+), "
                       r"(?P<ranks>\d+) ranks as (?P<dims>\d+x\d+x\d+)")
DONE_RE = re.compile(r"^done: (?P<steps>\d+) steps in (?P<wall>[0-9.eE+-]+) s wall.*?"
                     r"(?P<left>\d+) particles left")
BYTES_RE = re.compile(r"^relaxation exchange: (?P<bytes>\d+) bytes sent per sweep .*?"
                      r"(?P<sweeps>\d+) sweeps in all")
PHASE_RE = re.compile(r"^(?P<name>[a-z]+)\s+(?P<min>[0-9.eE+-]+)\s+(?P<avg>[0-9.eE+-]+)\s+"
                      r"(?P<max>[0-9.eE+-]+)\s+(?P<pct>[0-9.eE+-]+)\s*$")
TOTAL_RE = re.compile(r"^total\s+(?P<avg>[0-9.eE+-]+)\s+[0-9.eE+-]+\s*$")
THERMO_RE = re.compile(r"^\s+(?P<step>\d+)\s+[0-9.eE+-]+\s+(?P<particles>\d+)\s+(?P<contacts>\d+)\s")
STOP_RE = re.compile(r"^stopped on request at step (\d+)")
RESTART_RE = re.compile(r"^restarted from \S+ at step (\d+)")
AVG_CONTACTS_RE = re.compile(r"^\s+avg\. number of contacts\s+([0-9.eE+-]+)")


class CollectError(Exception):
    pass


def parse_log(path, mode=None, decomposition=None):
    """A record from a granite run log (stdout of rank 0)."""
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise CollectError(f"{path}: {e}")
    rec = {"format": FORMAT, "source": os.path.abspath(path), "mode": mode}
    phases = {}
    last_thermo = None
    for line in lines:
        if m := HEADER_RE.match(line):
            rec.update(config=m["config"], ranks=int(m["ranks"]), decomposition=m["dims"],
                       particles_initial=int(m["particles"]), total_steps=int(m["total_steps"]),
                       dt=float(m["dt"]), model=m["model"])
        elif m := DONE_RE.match(line):
            rec.update(steps=int(m["steps"]), wall_s=float(m["wall"]), particles=int(m["left"]))
        elif m := BYTES_RE.match(line):
            rec.update(bytes_per_sweep=int(m["bytes"]), sweeps=int(m["sweeps"]))
        elif m := PHASE_RE.match(line):
            if m["name"] in PHASES:
                phases[m["name"]] = {"min": float(m["min"]), "avg": float(m["avg"]),
                                     "max": float(m["max"])}
        elif m := TOTAL_RE.match(line):
            phases["total"] = {"avg": float(m["avg"])}
        elif m := THERMO_RE.match(line):
            last_thermo = (int(m["step"]), int(m["particles"]), int(m["contacts"]))
        elif m := STOP_RE.match(line):
            rec["stopped_at_step"] = int(m.group(1))
        elif m := RESTART_RE.match(line):
            rec["restarted_at_step"] = int(m.group(1))
        elif m := AVG_CONTACTS_RE.match(line):
            rec["contacts_avg"] = float(m.group(1))
    missing = [k for k in ("ranks", "steps") if k not in rec]
    if missing or not phases:
        raise CollectError(f"{path}: not a complete granite run log (no "
                           f"{', '.join(missing) or 'phase table'})")
    if last_thermo:
        rec["contacts"] = last_thermo[2]
        rec.setdefault("particles", last_thermo[1])
    if decomposition:
        rec["decomposition"] = decomposition
    # Per-phase max over ranks of the total is its wall time; the table has only the avg.
    if "total" in phases:
        phases["total"].update(min=phases["total"]["avg"], max=rec.get("wall_s", phases["total"]["avg"]))
    rec["phases"] = phases
    return rec


def load_record(path):
    try:
        with open(path) as f:
            rec = json.load(f)
    except (OSError, ValueError) as e:
        raise CollectError(f"{path}: {e}")
    if not isinstance(rec, dict) or "ranks" not in rec or "phases" not in rec:
        raise CollectError(f"{path}: not a scaling record (needs ranks and phases)")
    rec.setdefault("source", os.path.abspath(path))
    return rec


def gather(paths):
    recs = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, files in os.walk(p):
                jsons = sorted(f for f in files if f.endswith(".json") and f.startswith("record"))
                if jsons:
                    recs += [load_record(os.path.join(root, f)) for f in jsons]
                else:
                    for f in sorted(files):
                        if f.startswith("granite") and f.endswith(".log"):
                            try:
                                recs.append(parse_log(os.path.join(root, f)))
                            except CollectError as e:
                                print(f"warning: {e}", file=sys.stderr)
        elif p.endswith(".json"):
            recs.append(load_record(p))
        else:
            recs.append(parse_log(p))
    if not recs:
        raise CollectError("no records or logs found in " + " ".join(paths))
    return recs


def phase_time(rec, phase):
    ph = rec["phases"].get(phase)
    if ph is None:
        raise CollectError(f"{rec.get('source')}: no phase {phase!r}")
    t = ph.get("max", ph.get("avg"))
    steps = rec.get("steps") or 0
    if steps <= 0:
        raise CollectError(f"{rec.get('source')}: 0 steps")
    return t / steps


def table(recs, mode, phase):
    # Several records per rank count (repetitions, chained segments): the fastest per step.
    best = {}
    for r in recs:
        t = phase_time(r, phase)
        n = int(r["ranks"])
        if n not in best or t < best[n][0]:
            best[n] = (t, r)
    ns = sorted(best)
    n0 = ns[0]
    t0 = best[n0][0]
    rows = []
    for n in ns:
        t, r = best[n]
        if mode == "weak":
            eff = t0 / t
            speedup = eff * n / n0
        else:
            speedup = t0 / t
            eff = speedup * n0 / n
        rows.append({"ranks": n, "decomposition": r.get("decomposition", ""),
                     "particles": r.get("particles", ""), "contacts": r.get("contacts", ""),
                     "steps": r["steps"], f"{phase}_s_per_step": t, "speedup": speedup,
                     "efficiency": eff, "bytes_per_sweep": r.get("bytes_per_sweep", "")})
    return rows


def cmd_record(argv):
    p = argparse.ArgumentParser(prog="scaling_collect.py record")
    p.add_argument("log")
    p.add_argument("--mode", choices=["strong", "weak"])
    p.add_argument("--decomposition")
    p.add_argument("--out")
    a = p.parse_args(argv)
    rec = parse_log(a.log, a.mode, a.decomposition)
    text = json.dumps(rec, indent=2) + "\n"
    if a.out:
        with open(a.out, "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_report(argv):
    p = argparse.ArgumentParser(prog="scaling_collect.py report")
    p.add_argument("paths", nargs="+")
    p.add_argument("--mode", choices=["strong", "weak"],
                   help="default: the records' mode, else strong")
    p.add_argument("--phase", default="total", choices=PHASES + ["total"])
    p.add_argument("--out", default="scaling", help="PREFIX of PREFIX.csv and PREFIX.png")
    p.add_argument("--no-plot", action="store_true")
    a = p.parse_args(argv)
    recs = gather(a.paths)
    modes = {r.get("mode") for r in recs} - {None}
    mode = a.mode or (modes.pop() if len(modes) == 1 else "strong")
    rows = table(recs, mode, a.phase)
    key = f"{a.phase}_s_per_step"
    print(f"{mode} scaling, phase {a.phase} (max over ranks), reference {rows[0]['ranks']} ranks")
    print(f"{'ranks':>7} {'decomp':>10} {'particles':>10} {'contacts':>9} {'s/step':>11} "
          f"{'speedup':>8} {'eff[%]':>7} {'B/sweep':>10}")
    for r in rows:
        print(f"{r['ranks']:>7} {r['decomposition']:>10} {r['particles']:>10} {r['contacts']:>9} "
              f"{r[key]:>11.4e} {r['speedup']:>8.3f} {100 * r['efficiency']:>7.1f} "
              f"{r['bytes_per_sweep']:>10}")
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out + ".csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print(f"wrote {a.out}.csv")
    if not a.no_plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        ns = [r["ranks"] for r in rows]
        fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
        ax1.plot(ns, [r["speedup"] for r in rows], "o-", label="measured")
        ax1.plot(ns, [n / ns[0] for n in ns], "k--", label="ideal")
        ax1.set_xscale("log", base=2)
        ax1.set_yscale("log", base=2)
        ax1.set_xlabel("ranks")
        ax1.set_ylabel("scaled speedup" if mode == "weak" else "speedup")
        ax1.legend()
        ax2.plot(ns, [100 * r["efficiency"] for r in rows], "o-")
        ax2.axhline(100, color="k", ls="--")
        ax2.set_xscale("log", base=2)
        ax2.set_ylim(0, 110)
        ax2.set_xlabel("ranks")
        ax2.set_ylabel("parallel efficiency [%]")
        fig.suptitle(f"Granite {mode} scaling ({a.phase}, reference {ns[0]} ranks)")
        fig.tight_layout()
        fig.savefig(a.out + ".png", dpi=120)
        print(f"wrote {a.out}.png")
    return 0


def main(argv):
    try:
        if argv and argv[0] == "record":
            return cmd_record(argv[1:])
        if argv and argv[0] == "report":
            return cmd_report(argv[1:])
        print(__doc__.strip(), file=sys.stderr)
        return 2
    except CollectError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
