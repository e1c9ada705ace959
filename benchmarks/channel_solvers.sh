#!/usr/bin/env bash
# Solver settings on the steady channel flow of configs/channel_small.yaml (issues 14 and 15),
# all measured in one run of this script from the same state:
#  1. channel_small is run to its steady state (SETTLE s, default 0.4 s, 1 rank, mdp) and its
#     final checkpoint kept;
#  2. each setting runs STEPS steps (default 250) from those particles (`granite run --from`):
#     - issue 14: mdp, warm start 0/1 x every solver.ordering, fc3d 1e-3 and 1e-4, 1 rank;
#     - issue 15: contact.model ccp, Gauss-Seidel against APGD, CCP error 1e-4 and 1e-6, at
#       1 and 2 ranks.
#  Each row: mean sweeps (or APGD iterations) per step, fraction of steps that met the
#  tolerance (max_sweeps 1000), relaxation seconds (largest rank) and wall seconds.
# usage: benchmarks/channel_solvers.sh [BUILD_DIR] [SETTLE_S] [STEPS] [PARTS]
#        PARTS: 14, 15 or "14 15" (default both). About 20 minutes on a quiet 2-core machine.
#        docs/accuracy.md and docs/solvers.md have the figures.
set -euo pipefail
build=${1:-build}; settle_time=${2:-0.4}; steps=${3:-250}; parts=${4:-"14 15"}
root=$(cd "$(dirname "$0")/.." && pwd)
config=$root/configs/channel_small.yaml
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$root/benchmarks/lib.sh"  # settle, quiet

settle "$config" "$settle_time" "$tmp/settle"
end=$(/usr/bin/python3 -c "print($steps * $dt)")
/usr/bin/python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("# steady state: %d particles" % r["particles"]["final"])' \
  "$tmp/settle/run.json" 2>/dev/null || true

# row LABEL RANKS ARGS...: one run from the settled particles, one line of figures.
row() {
  local label=$1 n=$2; shift 2
  local out=$tmp/run-$RANDOM
  mpiexec -n "$n" --oversubscribe "$build/granite" run "$config" --from "$tmp/settle/checkpoint.h5" \
    --output "$out" "${quiet[@]}" --set run.end_time="$end" --set solver.max_sweeps=1000 "$@" \
    > "$out.log" 2>&1 || { echo "$label: run failed ($(tail -1 "$out.log"))"; return; }
  /usr/bin/python3 - "$out/run.json" "$label" "$n" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
steps = r["steps"]["done"]
print("%-34s %5s %12.1f %8.3f %14.2f %10.2f" % (sys.argv[2], sys.argv[3],
      r["relaxation"]["sweeps"] / steps, r["relaxation"]["fraction_converged"],
      r["timings"]["relaxation"]["max"], r["wall_seconds"]))
PY
}

header() { printf '%-34s %5s %12s %8s %14s %10s\n' setting ranks sweeps/step met relaxation_s wall_s; }

if [[ " $parts " == *" 14 "* ]]; then
  echo "== issue 14: mdp, warm start x ordering, $steps steps"
  header
  for tolerance in 1e-3 1e-4; do
    for warm in 0 1; do
      for ordering in detection symmetric gravity random; do
        row "fc3d $tolerance warm $warm $ordering" 1 --set solver.convergence=fc3d \
          --set solver.tolerance=$tolerance --set solver.warm_start=$warm --set solver.ordering=$ordering
      done
    done
  done
fi
if [[ " $parts " == *" 15 "* ]]; then
  echo "== issue 15: contact.model ccp, Gauss-Seidel vs APGD, $steps steps"
  header
  for tolerance in 1e-4 1e-6; do
    for method in gauss_seidel apgd; do
      for n in 1 2; do
        row "ccp $method $tolerance" "$n" --set contact.model=ccp --set solver.method=$method \
          --set solver.convergence=fc3d --set solver.tolerance=$tolerance --set solver.warm_start=0
      done
    done
  done
fi
