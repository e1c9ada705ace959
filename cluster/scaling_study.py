#!/usr/bin/python3
"""Write a strong- or weak-scaling study of a Granite scenario: one config and one SLURM job
per rank count, plus submit.sh and study.json.

  scaling_study.py --config configs/channel_small.yaml --ranks 1,2,4,8 --mode strong --out study/
  scaling_study.py dims --config configs/channel_ci.yaml --ranks 1,2,4,8,64,640 [--mode weak]

Decomposition per rank count: px*py*pz = ranks minimising the total cut surface (as Granite's
own automatic choice), among the decompositions whose subdomains are at least one halo width
(2 x largest particle radius + contact threshold) thick along every axis — the halo reaches
only the 26 adjacent subdomains. It is written into each point's config
(domain.decomposition), and a rank count without any such decomposition is refused. With
--balance the points move their cuts to follow the particles (domain.balance, see
docs/load_balance.md): the same counts serve, since balanced cuts keep every slab at least one
halo width thick, which equal cuts of the chosen counts allow.

Weak mode (rule): with k = ranks / base_ranks, the domain is stretched along x by k from its
lower x face: every x coordinate equal to domain.max[0] (the domain, particle lattices,
statistics region, inflow layer, plane body points) becomes min[0] + k * (max[0] - min[0]).
Lattices spanning the whole length therefore hold k times the particles, so the initial
particles per rank stay fixed; bodies inside the domain (obstacles) are not replicated and
inflow keeps its rate, so the count per rank drifts slowly over long runs.
See cluster/README.md.
"""
import argparse
import copy
import json
import math
import os
import shlex
import subprocess
import sys

import make_job  # cluster/make_job.py

try:
    import yaml
except ImportError:  # pragma: no cover
    yaml = None


class StudyError(Exception):
    pass


def halo_width(cfg):
    radii = [p["radius"] for p in cfg.get("particles", []) or [] if "radius" in p]
    inflow = cfg.get("inflow") or {}
    if "layer" in inflow and "radius" in inflow["layer"]:
        radii.append(inflow["layer"]["radius"])
    if not radii:
        raise StudyError("the config has no particle radius (particles[].radius)")
    threshold = float((cfg.get("contact") or {}).get("threshold", 0.0))
    return 2.0 * max(float(r) for r in radii) + threshold


