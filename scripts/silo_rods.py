#!/usr/bin/python3
"""The silo of rods (configs/silo_rods.yaml): discharge rate against the orifice width W, a fit
of Beverloo's law, the fraction of runs that clog, and the rods' alignment near the orifice.

Each RUN is an output directory of configs/silo_rods.yaml (a whole run, or a discharge started
with --from a settled fill, as benchmarks/silo_rods.sh does). Read from each:
- run.json: the resolved configuration (the orifice width W = silo width - 2 a from the floor
  boxes' half extents, the opening time = the gate's active_until, the rod, its density, the
  slot's depth = the periodic y extent), the particle counts and the cost;
- mass_flow.csv: rods and kg through the plane under the orifice per interval;
- grid.csv: solid fraction, nematic order S and director per cell;
- the last snapshot: the rods left over the orifice (is it clogged?).

Definitions:
- steady rate: crossings summed over the intervals ending in (t_open + SKIP, t_stop], divided by
  that time; t_stop is the end of the run, or the end of the last interval with outflow for a
  clogged run, or the time at which half of the rods have passed (the silo running low),
  whichever comes first. No rate if that window is shorter than 30 ms. The per-width rate and
  its sd (over seeds) and the fit use the runs that did not clog.
- clogged: no crossing in the last CLOG_MS of the run while a rod's centre lies over the
  orifice (|x - x_c| < W/2 + L/2, -L < z < L).
- Beverloo's law for a slot, per unit length of slot (the 2-D form, exponent 3/2):
      Q' = C rho_b sqrt(g) (W - k d)^(3/2),
  Q' the mass rate per metre of slot (kg/s/m), rho_b the bulk density of the settled fill (the
  mean solid fraction of the cells 3-15 mm above the floor and 3 mm from the walls in the
  grid sample at the opening, or the first one after it, times the rods' density), d the rod
  width 2 r. C and k are fitted by least squares on
  (Q' / (rho_b sqrt(g)))^(2/3) = C^(2/3) (W - k d), one point per run that did not clog.
- alignment: in the grid samples of the steady window, each cell's uniaxial order tensor
  Q = S (3/2 n n^T - 1/2 I), weighted by its rods, summed over the cells of a region and the
  samples; the region's S is the largest eigenvalue of the mean, its director the eigenvector
  (theta: its angle from the vertical). Regions: "orifice" (the two cells over the orifice's
  centre, from 3 mm inside the slot to 6 mm above the floor), "column" (the same two columns
  12-21 mm above the floor), "corners" (the two cells next to each wall, 0-9 mm above the
  floor, where the rods stay), and "settled" (all cells 3-15 mm up in the sample at the opening, as for rho_b).

Prints one row per run and a table per width; writes OUT/silo_rods.png (rate against W with
the fit, clogging fraction against W/L) and OUT/silo_rods.csv (the runs).

usage: silo_rods.py RUN [RUN ...] [--out DIR] [--skip S] [--clog-ms MS]
"""
import csv
import math
import os
import sys

import numpy as np

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, SCRIPTS)
import granite_io  # noqa: E402


