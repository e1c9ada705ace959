#!/usr/bin/python3
"""Load imbalance of a grid of subdomains over the particles of snapshots (docs/load_balance.md).

usage: balance_model.py --ranks P [--dims PXxPYxPZ ...] [--top N] [--halo M] SNAPSHOT...

The particles of the snapshots sample the flow's time-averaged density. For each grid
(the given --dims, the minimum-cut-surface one, and the N factorisations of P with the least
balanced imbalance) it prints the largest subdomain's share of that sample over the mean, with
equal cuts and with the nested cuts of domain.balance (x-quantiles of everything, y-quantiles
within each x-slab, z-quantiles within each column, every slab at least one halo width thick:
--halo, default 2 x largest radius + contact threshold of the snapshots' configuration; the
rule of src/parallel/balance.cpp without its histogram; the cuts are computed from the even
snapshots and measured on the odd ones, as a run's cuts come from an earlier state), and the
same figure for as many uniformly random points with equal cuts: the counting noise of the
sample, the floor below which a figure means nothing.
"""
import argparse
import sys

import numpy as np
import yaml

import os
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import granite_io  # noqa: E402


def balanced_cuts(x, parts, lo, hi, width):
    """One axis's cuts at the quantiles of x, each slab at least `width` thick."""
    if parts == 1 or hi - lo < parts * width or len(x) == 0:
        return np.linspace(lo, hi, parts + 1)
    cuts = [lo] + [float(np.quantile(x, k / parts)) for k in range(1, parts)] + [hi]
    for k in range(1, parts):
        cuts[k] = max(cuts[k], cuts[k - 1] + width)
    for k in range(parts - 1, 0, -1):
        cuts[k] = min(cuts[k], cuts[k + 1] - width)
    return np.array(cuts)


def imbalance(positions, dims, lo, hi, width, balanced, cut_from=None):
    """max/mean particles per subdomain of the grid `dims` over a sample of positions, with
    equal cuts or with domain.balance's nested cuts (x over all, y within each x-slab, z
    within each column) computed from `cut_from` (default: the sample itself)."""
    cut_from = positions if cut_from is None else cut_from
    group = np.zeros(len(positions), dtype=np.int64)
    source = np.zeros(len(cut_from), dtype=np.int64)  # the same groups for the cutting sample
    groups = 1
    for a in range(3):
        cell = np.zeros(len(positions), dtype=np.int64)
        source_cell = np.zeros(len(cut_from), dtype=np.int64)
        for g in range(groups):
            cuts = (balanced_cuts(cut_from[source == g, a], dims[a], lo[a], hi[a], width)
                    if balanced else np.linspace(lo[a], hi[a], dims[a] + 1))
            for ids, points, out in ((group == g, positions, cell),
                                     (source == g, cut_from, source_cell)):
                out[ids] = np.clip(np.searchsorted(cuts[1:-1], points[ids, a], side="right"), 0,
                                   dims[a] - 1)
        group = group * dims[a] + cell
        source = source * dims[a] + source_cell
        groups *= dims[a]
    counts = np.bincount(group, minlength=groups)
    return counts.max() / counts.mean()


def factorisations(ranks):
    for px in range(1, ranks + 1):
        if ranks % px:
            continue
        for py in range(1, ranks // px + 1):
            if (ranks // px) % py == 0:
                yield (px, py, ranks // px // py)


def fits(dims, extent, width):
    return all(dims[a] == 1 or extent[a] / dims[a] >= width for a in range(3))


def min_cut(ranks, extent, width):
    best = None
    for d in factorisations(ranks):
        s = sum((d[a] - 1) * extent[(a + 1) % 3] * extent[(a + 2) % 3] for a in range(3))
        if fits(d, extent, width) and (best is None or s < best[0] * (1 - 1e-12)):
            best = (s, d)
    return best[1]


def domain_of(snapshot):
    """(lower corner, upper corner, halo width) from the snapshot's configuration."""
    cfg = yaml.safe_load(snapshot.attrs["config"])
    lo = [float(v) for v in cfg["domain"]["min"]]
    hi = [float(v) for v in cfg["domain"]["max"]]
    radius = float(np.max(snapshot["radius"])) if len(snapshot["radius"]) else 0.0
    return lo, hi, 2 * radius + float((cfg.get("contact") or {}).get("threshold", 0.0))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--ranks", type=int, required=True)
    p.add_argument("--dims", action="append", default=[])
    p.add_argument("--top", type=int, default=3)
    p.add_argument("--halo", type=float, default=None, help="halo width (m)")
    p.add_argument("snapshots", nargs="+")
    a = p.parse_args(argv)
    try:
        snaps = [granite_io.load_snapshot(s, fields=("position", "radius")) for s in a.snapshots]
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    lo, hi, width = domain_of(snaps[0])
    if a.halo is not None:
        width = a.halo
    extent = [hi[k] - lo[k] for k in range(3)]
    samples = [np.asarray(s["position"], dtype=float) for s in snaps]
    # Balanced cuts from the even snapshots, measured on the odd ones (as a run's cuts come
    # from an earlier state): no credit for fitting the sample's own noise.
    even = np.concatenate(samples[0::2])
    odd = np.concatenate(samples[1::2]) if len(samples) > 1 else even
    uniform = np.array(lo) + np.random.default_rng(1).random(odd.shape) * np.array(extent)

    def figures(dims):
        return (imbalance(odd, dims, lo, hi, width, False),
                imbalance(odd, dims, lo, hi, width, True, cut_from=even),
                imbalance(uniform, dims, lo, hi, width, False))

    grids = [tuple(int(v) for v in d.split("x")) for d in a.dims]
    cut = min_cut(a.ranks, extent, width)
    grids.append(cut)
    ranked = sorted((figures(d)[1], d) for d in factorisations(a.ranks) if fits(d, extent, width))
    grids += [d for _, d in ranked[:a.top]]
    print(f"{len(snaps)} snapshots: cuts from {len(samples[0::2])}, measured on "
          f"{max(len(samples[1::2]), 1)}: {len(odd) / a.ranks:.1f} sample points per rank, "
          f"halo {width * 1e3:.3f} mm")
    print(f"{'grid':>12} {'equal':>8} {'balanced':>9} {'noise':>7}")
    for d in dict.fromkeys(grids):
        equal, balanced, noise = figures(d)
        note = "  (minimum cut surface)" if d == cut else ""
        print(f"{'x'.join(map(str, d)):>12} {equal:8.2f} {balanced:9.2f} {noise:7.2f}{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
