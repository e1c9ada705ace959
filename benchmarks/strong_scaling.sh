#!/usr/bin/env bash
# Strong scaling of configs/channel_small.yaml from t = 0 (issue 42's benchmark): 1 rank against
# 2 ranks with domain.balance dynamic, each 2-rank VARIANT (a label and --set options) beside
# the others, all rounds in one run of this script with the runs alternated, so that the
# machine's load falls on every variant alike. Each row: the median wall time of the rounds,
# the speedup (median 1-rank wall time over the row's), communication (average over the
# ranks, waiting included) as % of the wall time, its minimum over the ranks (what is not
# waiting for a slower rank), and the largest rank's relaxation time over the mean.
# usage: benchmarks/strong_scaling.sh [BUILD_DIR] [END_TIME] [ROUNDS] [VARIANT ...]
#        a VARIANT is "label:key=value,key=value" (default: the two solver.exchange modes).
#        docs/performance.md has the figures.
set -euo pipefail
build=${1:-build}; end=${2:-0.3}; rounds=${3:-3}; shift $(( $# < 3 ? $# : 3 ))
variants=("$@")
[ ${#variants[@]} -gt 0 ] || variants=("after_sweep:solver.exchange=after_sweep"
                                      "overlapped:solver.exchange=overlapped")
root=$(cd "$(dirname "$0")/.." && pwd)
config=$root/configs/channel_small.yaml
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$root/benchmarks/lib.sh"

# run OUT RANKS [KEY=VALUE...]: channel_small to $end into OUT on RANKS ranks.
run() {
  local out=$1 n=$2; shift 2
  local sets=(--set run.end_time="$end" --set domain.balance=dynamic)
  for kv in "$@"; do sets+=(--set "$kv"); done
  mpiexec -n "$n" "$build/granite" run "$config" --output "$out" "${quiet[@]}" "${sets[@]}" \
    > "$out.log" 2>&1 || { echo "$out: the run failed: $(tail -1 "$out.log")"; exit 1; }
}
for r in $(seq 1 "$rounds"); do
  echo "== round $r of $rounds"
  run "$tmp/one-$r" 1
  for k in "${!variants[@]}"; do
    IFS=, read -r -a sets <<< "${variants[$k]#*:}"
    run "$tmp/v$k-$r" 2 "${sets[@]}"
  done
done
labels=()
for v in "${variants[@]}"; do labels+=("${v%%:*}"); done
/usr/bin/python3 - "$tmp" "$rounds" "${labels[@]}" <<'PY'
import json, statistics, sys
tmp, rounds, labels = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
load = lambda name: [json.load(open(f"{tmp}/{name}-{r}/run.json")) for r in range(1, rounds + 1)]
one = statistics.median(r["wall_seconds"] for r in load("one"))
print(f"1 rank: median wall {one:.2f} s over {rounds} rounds")
print("%-14s %8s %8s %7s %9s %12s" % ("2 ranks", "wall_s", "speedup", "comm%", "comm_min%",
                                        "relax_max/avg"))
for k, label in enumerate(labels):
    runs = load(f"v{k}")
    wall = statistics.median(r["wall_seconds"] for r in runs)
    comm = statistics.median(r["timings"]["communication"]["avg"] / r["wall_seconds"] for r in runs)
    low = statistics.median(r["timings"]["communication"]["min"] / r["wall_seconds"] for r in runs)
    relax = statistics.median(r["timings"]["relaxation"]["max"] / r["timings"]["relaxation"]["avg"]
                              for r in runs)
    print("%-14s %8.2f %8.2f %7.1f %9.1f %12.3f" % (label, wall, one / wall, 100 * comm,
                                                     100 * low, relax))
PY
