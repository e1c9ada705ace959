#!/bin/bash
# End-to-end test of `granite forces CONFIG CHECKPOINT` (docs/compatible_forces.md, "On a stored
# state").
#
# usage: forces_cli_test.sh GRANITE_BINARY SOURCE_DIR
#
# Scene: two spheres (r = 1 cm, rho = 2500, E = 1) in a 45° V-groove with a floor (E = 3),
# frictionless, at y = -r and y = +r: they touch each other at y = 0 (a contact along y), and
# each touches the floor and both faces of the groove at rest. The run (contact.compatible off)
# takes 3 steps and writes its checkpoint; `granite forces` then solves one step from it.
# (1) Compatible forces against the hand derivation of the V-groove (as in
#     compatible_cli_test.sh; small-displacement compatibility, a sphere sinking by d: floor
#     overlap d, face overlaps d/sqrt 2, balance f_F + 2 f_S/sqrt 2 = W) with stiffnesses
#     k = (1/E_a + 1/E_b)^-1, k_F = 3/4, k_S = 1/2:
#       hooke: f_F = W k_F/(k_F + k_S) = 3W/5,  f_S = W k_S/(sqrt 2 (k_F + k_S)) = sqrt 2 W/5;
#       hertz: D = k_F + 2^-1/4 k_S, f_F = W k_F/D, f_S = W 2^-3/4 k_S/D.
#     The pair contact: nothing pushes along y, so by symmetry neither sphere moves along y and
#     its compatible overlap, hence its force, is 0. Every force to 1e-7 W (the pass stops at
#     relative violation 1e-8 of |F~| = W, the relaxation at 1e-12). Invariant on every sphere:
#     the sum of its compatible force vectors equals the sum of its plain ones (B^T f = F~) and
#     its weight W upwards (the spheres are at rest before and after the step: F~ = m g dt),
#     both to 1e-7 W. At 1 rank, and at 2 ranks cut at y = 0 (domain.decomposition [1, 2, 1],
#     one sphere per rank: the pair contact joins a sphere and a ghost). Again with the floor's
#     Young's modulus 1 (a key that may differ from the checkpoint's configuration): k_F = 1/2.
# (2) The file is a snapshot of the stored state: /particles positions equal the checkpoint's
#     bit for bit, step/time attributes the checkpoint's, /contacts attributes
#     compatible_converged = 1, compatible_law; the summary names the contacts and "passes
#     converged: 1 of 1".
#     The run itself with the pass on, one step further (its snapshot of step 4: the contacts
#     of the step from step 3): the same plain and compatible forces to 1e-12 W.
# (3) An unconverged pass (compatible_max_iterations 1, tolerance 1e-14): exit 1, one error
#     line, the file written with compatible_converged = 0, the summary "passes converged: 0 of 1".
# (4) Bad input, exit 2 with one line: a missing checkpoint; a snapshot given as the checkpoint;
#     compatible off and no --model; --model coulomb; a frictional model (refused as `run`
#     refuses it); a configuration that changes the scene (run.dt); CHECKPOINT missing.
set -u

GRANITE=${1:?usage: forces_cli_test.sh GRANITE_BINARY SOURCE_DIR}
SOURCE=${2:?usage: forces_cli_test.sh GRANITE_BINARY SOURCE_DIR}
PY=/usr/bin/python3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

