#!/usr/bin/env bash
# Weak scaling 1 -> 2 ranks of the distributed step (same particles per rank): the efficiency
# t(1)/t(2), and the machine's own share of the loss: two independent 1-rank runs at once
# (unbound, so that they take both cores), whose time per step over one run alone is the
# efficiency two ranks would have with no exchange and no imbalance at all (they share the
# memory bandwidth and the last-level cache). ROUNDS rounds, each of the three runs in turn;
# the medians are reported, and the 2-rank efficiency also against that ceiling.
# usage: [ROUNDS=3] benchmarks/weak_scaling.sh [BUILD_DIR] [nx ny nz steps [exchange]]
#        (exchange: solver.exchange's modes; auto, the default, is after_sweep on this one node)
set -euo pipefail
build=${1:-build}; shift || true
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
bench=$build/benchmarks/bench_weak_scaling
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
seconds() { sed -n 's/^RESULT ranks=[0-9]* seconds_per_step=//p' "$@"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
for r in $(seq "${ROUNDS:-3}"); do
  mpiexec -n 1 "$bench" "$@" > "$tmp/one.$r"
  for k in 1 2; do mpiexec --bind-to none -n 1 "$bench" "$@" > "$tmp/both.$r.$k" & done
  wait
  mpiexec -n 2 "$bench" "$@" > "$tmp/two.$r"
  echo "round $r: 1 rank $(seconds "$tmp/one.$r") s per step, two 1-rank runs at once" \
       "$(seconds "$tmp/both.$r.1" "$tmp/both.$r.2" | sort -g | tail -1) s, 2 ranks $(seconds "$tmp/two.$r") s"
done
cat "$tmp/two.1"  # the phases of a 2-rank run
one=$(seconds "$tmp"/one.* | median)
two=$(seconds "$tmp"/two.* | median)
both=$(for f in "$tmp"/both.*.1; do seconds "$f" "${f%.1}.2" | sort -g | tail -1; done | median)
awk -v a="$one" -v b="$two" -v c="$both" 'BEGIN {
  printf "weak-scaling efficiency 1 -> 2 ranks: %.1f %% (medians %.4f / %.4f s per step)\n", 100 * a / b, a, b
  printf "two independent 1-rank runs at once: %.1f %% of one alone (the machine'"'"'s ceiling)\n", 100 * a / c
  printf "2-rank efficiency against that ceiling: %.1f %%\n", 100 * c / b }'
