#!/bin/bash
# End-to-end test of contact.compatible and fixed particles through `granite run` / `check`.
#
# usage: compatible_cli_test.sh GRANITE_BINARY SOURCE_DIR
#
# (1) A sphere (r = 1 cm, rho = 2500, E = 1) touching a floor (E = 3) and the two faces of a
#     45° V-groove (E = 1), frictionless, solver.ordering gravity (the floor contact, the lowest,
#     first): the plain floor force is the whole weight W = m g. The compatible forces (docs/
#     compatible_forces.md; small-displacement compatibility, the sphere sinking by d: floor
#     overlap d, face overlaps d/sqrt 2, balance f_F + 2 f_S / sqrt 2 = W) with stiffnesses
#     k = (1/E_a + 1/E_b)^-1, k_F = 3/4, k_S = 1/2:
#       hooke: f_F = W k_F/(k_F + k_S) = 3W/5,  f_S = W k_S/(sqrt 2 (k_F + k_S)) = sqrt 2 W/5;
#       hertz: D = k_F + 2^-1/4 k_S, f_F = W k_F/D, f_S = W 2^-3/4 k_S/D
#     (both faces are flat, so Hertz's (4/3) sqrt R* is common). The pass stops at relative
#     violation 1e-8 (the default); the forces are checked to 1e-7 W. The snapshot holds
#     /contacts/compatible_force, its contacts XDMF names it, run.json's relaxation.compatible
#     counts one pass per snapshot step (snapshot_interval 2 steps, 3 steps: steps 2 and 3).
# (2) compatible_max_iterations 1 at tolerance 1e-14: the pass stops unconverged, a warning line
#     names the step and run.json counts it.
# (3) Refusals (exit 2, one line naming the key) in check and run: compatible with contact.model
#     mdp and a material of friction 0.4; youngs_modulus on one material only; a fixed source
#     with a velocity.
# (4) A fixed sphere under a free one (frictionless), 20 steps: the fixed sphere has not moved
#     (bit for bit), the free one rests on it (its centre 2r above, within the error reduction's
#     residual penetration), /particles/fixed holds 1 and 0.
set -u

GRANITE=${1:?usage: compatible_cli_test.sh GRANITE_BINARY SOURCE_DIR}
SOURCE=${2:?usage: compatible_cli_test.sh GRANITE_BINARY SOURCE_DIR}
PY=/usr/bin/python3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

