#!/bin/bash
# End-to-end test of the snapshots' /contacts group (output.contacts), of
# scripts/contact_stress.py and of scripts/plot_force_network.py.
#
# usage: contacts_output_test.sh GRANITE_BINARY SOURCE_DIR
#
# (1) A resting layer: 6 x 5 glass spheres (r = 1 mm, rho = 2500) on a floor, touching the
#     floor and their neighbours (lattice spacing 2r, gap 0), one step of dt = 1e-4 s. The
#     floor contacts carry the weight alone (the side contacts are closed but unloaded), so
#     each floor contact's normal impulse is m g dt and their sum N m g dt. The solver
#     tolerance is 1e-12 and a floor contact is decoupled from the unloaded side contacts, so
#     Gauss-Seidel ends within a few multiples of 1e-12 of the exact impulse; 1e-9 relative
#     leaves a margin for any stopping measure below 1e-10. Run at 1 and at 2 ranks
#     (decomposition [2,1,1]): the same contacts (as pairs of ids) and the same sum over ranks;
#     both ranks wrote rows. The XDMF sidecar of the contacts exists and points at /contacts.
# (2) A resting column of N = 5 spheres (r = 1 mm) on the floor, one step. Contact k from the
#     top carries k m g. The Love-Weber stress over the box |x|,|y| < r, 0 <= z < 2 N r is
#         sigma_zz = -(1/V) r m g (N + 2 sum_{k=1}^{N-1} k) = -r m g N^2 / (4 r^2 2 N r)
#                  = -W / (2 A),   W = N m g, A = 4 r^2,
#     the mean over the column of the linear profile -W/A (1 - z/H) (tension positive).
#     Over the lower two spheres (0 <= z < 4r): -(r m g (N + 2(N-1) + (N-2))) / (16 r^3)
#     = -m g (4N - 4) / (16 r^2) = -m g / r^2 for N = 5, again the mean of the profile over
#     that slab. The other components vanish. Tolerance 1e-9 relative (as in (1)).
# (3) plot_force_network.py writes a PNG; a snapshot without /contacts gives exit 2 and one
#     error line.
set -u

GRANITE=${1:?usage: contacts_output_test.sh GRANITE_BINARY SOURCE_DIR}
SOURCE=${2:?usage: contacts_output_test.sh GRANITE_BINARY SOURCE_DIR}
PY=/usr/bin/python3
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export MPLBACKEND=Agg
export PYTHONPATH="$SOURCE/scripts${PYTHONPATH:+:$PYTHONPATH}"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/contacts_output_test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
FAILURES=0
fail() { echo "FAIL: $*"; FAILURES=$((FAILURES + 1)); }
pass() { echo "ok:   $*"; }

run() {  # run NAME EXPECTED_STATUS COMMAND...
  local name=$1 expected=$2; shift 2
  "$@" >"$TMP/$name.out" 2>"$TMP/$name.err"
  local status=$?
  if [ "$status" -ne "$expected" ]; then
    fail "$name: exit status $status, expected $expected"
    sed 's/^/    /' "$TMP/$name.out" "$TMP/$name.err" | head -20
    return 1
  fi
  pass "$name: exit status $status"
}

common() {  # common DOMAIN_MAX CONTACTS
  cat <<YAML
run: {dt: 1.0e-4, end_time: 1.0e-4, thermo_every: 1}
domain: {min: [-0.006, -0.006, 0.0], max: $1}
gravity: [0, 0, -9.81]
contact: {model: mdp, threshold: 1.0e-4}
solver: {max_sweeps: 1000, tolerance: 1.0e-12}
output: {contacts: $2}
materials:
  - {name: glass, density: 2500, friction: 0.5}
bodies:
  - {type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: glass}
YAML
}

{ common "[0.006, 0.004, 0.01]" true
  cat <<YAML
particles:
  - {type: lattice, min: [-0.006, -0.006, 0.0], max: [0.006, 0.004, 0.002], spacing: 0.002,
     radius: 0.001, material: glass}
YAML
} >"$TMP/layer.yaml"
{ common "[0.006, 0.006, 0.02]" true
  echo "particles:"
  for k in 0 1 2 3 4; do
    echo "  - {type: sphere, position: [0, 0, 0.00$((2 * k + 1))], radius: 0.001, material: glass}"
  done
} >"$TMP/column.yaml"
sed 's/contacts: true/contacts: false/' "$TMP/column.yaml" >"$TMP/plain.yaml"

run layer_1rank 0 "$GRANITE" run "$TMP/layer.yaml" --output "$TMP/layer1"
run layer_2ranks 0 mpirun -np 2 --oversubscribe "$GRANITE" run "$TMP/layer.yaml" \
  --output "$TMP/layer2" --set 'domain.decomposition=[2,1,1]'
run layer_check 0 "$PY" - "$TMP/layer1" "$TMP/layer2" <<'PY'
import glob, math, os, sys
import numpy as np
import granite_io

