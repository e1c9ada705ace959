#!/usr/bin/env bash
# Rolling and spinning resistance in runs (docs/solvers.md), end to end:
#  1. configs/column_collapse.yaml with rolling and spinning friction at 2 ranks (cut across x,
#     every default on): stopped at 0.25 s, after the gate has opened and the spheres have
#     crossed the cut, restarted from its checkpoint; at 0.3 s the snapshot equals the
#     uninterrupted run's bit for bit (the torques start from zero every step);
#  2. the torque impulses in /contacts within their bounds;
#  3. rolling friction with a model or method that has no torque block (frictionless,
#     polyhedral, Lemke, the compatible pass) is one error line naming the material, exit code
#     2, at 1 and 2 ranks;
#  4. the cone complementarity model's joint blocks (solver/rolling_ccp.hpp): the Gauss–Seidel
#     restart at 2 ranks bit for bit as in 1, and APGD's torques within their bounds as in 2.
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
restarts_bitwise() {  # NAME END STOP [ARGS...]: full run to END s against a restart from STOP s
  local name=$1 end=$2 stop=$3; shift 3
  local last; last=$(printf "snapshot_%08d.h5" "$(/usr/bin/python3 -c "print(round($end / 1e-4))")")
  run "$tmp/$name-full" "$end" "$@"
  run "$tmp/$name-short" "$stop" "$@"
  run "$tmp/$name-short" "$end" --restart "$tmp/$name-short/checkpoint.h5" "$@"
  $compare "$tmp/$name-full/$last" "$tmp/$name-short/$last" \
    || fail "$name: the restart differs from the uninterrupted run"
  grep -q "ghosts: [1-9]" "$tmp/$name-full.log" \
    || fail "$name: no ghosts on 2 ranks: $(grep ghosts "$tmp/$name-full.log")"
}
restarts_bitwise mdp 0.3 0.25

# 2. /contacts/torque_impulse: every torque within its bounds, μ_r R* λ_n across the normal and
#    μ_s R* λ_n about it (R* = r r'/(r + r') from the two bodies' radii, r for the walls), to
#    1e-12 of the bound; some at their bound (rolling spheres), some inside (at rest).
torques_within_bounds() {  # NAME END MIN_INSIDE [ARGS...]
  local name=$1 end=$2 min_inside=$3; shift 3
  local last; last=$(printf "snapshot_%08d.h5" "$(/usr/bin/python3 -c "print(round($end / 1e-4))")")
  mpiexec -n 2 --oversubscribe "$granite" run "$column" --output "$tmp/$name" "${rolling[@]}" \
    --set run.end_time="$end" --set output.snapshot_interval=0.01 --set output.contacts=true "$@" \
    > "$tmp/$name.log" 2>&1 || fail "$name with /contacts: $(tail -3 "$tmp/$name.log")"
  /usr/bin/python3 - "$tmp/$name/$last" "$min_inside" <<'EOF' || fail "$name: the torque impulses in /contacts"
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as f:
    c, p = f["contacts"], f["particles"]
    radius = dict(zip(p["id"][:], p["radius"][:]))
    torque, impulse, normal = c["torque_impulse"][:], c["impulse"][:], c["normal"][:]
    body1, body2 = c["body1"][:], c["body2"][:]
    assert np.allclose(c["torque"][:], torque / 1e-4, rtol=1e-12, atol=0), "torque = impulse / dt"
r1 = np.array([radius[b] for b in body1])
r2 = np.array([radius[b] if b >= 0 else np.inf for b in body2])
effective = 1.0 / (1.0 / r1 + 1.0 / r2)
lam = np.einsum("ij,ij->i", impulse, normal)
spin = np.einsum("ij,ij->i", torque, normal)
roll = np.linalg.norm(torque - spin[:, None] * normal, axis=1)
rolling_bound, spin_bound = 0.1 * effective * lam, 0.05 * effective * lam
assert (roll <= rolling_bound * (1 + 1e-12) + 1e-300).all(), (roll / rolling_bound).max()
assert (np.abs(spin) <= spin_bound * (1 + 1e-12) + 1e-300).all()
at_bound = (roll >= rolling_bound * (1 - 1e-9)) & (lam > 0)
inside = (roll < 0.5 * rolling_bound) & (lam > 0)
assert at_bound.sum() > 0 and inside.sum() >= int(sys.argv[2]), (at_bound.sum(), inside.sum())
print(f"{len(lam)} contacts: {at_bound.sum()} at the rolling bound, {inside.sum()} well inside")
EOF
}
torques_within_bounds mdp 0.3 1

for bad in "contact.model=frictionless" "contact.model=polyhedral solver.method=lemke"; do
  sets=(); for kv in $bad; do sets+=(--set "$kv"); done
  for n in 1 2; do
    out=$(mpiexec -n $n --oversubscribe "$granite" run "$column" --output "$tmp/bad" "${rolling[@]}" \
          "${sets[@]}" 2>&1)
    rc=$?
    [ "$rc" -eq 2 ] || fail "$bad at $n ranks: exit code $rc, expected 2: $out"
    lines=$(grep -c "^error: " <<<"$out")
    [ "$lines" -ge 1 ] && [ "$lines" -le "$n" ] || fail "$bad at $n ranks: $lines error lines: $out"
    grep -q "materials\[0\] 'wall': rolling_friction and spinning_friction need contact.model mdp, coulomb or ccp" <<<"$out" \
      || fail "$bad at $n ranks: $out"
  done
done

# The ccp runs are slower (docs/rolling_resistance.md): the gate (bodies[2]) opens at 0.04 s and
# they stop soon after, the grains still falling and rolling out.
early=(--set contact.model=ccp --set "bodies[2].active_until=0.04" --set output.snapshot_interval=0.01)
restarts_bitwise ccp 0.07 0.05 "${early[@]}"
torques_within_bounds apgd 0.07 0 "${early[@]}" --set solver.method=apgd

[ "$failures" -eq 0 ] && echo "rolling: all checks passed"
exit $((failures > 0))
