#!/bin/bash
# End-to-end test of scripts/postprocess_channel.py.
#
# usage: postprocess_test.sh GRANITE_BINARY SOURCE_DIR
#
# (1) A synthetic snapshot with known answers: particles on a jittered simple cubic lattice
#     (10 x 8 x 6 sites, spacing a = 1 mm, radius 0.42 mm, so a/d = 1.1905) whose speeds and
#     angular speeds are set per x-y cell. Checks the printed peak cell speed and centre, the
#     CSV cell counts and means (including empty = NaN cells), that the first non-zero RDF
#     bin contains a/d, and the first-shell coordination rho * integral 4 pi r^2 g(r) dr.
#     The expected coordination is not 6: a lattice nx x ny x nz has
#     P = (nx-1) ny nz + nx (ny-1) nz + nx ny (nz-1) nearest-neighbour pairs, so the mean is
#     2P/N (= 5.2167 here; only interior particles have 6). The jitter (1 um) is far smaller
#     than the gap between the shells (a to a*sqrt 2), so exactly these pairs lie below the
#     cut-off; the integral is then 2P/N up to floating-point rounding (~1e-15; the CSV
#     holds g with 17 digits): tolerance 1e-9 relative.
# (2) A real `granite run configs/channel_ci.yaml`: profile, rdf, table and compare exit 0
#     and write their PNGs; the table agrees with the run's summary.txt.
# (3) A missing file and a non-Granite HDF5 file give exit status 2 and one error line.
set -u

GRANITE=${1:?usage: postprocess_test.sh GRANITE_BINARY SOURCE_DIR}
SOURCE=${2:?usage: postprocess_test.sh GRANITE_BINARY SOURCE_DIR}
PY=/usr/bin/python3
SCRIPT="$SOURCE/scripts/postprocess_channel.py"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export MPLBACKEND=Agg

