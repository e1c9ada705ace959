#!/usr/bin/env bash
# Time per step and per particle-step of configs/channel_small.yaml at 1 and 2 ranks (same
# invocation, back to back), with the phase breakdown, and the extrapolated wall time of
# configs/channel_paper.yaml (docs/performance.md states the model), with the load imbalance of
# its grid taken from the 1-rank run's final snapshot.
# usage: benchmarks/channel_small.sh [BUILD_DIR] [END_TIME_S]   (default build, 0.8: the whole
# run, steady from 0.4 s; about 5 minutes)
set -euo pipefail
build=${1:-build}; end=${2:-0.8}
root=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for n in 1 2; do
  mpiexec -n "$n" --oversubscribe "$build/granite" run "$root/configs/channel_small.yaml" \
    --output "$tmp/np$n" --set run.end_time="$end" --set output.snapshot_interval=0 > "$tmp/np$n.log"
  echo "== channel_small, $n rank(s), end_time $end s"
  sed -n '/^done:/,$p' "$tmp/np$n.log"
done
# The last snapshot of the 1-rank run: the load imbalance of the paper's grids (equal and
# balanced cuts, docs/load_balance.md).
last=$(ls "$tmp"/np1/snapshot_*.h5 | tail -1)
/usr/bin/python3 "$root/benchmarks/extrapolate_channel.py" "$tmp/np1" "$tmp/np1/statistics.csv" "$tmp/np2" "$last"
