#!/usr/bin/env bash
# The relaxation's cost with and without rolling resistance (issue 38's benchmark):
# configs/column_collapse.yaml from rest to END (default 0.1 s: the column settling behind its
# gate, 249 spheres, about 500 contacts) on one rank, for each contact model and method, once
# with μ_r = 0.1, μ_s = 0.05 on both materials and once without. Prints the relaxation phase's
# time, its sweeps (or APGD iterations), the time per contact-sweep (with the final step's
# contact count), and the ratio of each
# run to mdp without rolling resistance measured in the same invocation (the machine is shared:
# compare ratios, not seconds).
# usage: benchmarks/rolling_cost.sh [BUILD_DIR] [END]
set -euo pipefail
build=${1:-build}
end=${2:-0.1}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
rolling=(--set "materials[0].rolling_friction=0.1" --set "materials[1].rolling_friction=0.1"
         --set "materials[0].spinning_friction=0.05" --set "materials[1].spinning_friction=0.05")
printf "%-20s %-8s %10s %8s %12s %12s %8s\n" model rolling relax[s] sweeps contacts ns/c-sweep ratio
base=""
for setting in "mdp" "coulomb" "ccp" "ccp apgd"; do
  read -r model method <<<"$setting"
  sets=(--set "contact.model=$model")
  [ -n "${method:-}" ] && sets+=(--set "solver.method=$method")
  for with in no yes; do
    extra=(); [ "$with" = yes ] && extra=("${rolling[@]}")
    log="$tmp/$model-${method:-gs}-$with.log"
    "$build/granite" run "$src/configs/column_collapse.yaml" --output "$tmp/out" \
      --set run.end_time="$end" "${sets[@]}" "${extra[@]}" > "$log" 2>&1 \
      || { echo "$setting rolling=$with: the run failed: $(tail -2 "$log")"; exit 1; }
    read -r relax sweeps contacts ns < <(/usr/bin/python3 -c "
import json
r = json.load(open('$tmp/out/run.json'))
relax, sweeps, contacts = r['timings']['relaxation']['avg'], r['relaxation']['sweeps'], r['final']['contacts']
print(f'{relax:.3f} {sweeps} {contacts} {1e9 * relax / max(sweeps * contacts, 1):.0f}')")
    [ -z "$base" ] && base=$relax
    ratio=$(/usr/bin/python3 -c "print(f'{$relax / $base:.2f}')")
    printf "%-20s %-8s %10s %8s %12s %12s %8s\n" "$setting" "$with" "$relax" "$sweeps" \
      "$contacts" "$ns" "$ratio"
  done
done
