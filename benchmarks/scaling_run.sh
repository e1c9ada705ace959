#!/usr/bin/env bash
# Scaling benchmark driver: runs a configuration at each rank count on this machine and writes
# one JSON record per run (format: cluster/README.md: ranks, decomposition, particles,
# contacts, steps, per-phase min/avg/max, bytes per sweep), then the speedup/efficiency table,
# CSV and PNG (scripts/scaling_collect.py). On a cluster use cluster/scaling_study.py instead.
# usage: benchmarks/scaling_run.sh [BUILD_DIR] [CONFIG] [RANKS] [OUT_DIR] [--set KEY=VALUE ...]
#   defaults: build configs/channel_ci.yaml "1 2" out/scaling
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-build}; config=${2:-$root/configs/channel_ci.yaml}; ranks=${3:-1 2}
out=${4:-$root/out/scaling}; shift $(( $# < 4 ? $# : 4 ))
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1
mkdir -p "$out"
for n in $ranks; do
  log="$out/granite-np$n.log"
  mpiexec -n "$n" --oversubscribe "$build/granite" run "$config" --output "$out/np$n" \
    --set output.snapshot_interval=0 "$@" > "$log"
  /usr/bin/python3 "$root/scripts/scaling_collect.py" record "$out/np$n" --mode strong \
    --out "$out/record-np$n.json"
done
/usr/bin/python3 "$root/scripts/scaling_collect.py" report "$out"/record-np*.json --mode strong \
  --out "$out/scaling"
