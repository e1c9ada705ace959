#!/usr/bin/env bash
# `granite run NEW_CONFIG --from CHECKPOINT` (restart into a changed scene) end to end on the
# silo workflow (configs/silo_fill.yaml, then configs/silo_discharge.yaml without the gate):
#  1. at 1-4 ranks the new run starts with exactly the checkpoint's particles (same ids, every
#     carried field bit for bit in its initial snapshot), at t = 0, and none is lost or
#     duplicated in the handover: final + outflow = carried, nothing lost, some discharged;
#     the mass_flow measurement's net crossings = outflow + particles below its plane at the end;
#  2. a run started with --from restarts (--restart) bit for bit like any run;
#  3. bad uses give one error line and exit 2: --from with --restart, a missing file, a
#     material the new configuration lacks, particles outside the new domain.
# usage: from_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
fill=$src/configs/silo_fill.yaml; discharge=$src/configs/silo_discharge.yaml
run_info() { /usr/bin/python3 "$src/scripts/run_info.py" "$@" 2>&1; }
compare="/usr/bin/python3 $src/tests/support/compare_snapshots.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_input_error() {  # NAME, then the command: exit 2 and one "error:" line
  local name=$1; shift
  "$@" > "$tmp/err.log" 2>&1; local rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit $rc (expected 2): $(tail -3 "$tmp/err.log")"
  [ "$(grep -c '^error:' "$tmp/err.log")" -eq 1 ] || fail "$name: expected one error line: $(cat "$tmp/err.log")"
}

mpiexec -n 2 --oversubscribe "$granite" run "$fill" --output "$tmp/fill" --set run.end_time=0.03 --quiet \
  > "$tmp/fill.log" 2>&1 || fail "fill run: $(tail -3 "$tmp/fill.log")"
ckpt=$tmp/fill/checkpoint.h5

# 1. The handover at 1-4 ranks.
for n in 1 2 3 4; do
  out=$tmp/discharge$n
  mpiexec -n $n --oversubscribe "$granite" run "$discharge" --output "$out" --from "$ckpt" \
    --set run.end_time=0.06 --quiet > "$out.log" 2>&1 || { fail "discharge at $n ranks: $(tail -3 "$out.log")"; continue; }
  grep -q "^took [0-9]* particles (full state) from $ckpt" "$out.log" || fail "$n ranks: the log does not say what was taken"
  /usr/bin/python3 - "$ckpt" "$out/snapshot_00000000.h5" "$out/run.json" "$out" <<'PY' || fail "$n ranks: handover differs from the checkpoint, or the mass flow from the outflow"
import json, sys
import h5py, numpy as np
ckpt, first = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
a, b = ckpt["particles"], first["particles"]
ia, ib = np.argsort(a["id"][...]), np.argsort(b["id"][...])
assert np.array_equal(a["id"][...][ia], b["id"][...][ib]), "ids differ"
assert len(np.unique(b["id"][...])) == len(b["id"]), "an id appears twice"
for field in ("position", "velocity", "orientation", "angular_velocity", "radius", "material", "group"):
    assert np.array_equal(a[field][...][ia], b[field][...][ib]), field + " differs"
assert first.attrs["time"] == 0.0 and first.attrs["step"] == 0, "the clock does not start at 0"
record = json.load(open(sys.argv[3]))
assert record["from"]["particles"] == len(ia) and record["from"]["step"] == ckpt.attrs["step"]
p = record["particles"]
assert p["initial"] == len(ia), p
assert p["final"] + p["deleted"] == p["initial"] and p["lost"] == 0 and p["generated"] == 0, p
assert p["deleted"] > 0, "the silo did not discharge: %s" % p
# measurements.mass_flow (plane z = -2 mm, counted downwards, above the outflow face): the net
# crossings are exactly the particles deleted below it plus those below it at the end.
flow = np.genfromtxt(sys.argv[4] + "/mass_flow.csv", delimiter=",", names=True)
below = int((h5py.File(sys.argv[4] + "/snapshot_00000600.h5", "r")["particles/position"][:, 2] < -0.002).sum())
assert len(flow) == 6 and flow["crossings"].sum() == p["deleted"] + below, (flow["crossings"], p, below)
PY
done

# 2. A --from run continues bit for bit under --restart.
"$granite" run "$discharge" --output "$tmp/half" --from "$ckpt" --set run.end_time=0.03 --quiet \
  > "$tmp/half.log" 2>&1 || fail "--from run to 0.03 s: $(tail -3 "$tmp/half.log")"
"$granite" run "$discharge" --output "$tmp/half" --restart "$tmp/half/checkpoint.h5" --set run.end_time=0.06 --quiet \
  > "$tmp/half2.log" 2>&1 || fail "--restart of the --from run: $(tail -3 "$tmp/half2.log")"
$compare "$tmp/discharge1/snapshot_00000600.h5" "$tmp/half/snapshot_00000600.h5" \
  || fail "--from then --restart differs from the uninterrupted --from run"

# 3. Bad uses.
expect_input_error "--from with --restart" "$granite" run "$discharge" --output "$tmp/x1" --from "$ckpt" --restart "$ckpt"
expect_input_error "--from a missing file" "$granite" run "$discharge" --output "$tmp/x2" --from "$tmp/none.h5"
grep -v "name: glass" "$discharge" > "$tmp/one_material.yaml"
expect_input_error "--from with a missing material" "$granite" run "$tmp/one_material.yaml" --output "$tmp/x3" --from "$ckpt"
grep -q "has material 1 but" "$tmp/err.log" || fail "missing material: not named: $(cat "$tmp/err.log")"
expect_input_error "--from into a smaller domain" mpiexec -n 2 --oversubscribe "$granite" run "$discharge" \
  --output "$tmp/x4" --from "$ckpt" --set 'domain.max=[0.03,0.01,0.002]'

[ "$failures" -eq 0 ] && echo "PASS: --from end to end" || { echo "$failures failure(s)"; exit 1; }
