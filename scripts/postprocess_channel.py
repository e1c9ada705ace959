#!/usr/bin/python3
"""Post-processing of the channel flow (paper section 4.3: Table 2, velocity and angular
velocity profiles, radial distribution function: the paper's Figs. 8, 9 and 10).

usage:
  postprocess_channel.py profile SNAPSHOT.h5 --out PNG [--csv CSV] [--cells 150 65]
                                 [--domain 0 0.15 0 0.065]
  postprocess_channel.py rdf SNAPSHOT.h5 --out PNG [--csv CSV]
                             [--region 0.12 0.14 0 0.065 0 0.02] [--rmax-diameters 5] [--bins 100]
  postprocess_channel.py figures SNAPSHOT.h5 --dir DIR [profile and rdf options]
  postprocess_channel.py table STATISTICS.csv [MORE.csv ...] [--labels NAME ...]
  postprocess_channel.py compare COULOMB.h5 MDP.h5 --out PNG [--stats COULOMB.csv MDP.csv]
                                 [--labels NAME NAME] [profile and rdf options]

profile  bins the particles into NX x NY equal cells of the x-y plane (z ignored) and plots
         the mean speed |v| and the mean angular speed |w| per cell (NaN = empty cell, grey);
         particles outside --domain are ignored. Prints the peak cell mean speed and its
         cell centre. --csv writes x,y (cell centre, m),count,mean_speed,mean_angular_speed.
rdf      radial distribution function g(r) of the particles whose centres lie in the
         half-open box --region (x0 x1 y0 y1 z0 z1, m), normalised as in the paper: the
         histogram of all pair distances (every pair counted for both particles), divided by
         the number of particles N and by the expected count per bin,
         integral_{r0}^{r1} 4 pi rho r^2 dr with rho = N / region volume. r is given in units
         of the particle diameter d = 2 * mean radius. Like the paper, no correction is made
         for the region boundary: particles near it have fewer neighbours inside the region,
         so g(r) falls below 1 at large r (roughly by the fraction of the shell outside).
         --csv writes r_lo,r_hi (units of d),pairs,g with '#' header lines (N, volume, rho, d).
figures  the paper's three figures of one snapshot, one file each, named and titled with the
         paper's numbers: DIR/fig08_velocity_profile.png (mean speed per x-y cell),
         DIR/fig09_angular_velocity_profile.png (mean angular speed per cell) and
         DIR/fig10_radial_distribution.png (g(r) near the outflow); each profile is one wide
         panel with the domain's aspect ratio.
table    the Table 2 figures of one or more statistics.csv files (one column each): the
         averages over the samples (all, or those at t >= T with --from T; the samples are
         equally spaced in time, so this is the time average) of the particle count, solid
         volume fractions, contacts and contacts per particle, the maxima of the penetration
         (um and % of the radius), and the particle count drift from the first to the last
         third of the samples (near 0 in a steady flow).
compare  velocity and angular velocity profiles of two snapshots side by side with a shared
         colour scale, both RDFs in one plot; prints the peak cell mean speed of each and,
         with --stats, the table.

Errors (missing file, not HDF5, not a Granite snapshot / statistics file) are reported as
one "error: ..." line on stderr with exit status 2.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import granite_io  # noqa: E402

DATASETS = {"position": 3, "velocity": 3, "angular_velocity": 3, "radius": 1}
STAT_COLUMNS = ("particles", "contacts", "contacts_per_particle", "solid_fraction",
                "max_penetration_m", "max_penetration_percent_radius")
PAIR_BLOCK = 4_000_000  # distances computed per block (c * N), ~100 MB of temporaries

InputError = granite_io.GraniteIOError  # a problem with an input: one line, exit status 2


# ----------------------------------------------------------------------------- input

def load_snapshot(path):
    """The snapshot's position, velocity, angular_velocity (N x 3) and radius (N)."""
    return granite_io.load_snapshot(path, fields=DATASETS, required=DATASETS)


