#!/usr/bin/env bash
# A non-finite state stops a 2-rank run at the step it appears, collectively and cleanly:
# every rank exits 1 on its own (no MPI_Abort), rank 0 prints one line naming the particle,
# the step and the last checkpoint, run.json says "failed" with that line, and the output
# directory's checkpoint.h5 from before is left as it was although a checkpoint was due.
#
# The non-finite value enters through a real input path, with no test hook in the code: a
# checkpoint of a 2-rank run in which one particle owned by rank 1 gets an external force of
# 1e308 N (h5py; finite, so the restart's check of the checkpoint accepts it); the run
# restarted from it on 2 ranks integrates that particle to an infinite velocity and position
# in its first step, which only rank 1 sees.
# Before that: the same checkpoint with a NaN velocity instead is refused before the first
# step, on every rank, with one line naming the particle (exit 2).
# usage: non_finite_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
cfg=$src/configs/channel_ci.yaml
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# 10 steps (dt = 4e-5 s) on 2 ranks: out/checkpoint.h5 at step 10.
mpiexec -n 2 --oversubscribe "$granite" run "$cfg" --output "$tmp/out" --set run.end_time=0.0004 \
  > "$tmp/first.log" 2>&1 || { echo "FAIL: the first run: $(tail -3 "$tmp/first.log")"; exit 1; }

# inject FIELD VALUE OUT: a copy of the checkpoint with the x component of FIELD of the first
# particle rank 1 owns set to VALUE; prints its id.
inject() {
  PYTHONPATH=$src/scripts $py - "$tmp/out/checkpoint.h5" "$3" "$1" "$2" <<'PY'
import shutil, sys
import h5py, numpy
shutil.copy(sys.argv[1], sys.argv[2])
with h5py.File(sys.argv[2], "r+") as f:
    particles = f["particles"]
    i = int(numpy.flatnonzero(particles["owner_rank"][:] == 1)[0])
    row = particles[sys.argv[3]][i]
    row[0] = float(sys.argv[4])
    particles[sys.argv[3]][i] = row
    print(int(particles["id"][i]))
PY
}

nan_id=$(inject velocity nan "$tmp/nan.h5") || { echo "FAIL: could not inject the NaN"; exit 1; }
out=$(mpiexec -n 2 --oversubscribe "$granite" run "$cfg" --output "$tmp/nan" --restart "$tmp/nan.h5" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] || fail "a checkpoint with a NaN velocity: exit code $rc, expected 2: $out"
# (mpiexec adds its own lines about the exit code)
[ "$(grep '^error:' <<<"$out")" = "error: $tmp/nan.h5: invalid checkpoint: particle $nan_id has a non-finite velocity" ] \
  || fail "a checkpoint with a NaN velocity: expected one line naming particle $nan_id, got: $out"

id=$(inject force 1e308 "$tmp/injected.h5") || { echo "FAIL: could not inject the force"; exit 1; }
before=$(sha1sum < "$tmp/out/checkpoint.h5")

# The restart into the same output directory with a checkpoint due every step. Each rank's
# own exit code is recorded by a wrapper (which itself exits 0, so mpiexec kills no rank).
mpiexec -n 2 --oversubscribe sh -c '"$@"; echo $? > "$0/rank$OMPI_COMM_WORLD_RANK.rc"' "$tmp" \
  "$granite" run "$cfg" --output "$tmp/out" --restart "$tmp/injected.h5" \
  --set run.end_time=0.0008 --set output.checkpoint_interval=4e-5 > "$tmp/run.log" 2> "$tmp/run.err"
for rank in 0 1; do
  rc=$(cat "$tmp/rank$rank.rc" 2>/dev/null)
  [ "$rc" = 1 ] || fail "rank $rank exited '$rc', expected 1: $(cat "$tmp/run.err")"
done
line="non-finite state at step 11: particle $id has a non-finite position; last checkpoint: $tmp/injected.h5 (step 10)"
[ "$(cat "$tmp/run.err")" = "error: $line" ] \
  || fail "expected the one line 'error: $line' on stderr, got: $(cat "$tmp/run.err")"
grep -q "MPI_ABORT" "$tmp/run.log" "$tmp/run.err" && fail "the run called MPI_Abort"

run_info() { $py "$src/scripts/run_info.py" "$tmp/out" "$@" 2>&1; }
[ "$(run_info status)" = failed ] || fail "run.json status '$(run_info status)', expected failed"
[ "$(run_info failure)" = "$line" ] || fail "run.json failure '$(run_info failure)'"
[ "$(run_info steps.last)" = 11 ] || fail "run.json steps.last '$(run_info steps.last)', expected 11"

# The checkpoint from before the failure: untouched, readable, step 10 < 11, all finite.
[ "$(sha1sum < "$tmp/out/checkpoint.h5")" = "$before" ] || fail "checkpoint.h5 was rewritten"
PYTHONPATH=$src/scripts $py - "$tmp/out/checkpoint.h5" <<'PY' || fail "checkpoint.h5 is not the good one"
import sys
import numpy
import granite_io
c = granite_io.load_checkpoint(sys.argv[1])
assert c.step == 10, c.step
assert all(numpy.isfinite(c[name]).all() for name in ("position", "velocity", "angular_velocity"))
PY
ls "$tmp/out"/*.tmp > /dev/null 2>&1 && fail "a .tmp file was left behind"
snapshots=$(cd "$tmp/out" && echo snapshot_*.h5)
# The initial state (output.snapshot_initial) and the last good step; nothing of step 11.
[ "$snapshots" = "snapshot_00000000.h5 snapshot_00000010.h5" ] || fail "snapshots after the failure: $snapshots"

[ "$failures" -eq 0 ] && echo "all non-finite checks passed" || { echo "$failures non-finite check(s) failed"; exit 1; }
