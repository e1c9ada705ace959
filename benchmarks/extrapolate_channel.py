#!/usr/bin/python3
"""Per particle-step cost of channel_small and the extrapolated wall time of channel_paper.

usage: extrapolate_channel.py NP1_RUN NP1_STATISTICS_CSV NP2_RUN [SNAPSHOT]
  (NP1_RUN, NP2_RUN: the output directories, or run.json files, of the 1- and 2-rank runs;
  SNAPSHOT: a snapshot of the steady channel, whose particle positions, mapped onto the
  paper's domain, give the load imbalance of each grid with equal and with balanced cuts)

Model (docs/performance.md): one step on P ranks costs
    t_step = (N / P) * c_particle + S * 2 * (t_exchange + V / bandwidth) + t_sync
with c_particle the measured 1-rank cost per particle-step (all phases but communication,
scaled by the paper's 2.59 contacts per particle over the measured contacts per particle for
the contact-proportional phases), S = 10 sweeps, t_exchange the latency of one neighbour
exchange phase (26 neighbours posted together, assumed 20 us on an InfiniBand cluster) and
t_sync the per-step migration + ghost rebuild + allreduces (assumed 100 us), and V the bytes a
rank sends per exchange phase: 48 bytes (measured: 96 per ghost per sweep, two phases) times
its ghosts, estimated as the particles within one halo width (2 r + threshold) of the faces of
its subdomain of the paper's grid (chosen by minimum cut surface), over a 5 GB/s link.
With a SNAPSHOT the particle term becomes (N / P) * I * c_particle, I the largest rank's
particles over the mean: the ranks wait for the most loaded one. I is computed from the
snapshot's positions for equal cuts and for the cuts of domain.balance (docs/load_balance.md:
each axis's quantiles, every slab at least one halo width thick).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
import granite_io  # noqa: E402
from balance_model import imbalance  # noqa: E402  (benchmarks/balance_model.py)

PAPER_PARTICLES = 2.47e5
PAPER_CONTACTS_PER_PARTICLE = 2.59
PAPER_STEPS = 1.0e6
SWEEPS = 10
T_EXCHANGE = 20e-6
T_SYNC = 100e-6
BYTES_PER_GHOST_PHASE = 48.0
BANDWIDTH = 5e9
CHANNEL = (0.15, 0.065, 0.02)
HALO = 2 * 2.35e-4 + 1e-5


def best_dims(ranks):
    """Minimum-cut-surface grid for the channel (the rule Granite uses)."""
    best = None
    for a in range(1, ranks + 1):
        if ranks % a:
            continue
        for b in range(1, ranks // a + 1):
            if (ranks // a) % b:
                continue
            p = (a, b, ranks // a // b)
            s = sum((p[k] - 1) * CHANNEL[(k + 1) % 3] * CHANNEL[(k + 2) % 3] for k in range(3))
            if best is None or s < best[0]:
                best = (s, p)
    return best[1]


def ghosts_per_rank(ranks):
    """Particles within one halo width of a subdomain's faces (uniform density)."""
    p = best_dims(ranks)
    edge = [CHANNEL[k] / p[k] for k in range(3)]
    volume = edge[0] * edge[1] * edge[2]
    shell = 2 * (edge[0] * edge[1] + edge[1] * edge[2] + edge[0] * edge[2]) * HALO
    return PAPER_PARTICLES / ranks * min(1.0, shell / volume), p


def phases(run_path):
    """(steps, wall seconds, {phase: average seconds over ranks}) of a run's run.json."""
    run = granite_io.load_run(run_path)
    source = granite_io.run_json_path(run_path)

    def field(key):
        return granite_io.run_field(run, key, source)

    names = ["detection", "setup", "relaxation", "communication", "integration", "output", "other"]
    table = {name: float(field(f"timings.{name}.avg")) for name in names}
    return field("steps.done"), field("wall_seconds"), table


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        steps1, wall1, t1 = phases(argv[1])
        stats = granite_io.load_table(argv[2], "statistics.csv",
                                      ("particles", "contacts_per_particle"))
        steps2, wall2, t2 = phases(argv[3])
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    particles = float(np.mean(stats["particles"]))
    contacts_pp = float(np.mean(stats["contacts_per_particle"]))
    per_step1, per_step2 = wall1 / steps1, wall2 / steps2
    c_contact = (t1["setup"] + t1["relaxation"]) / steps1 / particles
    c_rest = (t1["detection"] + t1["integration"] + t1["other"]) / steps1 / particles
    c_paper = c_contact * PAPER_CONTACTS_PER_PARTICLE / max(contacts_pp, 1e-9) + c_rest
    print(f"channel_small: {particles:.0f} particles on average, {contacts_pp:.2f} contacts/particle")
    print(f"1 rank : {per_step1 * 1e3:.3f} ms/step, {per_step1 / particles * 1e6:.3f} us per particle-step")
    print(f"2 ranks: {per_step2 * 1e3:.3f} ms/step, {per_step2 / particles * 2 * 1e6:.3f} us per particle-step per core,"
          f" speedup {per_step1 / per_step2:.2f}, communication {100 * t2['communication'] / max(sum(t2.values()), 1e-12):.1f} % of a step")
    print(f"cost per particle-step at the paper's {PAPER_CONTACTS_PER_PARTICLE} contacts/particle: {c_paper * 1e6:.3f} us")
    positions = None
    if len(argv) == 5:
        try:
            snapshot = granite_io.load_snapshot(argv[4], fields=("position",))
        except granite_io.GraniteIOError as e:
            return granite_io.print_error(e)
        positions = np.asarray(snapshot["position"], dtype=float)
        print(f"imbalance from {argv[4]}: {len(positions)} particles")
    for ranks in (640, 6400):
        ghosts, dims = ghosts_per_rank(ranks)
        volume = ghosts * BYTES_PER_GHOST_PHASE
        comm = SWEEPS * 2 * (T_EXCHANGE + volume / BANDWIDTH) + T_SYNC
        cases = [("uniform load", 1.0)]
        if positions is not None:
            cases = [(label, imbalance(positions, dims, (0.0, 0.0, 0.0), CHANNEL, HALO, balanced))
                     for label, balanced in (("equal cuts", False), ("balanced cuts", True))]
        for label, factor in cases:
            t = PAPER_PARTICLES / ranks * factor * c_paper + comm
            print(f"channel_paper on {ranks} ranks ({dims[0]}x{dims[1]}x{dims[2]}, ~{ghosts:.0f} ghosts, "
                  f"{volume / 1e3:.1f} kB per exchange), {label} (max/mean particles {factor:.2f}): "
                  f"{t * 1e3:.3f} ms/step -> {t * PAPER_STEPS / 3600:.2f} h for 1e6 steps "
                  f"({100 * comm / t:.0f} % communication)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
