#!/usr/bin/env bash
# Core-seconds per particle per simulated second of Granite (hard contacts) against a
# soft-sphere DEM (LAMMPS, Hertz-Mindlin with history, E = 10 MPa) on this machine (issue 18):
#  1. LAMMPS (Debian package `lammps`, installed with apt-get if `lmp` is missing) runs
#     benchmarks/dem_baseline.lmp on 1 rank: channel_small's particles (~4 700 spheres,
#     d = 1.88 mm, 2650 kg/m^3, friction 0.4) in its 15 x 6.5 x 2 cm box, periodic in x, sliding
#     at ~1 m/s over a frictionless floor between frictional side walls; SETTLE_STEPS steps
#     (default 12 000, 0.1 s) to let the bed fall, then STEPS timed steps (default 30 000,
#     ~0.25 s simulated, ~30-60 s of wall time) with dt = 0.1 Rayleigh time (~8.3 us) and the same
#     skin as Granite's run (8e-4 m). Figures from LAMMPS's own timing of the timed run (Loop
#     time and its Pair/Neigh/Comm/Modify split).
#  2. Granite runs configs/channel_small.yaml as benchmarks/neighbour_lists.sh does: settled to
#     SETTLE_S (default 0.4 s) on 1 rank, then GSTEPS steps (default 300) from that checkpoint
#     with skin 8e-4 m.
#  Each prints us per particle-step (wall) and core-seconds per particle per simulated second
#  (= wall / (particle-steps * dt)), then Granite / DEM, also against the DEM figure issue 18
#  quotes (0.14 us per particle-step at dt = 4 us).
# usage: benchmarks/dem_baseline.sh [BUILD_DIR] [STEPS] [GSTEPS] [SETTLE_STEPS] [SETTLE_S]
#        (default: build 30000 300 12000 0.4; 2.5 minutes at load ~4 on 2 cores).
#        docs/performance.md ("Against DEM") has the figures.
set -euo pipefail
build=${1:-build}; steps=${2:-30000}; gsteps=${3:-300}; settle_steps=${4:-12000}; settle_s=${5:-0.4}
skin=8e-4
root=$(cd "$(dirname "$0")/.." && pwd)
config=$root/configs/channel_small.yaml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$root/benchmarks/lib.sh"  # settle, quiet

if ! command -v lmp > /dev/null; then
  echo "== installing the Debian package lammps"
  apt-get install -y lammps > "$tmp/apt.log" 2>&1 || { echo "apt-get install lammps failed: $(tail -1 "$tmp/apt.log")"; exit 1; }
fi

echo "== DEM: LAMMPS $(lmp -h | sed -n 's/^Large-scale Atomic.*Simulator - //p'), $settle_steps settle + $steps timed steps (1 rank)"
(cd "$tmp" && lmp -in "$root/benchmarks/dem_baseline.lmp" -log "$tmp/lammps.log" -screen none \
  -var settle "$settle_steps" -var steps "$steps" -var frac 0.1 -var skin "$skin" -var seed 1 \
  -var thermo 2000) || { echo "LAMMPS failed: $(tail -3 "$tmp/lammps.log")"; exit 1; }

settle "$config" "$settle_s" "$tmp/settle" 2> "$tmp/settle.err"
end=$(/usr/bin/python3 -c "print($gsteps * $dt)")  # --from starts at t = 0
echo "== Granite: $gsteps steps from the settled channel_small, skin $skin m (1 rank)"
"$build/granite" run "$config" --from "$tmp/settle/checkpoint.h5" --output "$tmp/granite" \
  "${quiet[@]}" --set run.end_time="$end" --set contact.skin="$skin" > "$tmp/granite.log" 2>&1 \
  || { echo "Granite run failed: $(tail -1 "$tmp/granite.log")"; exit 1; }

/usr/bin/python3 - "$tmp/lammps.log" "$tmp/granite/run.json" <<'PY'
import json, re, sys
log = open(sys.argv[1]).read()
head = re.search(r"^DEM: .*$", log, re.M).group(0)
timed = log[log.index("== timed run"):]
dt = float(re.search(r"dt = (\S+) s", head).group(1))
loop, steps, atoms = re.search(r"Loop time of (\S+) on 1 procs for (\d+) steps with (\d+) atoms",
                               timed).groups()
loop, steps, atoms = float(loop), int(steps), int(atoms)
# the timing table's last column, %total, per section
split = {k: float(v) for k, v in re.findall(r"^(\w+)\s*\|.*\|\s*([\d.]+)\s*$", timed, re.M)}
cpu = float(re.search(r"([\d.]+)% CPU use", timed).group(1))
builds = int(re.search(r"Neighbor list builds = (\d+)", timed).group(1))
# thermo rows of the timed run: step time atoms <vx> max(z) pair and wall contacts per particle
rows = [list(map(float, l.split())) for l in timed.splitlines()
        if re.match(r"^\s*\d+\s+[\d.e+-]+\s+\d+\s", l)]
pairs, walls = (sum(r[k] for r in rows[1:]) / max(len(rows) - 1, 1) for k in (5, 6))
r = json.load(open(sys.argv[2]))
gsteps = r["steps"]["done"]; gdt = r["steps"]["dt"]
particles = 0.5 * (r["particles"]["initial"] + r["particles"]["final"])
gus = r["wall_seconds"] * 1e6 / (gsteps * particles)
t = r["timings"]
print(head)
print("DEM timed run: %d steps, %d particles, dt = %.3g s, Loop time %.2f s (%.0f%% CPU), split %s, "
      "%.1f steps per neighbour build, vx %.2f -> %.2f m/s, bed top %.1f mm, "
      "contacts per particle %.2f (%.2f between particles, %.2f with walls)" % (
          steps, atoms, dt, loop, cpu, ", ".join("%s %.0f%%" % (k, split[k]) for k in
                                            ("Pair", "Neigh", "Comm", "Modify", "Other")),
          steps / max(builds, 1), rows[0][3], rows[-1][3], 1e3 * rows[-1][4], pairs + walls, pairs,
          walls))
print("Granite run: %d steps, %.0f particles, dt = %.3g s, wall %.2f s (detection %.0f%%, setup "
      "%.0f%%, relaxation %.0f%%), %.1f steps per rebuild, contacts per particle %.2f "
      "(with walls, gaps up to contact.threshold), max penetration %.2g m" % (
          gsteps, particles, gdt, r["wall_seconds"],
          *(100 * t[k]["avg"] / r["wall_seconds"] for k in ("detection", "setup", "relaxation")),
          gsteps / max(r["neighbour_lists"]["rebuilds"], 1),
          r["final"]["contacts"] / r["final"]["particles"], r["final"]["max_penetration_m"]))
dus = loop * 1e6 / (steps * atoms)
fig = [("DEM, LAMMPS here (E = 10 MPa)", dus, dt), ("DEM, issue 18's figure", 0.14, 4e-6),
       ("Granite, channel_small", gus, gdt)]
print("%-32s %12s %10s %22s" % ("code", "us/p-step", "dt (s)", "core-s/(particle*sim-s)"))
for name, us, step in fig:
    print("%-32s %12.4f %10.3g %22.4f" % (name, us, step, us * 1e-6 / step))
cost = {name: us * 1e-6 / step for name, us, step in fig}
g = cost["Granite, channel_small"]
print("Granite / DEM here: %.2f per simulated second (%.1f per step); Granite / issue's DEM: %.2f"
      % (g / cost[fig[0][0]], gus / dus, g / cost[fig[1][0]]))
PY