def load_statistics(path):
    """{column: array} of a Granite statistics.csv."""
    return granite_io.load_table(path, "statistics.csv", ("time_s",) + STAT_COLUMNS)


# ----------------------------------------------------------------------------- analysis

def bin_cells(position, values, cells, domain):
    """Mean of each array in `values` per x-y cell.

    Returns (counts[NY, NX], [means[NY, NX] ...], centres_x[NX], centres_y[NY]); empty cells
    are NaN; particles outside the domain (x1, y1 inclusive) are ignored."""
    nx, ny = cells
    x0, x1, y0, y1 = domain
    x, y = position[:, 0], position[:, 1]
    inside = (x >= x0) & (x <= x1) & (y >= y0) & (y <= y1)
    ix = np.minimum(((x[inside] - x0) / (x1 - x0) * nx).astype(np.int64), nx - 1)
    iy = np.minimum(((y[inside] - y0) / (y1 - y0) * ny).astype(np.int64), ny - 1)
    flat = iy * nx + ix
    counts = np.bincount(flat, minlength=nx * ny).astype(np.float64)
    means = []
    for v in values:
        sums = np.bincount(flat, weights=v[inside], minlength=nx * ny)
        with np.errstate(invalid="ignore", divide="ignore"):
            means.append(np.where(counts > 0, sums / counts, np.nan).reshape(ny, nx))
    cx = x0 + (np.arange(nx) + 0.5) * (x1 - x0) / nx
    cy = y0 + (np.arange(ny) + 0.5) * (y1 - y0) / ny
    return counts.reshape(ny, nx).astype(np.int64), means, cx, cy


def velocity_profile(snapshot, cells, domain):
    speed = np.linalg.norm(snapshot["velocity"], axis=1)
    spin = np.linalg.norm(snapshot["angular_velocity"], axis=1)
    counts, (mean_speed, mean_spin), cx, cy = bin_cells(snapshot["position"], [speed, spin], cells, domain)
    return {"counts": counts, "speed": mean_speed, "spin": mean_spin, "cx": cx, "cy": cy,
            "domain": domain, "outside": len(speed) - int(counts.sum())}


def peak_cell(profile):
    """(value, x, y, ix, iy, count) of the cell with the largest mean speed, or None."""
    speed = profile["speed"]
    if np.all(np.isnan(speed)):
        return None
    iy, ix = np.unravel_index(np.nanargmax(speed), speed.shape)
    return (float(speed[iy, ix]), float(profile["cx"][ix]), float(profile["cy"][iy]), int(ix), int(iy),
            int(profile["counts"][iy, ix]))