TMP=$(mktemp -d "${TMPDIR:-/tmp}/forces_cli_test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
# shellcheck source=cli_checks.sh
source "$(dirname "$0")/cli_checks.sh"

cat >"$TMP/groove.yaml" <<'YAML'
run: {dt: 1.0e-3, end_time: 3.0e-3, thermo_every: 1}
domain: {min: [-0.03, -0.03, -0.01], max: [0.03, 0.03, 0.05]}
contact: {model: frictionless, threshold: 1.0e-6}
solver: {tolerance: 1.0e-12, max_sweeps: 10000, ordering: gravity, convergence: impulse_change}
materials:
  - {name: glass, density: 2500, youngs_modulus: 1}
  - {name: floor, density: 2500, youngs_modulus: 3}
bodies:
  - {type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: floor}
  - {type: plane, point: [-0.0020710678118654755, 0, -0.0020710678118654755], normal: [0.7071067811865476, 0, 0.7071067811865476], material: glass}
  - {type: plane, point: [0.0020710678118654755, 0, -0.0020710678118654755], normal: [-0.7071067811865476, 0, 0.7071067811865476], material: glass}
particles:
  - {type: sphere, position: [0, -0.01, 0.01], radius: 0.01, material: glass}
  - {type: sphere, position: [0, 0.01, 0.01], radius: 0.01, material: glass}
output: {snapshot_interval: 3.0e-3, snapshot_initial: false, checkpoint_interval: 3.0e-3}
YAML

run groove_run 0 "$GRANITE" run "$TMP/groove.yaml" --output "$TMP/run" --quiet || {
  echo "$FAILURES failure(s)"; exit 1; }
CKPT="$TMP/run/checkpoint.h5"

check_forces() {  # check_forces NAME LAW CONVERGED [FLOOR_YOUNGS_MODULUS, default 3]
  "$PY" - "$TMP/$1.h5" "$2" "$3" "$CKPT" "${4:-3}" <<'PY' || fail "$1: forces"
import math, sys
import h5py, numpy as np
path, law, converged, ckpt = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
W = 2500 * 4 / 3 * math.pi * 0.01**3 * 9.81
kF, kS = 1 / (1 + 1 / float(sys.argv[5])), 0.5
if law == "hooke":
    fF, fS = W * kF / (kF + kS), W * kS / (math.sqrt(2) * (kF + kS))
else:
    D = kF + 2**-0.25 * kS
    fF, fS = W * kF / D, W * 2**-0.75 * kS / D
with h5py.File(path, "r") as f, h5py.File(ckpt, "r") as k:
    c = f["contacts"]
    assert c.attrs["compatible_converged"] == converged, c.attrs["compatible_converged"]
    assert c.attrs["compatible_law"] == law, c.attrs["compatible_law"]
    assert f.attrs["source"] == "granite forces" and f.attrs["step"] == k.attrs["step"]
    assert f.attrs["time"] == k.attrs["time"]
    ids, x = f["particles/id"][:], f["particles/position"][:]
    kids, kx = k["particles/id"][:], k["particles/position"][:]
    assert (x[ids.argsort()] == kx[kids.argsort()]).all(), "positions differ from the checkpoint"
    if not converged:
        sys.exit(0)
    b1, b2, n = c["body1"][:], c["body2"][:], c["normal"][:]
    compat, plain = c["compatible_force"][:], c["force"][:]
    assert len(b1) == 7, (b1, b2)  # 2 x (floor + 2 faces) + the pair
    net_c = {0: np.zeros(3), 1: np.zeros(3)}
    net_p = {0: np.zeros(3), 1: np.zeros(3)}
    for j in range(len(b1)):
        fn = compat[j] @ n[j]
        expected = fF if b2[j] == -1 else fS if b2[j] < 0 else 0.0
        assert abs(fn - expected) <= 1e-7 * W, (j, b1[j], b2[j], fn, expected)
        assert np.linalg.norm(compat[j] - fn * n[j]) <= 1e-12 * W  # along the normal
        net_c[b1[j]] += compat[j]; net_p[b1[j]] += plain[j]
        if b2[j] >= 0:
            net_c[b2[j]] -= compat[j]; net_p[b2[j]] -= plain[j]
    for b in (0, 1):
        assert np.linalg.norm(net_c[b] - net_p[b]) <= 1e-7 * W, (b, net_c[b], net_p[b])
        assert np.linalg.norm(net_c[b] - np.array([0, 0, W])) <= 1e-7 * W, (b, net_c[b], W)
print(law, "forces match the hand derivation; B^T f = F~ = W on both spheres")
PY
}

for law in hooke hertz; do
  run "forces_$law" 0 "$GRANITE" forces "$TMP/groove.yaml" "$CKPT" --model $law \
    --output "$TMP/forces_$law.h5" && check_forces "forces_$law" $law 1 &&
    pass "forces_$law: analytic forces"
done
# Keys that change neither the state nor its contact problem may differ from the checkpoint's
# configuration: the floor's modulus 1 instead of 3 (k_F = 1/2: f_F = W/2, f_S = W/(2 sqrt 2))
# and the relaxation's sweep limit.
run forces_floor_soft 0 "$GRANITE" forces "$TMP/groove.yaml" "$CKPT" --model hooke \
  --output "$TMP/forces_floor_soft.h5" --set 'materials[1].youngs_modulus=1' \
  --set solver.max_sweeps=20000 && check_forces forces_floor_soft hooke 1 1 &&
  pass "forces_floor_soft: analytic forces with another floor stiffness"
if grep -q "7 contacts" "$TMP/forces_hooke.out" && grep -q "passes converged: 1 of 1" "$TMP/forces_hooke.out"
then pass "summary: contacts and passes"; else fail "summary"; cat "$TMP/forces_hooke.out"; fi

run forces_np2 0 mpiexec -n 2 --oversubscribe "$GRANITE" forces "$TMP/groove.yaml" "$CKPT" --model hooke \
  --output "$TMP/forces_np2.h5" --set 'domain.decomposition=[1, 2, 1]' &&
  check_forces forces_np2 hooke 1 && "$PY" - "$TMP/forces_np2.h5" <<'PY' &&
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    assert set(f["contacts/owner_rank"][:]) == {0, 1}, f["contacts/owner_rank"][:]
PY
  pass "forces_np2: analytic forces at 2 ranks, contacts on both"

# The run itself, with the pass on, one step further: its snapshot of step 4 holds the contacts
# of the step from the stored state (step 3), the same problem `granite forces` solved, with
# the same code on the same rank count: plain and compatible forces agree to 1e-12 W.
run run_with_pass 0 "$GRANITE" run "$TMP/groove.yaml" --output "$TMP/run4" --quiet \
  --set contact.compatible=hooke --set output.contacts=true --set run.end_time=4.0e-3 \
  --set output.snapshot_interval=1.0e-3 &&
  "$PY" - "$TMP/run4/snapshot_00000004.h5" "$TMP/forces_hooke.h5" <<'PY' &&
import math, sys
import h5py, numpy as np
W = 2500 * 4 / 3 * math.pi * 0.01**3 * 9.81
rows = []
for path in sys.argv[1:]:
    with h5py.File(path, "r") as f:
        c = f["contacts"]
        keys = list(zip(c["body1"][:], c["body2"][:]))
        order = sorted(range(len(keys)), key=lambda j: keys[j])
        rows.append(([keys[j] for j in order], c["force"][:][order], c["compatible_force"][:][order]))
(k1, p1, c1), (k2, p2, c2) = rows
assert k1 == k2, (k1, k2)
assert np.abs(p1 - p2).max() <= 1e-12 * W and np.abs(c1 - c2).max() <= 1e-12 * W
PY
  pass "run_with_pass: the run's step-4 contacts equal granite forces on step 3"

# Default output name: forces_<step>.h5 next to the checkpoint.
run default_output 0 "$GRANITE" forces "$TMP/groove.yaml" "$CKPT" --model hertz &&
  { [ -f "$TMP/run/forces_00000003.h5" ] && pass "default output: run/forces_00000003.h5" ||
    fail "default output file missing"; }

run unconverged 1 "$GRANITE" forces "$TMP/groove.yaml" "$CKPT" --model hooke \
  --output "$TMP/unconverged.h5" --set contact.compatible_max_iterations=1 \
  --set contact.compatible_tolerance=1e-14 &&
  one_error_line unconverged "the compatible pass stopped unconverged" &&
  check_forces unconverged hooke 0 &&
  { grep -q "passes converged: 0 of 1" "$TMP/unconverged.out" &&
    pass "unconverged: summary and file say so" || fail "unconverged: summary"; }

run missing 2 "$GRANITE" forces "$TMP/groove.yaml" "$TMP/nothing.h5" --model hooke &&
  one_error_line missing "no such file"
run snapshot 2 "$GRANITE" forces "$TMP/groove.yaml" "$TMP/run/snapshot_00000003.h5" --model hooke &&
  one_error_line snapshot "a Granite snapshot, not a Granite checkpoint"
run off 2 "$GRANITE" forces "$TMP/groove.yaml" "$CKPT" &&
  one_error_line off "contact.compatible is off"
run bad_model 2 "$GRANITE" forces "$TMP/groove.yaml" "$CKPT" --model coulomb &&
  one_error_line bad_model "--model must be hooke or hertz"
run friction 2 "$GRANITE" forces "$TMP/groove.yaml" "$CKPT" --model hooke --set contact.model=mdp \
  --set 'materials=[{name: glass, density: 2500, friction: 0.4}, {name: floor, density: 2500}]' &&
  one_error_line friction "contact.compatible: hooke is defined for frictionless contacts"
run changed_scene 2 "$GRANITE" forces "$TMP/groove.yaml" "$CKPT" --model hooke --set run.dt=2e-3 &&
  one_error_line changed_scene "written with a different configuration.*run.dt"
run no_checkpoint 2 "$GRANITE" forces "$TMP/groove.yaml" &&
  one_error_line no_checkpoint "missing CHECKPOINT"

if [ "$FAILURES" -gt 0 ]; then echo "$FAILURES failure(s)"; exit 1; fi
echo "all passed"
