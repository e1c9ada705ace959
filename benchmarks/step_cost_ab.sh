#!/usr/bin/env bash
# Same-run A/B of the step's cost of two builds (issue 37: the sphere step within 3 % once
# shapes are in): runs CONFIG with binary A and binary B alternately, REPEATS times each, one
# rank, no output but the log, and prints each pair's wall times, their ratio B/A, and the
# median ratio with its spread (a shared, noisy machine: the pairs run back to back so that both
# see the same load; the median of the ratios is the figure).
# usage: benchmarks/step_cost_ab.sh A_BINARY B_BINARY [CONFIG] [END_TIME_S] [REPEATS]
#   (defaults: configs/channel_small.yaml, 0.1 s, 7 pairs; about 3 minutes)
set -euo pipefail
a=$1; b=$2
root=$(cd "$(dirname "$0")/.." && pwd)
config=${3:-$root/configs/channel_small.yaml}; end=${4:-0.1}; repeats=${5:-7}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
quiet=(--quiet --set output.snapshot_interval=0 --set output.snapshot_initial=false
       --set output.thermo_file=false --set output.checkpoint_interval=0 --set run.end_time="$end")
wall() {  # BINARY LABEL: the wall seconds of its closing "done:" line
  "$1" run "$config" --output "$tmp/$2" "${quiet[@]}" > "$tmp/$2.log" 2>&1
  sed -n 's/^done: [0-9]* steps in \([0-9.]*\) s wall.*/\1/p' "$tmp/$2.log"
}
echo "== $(basename "$config") to $end s, 1 rank: A = $a, B = $b"
ratios=()
for k in $(seq "$repeats"); do
  ta=$(wall "$a" a$k); tb=$(wall "$b" b$k)
  ratio=$(/usr/bin/python3 -c "print(f'{$tb / $ta:.4f}')")
  ratios+=("$ratio")
  echo "pair $k: A $ta s, B $tb s, B/A $ratio"
done
/usr/bin/python3 - "${ratios[@]}" <<'PY'
import statistics, sys
r = sorted(float(x) for x in sys.argv[1:])
print(f"B/A median {statistics.median(r):.4f} (min {r[0]:.4f}, max {r[-1]:.4f}, {len(r)} pairs)")
PY
