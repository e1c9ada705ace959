#!/usr/bin/env bash
# contact.model ccp: Gauss–Seidel against APGD (solver.method) in one run of this script (issue
# 15): configs/channel_ci.yaml (collisional, inflow and outflow) at 1 and 2 ranks to CCP error
# 1e-4 and 1e-6 (sweeps or iterations per step, relaxation and total wall time), then the
# resting pile of bench_pile (face-centred cubic, statically indeterminate).
# usage: benchmarks/ccp_solvers.sh [BUILD_DIR] [PILE: nx ny layers]  (default build 8 8 10;
#        about 5 minutes on 2 cores). docs/solvers.md has the figures.
set -euo pipefail
build=${1:-build}; nx=${2:-8}; ny=${3:-8}; layers=${4:-10}
root=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%-13s %5s %9s %12s %14s %12s %10s\n' method ranks tolerance sweeps/step relaxation_s total_s met
for tolerance in 1e-4 1e-6; do
  for method in gauss_seidel apgd; do
    for n in 1 2; do
      out=$tmp/$method-$n-$tolerance
      mpiexec -n "$n" --oversubscribe "$build/granite" run "$root/configs/channel_ci.yaml" --output "$out" \
        --quiet --set contact.model=ccp --set solver.method=$method --set solver.convergence=fc3d \
        --set solver.tolerance=$tolerance --set solver.max_sweeps=1000 > "$out.log"
      /usr/bin/python3 - "$out/run.json" "$method" "$n" "$tolerance" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
steps = r["steps"]["done"]
relaxation = r["timings"]["relaxation"]["max"]
print("%-13s %5s %9s %12.1f %14.2f %12.2f %10.3f" % (sys.argv[2], sys.argv[3], sys.argv[4],
      r["relaxation"]["sweeps"] / steps, relaxation, r["wall_seconds"], r["relaxation"]["fraction_converged"]))
PY
    done
  done
done
echo "== resting pile ($nx x $ny x $layers), contact.model ccp"
"$build/benchmarks/bench_pile" "$nx" "$ny" "$layers" 20 2 2000 2