TMP=$(mktemp -d "${TMPDIR:-/tmp}/postprocess_test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
FAILURES=0
fail() { echo "FAIL: $*"; FAILURES=$((FAILURES + 1)); }
pass() { echo "ok:   $*"; }

# run NAME EXPECTED_STATUS COMMAND...: stdout/stderr to $TMP/NAME.{out,err}
run() {
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

png_ok() {  # a PNG file with the PNG signature
  if [ -s "$1" ] && [ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]; then
    pass "$1 is a PNG"
  else
    fail "$1 missing or not a PNG"
  fi
}

one_error_line() {  # NAME: stderr is exactly one line starting with "error:"
  local lines
  lines=$(wc -l <"$TMP/$1.err")
  if [ "$lines" -eq 1 ] && grep -q '^error: ' "$TMP/$1.err"; then
    pass "$1: one error line: $(cat "$TMP/$1.err")"
  else
    fail "$1: expected one 'error:' line, got $lines lines:"; sed 's/^/    /' "$TMP/$1.err"
  fi
}

[ -x "$SCRIPT" ] || fail "$SCRIPT is not executable"

# ------------------------------------------------------------------ (1) synthetic snapshot
"$PY" - "$TMP/lattice.h5" "$TMP/plain.h5" <<'EOF' || fail "could not write the synthetic snapshots"
import sys
import h5py
import numpy as np

nx, ny, nz, a, radius = 10, 8, 6, 1.0e-3, 0.42e-3
rng = np.random.default_rng(7)
i, j, k = np.meshgrid(np.arange(nx), np.arange(ny), np.arange(nz), indexing="ij")
i, j, k = i.ravel(), j.ravel(), k.ravel()
n = len(i)
position = (np.column_stack([i, j, k]) + 0.5) * a + rng.uniform(-1e-3 * a, 1e-3 * a, (n, 3))
# cells of 2 mm x 2 mm: cell (ci, cj) holds 2 x 2 x 6 = 24 sites; half of them (odd k) +delta
ci, cj = i // 2, j // 2
sign = np.where(k % 2 == 0, 1.0, -1.0)
speed = 0.1 * (ci + 1) + 0.01 * (cj + 1) + 0.005 * sign
spin = 10.0 * (cj + 1) + 3.0 * sign
def directions():
    d = rng.normal(size=(n, 3))
    return d / np.linalg.norm(d, axis=1)[:, None]
order = rng.permutation(n)  # rows in arbitrary order, like a multi-rank snapshot
with h5py.File(sys.argv[1], "w") as f:
    f.attrs["format"] = "granite-snapshot"
    f.attrs["format_version"] = np.int32(1)
    f.attrs["time"] = 0.5
    f.attrs["step"] = np.int64(12500)
    f.attrs["particle_count"] = np.int64(n)
    p = f.create_group("particles")
    p["id"] = np.arange(n, dtype=np.int64)[order]
    p["position"] = position[order]
    p["velocity"] = (directions() * speed[:, None])[order]
    p["angular_velocity"] = (directions() * spin[:, None])[order]
    p["orientation"] = np.tile([1.0, 0.0, 0.0, 0.0], (n, 1))
    p["radius"] = np.full(n, radius)
    p["material"] = np.zeros(n, dtype=np.uint32)
    p["owner_rank"] = np.zeros(n, dtype=np.int32)
with h5py.File(sys.argv[2], "w") as f:  # valid HDF5, not a Granite snapshot
    f["data"] = np.arange(10.0)
EOF

if run synthetic_profile 0 "$SCRIPT" profile "$TMP/lattice.h5" --out "$TMP/lattice_profile.png" \
       --csv "$TMP/lattice_profile.csv" --cells 6 4 --domain 0 0.012 0 0.008; then
  png_ok "$TMP/lattice_profile.png"
  "$PY" - "$TMP/synthetic_profile.out" "$TMP/lattice_profile.csv" <<'EOF' && pass "synthetic profile: peak, counts, means" || fail "synthetic profile"
import re, sys
import numpy as np
out = open(sys.argv[1]).read()
m = re.search(r"peak cell mean speed (\S+) m/s at cell centre x = (\S+) m, y = (\S+) m \(cell (\d+) (\d+), (\d+) particles\)", out)
assert m, f"no peak line in: {out!r}"
value, x, y = map(float, m.group(1, 2, 3))
# peak cell (4, 3): mean speed 0.1*5 + 0.01*4 = 0.54 m/s, centre (9 mm, 7 mm), 24 particles
assert abs(value - 0.54) < 1e-5, value
assert abs(x - 0.009) < 1e-9 and abs(y - 0.007) < 1e-9, (x, y)
assert m.group(4, 5, 6) == ("4", "3", "24"), m.group(4, 5, 6)
rows = np.genfromtxt(sys.argv[2], delimiter=",", names=True)
assert len(rows) == 24, len(rows)
for r in rows:
    ci, cj = int(r["x_m"] / 0.002), int(r["y_m"] / 0.002)
    if ci == 5:  # x in [10, 12) mm: no particles
        assert r["count"] == 0 and np.isnan(r["mean_speed_m_s"]) and np.isnan(r["mean_angular_speed_rad_s"]), r
        continue
    assert r["count"] == 24, r
    assert abs(r["mean_speed_m_s"] - (0.1 * (ci + 1) + 0.01 * (cj + 1))) < 1e-9, r
    assert abs(r["mean_angular_speed_rad_s"] - 10.0 * (cj + 1)) < 1e-9, r
assert rows["count"].sum() == 480
EOF
fi

if run synthetic_rdf 0 "$SCRIPT" rdf "$TMP/lattice.h5" --out "$TMP/lattice_rdf.png" \
       --csv "$TMP/lattice_rdf.csv" --region 0 0.010 0 0.008 0 0.006 --rmax-diameters 2.5 --bins 50; then
  png_ok "$TMP/lattice_rdf.png"
  "$PY" - "$TMP/lattice_rdf.csv" <<'EOF' && pass "synthetic RDF: first shell at a/d, coordination 2P/N" || fail "synthetic RDF"
import sys
import numpy as np
nx, ny, nz, a, d = 10, 8, 6, 1.0e-3, 0.84e-3
n = nx * ny * nz
rho = n / (nx * a * ny * a * nz * a)           # computed here, not taken from the script
r_lo, r_hi, pairs, g = np.loadtxt(sys.argv[1], delimiter=",", unpack=True)
first = np.flatnonzero(g > 0)[0]
assert r_lo[first] <= a / d < r_hi[first], (r_lo[first], r_hi[first], a / d)
cut = 0.5 * (1 + np.sqrt(2)) * a / d           # between the first (a) and second (a sqrt 2) shells
assert np.all(g[(r_hi > cut) & (r_lo * d < 1.3 * a)] == 0), "pairs between the shells"
shell = 4 * np.pi / 3 * rho * ((r_hi * d) ** 3 - (r_lo * d) ** 3)
coordination = float(np.sum((g * shell)[r_hi <= cut]))
bonds = (nx - 1) * ny * nz + nx * (ny - 1) * nz + nx * ny * (nz - 1)
expected = 2.0 * bonds / n                      # 5.2167: interior 6, faces 5, edges 4, corners 3
print(f"    first shell bin [{r_lo[first]:.3g}, {r_hi[first]:.3g}) d, coordination {coordination:.9f}, expected {expected:.9f}")
assert abs(coordination - expected) < 1e-9 * expected, (coordination, expected)
assert int(pairs[first]) == bonds, (pairs[first], bonds)
EOF
fi

# ------------------------------------------------------------------ (2) real channel run
OUT="$TMP/channel"
if run granite_run 0 "$GRANITE" run "$SOURCE/configs/channel_ci.yaml" --output "$OUT"; then
  SNAP=$(ls "$OUT"/snapshot_*.h5 2>/dev/null | sort | tail -n 1)
  [ -n "$SNAP" ] || fail "no snapshot_*.h5 in $OUT"
  run channel_profile 0 "$SCRIPT" profile "$SNAP" --out "$TMP/channel_profile.png" --csv "$TMP/channel_profile.csv" \
    && png_ok "$TMP/channel_profile.png" && sed 's/^/    /' "$TMP/channel_profile.out"
  run channel_rdf 0 "$SCRIPT" rdf "$SNAP" --out "$TMP/channel_rdf.png" \
    && png_ok "$TMP/channel_rdf.png" && sed 's/^/    /' "$TMP/channel_rdf.out"
  # The demo's figures: the paper's Figs. 8, 9, 10 under the names the README gives them,
  # and the snapshot picture.
  if run channel_figures 0 "$SCRIPT" figures "$SNAP" --dir "$TMP/figures"; then
    for name in fig08_velocity_profile.png fig09_angular_velocity_profile.png fig10_radial_distribution.png; do
      png_ok "$TMP/figures/$name"
      grep -q "$name" "$SOURCE/README.md" && grep -q "$name" "$SOURCE/scripts/demo" \
        && pass "README.md and scripts/demo name $name" || fail "README.md or scripts/demo do not name $name"
    done
    grep -q "Fig. 8: .*fig08_velocity_profile.png" "$TMP/channel_figures.out" \
      && grep -q "Fig. 10: .*fig10_radial_distribution.png" "$TMP/channel_figures.out" \
      && pass "figures prints the paper's numbers with the files" || fail "figures output: $(cat "$TMP/channel_figures.out")"
  fi
  run snapshot_picture 0 /usr/bin/python3 "$SOURCE/scripts/plot_snapshot.py" "$SNAP" "$TMP/snapshot.png" \
    && png_ok "$TMP/snapshot.png"
  if run channel_table 0 "$SCRIPT" table "$OUT/statistics.csv" "$OUT/statistics.csv" --labels Coulomb MDP; then
    sed 's/^/    /' "$TMP/channel_table.out"
    expected=$(sed -n 's/.*avg\. number of particles *\([0-9.]*\).*/\1/p' "$OUT/summary.txt")
    got=$(awk '/avg\. number of particles/ {print $(NF-1)}' "$TMP/channel_table.out")
    [ -n "$expected" ] && [ "$expected" = "$got" ] && pass "table particles $got = summary.txt" \
      || fail "table particles '$got' vs summary.txt '$expected'"
    expected=$(sed -n 's/.*of the channel *\([0-9.]*\) %.*/\1/p' "$OUT/summary.txt")
    got=$(awk '/of the channel/ {print $(NF-1)}' "$TMP/channel_table.out")
    [ -n "$expected" ] && [ "$expected" = "$got" ] && pass "table channel fraction $got % = summary.txt" \
      || fail "table channel fraction '$got' vs summary.txt '$expected'"
    expected=$(sed -n 's/.*particle count drift *\([-+0-9.]*\) %.*/\1/p' "$OUT/summary.txt")
    got=$(awk '/particle count drift/ {print $(NF-1)}' "$TMP/channel_table.out")
    [ -n "$expected" ] && [ "$expected" = "$got" ] && pass "table drift $got % = summary.txt" \
      || fail "table drift '$got' vs summary.txt '$expected'"
  fi
  # run.json agrees with the other files of the same run: the summary's averages, the last
  # thermo.csv row, the last snapshot's particle count, and the statistics.csv sample count.
  if /usr/bin/python3 - "$OUT" "$SNAP" "$SOURCE/scripts" <<'EOF'; then pass "run.json agrees with summary.txt, thermo.csv, the snapshot"; else fail "run.json disagrees with the run's other files"; fi
import csv, re, sys
out, snap, scripts = sys.argv[1:4]
sys.path.insert(0, scripts)
import granite_io
run = granite_io.load_run(out)
assert run["status"] == "completed" and run["steps"]["last"] == run["steps"]["planned"], run["steps"]
summary = open(f"{out}/summary.txt").read()
particles = float(re.search(r"avg\. number of particles +([0-9.]+)", summary).group(1))
assert f"{run['statistics']['particles']:.1f}" == f"{particles:.1f}", (run["statistics"], particles)
drift = float(re.search(r"particle count drift +([-+0-9.]+) %", summary).group(1))
assert f"{100 * run['statistics']['particle_count_drift']:+.1f}" == f"{drift:+.1f}"
rows = list(csv.DictReader(open(f"{out}/thermo.csv")))
assert int(rows[-1]["step"]) == run["final"]["step"] and int(rows[-1]["contacts"]) == run["final"]["contacts"]
assert len(granite_io.load_snapshot(snap, fields=["id"])["id"]) == run["particles"]["final"]
samples = len(list(csv.DictReader(open(f"{out}/statistics.csv"))))
assert run["statistics"]["samples"] == samples, (run["statistics"]["samples"], samples)
assert [f["name"] for f in run["fixes"]] == ["balance", "inflow", "outflow", "statistics", "progress", "thermo", "snapshots", "checkpoints"]
EOF
  # --from T keeps the samples at t >= T: as many as statistics.csv has rows with time >= T.
  if run channel_table_from 0 "$SCRIPT" table "$OUT/statistics.csv" --from 0.03; then
    expected=$(awk -F, 'NR > 1 && $1 >= 0.03' "$OUT/statistics.csv" | wc -l)
    got=$(awk '/^samples/ {print $NF}' "$TMP/channel_table_from.out")
    [ "$expected" -gt 0 ] && [ "$expected" = "$got" ] && pass "table --from 0.03: $got samples" \
      || fail "table --from 0.03: '$got' samples, statistics.csv has $expected"
  fi
  run table_from_too_late 2 "$SCRIPT" table "$OUT/statistics.csv" --from 99 && one_error_line table_from_too_late
  run channel_compare 0 "$SCRIPT" compare "$SNAP" "$SNAP" --out "$TMP/channel_compare.png" \
      --stats "$OUT/statistics.csv" "$OUT/statistics.csv" \
    && png_ok "$TMP/channel_compare.png" && sed 's/^/    /' "$TMP/channel_compare.out"
  [ "$(grep -c 'peak cell mean speed' "$TMP/channel_compare.out")" -eq 2 ] \
    && pass "compare prints two peak speeds" || fail "compare does not print two peak speeds"
fi

# ------------------------------------------------------------------ (3) bad inputs
run missing_profile 2 "$SCRIPT" profile "$TMP/does_not_exist.h5" --out "$TMP/x.png" && one_error_line missing_profile
run missing_table 2 "$SCRIPT" table "$TMP/does_not_exist.csv" && one_error_line missing_table
run plain_hdf5_rdf 2 "$SCRIPT" rdf "$TMP/plain.h5" --out "$TMP/x.png" && one_error_line plain_hdf5_rdf
run plain_hdf5_compare 2 "$SCRIPT" compare "$TMP/lattice.h5" "$TMP/plain.h5" --out "$TMP/x.png" \
  && one_error_line plain_hdf5_compare
run text_as_snapshot 2 "$SCRIPT" profile "$SOURCE/configs/channel_ci.yaml" --out "$TMP/x.png" \
  && one_error_line text_as_snapshot
[ -e "$TMP/x.png" ] && fail "a PNG was written despite the error"

if [ "$FAILURES" -ne 0 ]; then
  echo "postprocess_test: $FAILURES failure(s)"
  exit 1
fi
echo "postprocess_test: all checks passed"
