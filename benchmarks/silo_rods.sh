#!/usr/bin/env bash
# The silo of rods (issue 39; docs/scenarios.md, "Silo of rods"): configs/silo_rods.yaml, capsule
# rods of aspect 3 (L = 3 mm, d = 1 mm) discharging through a slot of width W. For each seed the
# fill is run once to the gate's opening (t = T_OPEN, one rank); each width then starts from that
# settled fill with --from (the gate open from the first step) and discharges for DISCHARGE
# seconds. scripts/silo_rods.py reads the runs: the steady discharge rate against W with a fit
# of Beverloo's law for a slot, the fraction of runs that clog, and the rods' nematic order and
# director over the orifice, in the flowing column and in the corners. One fill takes about
# 25 s and one discharge 30-45 s on one core; the default (4 seeds x 4 widths) about 13 minutes.
#
# usage: benchmarks/silo_rods.sh [BUILD_DIR] [OUT_DIR]      (default build, out/silo_rods)
#   env: SEEDS="1 2 3 4"  WIDTHS_MM="3 4.5 6 9"  T_OPEN=0.2  DISCHARGE=0.3
# OUT_DIR keeps every run, silo_rods.csv (one row per run), silo_rods.png (rate against W with
# the fit; clogging against W/L) and summary.txt (the printed tables).
set -euo pipefail
build=${1:-build}
out=${2:-out/silo_rods}
src=$(cd "$(dirname "$0")/.." && pwd)
config=$src/configs/silo_rods.yaml
seeds=${SEEDS:-1 2 3 4}
widths=${WIDTHS_MM:-3 4.5 6 9}
t_open=${T_OPEN:-0.2}
discharge=${DISCHARGE:-0.3}
silo=0.030   # m, the silo's width (walls at x = 0 and 0.030)
mkdir -p "$out"
quiet=(--quiet --overwrite --set output.snapshot_initial=false --set output.thermo_file=false)

# us per particle-step of a run (its wall time over steps x the mean of its initial and final
# particle counts, the figures of its closing `done:` line), from run.json
cost() {
  /usr/bin/python3 -c "
import json, sys; r = json.load(open(sys.argv[1] + '/run.json'))
steps = r['steps']['done']; n = 0.5 * (r['particles']['initial'] + r['particles']['final'])
print(f\"{1e6 * r['wall_seconds'] / max(steps * n, 1):.2f}\")" "$1"
}

runs=()
for seed in $seeds; do
  fill=$out/fill_s$seed
  start=$(date +%s)
  "$build/granite" run "$config" --output "$fill" "${quiet[@]}" --set run.seed="$seed" \
    --set run.end_time="$t_open" --set output.snapshot_interval=0 > "$fill.log" 2>&1 \
    || { echo "fill seed $seed failed: $(tail -2 "$fill.log")"; exit 1; }
  echo "fill seed $seed: $(( $(date +%s) - start )) s wall, $(cost "$fill") us/particle-step"
  for w in $widths; do
    a=$(/usr/bin/python3 -c "print(f'{($silo - $w * 1e-3) / 2:.6g}')")
    run=$out/W${w}_s$seed
    start=$(date +%s)
    "$build/granite" run "$config" --from "$fill/checkpoint.h5" --output "$run" "${quiet[@]}" \
      --set run.end_time="$discharge" --set output.snapshot_interval=0 \
      --set "bodies[2].half_extents=[$a, 0.01, 0.002]" \
      --set "bodies[3].half_extents=[$a, 0.01, 0.002]" \
      --set "bodies[4].active_until=1.0e-6" > "$run.log" 2>&1 \
      || { echo "W = $w mm seed $seed failed: $(tail -2 "$run.log")"; exit 1; }
    echo "W = $w mm seed $seed: $(( $(date +%s) - start )) s wall, $(cost "$run") us/particle-step"
    runs+=("$run")
  done
done
/usr/bin/python3 "$src/scripts/silo_rods.py" "${runs[@]}" --out "$out" | tee "$out/summary.txt"
