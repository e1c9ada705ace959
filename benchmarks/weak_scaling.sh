#!/usr/bin/env bash
# Weak scaling 1 -> 2 ranks of the distributed step (same particles per rank) and the
# efficiency t(1)/t(2), measured back to back in one invocation.
# usage: benchmarks/weak_scaling.sh [BUILD_DIR] [nx ny nz steps]
set -euo pipefail
build=${1:-build}; shift || true
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
declare -A t
for n in 1 2; do
  out=$(mpiexec -n "$n" --oversubscribe "$build/benchmarks/bench_weak_scaling" "$@")
  echo "$out"
  t[$n]=$(sed -n 's/^RESULT ranks=[0-9]* seconds_per_step=//p' <<<"$out")
done
awk -v a="${t[1]}" -v b="${t[2]}" 'BEGIN { printf "weak-scaling efficiency 1 -> 2 ranks: %.1f %%\n", 100 * a / b }'
