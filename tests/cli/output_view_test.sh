#!/usr/bin/env bash
# What a user sees of a run, end to end on a short 2-rank configs/channel_ci.yaml:
#  1. output times are step x dt: series.xdmf starts with the initial state at exactly 0 and
#     its second time is exactly output.snapshot_interval (no accumulated t += dt);
#     output.snapshot_initial: false leaves the initial snapshot out;
#  2. run.json's progress, sampled while the run goes, grows monotonically to 100 %;
#     `granite status` on the finished run (exit 0), on a run killed with SIGKILL (alive
#     within the stall limit: 0; stalled once the heartbeat is older: 1) and on a directory
#     without run.json (exit 2, one line);
#  3. ParaView's XDMF reader (python3-paraview) sees, at every time, the particles of the
#     HDF5 snapshot with their velocity and radius, and the global bodies' surfaces with the
#     obstacle where the configuration puts it (paraview_series_check.py);
#  4. scripts/paraview_view.py renders every step to PNG and writes a ParaView state;
#  5. the run banner's memory estimate and the high-water mark per rank (log, run.json).
# usage: output_view_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
cfg=$src/configs/channel_ci.yaml
py=/usr/bin/python3
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
mpirun="mpirun -np 2 --oversubscribe"
# 0.01 s of channel_ci: 250 steps of 4e-5 s, snapshots every 0.005 s (125 steps).
short=(--set run.end_time=0.01 --set output.snapshot_interval=0.005 --set run.thermo_every=25)

# 2. Progress: sample run.json (replaced atomically, so every read is a whole file) while a
# run goes: 1000 steps with a thermo line every 25, so that a fast machine (the 250 steps of
# the short run take 0.4 s on one) still gives several samples; sed is a cheaper sampler than
# a python3 start.
$mpirun "$granite" run "$cfg" --output "$tmp/run" "${short[@]}" > "$tmp/run.log" 2>&1 \
  || fail "2-rank run: $(tail -3 "$tmp/run.log")"
$mpirun "$granite" run "$cfg" --output "$tmp/progress" --set run.end_time=0.04 \
  --set output.snapshot_interval=0 --set run.thermo_every=25 > "$tmp/progress.log" 2>&1 &
pid=$!
: > "$tmp/percent"
percent='s/^ *"percent": *\([0-9.]*\),*$/\1/p'
while kill -0 "$pid" 2> /dev/null; do
  sed -n "$percent" "$tmp/progress/run.json" >> "$tmp/percent" 2> /dev/null
  sleep 0.02
done
wait "$pid" || fail "2-rank progress run: $(tail -3 "$tmp/progress.log")"
sed -n "$percent" "$tmp/progress/run.json" >> "$tmp/percent"
$py - "$tmp/percent" <<'EOF' || fail "run.json progress: $(tr '\n' ' ' < "$tmp/percent")"
import sys
seen = [float(x) for x in open(sys.argv[1]).read().split()]
assert all(a <= b for a, b in zip(seen, seen[1:])), f"not monotone: {seen}"
assert seen[-1] == 100.0, f"ends at {seen[-1]}"
assert len(set(seen)) >= 3, f"too few distinct samples to judge: {seen}"
EOF
grep -q '100.0%.*p-steps/s elapsed .* left 0:00:00' "$tmp/run.log" \
  || fail "the last thermo line does not carry the progress: $(grep -m1 ' 250 ' "$tmp/run.log")"
"$granite" status "$tmp/run" > "$tmp/status.txt" 2>&1; rc=$?
[ "$rc" -eq 0 ] && grep -q 'completed' "$tmp/status.txt" && grep -q '100.0%' "$tmp/status.txt" \
  || fail "status of the finished run: exit $rc: $(cat "$tmp/status.txt")"
"$granite" status "$tmp" > "$tmp/nodir.txt" 2>&1; rc=$?
[ "$rc" -eq 2 ] && [ "$(wc -l < "$tmp/nodir.txt")" -eq 1 ] && grep -q 'not a Granite output' "$tmp/nodir.txt" \
  || fail "status of a directory without run.json: exit $rc: $(cat "$tmp/nodir.txt")"

# A run killed with SIGKILL (every rank at once, as a node failure or the OOM killer would)
# leaves run.json saying "running" with a heartbeat that ages.
$mpirun "$granite" run "$cfg" --output "$tmp/killed" --set run.thermo_every=25 > "$tmp/killed.log" 2>&1 &
pid=$!
for _ in $(seq 300); do grep -q '"progress"' "$tmp/killed/run.json" 2> /dev/null && break; sleep 0.1; done
for rank in $(pgrep -P "$pid"); do kill -KILL "$rank"; done
wait "$pid" 2> /dev/null
"$granite" status "$tmp/killed" --stall-after 3600 > "$tmp/alive.txt" 2>&1; rc=$?
[ "$rc" -eq 0 ] && grep -q 'running, alive' "$tmp/alive.txt" \
  || fail "status within the stall limit: exit $rc: $(cat "$tmp/alive.txt")"