g, r, rho, dt = 9.81, 1e-3, 2500.0, 1e-4
m = rho * 4.0 / 3.0 * math.pi * r**3
runs = []
for d in sys.argv[1:]:
    path = sorted(glob.glob(os.path.join(d, "snapshot_*.h5")))[-1]
    c = granite_io.load_contacts(path)
    assert abs(c.dt - dt) < 1e-18, c.dt
    n_particles = len(granite_io.load_snapshot(path, fields={"id": 1})["id"])
    assert n_particles == 30, n_particles
    floor = c["body2"] == -1  # global body 0
    lam_n = np.einsum("ij,ij->i", c["impulse"], c["normal"])
    assert floor.sum() == n_particles, floor.sum()
    expected = n_particles * m * g * dt
    total = lam_n[floor].sum()
    assert abs(total - expected) <= 1e-9 * expected, (total, expected)
    assert np.allclose(lam_n[floor], m * g * dt, rtol=1e-9, atol=0), lam_n[floor]
    assert np.allclose(c["force"], c["impulse"] / dt, rtol=1e-15, atol=0)
    # point1 on body 1's surface, point2 on body 2's: point1 = point2 + gap n
    assert np.allclose(c["point1"], c["point2"] + c["gap"][:, None] * c["normal"], atol=1e-15)
    pairs = sorted((min(a, b), max(a, b)) for a, b in zip(c["body1"], c["body2"]))
    with granite_io.open_particles(path) as (_, _, handle):
        owners = set(handle["contacts/owner_rank"][...].tolist())
    runs.append((pairs, total, owners))
    print(f"{path}: {len(pairs)} contacts, floor sum {total:.15e} (expected {expected:.15e})")
(p1, t1, o1), (p2, t2, o2) = runs
assert p1 == p2, "the contacts at 2 ranks differ from those at 1 rank"
assert abs(t1 - t2) <= 1e-12 * t1, (t1, t2)
assert o1 == {0} and o2 == {0, 1}, (o1, o2)
assert len(p1) == 30 + 5 * 5 + 6 * 4, len(p1)  # floor + x-neighbours + y-neighbours
PY
if ls "$TMP"/layer1/snapshot_*_contacts.xdmf >/dev/null 2>&1 &&
   grep -q ':/contacts/point2' "$TMP"/layer1/snapshot_*_contacts.xdmf; then
  pass "contacts XDMF sidecar"
else
  fail "no snapshot_<step>_contacts.xdmf pointing at /contacts/point2"
fi

run column 0 "$GRANITE" run "$TMP/column.yaml" --output "$TMP/column"
SNAP=$(ls "$TMP"/column/snapshot_*.h5 | tail -1)
run stress_all 0 "$PY" "$SOURCE/scripts/contact_stress.py" "$SNAP" -0.001 -0.001 0 0.001 0.001 0.01 --json
run stress_low 0 "$PY" "$SOURCE/scripts/contact_stress.py" "$SNAP" -0.001 -0.001 0 0.001 0.001 0.004 --json
run stress_check 0 "$PY" - "$TMP/stress_all.out" "$TMP/stress_low.out" <<'PY'
import json, math, sys
import numpy as np
g, r, rho, N = 9.81, 1e-3, 2500.0, 5
m = rho * 4.0 / 3.0 * math.pi * r**3
A = 4 * r * r
for path, expected in ((sys.argv[1], -N * m * g / (2 * A)), (sys.argv[2], -m * g / r**2)):
    out = json.load(open(path))
    s = np.array(out["stress"])
    print(f"{path}: sigma_zz {s[2, 2]:.15e} Pa, expected {expected:.15e} Pa")
    assert abs(s[2, 2] - expected) <= 1e-9 * abs(expected), (s[2, 2], expected)
    s[2, 2] = 0.0
    assert np.abs(s).max() <= 1e-9 * abs(expected), s
    assert abs(out["pressure"] + expected / 3) <= 1e-9 * abs(expected)
PY

run force_network 0 "$PY" "$SOURCE/scripts/plot_force_network.py" "$SNAP" "$TMP/network.png"
if [ -s "$TMP/network.png" ] &&
   [ "$(head -c 8 "$TMP/network.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
  pass "force network PNG"
else
  fail "force network PNG missing or not a PNG"
fi
run plain 0 "$GRANITE" run "$TMP/plain.yaml" --output "$TMP/plain"
run no_contacts 2 "$PY" "$SOURCE/scripts/contact_stress.py" "$(ls "$TMP"/plain/snapshot_*.h5 | tail -1)" 0 0 0 1 1 1
if [ "$(wc -l <"$TMP/no_contacts.err")" -eq 1 ] && grep -q "output.contacts" "$TMP/no_contacts.err"; then
  pass "one error line naming output.contacts"
else
  fail "error output: $(cat "$TMP/no_contacts.err")"
fi
if ls "$TMP"/plain/snapshot_*_contacts.xdmf >/dev/null 2>&1; then
  fail "contacts XDMF written without output.contacts"
else
  pass "no contacts XDMF without output.contacts"
fi

[ "$FAILURES" -eq 0 ] && echo "all passed" || echo "$FAILURES failure(s)"
[ "$FAILURES" -eq 0 ]
