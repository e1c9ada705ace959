#!/usr/bin/env bash
# Issue 44: the scale on this machine. The dense lattice deck of lattice_table.sh (touching
# spheres of radius 1 mm, simple cubic with spacing 2 mm, an n x n x n block on a floor,
# gravity, dt 1e-4 s, at most 10 sweeps per step) with the configuration defaults:
#   1. on 2 ranks, STEPS steps, a checkpoint at the end;
#   2. that checkpoint continued (--restart) on 1 rank and on 3 ranks, STEPS more steps each:
#      another rank count, so each rank reads about 1/P of the particle and history rows and
#      sends each to its owner.
# For each run: µs per particle-step (run.json: the run's total less its output, over its steps),
# the peak resident set per rank and per particle; for the restarts, the most particle and
# history rows one rank read (run.json restart.rows_read_max) and the bytes that is (the
# checkpoint's bytes per row of /particles and of /contact_history).
# usage: benchmarks/large_run.sh [BUILD_DIR] [SIDE] [STEPS]
#   SIDE: the lattice side n (default 216: 1.0e7 spheres, about 21 GB in all; 100: 1e6)
set -euo pipefail
build=${1:-build}; n=${2:-216}; steps=${3:-10}
work=${WORK:-$(mktemp -d)}; [ -n "${WORK:-}" ] || trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
py() { /usr/bin/python3 -c "print($1)"; }
source "$(dirname "$0")/lib.sh"

lattice_deck "$n" "$steps" "$work/lattice.yaml"

row() {  # LABEL RANKS OUT [CHECKPOINT]
  /usr/bin/python3 - "$3/run.json" "$1" "$2" "${4:-}" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))
label, ranks, checkpoint = sys.argv[2], int(sys.argv[3]), sys.argv[4]
t = run["timings"]
n = run["particles"]["final"]
steps = run["steps"]["done"]
step = t["total"]["avg"] - t["output"]["max"]
peak = run["memory"]["peak_resident_bytes"]["max"]
line = (f"{label:<16} {ranks:>5} {n:>10} {1e6 * step / (n * steps):10.3f} "
        f"{peak / 1e9:9.2f} {peak * ranks / n / 1e3:9.3f}")
if checkpoint:
    import h5py
    f = h5py.File(checkpoint, "r")
    def row_bytes(group):
        return sum(d.dtype.itemsize * (d.shape[1] if len(d.shape) > 1 else 1)
                   for d in f[group].values())
    read = run["restart"]["rows_read_max"]
    total = f["particles/id"].shape[0]
    read_bytes = read["particles"] * row_bytes("particles") + read["history"] * row_bytes("contact_history")
    line += (f"  {read['particles']:>9} of {total} particle rows, {read['history']:>9} history rows"
             f" ({read_bytes / 1e6:.0f} MB) read by one rank")
print(line)
PY
}

echo "== the dense lattice deck, $((n * n * n)) spheres, $steps steps per run, configuration defaults"
printf "%-16s %5s %10s %10s %9s %9s\n" run ranks N "us/p-step" "GB/rank" "KB/part."
mpirun --oversubscribe -n 2 "$build/granite" run "$work/lattice.yaml" --output "$work/first" \
  --quiet > "$work/first.log" 2>&1 || { echo "first run failed: $(tail -2 "$work/first.log")"; exit 1; }
row "2 ranks" 2 "$work/first"
for ranks in 1 3; do
  cp -r "$work/first" "$work/restart$ranks"
  mpirun --oversubscribe -n $ranks "$build/granite" run "$work/lattice.yaml" \
    --output "$work/restart$ranks" --restart "$work/restart$ranks/checkpoint.h5" \
    --set "run.end_time=$(py "2 * $steps * 1e-4")" --quiet > "$work/restart$ranks.log" 2>&1 \
    || { echo "restart on $ranks stopped: $(grep -m1 '^error' "$work/restart$ranks.log" \
           || tail -2 "$work/restart$ranks.log")"; rm -rf "$work/restart$ranks"; continue; }
  row "restart on $ranks" $ranks "$work/restart$ranks" "$work/first/checkpoint.h5"
  rm -rf "$work/restart$ranks"
done