def read_csv(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    if not rows:
        return {}
    return {key: np.array([float(r[key]) for r in rows]) for key in rows[0]}


def scene(run):
    """The geometry of the run from its resolved configuration."""
    cfg = run["config"]
    lo, hi = cfg["domain"]["min"], cfg["domain"]["max"]
    boxes = [b for b in cfg["bodies"] if b["type"] == "box"]
    if len(boxes) != 2:
        raise SystemExit("silo_rods.py: expected the two floor boxes of configs/silo_rods.yaml")
    left, right = sorted(boxes, key=lambda b: b["center"][0])
    x0 = left["center"][0] + left["half_extents"][0]
    x1 = right["center"][0] - right["half_extents"][0]
    gates = [b.get("active_until") for b in cfg["bodies"] if b.get("active_until") is not None]
    rod = next(s for s in cfg["shapes"] if s["type"] == "capsule")
    material = cfg["particles"][0]["material"] if cfg.get("particles") else "glass"
    density = next(m["density"] for m in cfg["materials"] if m["name"] == material)
    return {
        "W": x1 - x0, "xc": 0.5 * (x0 + x1), "t_open": min(gates) if gates else 0.0,
        "r": rod["radius"], "L": 2.0 * (rod["half_length"] + rod["radius"]),
        "depth": hi[1] - lo[1], "density": density,
        "g": abs(cfg["gravity"][2]), "end": run["time"]["end"],
    }


def last_snapshot(path):
    series = granite_io.snapshot_series(path)
    if not series:
        raise SystemExit(f"silo_rods.py: no snapshot in {path}")
    return series[-1][1]


def uniaxial(S, n):
    n = np.asarray(n, dtype=float)
    return S * (1.5 * np.outer(n, n) - 0.5 * np.eye(3))


def order(Q):
    """S and director (largest component positive) of a mean order tensor."""
    values, vectors = np.linalg.eigh(Q)
    n = vectors[:, -1]
    if n[np.argmax(np.abs(n))] < 0:
        n = -n
    return values[-1], n


def region_order(grid, select, times):
    Q = np.zeros((3, 3))
    grains = 0.0
    for t in times:
        rows = (np.abs(grid["time_s"] - t) < 1e-9) & select & (grid["elongated"] > 0)
        for i in np.nonzero(rows)[0]:
            if not np.isfinite(grid["order_S"][i]):
                continue
            w = grid["elongated"][i]
            n = (grid["director_x"][i], grid["director_y"][i], grid["director_z"][i])
            Q += w * uniaxial(grid["order_S"][i], n)
            grains += w
    if grains == 0:
        return None
    S, n = order(Q / grains)
    theta = math.degrees(math.acos(min(1.0, abs(n[2]))))
    return {"S": S, "n": n, "theta": theta, "grains": grains, "samples": len(times)}


def analyse(path, skip, clog_ms):
    run = granite_io.load_run(path)
    sc = scene(run)
    flow = read_csv(os.path.join(path, "mass_flow.csv"))
    grid = read_csv(os.path.join(path, "grid.csv"))
    t, n, m = flow["time_s"], flow["crossings"], flow["mass_kg"]
    dt_row = flow["counted_s"][0]
    initial = run["particles"]["initial"]
    out = dict(sc, path=path, initial=initial, final=run["particles"]["final"],
               deleted=run["particles"]["deleted"])
    out["wall"] = run["wall_seconds"]
    # clogged?
    last = t > sc["end"] - clog_ms * 1e-3 + 1e-9
    flowing = np.nonzero(n > 0)[0]
    t_last_flow = t[flowing[-1]] if len(flowing) else sc["t_open"]
    snap = granite_io.load_snapshot(last_snapshot(path), fields=["position"])
    x = snap["position"]
    over = ((np.abs(x[:, 0] - sc["xc"]) < 0.5 * sc["W"] + 0.5 * sc["L"]) &
            (x[:, 2] > -sc["L"]) & (x[:, 2] < sc["L"]))
    out["over_orifice"] = int(over.sum())
    out["clogged"] = bool(n[last].sum() == 0 and over.any())
    out["clog_time"] = t_last_flow - sc["t_open"] if out["clogged"] else None
    # steady window
    cumulative = np.cumsum(n)
    t_start = sc["t_open"] + skip
    t_stop = sc["end"]
    if out["clogged"]:
        t_stop = min(t_stop, t_last_flow)
    half = np.nonzero(cumulative >= 0.5 * initial)[0]
    if len(half):
        t_stop = min(t_stop, t[half[0]])
    window = (t > t_start + 1e-9) & (t <= t_stop + 1e-9)
    span = window.sum() * dt_row
    out["window"] = (t_start - sc["t_open"], t_stop - sc["t_open"])
    out["passed"] = int(n[t > sc["t_open"]].sum())
    if span >= 0.03 - 1e-9:
        out["rate"] = n[window].sum() / span
        out["rate_kg"] = m[window].sum() / span
    else:
        out["rate"] = out["rate_kg"] = None
    # bulk density of the settled fill: the first grid sample
    times = np.unique(grid["time_s"])
    before = times[times <= sc["t_open"] + 1e-9]
    first = before[-1] if len(before) else times[0]  # the settled fill, at the opening
    z = grid["z_m"]
    wall_cells = (grid["x_m"] < grid["x_m"].min() + 1e-9) | (grid["x_m"] > grid["x_m"].max() - 1e-9)
    bulk = (np.abs(grid["time_s"] - first) < 1e-9) & (z > 0.003) & (z < 0.015) & ~wall_cells
    out["phi"] = float(np.mean(grid["solid_fraction"][bulk]))
    # alignment
    steady = times[(times > t_start + 1e-9) & (times <= t_stop + 1e-9)]
    xs = np.unique(grid["x_m"])
    dx = xs[1] - xs[0]
    centre = np.abs(grid["x_m"] - sc["xc"]) < dx  # the two cells beside the orifice's centre
    walls = (grid["x_m"] < xs[0] + 1.5 * dx) | (grid["x_m"] > xs[-1] - 1.5 * dx)
    regions = {
        "orifice": centre & (z < 0.006),
        "column": centre & (z > 0.012) & (z < 0.021),
        "corners": walls & (z > 0) & (z < 0.009),
    }
    out["order"] = {name: region_order(grid, sel, steady) for name, sel in regions.items()}
    out["order"]["settled"] = region_order(grid, (z > 0.003) & (z < 0.015), [first])
    return out


def fit_beverloo(W, Qp, rho_b, g, d):
    """C and k of Q' = C rho_b sqrt(g) (W - k d)^(3/2), least squares on the 2/3 power."""
    y = (np.asarray(Qp) / (rho_b * math.sqrt(g))) ** (2.0 / 3.0)
    slope, intercept = np.polyfit(np.asarray(W), y, 1)
    C = slope ** 1.5
    k = -intercept / slope / d
    residual = y - (slope * np.asarray(W) + intercept)
    return C, k, float(np.sqrt(np.mean(residual ** 2)) / np.mean(y))


def fmt(value, spec):
    width = spec.split(".")[0]
    return "-".rjust(int(width) if width.isdigit() else 0) if value is None else format(value, spec)


def main(argv):
    args = argv[1:]
    if not args or args[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if args else 2
    out_dir, skip, clog_ms = ".", 0.06, 50.0
    runs = []
    i = 0
    while i < len(args):
        if args[i] == "--out":
            out_dir = args[i + 1]
            i += 2
        elif args[i] == "--skip":
            skip = float(args[i + 1])
            i += 2
        elif args[i] == "--clog-ms":
            clog_ms = float(args[i + 1])
            i += 2
        else:
            runs.append(args[i])
            i += 1
    try:
        results = [analyse(p, skip, clog_ms) for p in runs]
    except granite_io.GraniteIOError as error:
        return granite_io.print_error(error)
    os.makedirs(out_dir, exist_ok=True)
    L, r = results[0]["L"], results[0]["r"]
    d = 2 * r
    print(f"rod: L = {L * 1e3:.2f} mm, d = {d * 1e3:.2f} mm (aspect {L / d:.1f}); "
          f"slot depth {results[0]['depth'] * 1e3:.1f} mm (periodic); steady window from "
          f"{skip * 1e3:.0f} ms after opening; clogged = no outflow in the last {clog_ms:.0f} ms "
          "with rods over the orifice")
    print(f"{'run':<28} {'W[mm]':>6} {'W/L':>5} {'rate[1/s]':>10} {'[g/s]':>7} "
          f"{'window[ms]':>11} {'passed':>6} {'clog':>5} {'S_orif':>6} {'th_or':>5} "
          f"{'S_col':>6} {'S_corn':>6} {'phi':>6}")
    for res in results:
        o = res["order"]
        print(f"{os.path.basename(os.path.normpath(res['path'])):<28} {res['W'] * 1e3:6.2f} "
              f"{res['W'] / L:5.2f} {fmt(res['rate'], '10.0f')} "
              f"{fmt(res['rate_kg'] and res['rate_kg'] * 1e3, '7.2f')} "
              f"{res['window'][0] * 1e3:5.0f}-{res['window'][1] * 1e3:<5.0f} {res['passed']:6d} "
              f"{('yes' if res['clogged'] else 'no'):>5} "
              f"{fmt(o['orifice'] and o['orifice']['S'], '6.2f')} "
              f"{fmt(o['orifice'] and o['orifice']['theta'], '5.0f')} "
              f"{fmt(o['column'] and o['column']['S'], '6.2f')} "
              f"{fmt(o['corners'] and o['corners']['S'], '6.2f')} {res['phi']:6.3f}")
    # per width
    widths = sorted({round(res["W"], 9) for res in results})
    rho_b = float(np.mean([res["phi"] for res in results])) * results[0]["density"]
    g = results[0]["g"]
    print()
    print(f"bulk density of the settled fill rho_b = {rho_b:.0f} kg/m^3 "
          f"(solid fraction {rho_b / results[0]['density']:.3f})")
    print(f"{'W[mm]':>6} {'W/L':>5} {'runs':>4} {'clogged':>7} {'rate[1/s]':>10} {'sd':>6} "
          f"{'[g/s]':>7} {'Q[kg/s/m]':>10} {'S_orifice':>9} {'dir(th)':>8} {'S_column':>8} "
          f"{'dir(th)':>8} {'S_corners':>9} {'dir(th)':>8}")
    table = []
    for W in widths:
        group = [res for res in results if abs(res["W"] - W) < 1e-9]
        free = [res for res in group if not res["clogged"] and res["rate"] is not None]
        rates = [res["rate"] for res in free]
        kgs = [res["rate_kg"] for res in free]
        clogged = sum(res["clogged"] for res in group)
        pooled = {}
        for name in ("orifice", "column", "corners", "settled"):
            Q, grains = np.zeros((3, 3)), 0.0
            for res in group:
                o = res["order"][name]
                if o:
                    Q += o["grains"] * uniaxial(o["S"], o["n"])
                    grains += o["grains"]
            if grains:
                S, n = order(Q / grains)
                pooled[name] = (S, math.degrees(math.acos(min(1.0, abs(n[2])))))
            else:
                pooled[name] = None
        rate = float(np.mean(rates)) if rates else None
        sd = float(np.std(rates, ddof=1)) if len(rates) > 1 else None
        kg = float(np.mean(kgs)) if kgs else None
        Qp = kg / group[0]["depth"] if kg else None
        row = {"W": W, "runs": len(group), "clogged": clogged, "rate": rate, "sd": sd, "kg": kg,
               "Qp": Qp, "order": pooled}
        table.append(row)

        def so(name):
            p = pooled[name]
            return ("-", "-") if p is None else (f"{p[0]:.2f}", f"{p[1]:.0f}")
        print(f"{W * 1e3:6.2f} {W / L:5.2f} {len(group):4d} {clogged:3d}/{len(group):<3d} "
              f"{fmt(rate, '10.0f')} {fmt(sd, '6.0f')} {fmt(kg and kg * 1e3, '7.2f')} "
              f"{fmt(Qp, '10.3f')} {so('orifice')[0]:>9} {so('orifice')[1]:>8} "
              f"{so('column')[0]:>8} {so('column')[1]:>8} {so('corners')[0]:>9} "
              f"{so('corners')[1]:>8}")
    settled = [res["order"]["settled"] for res in results if res["order"]["settled"]]
    if settled:
        Q = sum(o["grains"] * uniaxial(o["S"], o["n"]) for o in settled)
        S, n = order(Q / sum(o["grains"] for o in settled))
        print(f"settled fill (at the opening, cells 3-15 mm up): S = {S:.2f}, director "
              f"({n[0]:.2f}, {n[1]:.2f}, {n[2]:.2f}), {math.degrees(math.acos(min(1, abs(n[2])))):.0f} deg "
              "from vertical")
    # Beverloo fit over the runs with a rate
    points = [(res["W"], res["rate_kg"] / res["depth"]) for res in results
              if res["rate_kg"] is not None and res["rate_kg"] > 0 and not res["clogged"]]
    fit = None
    if len({round(p[0], 9) for p in points}) >= 2:
        C, k, rel = fit_beverloo([p[0] for p in points], [p[1] for p in points], rho_b, g, d)
        fit = (C, k)
        print(f"Beverloo (slot, per unit length): Q' = C rho_b sqrt(g) (W - k d)^(3/2): "
              f"C = {C:.3f}, k = {k:.2f} (k d = {k * d * 1e3:.2f} mm = {k * d / L:.2f} L), "
              f"{len(points)} runs, rms residual of the 2/3 power {rel * 100:.1f} %")
    else:
        print("Beverloo: fewer than two widths with a rate, no fit")
    with open(os.path.join(out_dir, "silo_rods.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["run", "W_m", "W_over_L", "rate_per_s", "rate_kg_per_s", "window_from_s",
                    "window_to_s", "passed", "clogged", "clog_time_s", "S_orifice",
                    "theta_orifice_deg", "S_column", "S_corners", "solid_fraction", "wall_s"])
        for res in results:
            o = res["order"]
            w.writerow([res["path"], res["W"], res["W"] / L, res["rate"], res["rate_kg"],
                        res["window"][0], res["window"][1], res["passed"], int(res["clogged"]),
                        res["clog_time"], o["orifice"] and o["orifice"]["S"],
                        o["orifice"] and o["orifice"]["theta"], o["column"] and o["column"]["S"],
                        o["corners"] and o["corners"]["S"], res["phi"], res["wall"]])
    plot(results, table, fit, rho_b, g, d, L, out_dir)
    return 0


def plot(results, table, fit, rho_b, g, d, L, out_dir):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(10, 4))
    for clogged, style, label in ((False, "o", "runs"), (True, "x", "runs that clogged (not fitted)")):
        pts = [(res["W"] * 1e3, res["rate_kg"] / res["depth"]) for res in results
               if res["rate_kg"] is not None and res["clogged"] == clogged]
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], style, mfc="none", label=label)
    rows = [row for row in table if row["Qp"] is not None]
    if rows:
        ax.plot([row["W"] * 1e3 for row in rows], [row["Qp"] for row in rows], "s", color="k",
                label="mean")
    if fit:
        C, k = fit
        W = np.linspace(max(k * d, 0) + 1e-6, max(row["W"] for row in table) * 1.1, 200)
        ax.plot(W * 1e3, C * rho_b * math.sqrt(g) * (W - k * d) ** 1.5, "-",
                label=f"Beverloo C = {C:.2f}, k = {k:.2f}")
    ax.set_xlabel("orifice width W [mm]")
    ax.set_ylabel("mass rate per metre of slot Q' [kg/s/m]")
    ax.set_xlim(left=0)
    ax.set_ylim(bottom=0)
    ax.legend()
    ax.set_title(f"silo of rods, L = {L * 1e3:.0f} mm, d = {d * 1e3:.0f} mm")
    bx.plot([row["W"] / L for row in table], [row["clogged"] / row["runs"] for row in table],
            "o-")
    bx.set_xlabel("W / L")
    bx.set_ylabel("fraction of runs clogged")
    bx.set_ylim(-0.05, 1.05)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "silo_rods.png"), dpi=120)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
