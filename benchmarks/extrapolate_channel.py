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

With solver.exchange: overlapped (docs/solvers.md) each phase's transit runs while the rank
relaxes half of its interior contacts (those touching no body within a halo width of a
subdomain face: a fraction 1 - 2 * shell / volume of the rank's contacts, the owned bodies
near a face and as many ghosts being boundary bodies). What the CPU spends inside the MPI
calls, t_call = 0.3 us per neighbour message and phase (assumed; 0.6 us for one neighbour on
this machine's shared memory, benchmarks/bench_exchange.cpp), is never hidden:
    per phase: t_call + max(0, t_exchange + V / bandwidth - t_call - interior / 2)
with `interior` the interior contacts' share of a sweep's relaxation on the most loaded rank.
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
T_CALL_PER_MESSAGE = 0.3e-6
RANKS = (16, 64, 256, 640, 1024)
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
    """(particles within one halo width of a subdomain's faces (uniform density), the grid,
    the fraction of a rank's contacts touching no boundary body)."""
    p = best_dims(ranks)
    edge = [CHANNEL[k] / p[k] for k in range(3)]
    volume = edge[0] * edge[1] * edge[2]
    # Only the faces towards another subdomain carry a halo.
    shell = sum((p[k] > 1) * 2 * edge[(k + 1) % 3] * edge[(k + 2) % 3] for k in range(3)) * HALO
    fraction = min(1.0, shell / volume)
    return PAPER_PARTICLES / ranks * fraction, p, max(0.0, 1.0 - 2.0 * fraction)


def exchange_per_step(volume, dims, relaxation_per_sweep, interior, overlapped):
    """Seconds of a step's 2 S exchange phases that the rank does not spend relaxing."""
    transit = T_EXCHANGE + volume / BANDWIDTH
    if not overlapped:
        return SWEEPS * 2 * transit
    neighbours = 3 ** sum(d > 1 for d in dims) - 1
    calls = T_CALL_PER_MESSAGE * neighbours
    hidden = 0.5 * interior * relaxation_per_sweep
    return SWEEPS * 2 * (calls + max(0.0, transit - calls - hidden))


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
    # The relaxation's part of c_paper, per sweep: what an overlapped exchange can hide behind.
    c_relax_sweep = (t1["relaxation"] / steps1 / particles * PAPER_CONTACTS_PER_PARTICLE
                     / max(contacts_pp, 1e-9) / SWEEPS)
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
    print(f"channel_paper, {PAPER_STEPS:.0e} steps ({T_EXCHANGE * 1e6:.0f} us per exchange phase, "
          f"{T_CALL_PER_MESSAGE * 1e6:.1f} us per message in the MPI calls, {T_SYNC * 1e6:.0f} us "
          "per step of synchronisation):")
    print(f"{'ranks':>6} {'grid':>9} {'ghosts':>7} {'interior':>8} {'load':>14} {'max/mean':>8} "
          f"{'after_sweep':>14} {'overlapped':>14}")
    for ranks in RANKS:
        ghosts, dims, interior = ghosts_per_rank(ranks)
        volume = ghosts * BYTES_PER_GHOST_PHASE
        cases = [("uniform", 1.0)]
        if positions is not None:
            cases = [(label, imbalance(positions, dims, (0.0, 0.0, 0.0), CHANNEL, HALO, balanced))
                     for label, balanced in (("equal cuts", False), ("balanced cuts", True))]
        for label, factor in cases:
            load = PAPER_PARTICLES / ranks * factor
            columns = []
            for overlapped in (False, True):
                comm = exchange_per_step(volume, dims, load * c_relax_sweep, interior,
                                         overlapped) + T_SYNC
                t = load * c_paper + comm
                columns.append(f"{t * PAPER_STEPS / 3600:6.2f} h {100 * comm / t:3.0f}%")
            print(f"{ranks:>6} {'x'.join(map(str, dims)):>9} {ghosts:7.0f} {interior:8.2f} "
                  f"{label:>14} {factor:8.2f} {columns[0]:>14} {columns[1]:>14}")
    print("(h: wall time for 1e6 steps; %: exchange and synchronisation share of a step)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
