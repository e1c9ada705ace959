#!/usr/bin/env bash
# Cost per particle-step of configs/channel_small.yaml with and without neighbour lists
# (contact.skin, issue 18), all measured in one run of this script from the same state:
#  1. channel_small is run to its steady state (SETTLE s, default 0.4 s, 1 rank) and its final
#     checkpoint kept;
#  2. each setting runs STEPS steps (default 500) from those particles (`granite run --from`):
#     skin 0 (a full search, migration and ghost rebuild every step) and each skin of SKINS, at
#     1 and 2 ranks.
#  Each row: us per particle-step (wall) and its split (detection, setup, relaxation,
#  communication; average over ranks), steps between rebuilds, ghosts and bytes sent per step
#  for ghosts and migration (all ranks).
#  With BASELINE=path/to/granite (a build from before a change), each setting runs with it
#  ("before") and with BUILD_DIR's ("after"), alternately REPEAT times (default 1); a closing
#  table gives each column's minimum over the repeats (the run least disturbed by other load
#  on the machine) before and after, and after/before.
#  Extra `--set KEY=VALUE` arguments (space-separated words): SETTLE_SET for the settling run,
#  SET for every measured run, BASELINE_SET for the "before" runs only (after SET). The same
#  binary as BASELINE with BASELINE_SET compares two settings of one build, e.g. the locality
#  sort: BASELINE=build/granite BASELINE_SET="--set contact.locality_sort=none"
#  SETTLE_SET="--set contact.locality_sort=none" (the settled order is then a long run's).
# usage: [BASELINE=GRANITE] [REPEAT=N] [SET=..] [BASELINE_SET=..] [SETTLE_SET=..] benchmarks/neighbour_lists.sh [BUILD_DIR] [SETTLE_S] [STEPS] [SKINS] [RANKS]
#        (default: build 0.4 500 "1e-4 2e-4 4e-4 8e-4" "1 2"; about 15 minutes on a quiet
#        2-core machine). docs/performance.md has the figures.
set -euo pipefail
build=${1:-build}; settle_time=${2:-0.4}; steps=${3:-500}; skins=${4:-"1e-4 2e-4 4e-4 8e-4"}
ranks=${5:-"1 2"}
root=$(cd "$(dirname "$0")/.." && pwd)
config=$root/configs/channel_small.yaml
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$root/benchmarks/lib.sh"  # settle, quiet

read -ra settle_set <<< "${SETTLE_SET:-}"
read -ra set_all <<< "${SET:-}"
read -ra set_before <<< "${BASELINE_SET:-}"
settle "$config" "$settle_time" "$tmp/settle" "${settle_set[@]}"
end=$(/usr/bin/python3 -c "print($steps * $dt)")

printf '%-6s %-7s %-6s %10s %9s %9s %9s %9s %12s %9s %12s\n' ranks skin_m binary us/p-step detect setup relax comm steps/build ghosts bytes/step
# row RANKS SKIN LABEL GRANITE [REP]: one run from the settled particles, one line of figures
# (also kept in $tmp/LABEL-RANKS-SKIN-REP.fig for the closing table).
row() {
  local n=$1 skin=$2 label=$3 exe=$4 out=$tmp/run-$3-$1-$2-${5:-1} extra=("${set_all[@]}")
  [[ $label == before ]] && extra+=("${set_before[@]}")
  mpiexec -n "$n" --oversubscribe "$exe" run "$config" --from "$tmp/settle/checkpoint.h5" \
    --output "$out" "${quiet[@]}" --set run.end_time="$end" --set contact.skin="$skin" \
    "${extra[@]}" > "$out.log" 2>&1 || { echo "$n rank(s), skin $skin, $label: run failed ($(tail -1 "$out.log"))"; return; }
  /usr/bin/python3 - "$out/run.json" "$n" "$skin" "$label" "$tmp/$label-$n-$skin-${5:-1}.fig" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
steps = r["steps"]["done"]
particles = 0.5 * (r["particles"]["initial"] + r["particles"]["final"])
scale = 1e6 / (steps * particles) * int(sys.argv[2])  # core-us per particle-step
t = r["timings"]
nl = r["neighbour_lists"]
fig = [r["wall_seconds"] * scale] + [t[k]["avg"] * scale for k in
       ("detection", "setup", "relaxation", "communication")] + [
       steps / max(nl["rebuilds"], 1), nl["ghosts_per_step"], nl["ghost_bytes_per_step"]]
open(sys.argv[5], "w").write(" ".join(map(repr, fig)))
print("%-6s %-7s %-6s %10.3f %9.3f %9.3f %9.3f %9.3f %12.1f %9.0f %12.0f" % (
    tuple(sys.argv[2:5]) + tuple(fig)))
PY
}
# summary RANKS SKIN: each column's minimum over the repeats, before and after, and their ratio.
summary() {
  /usr/bin/python3 - "$1" "$2" "$tmp" <<'PY'
import glob, sys
n, skin, tmp = sys.argv[1:4]
def least(label):
    rows = [list(map(float, open(f).read().split()))
            for f in sorted(glob.glob("%s/%s-%s-%s-*.fig" % (tmp, label, n, skin)))]
    return [min(c) for c in zip(*rows)] if rows else None
b, a = least("before"), least("after")
if b and a:
    fmt = "%-6s %-7s %-6s %10.3f %9.3f %9.3f %9.3f %9.3f %12.3f %9.3f %12.3f"
    for label, fig in (("before", b), ("after", a),
                       ("ratio", [x / y if y else float("nan") for x, y in zip(a, b)])):
        print(fmt % ((n, skin, label) + tuple(fig)))
PY
}
for n in $ranks; do
  for skin in 0 $skins; do
    if [[ -n ${BASELINE:-} ]]; then
      for ((rep = 1; rep <= ${REPEAT:-1}; ++rep)); do
        row "$n" "$skin" before "$BASELINE" "$rep"
        row "$n" "$skin" after "$build/granite" "$rep"
      done
    else
      row "$n" "$skin" build "$build/granite"
    fi
  done
done
if [[ -n ${BASELINE:-} ]]; then
  echo "== minimum over ${REPEAT:-1} repeat(s) of each column, before and after, and after/before"
  for n in $ranks; do
    for skin in 0 $skins; do summary "$n" "$skin"; done
  done
fi
