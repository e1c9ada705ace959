#!/usr/bin/python3
"""Scaling records of Granite runs, and speedup / parallel efficiency from them.

  scaling_collect.py record RUN [--mode strong|weak] [--decomposition PXxPYxPZ] [--out JSON]
      turn one run's record (RUN: its output directory or run.json) into a scaling record
      (format: cluster/README.md)
  scaling_collect.py report PATH... [--mode strong|weak] [--phase total] [--out PREFIX]
      PATH: scaling records, run.json files, or directories searched recursively for
      record*.json records (and run.json where a directory has no record);
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
import sys

import granite_io

PHASES = ["detection", "setup", "relaxation", "communication", "integration", "output", "other"]
FORMAT = "granite-scaling-record/1"


class CollectError(Exception):
    pass


def record_from_run(path, mode=None, decomposition=None):
    """A scaling record from a run's output directory or run.json."""
    run = granite_io.load_run(path)
    source = granite_io.run_json_path(path)

    def field(key):
        return granite_io.run_field(run, key, source)

    status = field("status")
    if status not in ("completed", "stopped"):
        raise CollectError(f"{source}: the run did not finish (status {status!r})")
    timings = field("timings")
    wall = field("wall_seconds")
    total = field("timings.total.avg")
    phases = {name: {k: field(f"timings.{name}.{k}") for k in ("min", "avg", "max")}
              for name in PHASES if name in timings}
    # Per-phase max over ranks of the total is its wall time; the run has only the avg.
    phases["total"] = {"min": total, "avg": total, "max": wall}
    rec = {"format": FORMAT, "source": os.path.abspath(source), "mode": mode,
           "config": field("config_file"), "ranks": field("ranks"),
           "decomposition": decomposition or "x".join(str(d) for d in field("decomposition")),
           "model": field("config.contact.model"), "dt": field("steps.dt"),
           "particles_initial": field("particles.initial"), "particles": field("particles.final"),
           "contacts": field("final.contacts")}
    if field("statistics") is not None:
        rec["contacts_avg"] = field("statistics.contacts")
    rec.update(total_steps=field("steps.planned"), steps=field("steps.done"))
    if status == "stopped":
        rec["stopped_at_step"] = field("steps.last")
    if field("restart") is not None:
        rec["restarted_at_step"] = field("restart.step")
    rec.update(wall_s=wall, bytes_per_sweep=round(field("relaxation.bytes_per_sweep")),
               sweeps=field("relaxation.sweeps"), phases=phases)
    return rec


def load_record(path):
    """A scaling record file, or a run.json turned into one."""
    try:
        with open(path) as f:
            rec = json.load(f)
    except (OSError, ValueError) as e:
        raise CollectError(f"{path}: {e}")
    if isinstance(rec, dict) and rec.get("format") == granite_io.RUN_FORMAT:
        return record_from_run(path)
    if not isinstance(rec, dict) or "ranks" not in rec or "phases" not in rec:
        raise CollectError(f"{path}: neither a scaling record (needs ranks and phases) nor a "
                           "run.json")
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
                elif granite_io.RUN_FILE in files:
                    try:
                        recs.append(record_from_run(os.path.join(root, granite_io.RUN_FILE)))
                    except (CollectError, granite_io.GraniteIOError) as e:
                        print(f"warning: {e}", file=sys.stderr)
        else:
            recs.append(load_record(p))
    if not recs:
        raise CollectError("no records or run.json found in " + " ".join(paths))
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
    p.add_argument("run", help="the run's output directory or its run.json")
    p.add_argument("--mode", choices=["strong", "weak"])
    p.add_argument("--decomposition")
    p.add_argument("--out")
    a = p.parse_args(argv)
    rec = record_from_run(a.run, a.mode, a.decomposition)
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
    except (CollectError, granite_io.GraniteIOError) as e:
        return granite_io.print_error(e)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
