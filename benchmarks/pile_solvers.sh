#!/usr/bin/env bash
# contact.model ccp on a settled resting pile (issue 15): Gauss-Seidel against APGD at 1 and 2
# ranks, measured in one run of this script from the same state:
#  1. configs/resting_pile.yaml (2 149 glass spheres, random fill in a 2 cm box) falls and
#     settles under gravity to rest (mdp, warm start, 1 rank: between ranks the relaxation is
#     Jacobi, which settles a pile more slowly) and its final
#     checkpoint is kept (or FROM, a checkpoint of an earlier settling, is used instead);
#  2. each setting runs a few steps from those particles (`granite run --from`) with
#     contact.model ccp, solver.method gauss_seidel | apgd, solver.convergence fc3d (the CCP
#     error for ccp), cold start, tolerance 1e-4 (STEPS4 steps) and 1e-6 (STEPS6 steps), at most
#     CAP sweeps or iterations per step, at 1 and 2 ranks.
#  Then, at 1 rank, the same with warm start (solver.warm_start 1, the default of the
#  configurations) and, for reference, the default model (mdp, Gauss-Seidel, fc3d error) cold.
#  Each row: mean sweeps (APGD: iterations) per step, fraction of steps that met the tolerance,
#  the largest CCP error of a step, relaxation and communication seconds (largest rank) and
#  wall seconds.
# usage: benchmarks/pile_solvers.sh [BUILD_DIR] [STEPS4] [STEPS6] [CAP] [FROM] [PARTS]
#        PARTS: any of cold, warm, mdp (default all)
#        (defaults build 10 4 5000; about 15 minutes on the shared 2-core machine under load,
#        of which the settling takes 2). docs/solvers.md has the figures.
set -euo pipefail
build=${1:-build}; steps4=${2:-10}; steps6=${3:-4}; cap=${4:-5000}; from=${5:-}
parts=${6:-"cold warm mdp"}
root=$(cd "$(dirname "$0")/.." && pwd)
config=$root/configs/resting_pile.yaml
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
quiet=(--quiet --set output.snapshot_interval=0 --set output.snapshot_initial=false
       --set output.thermo_file=false --set output.checkpoint_interval=0)
# 2 ranks side by side (x), both holding half of the pile: the default cut of this tall box is
# horizontal and would leave the upper rank empty once the pile has settled.
decomposition() { [ "$1" -eq 2 ] && echo "--set domain.decomposition=[2,1,1]" || true; }

if [ -z "$from" ]; then
  echo "== settling configs/resting_pile.yaml (1 rank, mdp, warm start)"
  nice "$build/granite" run "$config" --output "$tmp/settle" "${quiet[@]}" > "$tmp/settle.log"
  from=$tmp/settle/checkpoint.h5
  /usr/bin/python3 - "$tmp/settle/run.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("# settled: %d particles, %.0f s wall; fc3d error of the steps: median %.2e, max %.2e"
      % (r["particles"]["final"], r["wall_seconds"], r["relaxation"]["fc3d_error"]["median"],
         r["relaxation"]["fc3d_error"]["max"]))
PY
fi
dt=1.0e-4  # run.dt of configs/resting_pile.yaml

# row LABEL RANKS STEPS ARGS...: one run from the settled particles, one line of figures.
row() {
  local label=$1 n=$2 steps=$3; shift 3
  local out=$tmp/run-$RANDOM
  nice mpiexec -n "$n" --oversubscribe "$build/granite" run "$config" --from "$from" \
    --output "$out" "${quiet[@]}" $(decomposition "$n") \
    --set run.end_time="$(/usr/bin/python3 -c "print($steps * $dt)")" --set solver.max_sweeps="$cap" "$@" \
    > "$out.log" 2>&1 || { echo "$label: run failed ($(tail -1 "$out.log"))"; return; }
  /usr/bin/python3 - "$out/run.json" "$label" "$n" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
steps = r["steps"]["done"]
x = r["relaxation"]
t = r["timings"]
print("%-26s %5s %5d %12.1f %8.3f %10.2e %14.2f %10.2f %10.2f" % (sys.argv[2], sys.argv[3], steps,
      x["sweeps"] / steps, x["fraction_converged"], x["fc3d_error"]["max"],
      t["relaxation"]["max"], t["communication"]["max"], r["wall_seconds"]))
PY
}

header() {
  printf '%-26s %5s %5s %12s %8s %10s %14s %10s %10s\n' setting ranks steps sweeps/step met \
    error_max relaxation_s comm_s wall_s
}
# ccp_rows WARM_START RANKS...: Gauss-Seidel and APGD to 1e-4 and 1e-6 with contact.model ccp.
ccp_rows() {
  local warm=$1 n suffix=""; shift
  [ "$warm" = 1 ] && suffix=" warm"
  header
  for tolerance in 1e-4 1e-6; do
    steps=$steps4; [ "$tolerance" = 1e-6 ] && steps=$steps6
    for method in gauss_seidel apgd; do
      for n in "$@"; do
        row "ccp $method $tolerance$suffix" "$n" "$steps" \
          --set contact.model=ccp --set solver.method=$method --set solver.convergence=fc3d \
          --set solver.tolerance=$tolerance --set solver.warm_start="$warm"
      done
    done
  done
}
if [[ " $parts " == *" cold "* ]]; then
  echo "== contact.model ccp, cold start, at most $cap sweeps or iterations per step"
  ccp_rows 0 1 2
fi
if [[ " $parts " == *" warm "* ]]; then
  echo "== contact.model ccp, warm start (solver.warm_start 1, the configurations' default), 1 rank"
  ccp_rows 1 1
fi
if [[ " $parts " == *" mdp "* ]]; then
  echo "== reference: contact.model mdp (Gauss-Seidel, fc3d error), cold start, 1 rank"
  header
  for tolerance in 1e-4 1e-6; do
    steps=$steps4; [ "$tolerance" = 1e-6 ] && steps=$steps6
    row "mdp gauss_seidel $tolerance" 1 "$steps" --set contact.model=mdp \
      --set solver.convergence=fc3d --set solver.tolerance=$tolerance --set solver.warm_start=0
  done
fi
