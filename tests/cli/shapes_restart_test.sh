#!/usr/bin/env bash
# Checkpoint/restart of clumps (issue 37) on configs/clump_pile.yaml: dimers falling and tetrahedral
# clumps poured onto them. With every default on (warm start, automatic skin, Morton locality
# sort), and with dynamic load balance besides, a run stopped at 0.05 s (the clumps have crossed
# the z cut, the pour is going on) and restarted ends at 0.06 s bit for bit where the
# uninterrupted run ends, on 1, 2 and 3 ranks (the same decomposition each time); every particle
# keeps its shape. Then the same for configs/brick_pile.yaml and configs/ellipsoid_drum.yaml
# at 2 ranks, and the channel of capsules (configs/channel_shapes.yaml) under coulomb at 2 and 4.
# usage: shapes_restart_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
cfg=$src/configs/clump_pile.yaml
compare="/usr/bin/python3 $src/tests/support/compare_snapshots.py"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
final=snapshot_00000600.h5

# continuation LABEL RANKS ARGS...
continuation() {
  local label=$1 ranks=$2; shift 2
  for n in $ranks; do
    local launch=("$granite"); [ "$n" -gt 1 ] && launch=(mpiexec -n "$n" --oversubscribe "$granite")
    local out=$tmp/$label$n
    local common=(--set output.snapshot_interval=0.05 --set "domain.decomposition=[1, 1, $n]" "$@")
    "${launch[@]}" run "$cfg" --output "$out-full" "${common[@]}" --set run.end_time=0.06 > "$out-full.log" 2>&1 || fail "$label run on $n rank(s): $(tail -3 "$out-full.log")"
    "${launch[@]}" run "$cfg" --output "$out-short" "${common[@]}" --set run.end_time=0.05 > "$out-short.log" 2>&1 || fail "short $label run on $n rank(s): $(tail -3 "$out-short.log")"
    "${launch[@]}" run "$cfg" --output "$out-short" "${common[@]}" --set run.end_time=0.06 --restart "$out-short/checkpoint.h5" > "$out-restart.log" 2>&1 \
      || fail "$label restart on $n rank(s): $(tail -3 "$out-restart.log")"
    $compare "$out-full/$final" "$out-short/$final" || fail "$label: restart on $n rank(s) differs from the uninterrupted run"
    /usr/bin/python3 - "$out-full/$final" <<'PY' || fail "$label on $n rank(s): shapes"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as f:
    shape = f["/particles/shape"][...]
    n = len(shape)
    # 250 dimers (shape 0) from the start; the pour's tetrahedra (shape 1) by 0.06 s.
    assert np.count_nonzero(shape == 0) == 250, np.bincount(shape)
    assert np.count_nonzero(shape == 1) == n - 250 and n > 300, np.bincount(shape)
PY
  done
  if [ "$ranks" != 1 ]; then
    grep -q "ghosts: [1-9]" "$tmp/${label}2-full.log" || fail "$label: no ghosts on 2 ranks, the test is too weak: $(grep ghosts "$tmp/${label}2-full.log")"
  fi
}
continuation defaults "1 2 3"
continuation balance "2 3" --set domain.balance=dynamic --set domain.balance_every=20 --set domain.imbalance_threshold=1
grep -q "balance at step .* -> " "$tmp/balance2-full.log" || fail "the balanced run never moved its cuts: $(grep balance "$tmp/balance2-full.log" | head -3)"

# A snapshot of clumps as a `file` source: every particle keeps its shape, position and
# orientation (renormalised) and takes its shape's mass; a configuration without those shapes
# is refused with one line, exit 2.
snap=$tmp/defaults1-full/$final
sed '/^bodies:/,$d' "$cfg" > "$tmp/from_file.yaml"   # run ... shapes (no bodies, no particles)
cat >> "$tmp/from_file.yaml" <<YAML
particles:
  - {type: file, path: $snap, material: glass}
YAML
"$granite" run "$tmp/from_file.yaml" --output "$tmp/ff" --set run.end_time=1e-4 > "$tmp/ff.log" 2>&1 \
  || fail "file source of clumps: $(tail -3 "$tmp/ff.log")"
/usr/bin/python3 - "$snap" "$tmp/ff/snapshot_00000000.h5" <<'PY' || fail "file source of clumps: shapes, orientations or masses differ"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
    ia, ib = np.argsort(a["/particles/id"][...]), np.argsort(b["/particles/id"][...])
    for name in ("shape", "position", "radius"):
        assert np.array_equal(a["/particles/" + name][...][ia], b["/particles/" + name][...][ib]), name
    # renormalised on reading (unit to rounding already): equal to a few ulps
    qa, qb = a["/particles/orientation"][...][ia], b["/particles/orientation"][...][ib]
    assert np.abs(qa - qb).max() <= 4e-16, np.abs(qa - qb).max()
PY
sed '/^shapes:/,$d' "$cfg" > "$tmp/no_shapes.yaml"
cat >> "$tmp/no_shapes.yaml" <<YAML
particles:
  - {type: file, path: $snap, material: glass}
