#!/usr/bin/env bash
# Rolling and spinning resistance in runs (docs/solvers.md), end to end:
#  1. configs/column_collapse.yaml with rolling and spinning friction at 2 ranks (cut across x,
#     every default on): stopped at 0.25 s, after the gate has opened and the spheres have
#     crossed the cut, restarted from its checkpoint; at 0.3 s the snapshot equals the
#     uninterrupted run's bit for bit (the torques start from zero every step);
#  2. rolling friction with a model or method that has no torque block (ccp, APGD, the
#     compatible pass) is one error line naming the material, exit code 2, at 1 and 2 ranks.
# usage: rolling_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
compare="/usr/bin/python3 $src/tests/support/compare_snapshots.py"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

column=$src/configs/column_collapse.yaml
rolling=(--set "materials[0].rolling_friction=0.1" --set "materials[1].rolling_friction=0.1"
         --set "materials[0].spinning_friction=0.05" --set "materials[1].spinning_friction=0.05")
run() {  # OUT END [ARGS...]
  local out=$1 end=$2; shift 2
  mpiexec -n 2 --oversubscribe "$granite" run "$column" --output "$out" "${rolling[@]}" \
    --set "domain.decomposition=[2, 1, 1]" --set run.end_time="$end" \
    --set output.snapshot_interval=0.05 "$@" > "$out.log" 2>&1 \
    || fail "column to $end s $*: $(tail -3 "$out.log")"
}
run "$tmp/full" 0.3
run "$tmp/short" 0.25
run "$tmp/short" 0.3 --restart "$tmp/short/checkpoint.h5"
$compare "$tmp/full/snapshot_00003000.h5" "$tmp/short/snapshot_00003000.h5" \
  || fail "the restart differs from the uninterrupted run"
grep -q "ghosts: [1-9]" "$tmp/full.log" || fail "no ghosts on 2 ranks: $(grep ghosts "$tmp/full.log")"

for bad in "contact.model=ccp" "contact.model=ccp solver.method=apgd"; do
  sets=(); for kv in $bad; do sets+=(--set "$kv"); done
  for n in 1 2; do
    out=$(mpiexec -n $n --oversubscribe "$granite" run "$column" --output "$tmp/bad" "${rolling[@]}" \
          "${sets[@]}" 2>&1)
    rc=$?
    [ "$rc" -eq 2 ] || fail "$bad at $n ranks: exit code $rc, expected 2: $out"
    lines=$(grep -c "^error: " <<<"$out")
    [ "$lines" -ge 1 ] && [ "$lines" -le "$n" ] || fail "$bad at $n ranks: $lines error lines: $out"
    grep -q "materials\[0\] 'wall': rolling_friction and spinning_friction need contact.model mdp or coulomb" <<<"$out" \
      || fail "$bad at $n ranks: $out"
  done
done

[ "$failures" -eq 0 ] && echo "rolling: all checks passed"
exit $((failures > 0))