TMP=$(mktemp -d "${TMPDIR:-/tmp}/compatible_cli_test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=cli_checks.sh
source "$(dirname "$0")/cli_checks.sh"

cat >"$TMP/groove.yaml" <<'YAML'
run: {dt: 1.0e-3, end_time: 3.0e-3, thermo_every: 1}
domain: {min: [-0.03, -0.03, -0.01], max: [0.03, 0.03, 0.05]}
contact: {model: frictionless, compatible: hooke, threshold: 1.0e-6}
solver: {tolerance: 1.0e-12, max_sweeps: 10000, ordering: gravity, convergence: impulse_change}
materials:
  - {name: glass, density: 2500, youngs_modulus: 1}
  - {name: floor, density: 2500, youngs_modulus: 3}
bodies:
  - {type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: floor}
  - {type: plane, point: [-0.0020710678118654755, 0, -0.0020710678118654755], normal: [0.7071067811865476, 0, 0.7071067811865476], material: glass}
  - {type: plane, point: [0.0020710678118654755, 0, -0.0020710678118654755], normal: [-0.7071067811865476, 0, 0.7071067811865476], material: glass}
particles:
  - {type: sphere, position: [0, 0, 0.01], radius: 0.01, material: glass}
output: {contacts: true, snapshot_interval: 2.0e-3, snapshot_initial: false}
YAML

check_groove() {  # check_groove NAME LAW
  "$PY" - "$TMP/$1" "$2" <<'PY' || fail "$1: compatible forces"
import glob, json, math, sys
import h5py
out, law = sys.argv[1], sys.argv[2]
W = 2500 * 4 / 3 * math.pi * 0.01**3 * 9.81
kF, kS = 0.75, 0.5
if law == "hooke":
    fF, fS = W * kF / (kF + kS), W * kS / (math.sqrt(2) * (kF + kS))
else:
    D = kF + 2**-0.25 * kS
    fF, fS = W * kF / D, W * 2**-0.75 * kS / D
last = sorted(glob.glob(out + "/snapshot_*.h5"))[-1]
with h5py.File(last, "r") as f:
    c = f["contacts"]
    body2, n = c["body2"][:], c["normal"][:]
    compat, plain = c["compatible_force"][:], c["force"][:]
    assert len(body2) == 3, body2
    for k in range(3):
        expected = fF if body2[k] == -1 else fS
        got = compat[k] @ n[k]
        assert abs(got - expected) <= 1e-7 * W, (k, got, expected)
        if body2[k] == -1:
            assert abs(plain[k] @ n[k] - W) <= 1e-7 * W, ("plain floor", plain[k] @ n[k], W)
xdmf = open(last.replace(".h5", "_contacts.xdmf")).read()
assert "compatible_force" in xdmf
rec = json.load(open(out + "/run.json"))["relaxation"]["compatible"]
assert rec["passes"] == 2 and rec["unconverged"] == 0 and rec["law"] == law, rec
print("compatible", law, "forces match; run.json", rec)
PY
}

for law in hooke hertz; do
  run "groove_$law" 0 "$GRANITE" run "$TMP/groove.yaml" --output "$TMP/groove_$law" --quiet \
    --set contact.compatible=$law && check_groove "groove_$law" $law && pass "groove_$law: forces"
done

run unconverged 0 "$GRANITE" run "$TMP/groove.yaml" --output "$TMP/unconverged" --quiet \
  --set contact.compatible_max_iterations=1 --set contact.compatible_tolerance=1e-14
if grep -q "warning: step 2: the compatible pass stopped unconverged" "$TMP/unconverged.out" &&
   "$PY" -c "import json,sys; r=json.load(open(sys.argv[1]))['relaxation']['compatible']; sys.exit(r['unconverged'] != 2)" "$TMP/unconverged/run.json"
then pass "unconverged: warned and counted"; else fail "unconverged: no warning or count"; cat "$TMP/unconverged.out" | tail -5; fi

for command in check run; do
  run "friction_$command" 2 "$GRANITE" $command "$TMP/groove.yaml" --set contact.model=mdp \
    --set 'materials=[{name: glass, density: 2500, friction: 0.4}, {name: floor, density: 2500}]' &&
    one_error_line "friction_$command" "contact.compatible: hooke is defined for frictionless contacts"
  run "youngs_$command" 2 "$GRANITE" $command "$TMP/groove.yaml" \
    --set 'materials=[{name: glass, density: 2500, friction: 0}, {name: floor, density: 2500, friction: 0, youngs_modulus: 3}]' &&
    one_error_line "youngs_$command" "materials\[0\].youngs_modulus: required"
done

cat >"$TMP/fixed.yaml" <<'YAML'
run: {dt: 1.0e-3, end_time: 2.0e-2, thermo_every: 10}
domain: {min: [-0.03, -0.03, -0.03], max: [0.03, 0.03, 0.05]}
contact: {model: frictionless, threshold: 1.0e-4}
materials:
  - {name: glass, density: 2500}
particles:
  - {type: sphere, position: [0, 0, 0], radius: 0.01, material: glass, fixed: true}
  - {type: sphere, position: [0, 0, 0.0205], radius: 0.01, material: glass}
output: {snapshot_interval: 0}
YAML
run fixed 0 "$GRANITE" run "$TMP/fixed.yaml" --output "$TMP/fixed" --quiet &&
  "$PY" - "$TMP/fixed" <<'PY' && pass "fixed: the fixed sphere did not move" || fail "fixed: positions"
import glob, sys
import h5py
with h5py.File(sorted(glob.glob(sys.argv[1] + "/snapshot_*.h5"))[-1], "r") as f:
    p = f["particles"]
    ids, x, fixed = p["id"][:], p["position"][:], p["fixed"][:]
order = ids.argsort()
x, fixed = x[order], fixed[order]
assert list(fixed) == [1, 0], fixed
assert list(x[0]) == [0.0, 0.0, 0.0], x[0]
assert abs(x[1][2] - 0.02) < 1e-4, x[1]  # resting on it (penetration below 1 % of r)
PY
run fixed_velocity 2 "$GRANITE" check "$TMP/fixed.yaml" \
  --set 'particles=[{type: sphere, position: [0, 0, 0], radius: 0.01, material: glass, fixed: true, velocity: [0, 0, 1]}]' &&
  one_error_line fixed_velocity "particles\[0\].velocity: a fixed particle source takes no velocity"

if [ "$FAILURES" -gt 0 ]; then echo "$FAILURES failure(s)"; exit 1; fi
echo "all passed"