YAML
out=$("$granite" run "$tmp/no_shapes.yaml" --output "$tmp/ns" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] && [ "$(grep -c . <<<"$out")" -eq 1 ] && grep -q "has shape [01] but the configuration defines 0 shapes" <<<"$out" \
  || fail "a file of shapes the configuration lacks: exit $rc, expected 2 and one line: $out"

# Bricks and convex grains (configs/brick_pile.yaml): contact manifolds of up to four points
# per pair, their warm-start impulses told apart by their order; stopped at 0.15 s, when the
# bricks lie on each other across the z cut (about 1000 contacts), and restarted, at 2 ranks
# with every default on; the run and the restart end at 0.2 s.
two_rank_run() {  # CONFIG DECOMPOSITION OUT END [ARGS...]
  local config=$1 cut=$2 out=$3 end=$4; shift 4
  mpiexec -n 2 --oversubscribe "$granite" run "$config" --output "$out" --set output.snapshot_interval=0.05 \
    --set "domain.decomposition=$cut" --set run.end_time="$end" "$@" > "$out.log" 2>&1 \
    || fail "$(basename "$config") to $end s $*: $(tail -3 "$out.log")"
}
bricks=$src/configs/brick_pile.yaml
two_rank_run "$bricks" "[1, 1, 2]" "$tmp/bricks-full" 0.2
two_rank_run "$bricks" "[1, 1, 2]" "$tmp/bricks-short" 0.15
two_rank_run "$bricks" "[1, 1, 2]" "$tmp/bricks-short" 0.2 --restart "$tmp/bricks-short/checkpoint.h5"
$compare "$tmp/bricks-full/snapshot_00002000.h5" "$tmp/bricks-short/snapshot_00002000.h5" \
  || fail "bricks: the restart differs from the uninterrupted run"
grep -q "ghosts: [1-9]" "$tmp/bricks-full.log" || fail "bricks: no ghosts on 2 ranks: $(grep ghosts "$tmp/bricks-full.log")"

# Ellipsoids and rocks from an STL file in a turning drum (configs/ellipsoid_drum.yaml), cut
# across x at 2 ranks so that the drum carries them over the cut: stopped at 0.1 s,
# restarted, compared at 0.15 s.
drum=$src/configs/ellipsoid_drum.yaml
two_rank_run "$drum" "[2, 1, 1]" "$tmp/drum-full" 0.15
two_rank_run "$drum" "[2, 1, 1]" "$tmp/drum-short" 0.1
two_rank_run "$drum" "[2, 1, 1]" "$tmp/drum-short" 0.15 --restart "$tmp/drum-short/checkpoint.h5"
$compare "$tmp/drum-full/snapshot_00001500.h5" "$tmp/drum-short/snapshot_00001500.h5" \
  || fail "drum: the restart differs from the uninterrupted run"
grep -q "ghosts: [1-9]" "$tmp/drum-full.log" || fail "drum: no ghosts on 2 ranks: $(grep ghosts "$tmp/drum-full.log")"

# The channel of capsules (configs/channel_shapes.yaml) under coulomb (Newton on the slip
# direction of coupled blocks), cut across x at 2 and 4 ranks: the inflow on the first rank,
# the outflow on the last, the flow (1 m/s) carrying capsules over the cuts; stopped at
# 0.008 s, restarted, compared at 0.016 s, none lost.
channel=$src/configs/channel_shapes.yaml
for n in 2 4; do
  common=(--set contact.model=coulomb --set output.snapshot_interval=0.008 --set "domain.decomposition=[$n, 1, 1]")
  out=$tmp/channel$n
  run_channel() { mpiexec -n "$n" --oversubscribe "$granite" run "$channel" "${common[@]}" "$@"; }
  run_channel --output "$out-full" --set run.end_time=0.016 > "$out-full.log" 2>&1 || fail "channel on $n ranks: $(tail -3 "$out-full.log")"
  run_channel --output "$out-short" --set run.end_time=0.008 > "$out-short.log" 2>&1 || fail "short channel on $n ranks: $(tail -3 "$out-short.log")"
  run_channel --output "$out-short" --set run.end_time=0.016 --restart "$out-short/checkpoint.h5" > "$out-restart.log" 2>&1 \
    || fail "channel restart on $n ranks: $(tail -3 "$out-restart.log")"
  $compare "$out-full/snapshot_00000400.h5" "$out-short/snapshot_00000400.h5" \
    || fail "channel of capsules: the restart on $n ranks differs from the uninterrupted run"
  grep -q " 0 lost" "$out-full.log" || fail "channel of capsules on $n ranks: particles lost: $(grep '^done' "$out-full.log")"
  grep -q "ghosts: [1-9]" "$out-full.log" || fail "channel of capsules: no ghosts on $n ranks: $(grep ghosts "$out-full.log")"
done

[ "$failures" -eq 0 ] && echo "all shape restart checks passed" || { echo "$failures shape restart check(s) failed"; exit 1; }