def pair_histogram(points, edges):
    """Histogram of the distances of all unordered pairs (each pair once), in blocks of rows."""
    n = len(points)
    hist = np.zeros(len(edges) - 1, dtype=np.int64)
    rmax2 = edges[-1] ** 2
    block = max(1, PAIR_BLOCK // max(n, 1))
    for start in range(0, n - 1, block):
        end = min(n - 1, start + block)
        rows = points[start:end]
        others = points[start + 1:]
        d2 = np.zeros((end - start, len(others)))
        for k in range(3):
            d2 += (rows[:, k, None] - others[None, :, k]) ** 2
        # row i (global start + i) pairs with column j (global start + 1 + j) only for j >= i
        keep = np.triu(np.ones(d2.shape, dtype=bool)) & (d2 < rmax2)
        hist += np.histogram(np.sqrt(d2[keep]), bins=edges)[0]
    return hist


def radial_distribution(snapshot, region, rmax_diameters, bins):
    """g(r) of the particles in `region` (x0 x1 y0 y1 z0 z1), normalised as in the paper."""
    x0, x1, y0, y1, z0, z1 = region
    p = snapshot["position"]
    inside = ((p[:, 0] >= x0) & (p[:, 0] < x1) & (p[:, 1] >= y0) & (p[:, 1] < y1)
              & (p[:, 2] >= z0) & (p[:, 2] < z1))
    points = p[inside]
    n = len(points)
    if n < 2:
        raise InputError(f"{snapshot.path}: fewer than 2 particles ({n}) in the RDF region {list(region)}")
    diameter = 2.0 * float(np.mean(snapshot["radius"][inside]))
    volume = (x1 - x0) * (y1 - y0) * (z1 - z0)
    rho = n / volume
    edges = np.linspace(0.0, rmax_diameters, bins + 1)          # units of d
    pairs = pair_histogram(points, edges * diameter)
    shell = 4.0 / 3.0 * np.pi * rho * ((edges[1:] * diameter) ** 3 - (edges[:-1] * diameter) ** 3)
    g = 2.0 * pairs / (n * shell)
    return {"edges": edges, "pairs": pairs, "g": g, "n": n, "volume": volume, "rho": rho,
            "diameter": diameter}


def particle_drift(particles):
    """Relative change of the mean count from the first to the last third (0: < 3 samples)."""
    third = len(particles) // 3
    if third == 0:
        return 0.0
    first = float(np.mean(particles[:third]))
    return (float(np.mean(particles[-third:])) - first) / first if first > 0 else 0.0


def table_rows(stats, t_from=0.0):
    """Table 2 figures of the samples at t >= t_from of one statistics file, as
    (label, value, format) rows (the same figures as the run's summary.txt)."""
    keep = stats["time_s"] >= t_from
    if not keep.any():
        raise InputError(f"{stats.path}: no samples at t >= {t_from} s")
    stats = {k: v[keep] for k, v in stats.items()}
    rows = [
        ("samples", len(stats["time_s"]), "{:.0f}"),
        ("avg. number of particles", float(np.mean(stats["particles"])), "{:.1f}"),
        ("solid volume fraction (%)", 100.0 * float(np.mean(stats["solid_fraction"])), "{:.1f}"),
        ("avg. number of contacts", float(np.mean(stats["contacts"])), "{:.1f}"),
        ("avg. contacts per particle", float(np.mean(stats["contacts_per_particle"])), "{:.4f}"),
        ("max. penetration (um)", 1e6 * float(np.max(stats["max_penetration_m"])), "{:.3f}"),
        ("max. penetration (% of radius)", float(np.max(stats["max_penetration_percent_radius"])), "{:.2f}"),
        ("particle count drift (%)", 100.0 * particle_drift(stats["particles"]), "{:+.1f}"),
    ]
    if "channel_solid_fraction" in stats:
        rows.insert(3, ("... of the channel (%)", 100.0 * float(np.mean(stats["channel_solid_fraction"])), "{:.2f}"))
    return rows


def format_table(paths, labels, t_from=0.0):
    columns = [table_rows(load_statistics(p), t_from) for p in paths]
    names = [row[0] for row in columns[0]]
    cells = [[fmt.format(value) for _, value, fmt in column] for column in columns]
    first = max(len(n) for n in names)
    widths = [max(len(label), max(len(c) for c in column)) for label, column in zip(labels, cells)]
    lines = [" " * first + "".join(f"  {label:>{w}}" for label, w in zip(labels, widths))]
    for i, name in enumerate(names):
        lines.append(f"{name:<{first}}" + "".join(f"  {column[i]:>{w}}" for column, w in zip(cells, widths)))
    return "\n".join(lines)


# ----------------------------------------------------------------------------- output

def describe_peak(label, profile):
    peak = peak_cell(profile)
    prefix = f"{label}: " if label else ""
    if peak is None:
        return f"{prefix}peak cell mean speed: none (all cells empty)"
    value, x, y, ix, iy, count = peak
    return (f"{prefix}peak cell mean speed {value:.6g} m/s at cell centre x = {x:.6g} m, y = {y:.6g} m "
            f"(cell {ix} {iy}, {count} particles)")


def write_profile_csv(path, profile):
    ny, nx = profile["counts"].shape
    xs, ys = np.meshgrid(profile["cx"], profile["cy"])
    data = np.column_stack([xs.ravel(), ys.ravel(), profile["counts"].ravel(), profile["speed"].ravel(),
                            profile["spin"].ravel()])
    np.savetxt(path, data, delimiter=",", fmt=["%.9g", "%.9g", "%d", "%.9g", "%.9g"],
               header="x_m,y_m,count,mean_speed_m_s,mean_angular_speed_rad_s", comments="")


def write_rdf_csv(path, rdf):
    data = np.column_stack([rdf["edges"][:-1], rdf["edges"][1:], rdf["pairs"], rdf["g"]])
    header = (f"particles {rdf['n']}\nvolume_m3 {rdf['volume']:.9g}\nrho_per_m3 {rdf['rho']:.9g}\n"
              f"diameter_m {rdf['diameter']:.9g}\nr_lo_d,r_hi_d,pairs,g")
    np.savetxt(path, data, delimiter=",", fmt=["%.12g", "%.12g", "%d", "%.17g"], header=header)


def heat_map(ax, fig, profile, key, title, label, vmax):
    cmap = plt.get_cmap("viridis").copy()
    cmap.set_bad("0.85")
    x0, x1, y0, y1 = profile["domain"]
    image = ax.imshow(np.ma.masked_invalid(profile[key]), origin="lower", extent=(x0, x1, y0, y1),
                      cmap=cmap, vmin=0.0, vmax=vmax, interpolation="nearest")
    ax.set_title(title, fontsize=9)
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    fig.colorbar(image, ax=ax, label=label, shrink=0.8)


def shared_max(profiles, key):
    values = [np.nanmax(p[key]) for p in profiles if not np.all(np.isnan(p[key]))]
    top = max(values) if values else 1.0
    return top if top > 0 else 1.0


def plot_profiles(axes, fig, profiles, titles):
    """axes[0][k]: speed of profile k, axes[1][k]: angular speed; shared colour scales."""
    vmax, wmax = shared_max(profiles, "speed"), shared_max(profiles, "spin")
    for k, (profile, title) in enumerate(zip(profiles, titles)):
        heat_map(axes[0][k], fig, profile, "speed", f"Fig. 8, {title}: mean speed per cell", "|v| [m/s]", vmax)
        heat_map(axes[1][k], fig, profile, "spin", f"Fig. 9, {title}: mean angular speed per cell",
                 "|ω| [rad/s]", wmax)


def plot_rdfs(ax, rdfs, labels):
    for rdf, label in zip(rdfs, labels):
        if rdf is None:
            continue
        centres = 0.5 * (rdf["edges"][1:] + rdf["edges"][:-1])
        ax.plot(centres, rdf["g"], drawstyle="steps-mid", label=f"{label} (N = {rdf['n']})")
    ax.axhline(1.0, color="k", linestyle=":", linewidth=1)
    ax.set_xlabel("r / d")
    ax.set_ylabel("g(r)")
    ax.set_title("Fig. 10: radial distribution function (no boundary correction)", fontsize=9)
    ax.legend(fontsize=8)


def snapshot_title(snapshot, label=None):
    name = label or os.path.basename(snapshot.path)
    return f"{name} (t = {snapshot.time:.4g} s)"


# ----------------------------------------------------------------------------- commands

def cmd_profile(args):
    snapshot = load_snapshot(args.snapshot)
    profile = velocity_profile(snapshot, args.cells, args.domain)
    fig, axes = plt.subplots(2, 1, figsize=(10, 8), squeeze=False)
    plot_profiles([[axes[0][0]], [axes[1][0]]], fig, [profile], [snapshot_title(snapshot)])
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    plt.close(fig)
    if args.csv:
        write_profile_csv(args.csv, profile)
    print(f"{len(snapshot['radius'])} particles, {profile['outside']} outside the domain, "
          f"{args.cells[0]} x {args.cells[1]} cells")
    print(describe_peak(None, profile))
    return 0


def cmd_rdf(args):
    snapshot = load_snapshot(args.snapshot)
    rdf = radial_distribution(snapshot, args.region, args.rmax_diameters, args.bins)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    plot_rdfs(ax, [rdf], [snapshot_title(snapshot)])
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    plt.close(fig)
    if args.csv:
        write_rdf_csv(args.csv, rdf)
    peak = int(np.argmax(rdf["g"]))
    print(f"{rdf['n']} particles in the region, d = {rdf['diameter']:.6g} m, rho = {rdf['rho']:.6g} /m^3")
    print(f"maximum g = {rdf['g'][peak]:.4g} at r/d in [{rdf['edges'][peak]:.4g}, {rdf['edges'][peak + 1]:.4g})")
    return 0


FIGURES = {  # the paper's figure number -> file name (README.md and scripts/demo name them too)
    8: "fig08_velocity_profile.png",
    9: "fig09_angular_velocity_profile.png",
    10: "fig10_radial_distribution.png",
}


def wide_figure(domain, width=11.0):
    """A figure with one panel shaped like the x-y extent of the domain (plus title, colour bar)."""
    x0, x1, y0, y1 = domain
    return plt.subplots(figsize=(width, max(2.5, 0.8 * width * (y1 - y0) / (x1 - x0) + 1.2)))


def cmd_figures(args):
    snapshot = load_snapshot(args.snapshot)
    os.makedirs(args.dir, exist_ok=True)
    profile = velocity_profile(snapshot, args.cells, args.domain)
    title = snapshot_title(snapshot)
    for number, key, what, label in [(8, "speed", "velocity profile: mean speed per cell", "|v| [m/s]"),
                                     (9, "spin", "angular velocity profile: mean angular speed per cell",
                                      "|ω| [rad/s]")]:
        fig, ax = wide_figure(args.domain)
        heat_map(ax, fig, profile, key, f"Fig. {number}: {what}, {title}", label, shared_max([profile], key))
        fig.tight_layout()
        fig.savefig(os.path.join(args.dir, FIGURES[number]), dpi=110)
        plt.close(fig)
    rdf = radial_distribution(snapshot, args.region, args.rmax_diameters, args.bins)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    plot_rdfs(ax, [rdf], [title])
    fig.tight_layout()
    fig.savefig(os.path.join(args.dir, FIGURES[10]), dpi=110)
    plt.close(fig)
    for number in sorted(FIGURES):
        print(f"Fig. {number}: {os.path.join(args.dir, FIGURES[number])}")
    print(describe_peak(None, profile))
    return 0


def cmd_table(args):
    labels = args.labels or [os.path.basename(os.path.dirname(os.path.abspath(p))) or p for p in args.csv]
    if len(labels) != len(args.csv):
        raise InputError(f"--labels: {len(labels)} labels for {len(args.csv)} files")
    print(format_table(args.csv, labels, args.t_from))
    return 0


def cmd_compare(args):
    labels = args.labels
    snapshots = [load_snapshot(p) for p in (args.coulomb, args.mdp)]
    stats_table = format_table(args.stats, labels) if args.stats else None  # validate before plotting
    profiles = [velocity_profile(s, args.cells, args.domain) for s in snapshots]
    rdfs = []
    for s in snapshots:
        try:
            rdfs.append(radial_distribution(s, args.region, args.rmax_diameters, args.bins))
        except InputError as e:
            print(f"warning: {e}; no RDF", file=sys.stderr)
            rdfs.append(None)
    fig = plt.figure(figsize=(15, 11))
    grid = fig.add_gridspec(3, 2)
    axes = [[fig.add_subplot(grid[row, col]) for col in range(2)] for row in range(2)]
    plot_profiles(axes, fig, profiles, [snapshot_title(s, l) for s, l in zip(snapshots, labels)])
    plot_rdfs(fig.add_subplot(grid[2, :]), rdfs, labels)
    fig.tight_layout()
    fig.savefig(args.out, dpi=100)
    plt.close(fig)
    for label, profile in zip(labels, profiles):
        print(describe_peak(label, profile))
    if stats_table:
        print(stats_table)
    return 0


def add_profile_options(parser):
    parser.add_argument("--cells", type=int, nargs=2, default=[150, 65], metavar=("NX", "NY"))
    parser.add_argument("--domain", type=float, nargs=4, default=[0.0, 0.15, 0.0, 0.065],
                        metavar=("X0", "X1", "Y0", "Y1"))


def add_rdf_options(parser):
    parser.add_argument("--region", type=float, nargs=6, default=[0.12, 0.14, 0.0, 0.065, 0.0, 0.02],
                        metavar=("X0", "X1", "Y0", "Y1", "Z0", "Z1"))
    parser.add_argument("--rmax-diameters", type=float, default=5.0)
    parser.add_argument("--bins", type=int, default=100)


def build_parser():
    parser = argparse.ArgumentParser(prog="postprocess_channel.py", description=__doc__.split("\n")[0],
                                     epilog="see the module docstring (--help of each subcommand)")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("profile", help="mean speed / angular speed per x-y cell (Figs. 8, 9)")
    p.add_argument("snapshot")
    p.add_argument("--out", required=True)
    p.add_argument("--csv")
    add_profile_options(p)
    p.set_defaults(func=cmd_profile)
    r = sub.add_parser("rdf", help="radial distribution function in a region (Fig. 10)")
    r.add_argument("snapshot")
    r.add_argument("--out", required=True)
    r.add_argument("--csv")
    add_rdf_options(r)
    r.set_defaults(func=cmd_rdf)
    f = sub.add_parser("figures", help="the paper's Figs. 8, 9, 10 as fig08_*.png, fig09_*.png, fig10_*.png")
    f.add_argument("snapshot")
    f.add_argument("--dir", required=True, help="directory for the three PNG files")
    add_profile_options(f)
    add_rdf_options(f)
    f.set_defaults(func=cmd_figures)
    t = sub.add_parser("table", help="Table 2 figures of statistics.csv files")
    t.add_argument("csv", nargs="+")
    t.add_argument("--labels", nargs="+")
    t.add_argument("--from", dest="t_from", type=float, default=0.0, metavar="T",
                   help="average the samples at t >= T s only (the steady part)")
    t.set_defaults(func=cmd_table)
    c = sub.add_parser("compare", help="Coulomb vs maximum dissipation: profiles, RDFs, table")
    c.add_argument("coulomb")
    c.add_argument("mdp")
    c.add_argument("--out", required=True)
    c.add_argument("--stats", nargs=2, metavar=("COULOMB_CSV", "MDP_CSV"))
    c.add_argument("--labels", nargs=2, default=["Coulomb", "max. dissipation"])
    add_profile_options(c)
    add_rdf_options(c)
    c.set_defaults(func=cmd_compare)
    return parser


def check_options(args):
    if hasattr(args, "cells") and min(args.cells) < 1:
        raise InputError("--cells: NX and NY must be positive")
    if hasattr(args, "domain") and not (args.domain[0] < args.domain[1] and args.domain[2] < args.domain[3]):
        raise InputError("--domain: need X0 < X1 and Y0 < Y1")
    if hasattr(args, "region"):
        r = args.region
        if not (r[0] < r[1] and r[2] < r[3] and r[4] < r[5]):
            raise InputError("--region: need X0 < X1, Y0 < Y1 and Z0 < Z1")
        if args.bins < 1 or not args.rmax_diameters > 0:
            raise InputError("--bins and --rmax-diameters must be positive")


def main(argv):
    args = build_parser().parse_args(argv)
    try:
        check_options(args)
        return args.func(args)
    except InputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except OSError as e:  # e.g. an output path that cannot be written
        print(f"error: {e.filename or ''}: {e.strerror or e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
