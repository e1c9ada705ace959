#!/usr/bin/env bash
# Issue 44's table: the dense lattice deck at growing N, Granite with the configuration defaults
# and with warm start and the fc3d test off, beside LAMMPS on the same lattice.
#
# The deck: touching spheres of radius 1 mm on a floor, simple cubic with spacing 2 mm, an
# n x n x n block (N = n^3), gravity, glass (2500 kg/m^3, friction 0.5), dt 1e-4 s, STEPS steps
# (default 30), 10 sweeps per step at most (solver.max_sweeps), one rank, no snapshots.
# Granite's contacts are the lattice's (contact.threshold 1e-8 m, so that side neighbours
# touch: 3 per particle less the boundary's).
#   defaults: the configuration defaults (mdp, warm start 1, fc3d convergence test)
#   lean:     solver.warm_start: 0, solver.convergence: impulse_change
# For each: µs per particle-step (run.json: the run's total less its output, over its steps)
# and the peak resident set per particle (run.json's high-water mark, ru_maxrss).
# LAMMPS (Debian's `lmp`, installed with apt-get if missing; skip with LAMMPS=0): the same
# lattice, pair gran/hooke/history (the contact history per pair), a granular floor, the same
# dt and steps; its peak resident set per particle from /usr/bin/time -v.
# usage: [LAMMPS=0] benchmarks/lattice_table.sh [BUILD_DIR] [SIDES] [STEPS]
#   SIDES: the lattice sides n (default "10 22 46 100": 10^3, ~10^4, ~10^5, 10^6 spheres;
#   the 10^6 runs take about 3 minutes and 2.5 GB each)
set -euo pipefail
build=${1:-build}; sides=${2:-"10 22 46 100"}; steps=${3:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
py() { /usr/bin/python3 -c "print($1)"; }
source "$(dirname "$0")/lib.sh"

if [ "${LAMMPS:-1}" = 1 ] && ! command -v lmp > /dev/null; then
  echo "== installing the Debian package lammps"
  apt-get install -y lammps > "$tmp/apt.log" 2>&1 \
    || { echo "apt-get install lammps failed: $(tail -1 "$tmp/apt.log")"; exit 1; }
fi

granite_row() {  # LABEL N OUT: µs per particle-step and KB per particle from OUT/run.json
  /usr/bin/python3 - "$3/run.json" "$1" "$2" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
t = run["timings"]
ps = run["steps"]["done"] * run["particles"]["final"]
step = t["total"]["avg"] - t["output"]["max"]
peak = run["memory"]["peak_resident_bytes"]["max"]
print(f"{sys.argv[2]:<10} {int(sys.argv[3]):>9} {1e6 * step / ps:10.3f} "
      f"{peak / run['particles']['final'] / 1e3:10.3f} {run['final']['contacts'] / run['particles']['final']:9.2f}")
PY
}

echo "== the dense lattice deck, $steps steps, 1 rank"
printf "%-10s %9s %10s %10s %9s\n" run N "us/p-step" "KB/part." contacts
for n in $sides; do
  lattice_deck "$n" "$steps" "$tmp/lattice.yaml"
  for setting in defaults lean; do
    args=(); [ $setting = lean ] && args=(--set solver.warm_start=0 --set solver.convergence=impulse_change)
    out=$tmp/$setting-$n
    "$build/granite" run "$tmp/lattice.yaml" --output "$out" --quiet "${args[@]}" > "$out.log" 2>&1 \
      || { echo "$setting at n = $n failed: $(tail -2 "$out.log")"; exit 1; }
    granite_row "$setting" $((n * n * n)) "$out"
    rm -rf "$out"
  done
  if [ "${LAMMPS:-1}" = 1 ]; then
    (cd "$tmp" && /usr/bin/time -v lmp -in "$root/benchmarks/lattice.lmp" -var n "$n" \
      -var steps "$steps" -log none > lammps-$n.log 2> lammps-$n.time) \
      || { echo "LAMMPS at n = $n failed: $(tail -2 "$tmp/lammps-$n.log")"; exit 1; }
    /usr/bin/python3 - "$tmp/lammps-$n.log" "$tmp/lammps-$n.time" "$n" "$steps" <<'PY'
import re, sys
log, timing = open(sys.argv[1]).read(), open(sys.argv[2]).read()
n, steps = int(sys.argv[3]), int(sys.argv[4])
atoms = int(re.search(r"Loop time of \S+ on \d+ procs for \d+ steps with (\d+) atoms", log).group(1))
loop = float(re.search(r"Loop time of (\S+)", log).group(1))
peak_kb = float(re.search(r"Maximum resident set size \(kbytes\): (\d+)", timing).group(1))
print(f"{'LAMMPS':<10} {atoms:>9} {1e6 * loop / (atoms * steps):10.3f} {peak_kb * 1.024 / atoms:10.3f} {'':>9}")
PY
  fi
done
echo "(us/p-step: wall time per particle-step, Granite's total less its output; KB/part.: the"
echo " peak resident set over the particles; contacts: per particle at the end)"
