#!/usr/bin/python3
"""Per particle-step cost of channel_small and the extrapolated wall time of channel_paper.

usage: extrapolate_channel.py NP1_LOG NP1_STATISTICS_CSV NP2_LOG

Model (docs/performance.md): one step on P ranks costs
    t_step = (N / P) * c_particle + S * 2 * t_exchange + t_sync
with c_particle the measured 1-rank cost per particle-step (all phases but communication,
scaled by the paper's 2.59 contacts per particle over the measured contacts per particle for
the contact-proportional phases), S = 10 sweeps, t_exchange the latency of one neighbour
exchange phase (26 neighbours posted together, assumed 20 us on an InfiniBand cluster) and
t_sync the per-step migration + ghost rebuild + allreduces (assumed 100 us).
"""
import re
import sys

import numpy as np

PAPER_PARTICLES = 2.47e5
PAPER_CONTACTS_PER_PARTICLE = 2.59
PAPER_STEPS = 1.0e6
SWEEPS = 10
T_EXCHANGE = 20e-6
T_SYNC = 100e-6


def phases(log):
    text = open(log).read()
    steps = int(re.search(r"done: (\d+) steps in ([\d.]+) s", text).group(1))
    wall = float(re.search(r"done: \d+ steps in ([\d.]+) s", text).group(1))
    table = {}
    for name in ["detection", "setup", "relaxation", "communication", "integration", "output", "other"]:
        m = re.search(rf"^{name}\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)", text, re.M)
        table[name] = float(m.group(2)) if m else 0.0
    return steps, wall, table


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    steps1, wall1, t1 = phases(argv[1])
    stats = np.genfromtxt(argv[2], delimiter=",", names=True)
    particles = float(np.mean(stats["particles"]))
    contacts_pp = float(np.mean(stats["contacts_per_particle"]))
    steps2, wall2, t2 = phases(argv[3])
    per_step1, per_step2 = wall1 / steps1, wall2 / steps2
    c_contact = (t1["setup"] + t1["relaxation"]) / steps1 / particles
    c_rest = (t1["detection"] + t1["integration"] + t1["other"]) / steps1 / particles
    c_paper = c_contact * PAPER_CONTACTS_PER_PARTICLE / max(contacts_pp, 1e-9) + c_rest
    print(f"channel_small: {particles:.0f} particles on average, {contacts_pp:.2f} contacts/particle")
    print(f"1 rank : {per_step1 * 1e3:.3f} ms/step, {per_step1 / particles * 1e6:.3f} us per particle-step")
    print(f"2 ranks: {per_step2 * 1e3:.3f} ms/step, {per_step2 / particles * 2 * 1e6:.3f} us per particle-step per core,"
          f" speedup {per_step1 / per_step2:.2f}, communication {100 * t2['communication'] / max(sum(t2.values()), 1e-12):.1f} % of a step")
    print(f"cost per particle-step at the paper's {PAPER_CONTACTS_PER_PARTICLE} contacts/particle: {c_paper * 1e6:.3f} us")
    for ranks in (640, 6400):
        t = PAPER_PARTICLES / ranks * c_paper + SWEEPS * 2 * T_EXCHANGE + T_SYNC
        print(f"channel_paper on {ranks} ranks: {t * 1e3:.3f} ms/step -> {t * PAPER_STEPS / 3600:.2f} h "
              f"for 1e6 steps ({100 * (SWEEPS * 2 * T_EXCHANGE + T_SYNC) / t:.0f} % communication)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