sleep 2
"$granite" status "$tmp/killed" --stall-after 1 > "$tmp/stalled.txt" 2>&1; rc=$?
[ "$rc" -eq 1 ] && grep -q 'STALLED' "$tmp/stalled.txt" \
  || fail "status of the killed run after the stall limit: exit $rc: $(cat "$tmp/stalled.txt")"

# 5. Memory: the banner's estimate and the high-water mark per rank (log and run.json).
grep -q '^estimated memory per rank (largest rank): .* = particles .* + contacts .* + ghosts ' "$tmp/run.log" \
  || fail "no memory estimate in the run banner"
grep -q '^memory high-water mark per rank (ru_maxrss): min ' "$tmp/run.log" || fail "no high-water mark in the log"
$py - "$tmp/run/run.json" <<'EOF' || fail "run.json memory"
import json, sys
m = json.load(open(sys.argv[1]))["memory"]
peak = m["peak_resident_bytes"]
assert len(peak["per_rank"]) == 2 and all(b > 1e6 for b in peak["per_rank"]), peak
assert peak["min"] == min(peak["per_rank"]) and peak["max"] == max(peak["per_rank"]), peak
# The estimate counts only the arrays that grow with the particles: below the process size.
assert 0 < m["estimated_bytes_largest_rank"] < peak["max"], m
EOF

# 3. ParaView.
(cd "$tmp" && $py "$src/tests/cli/paraview_series_check.py" "$tmp/run" "$cfg" 5 0.005) \
  || fail "ParaView's view of the series"

# 4. scripts/paraview_view.py (pvbatch; xvfb-run gives it a display on a headless machine)
# renders every step and writes a ParaView state.
xvfb=()
[ -z "${DISPLAY:-}" ] && xvfb=(xvfb-run -a)
(cd "$tmp" && "${xvfb[@]}" pvbatch "$src/scripts/paraview_view.py" "$tmp/run" --png "$tmp/png" \
  --state "$tmp/view.pvsm" --size 800 400 > "$tmp/pv.log" 2>&1) || fail "paraview_view.py: $(tail -3 "$tmp/pv.log")"
$py - "$tmp/png" 0 125 250 <<'EOF' || fail "paraview_view.py images"
import sys
import matplotlib.image as image
import numpy as np
for step in sys.argv[2:]:
    picture = image.imread(f"{sys.argv[1]}/view_{int(step):08d}.png")
    assert picture.shape[:2] == (400, 800), picture.shape
    # Not blank: a white background, grey walls and spheres in many colours of the speed map.
    colours = len(np.unique((picture[..., :3] * 255).astype(int).reshape(-1, 3), axis=0))
    assert colours > 50, f"step {step}: only {colours} colours"
EOF
grep -q '<ServerManagerState' "$tmp/view.pvsm" || fail "view.pvsm is not a ParaView state"

# 1. Exact output times. The XDMF text is parsed as a double and compared with ==: the
# time must be the double nearest step x dt, written so that it reads back exactly.
$py - "$tmp/run/series.xdmf" 0.005 <<'EOF' || fail "series.xdmf times"
import re, sys
text = open(sys.argv[1]).read()
times = [float(t) for t in re.findall(r'<Time Value="([^"]+)"', text)]
interval = float(sys.argv[2])
steps = [int(s) for s in re.findall(r'<Information Name="step" Value="(\d+)"', text)]
assert steps[:3] == [0, 125, 250], steps
assert times[0] == 0.0, f"first time {times[0]!r}, expected exactly 0"
assert times[1] == interval, f"second time {times[1]!r}, expected exactly {interval!r}"
assert times[2] == 2 * interval, f"third time {times[2]!r}"
EOF
$mpirun "$granite" run "$cfg" --output "$tmp/noinit" "${short[@]}" \
  --set output.snapshot_initial=false > "$tmp/noinit.log" 2>&1 || fail "run without initial snapshot"
[ -f "$tmp/noinit/snapshot_00000000.h5" ] && fail "output.snapshot_initial=false wrote step 0"
[ -f "$tmp/noinit/snapshot_00000125.h5" ] || fail "no snapshot at step 125 without the initial one"

[ "$failures" -eq 0 ] && echo "output_view: all checks passed"
exit $((failures > 0))