def choose_dims(ranks, extent, min_width=0.0, requested=(0, 0, 0)):
    """(px, py, pz) with px*py*pz = ranks and minimal cut surface, every subdomain at least
    min_width thick; axes with requested[a] > 0 are fixed. Raises StudyError otherwise."""
    if not isinstance(ranks, int) or ranks < 1:
        raise StudyError(f"{ranks!r} ranks: the rank count must be a positive integer")
    best, best_surface, any_product = None, math.inf, False
    for px in range(1, ranks + 1):
        if ranks % px or (requested[0] > 0 and px != requested[0]):
            continue
        for py in range(1, ranks // px + 1):
            if (ranks // px) % py or (requested[1] > 0 and py != requested[1]):
                continue
            pz = ranks // px // py
            if requested[2] > 0 and pz != requested[2]:
                continue
            any_product = True
            dims = (px, py, pz)
            if any(extent[a] / dims[a] < min_width * (1 - 1e-12) for a in range(3)):
                continue
            surface = ((px - 1) * extent[1] * extent[2] + (py - 1) * extent[0] * extent[2] +
                       (pz - 1) * extent[0] * extent[1])
            if best is None or surface < best_surface * (1.0 - 1e-12):  # first wins ties
                best, best_surface = dims, surface
    if best is None:
        ext = " x ".join(f"{e * 1e3:g}" for e in extent)
        if not any_product:
            raise StudyError(f"{ranks} ranks: domain.decomposition {list(requested)} fixes axes "
                             f"whose counts cannot multiply to {ranks}")
        # The largest rank count the domain allows along each axis.
        cap = [max(1, int(extent[a] / min_width * (1 + 1e-12))) for a in range(3)]
        raise StudyError(
            f"{ranks} ranks: no decomposition of the {ext} mm domain gives subdomains at least "
            f"one halo width ({min_width * 1e3:g} mm = 2 x max radius + contact threshold) thick; "
            f"at most {cap[0]} x {cap[1]} x {cap[2]} subdomains fit "
            f"(use fewer ranks, a larger domain, or weak mode)")
    return best


def stretch_x(cfg, k):
    """Weak-scaling rule: move every x coordinate equal to domain.max[0] to min + k*length."""
    out = copy.deepcopy(cfg)
    lo, hi = float(cfg["domain"]["min"][0]), float(cfg["domain"]["max"][0])
    new_hi = lo + k * (hi - lo)
    tol = 1e-9 * max(1.0, abs(hi))

    def fix(point):
        if isinstance(point, list) and len(point) == 3 and abs(float(point[0]) - hi) <= tol:
            point[0] = new_hi

    fix(out["domain"]["max"])
    for p in out.get("particles", []) or []:
        fix(p.get("max"))
    stats = out.get("statistics") or {}
    fix(stats.get("region_max"))
    layer = (out.get("inflow") or {}).get("layer") or {}
    fix(layer.get("max"))
    for b in out.get("bodies", []) or []:
        if b.get("type") == "plane":
            fix(b.get("point"))
    return out


def lattice_points(cfg):
    """Upper bound of the initial particle count (lattice points, ignoring bodies)."""
    n = 0
    for p in cfg.get("particles", []) or []:
        if p.get("type") == "lattice":
            s = float(p["spacing"])
            cells = [int(math.floor((float(p["max"][a]) - float(p["min"][a])) / s + 1e-9)) + 1
                     for a in range(3)]
            n += cells[0] * cells[1] * cells[2]
        elif p.get("type") == "sphere":
            n += 1
    return n


def load(path):
    if yaml is None:
        raise StudyError("PyYAML is missing (Debian: apt-get install python3-yaml)")
    try:
        with open(path) as f:
            cfg = yaml.safe_load(f)
    except (OSError, yaml.YAMLError) as e:
        raise StudyError(f"{path}: {e}")
    if not isinstance(cfg, dict) or "domain" not in cfg:
        raise StudyError(f"{path}: not a Granite scenario (no domain)")
    return cfg


def plan(cfg, ranks_list, mode, base_ranks=1, respect_decomposition=False, balance=None):
    """One dict per point: ranks, config (dict), dims, extent, factor. The base config's
    domain.decomposition is ignored (each point gets its own) unless respect_decomposition:
    then its non-zero counts stay fixed. `balance` (none, static, dynamic): every point's
    domain.balance; None keeps the base config's."""
    points = []
    width = halo_width(cfg)
    requested = (0, 0, 0)
    if respect_decomposition:
        requested = tuple(int(x) for x in (cfg["domain"].get("decomposition") or [0, 0, 0]))
    for n in ranks_list:
        if mode == "weak":
            k = n / base_ranks  # need not be an integer
            point_cfg = stretch_x(cfg, k)
        else:
            k = 1.0
            point_cfg = copy.deepcopy(cfg)
        lo, hi = point_cfg["domain"]["min"], point_cfg["domain"]["max"]
        extent = [float(hi[a]) - float(lo[a]) for a in range(3)]
        dims = choose_dims(n, extent, width, requested)
        point_cfg["domain"]["decomposition"] = list(dims)
        if balance is not None:
            point_cfg["domain"]["balance"] = balance
        est = lattice_points(point_cfg)
        points.append({"ranks": n, "factor": k, "dims": list(dims), "extent_m": extent,
                       "balance": point_cfg["domain"].get("balance", "none"),
                       "halo_width_m": width, "lattice_points_estimate": est,
                       "config": point_cfg})
    return points


def parse_ranks(text):
    try:
        ranks = [int(x) for x in text.replace(" ", "").split(",") if x]
    except ValueError:
        raise StudyError(f"--ranks {text!r}: expected comma-separated integers, e.g. 1,2,4,8")
    if not ranks or any(r < 1 for r in ranks):
        raise StudyError(f"--ranks {text!r}: every rank count must be >= 1")
    return ranks


def cmd_dims(argv):
    p = argparse.ArgumentParser(prog="scaling_study.py dims",
                                description="print the decomposition per rank count")
    p.add_argument("--config", required=True)
    p.add_argument("--ranks", required=True)
    p.add_argument("--mode", choices=["strong", "weak"], default="strong")
    p.add_argument("--base-ranks", type=int, default=1)
    p.add_argument("--respect-decomposition", action="store_true")
    a = p.parse_args(argv)
    cfg = load(a.config)
    status = 0
    for n in parse_ranks(a.ranks):
        try:
            pt = plan(cfg, [n], a.mode, a.base_ranks, a.respect_decomposition)[0]
            print(f"{n} {pt['dims'][0]}x{pt['dims'][1]}x{pt['dims'][2]}")
        except StudyError as e:
            print(f"error: {e}", file=sys.stderr)
            status = 2
    return status


def cmd_write(argv):
    p = argparse.ArgumentParser(description="Write a Granite scaling study (configs, jobs, "
                                "submit.sh, study.json).")
    p.add_argument("--config", required=True, help="base scenario")
    p.add_argument("--ranks", required=True, help="rank counts, e.g. 1,2,4,8,16")
    p.add_argument("--mode", choices=["strong", "weak"], required=True)
    p.add_argument("--out", required=True, help="study directory (created)")
    p.add_argument("--base-ranks", type=int, default=1,
                   help="weak mode: the rank count the base config is sized for (default 1)")
    p.add_argument("--respect-decomposition", action="store_true",
                   help="keep the base config's non-zero domain.decomposition counts fixed")
    p.add_argument("--balance", choices=["none", "static", "dynamic"], default=None,
                   help="domain.balance of every point (default: the base config's; "
                   "docs/load_balance.md)")
    p.add_argument("--tasks-per-node", type=int, default=None,
                   help="ranks per node; nodes = ceil(ranks / this) (default: all on one node)")
    p.add_argument("--time", default="01:00:00")
    p.add_argument("--account")
    p.add_argument("--partition")
    p.add_argument("--launcher", choices=["srun", "mpirun"], default="srun")
    p.add_argument("--launcher-args", default="")
    p.add_argument("--granite", default=None,
                   help="granite binary (default: as make_job.py: `granite` on PATH, else the "
                   "installation or checkout this kit belongs to)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="granite --set override for every point (e.g. run.end_time=0.01)")
    p.add_argument("--env", action="append", default=[])
    p.add_argument("--setup", action="append", default=[])
    p.add_argument("--sbatch", action="append", default=[])
    p.add_argument("--check", action="store_true",
                   help="validate every point's config with `granite check`")
    a = p.parse_args(argv)
    cfg = load(a.config)
    if a.base_ranks < 1:
        raise StudyError("--base-ranks must be >= 1")
    points = plan(cfg, parse_ranks(a.ranks), a.mode, a.base_ranks, a.respect_decomposition,
                  a.balance)
    out = os.path.abspath(a.out)
    os.makedirs(out, exist_ok=True)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    collect = os.path.join(repo, "scripts", "scaling_collect.py")
    scripts = []
    for pt in points:
        n = pt["ranks"]
        d = os.path.join(out, f"r{n:05d}")
        os.makedirs(d, exist_ok=True)
        cfg_path = os.path.join(d, "config.yaml")
        with open(cfg_path, "w") as f:
            f.write(f"# scaling study point: {a.mode} scaling, {n} ranks, decomposition "
                    f"{pt['dims']}, balance {pt['balance']}, from {os.path.abspath(a.config)}\n")
            yaml.safe_dump(pt["config"], f, sort_keys=False, default_flow_style=None)
        if a.check:
            granite = a.granite or make_job.default_granite(repo)
            if not os.access(granite, os.X_OK):
                raise StudyError(f"--check: no granite executable {granite} (give --granite, "
                                 "module load granite, or build this checkout)")
            r = subprocess.run([granite, "check", cfg_path] + sum((["--set", s] for s in a.set), []),
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise StudyError(f"{cfg_path}: granite check failed: {r.stderr.strip()}")
        nodes = 1 if not a.tasks_per_node else -(-n // a.tasks_per_node)
        record = (f'/usr/bin/python3 {shlex.quote(collect)} record "$run_json" --mode {a.mode} '
                  f'--decomposition {pt["dims"][0]}x{pt["dims"][1]}x{pt["dims"][2]} '
                  f'--out "$OUTPUT/record-$job.json" || true')
        argv_job = ["--config", cfg_path, "--output", os.path.join(d, "run"),
                    "--script", os.path.join(d, "job.sbatch"), "--ntasks", str(n),
                    "--nodes", str(nodes), "--time", a.time, "--launcher", a.launcher,
                    "--launcher-args=" + a.launcher_args, "--job-name", f"granite-{a.mode}-{n}",
                    "--max-chain", "0", "--post=" + record]
        if a.tasks_per_node:
            argv_job += ["--ntasks-per-node", str(a.tasks_per_node)]
        for opt in ("account", "partition", "granite"):
            if getattr(a, opt):
                argv_job += [f"--{opt}", getattr(a, opt)]
        for opt in ("set", "env", "setup", "sbatch"):
            for v in getattr(a, opt):
                argv_job.append(f"--{opt}={v}")
        job_args = make_job.parse_args(argv_job)
        os.makedirs(job_args.output, exist_ok=True)
        script = os.path.abspath(job_args.script)
        with open(script, "w") as f:
            f.write(make_job.render(job_args, script))
        os.chmod(script, 0o755)
        scripts.append(script)
        pt["job"] = script
        pt["output"] = os.path.abspath(job_args.output)
        pt["nodes"] = nodes
    with open(os.path.join(out, "study.json"), "w") as f:
        json.dump({"mode": a.mode, "base_config": os.path.abspath(a.config),
                   "base_ranks": a.base_ranks, "overrides": a.set,
                   "points": [{k: v for k, v in pt.items() if k != "config"} for pt in points]},
                  f, indent=2)
    submit = os.path.join(out, "submit.sh")
    with open(submit, "w") as f:
        f.write("#!/bin/bash\n# Submit every point of this study. --serial: one after the other "
                "(afterany), so that the points do not share nodes.\nset -e\n"
                f"cd {shlex.quote(out)}\nprev=\n: > jobs.txt\n")
        for s in scripts:
            f.write(f"dep=; [ \"${{1:-}}\" = --serial ] && [ -n \"$prev\" ] && dep=--dependency=afterany:$prev\n"
                    f"prev=$(sbatch --parsable $dep {shlex.quote(s)}); prev=${{prev%%;*}}\n"
                    f"echo \"$prev {s}\" | tee -a jobs.txt\n")
        f.write(f"echo \"when done: /usr/bin/python3 {collect} report {out} --out {out}/scaling\"\n")
    os.chmod(submit, 0o755)
    for pt in points:
        if pt["lattice_points_estimate"] < pt["ranks"]:
            print(f"warning: {pt['ranks']} ranks: at most {pt['lattice_points_estimate']} initial "
                  "particles, fewer than ranks", file=sys.stderr)
        print(f"{pt['ranks']:6d} ranks  {'x'.join(map(str, pt['dims'])):>10}  "
              f"x-length {pt['extent_m'][0]:.4g} m  ~{pt['lattice_points_estimate']} lattice points  "
              f"{pt['job']}")
    print(f"submit: {submit}")
    return 0


def main(argv):
    try:
        if argv and argv[0] == "dims":
            return cmd_dims(argv[1:])
        return cmd_write(argv)
    except StudyError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
