#!/usr/bin/env bash
# Issue 42: is domain.balance auto (the default: dynamic, balance_every 100, threshold 1.1,
# adaptive) ever slower than equal cuts (none)? Each deck on 2 ranks, the two settings
# alternated REPEATS times in this one invocation (the machine is shared: compare within a
# row). Per row: the median wall time (run.json wall_seconds: the time loop, rank 0) of each, their
# ratio, and the relaxation time's max/mean over the ranks and rebalances of the auto runs.
# usage: benchmarks/balance_default.sh [BUILD_DIR] [REPEATS]   (default: build 2)
set -euo pipefail
build=${1:-build}; repeats=${2:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$root/benchmarks/lib.sh"

lattice_deck 40 60 "$tmp/lattice.yaml"  # 64 000 touching spheres: no cut can help
build_fill=$tmp/silo_fill_out
"$build/granite" run "$root/configs/silo_fill.yaml" --output "$build_fill" "${quiet[@]}" \
  > "$tmp/fill.log" 2>&1 || { echo "silo_fill failed: $(tail -1 "$tmp/fill.log")"; exit 1; }
# DECK|CONFIG|ARGS: every deck's own end time keeps a run at a few seconds.
decks=(
  "lattice 64000|$tmp/lattice.yaml|"
  "channel_small 0.2 s|$root/configs/channel_small.yaml|--set run.end_time=0.2"
  "silo_fill|$root/configs/silo_fill.yaml|"
  "silo_discharge|$root/configs/silo_discharge.yaml|--from $build_fill/checkpoint.h5 --set run.end_time=0.05"
  "hopper_stl 0.15 s|$root/configs/hopper_stl.yaml|--set run.end_time=0.15"
  "rotating_drum 0.3 s|$root/configs/rotating_drum.yaml|--set run.end_time=0.3"
  "brick_pile 0.1 s|$root/configs/brick_pile.yaml|--set run.end_time=0.1"
)
printf '%-20s %9s %9s %7s %14s %10s\n' deck none_s auto_s auto/none relax_max/mean rebalances
for deck in "${decks[@]}"; do
  IFS='|' read -r label config args <<< "$deck"
  for ((k = 0; k < repeats; ++k)); do
    for mode in none auto; do
      out=$tmp/run-$mode-$k
      rm -rf "$out"
      # shellcheck disable=SC2086
      mpiexec -n 2 "$build/granite" run "$config" --output "$out" "${quiet[@]}" $args \
        --set domain.balance=$mode > "$out.log" 2>&1 \
        || { echo "$label, $mode: run failed ($(tail -1 "$out.log"))"; continue 2; }
    done
  done
  /usr/bin/python3 - "$tmp" "$repeats" "$label" <<'PY'
import json, statistics, sys
tmp, repeats, label = sys.argv[1], int(sys.argv[2]), sys.argv[3]
runs = {m: [json.load(open(f"{tmp}/run-{m}-{k}/run.json")) for k in range(repeats)]
        for m in ("none", "auto")}
wall = {m: statistics.median(r["wall_seconds"] for r in runs[m]) for m in runs}
balance = runs["auto"][-1]["balance"]
print(f"{label:<20} {wall['none']:9.2f} {wall['auto']:9.2f} {wall['auto'] / wall['none']:7.3f} "
      f"{balance['relaxation_max_over_mean']:14.3f} {balance['rebalances']:10d}")
PY
done
