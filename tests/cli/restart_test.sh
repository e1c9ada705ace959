#!/usr/bin/env bash
# Checkpoint/restart end to end on configs/channel_ci.yaml:
#  1. a run stopped by SIGUSR1 checkpoints, and its restart ends bit for bit where the
#     uninterrupted run ends (same single rank);
#  2. a checkpoint written at an earlier end time continues to the same result;
#  3. a checkpoint continues on 2 ranks (bodies redistributed) to the end with every particle;
#  5. after particles have migrated, with each of warm start, neighbour lists, locality sort
#     and dynamic load balance, a continuation is bit for bit at 2 ranks, and with all of them
#     at 1 rank (all of them at 2 and 3 ranks: restart_soak_test.sh);
#  4. a truncated checkpoint gives one error line and exit code 2.
# usage: restart_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
cfg=$src/configs/channel_ci.yaml
compare="/usr/bin/python3 $src/tests/support/compare_snapshots.py"
run_info() { /usr/bin/python3 "$src/scripts/run_info.py" "$@" 2>&1; }  # fields of OUTPUT/run.json
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
final=snapshot_00001250.h5

"$granite" run "$cfg" --output "$tmp/full" > "$tmp/full.log" 2>&1 || fail "uninterrupted run: $(tail -3 "$tmp/full.log")"

# 1. Stop by signal somewhere in the run, then continue.
"$granite" run "$cfg" --output "$tmp/sig" > "$tmp/sig.log" 2>&1 &
pid=$!
for _ in $(seq 100); do grep -q '^250,' "$tmp/sig/thermo.csv" 2>/dev/null && break; sleep 0.1; done
kill -USR1 "$pid"; wait "$pid"; rc=$?
[ "$rc" -eq 0 ] || fail "the signalled run exited $rc"
status=$(run_info "$tmp/sig" status); stopped=$(run_info "$tmp/sig" steps.last)
[ "$status" = stopped ] && [[ $stopped =~ ^[1-9][0-9]*$ ]] \
  || fail "run.json of the signalled run: status '$status', steps.last '$stopped'; expected stopped at a step > 0: $(tail -3 "$tmp/sig.log")"
[ -f "$tmp/sig/checkpoint.h5" ] || fail "no checkpoint after the signal"
ls "$tmp/sig"/*.tmp > /dev/null 2>&1 && fail "a .tmp file was left behind"
"$granite" run "$cfg" --output "$tmp/sig" --restart "$tmp/sig/checkpoint.h5" > "$tmp/sig2.log" 2>&1 \
  || fail "restart after the signal: $(tail -3 "$tmp/sig2.log")"
restarted=$(run_info "$tmp/sig" restart.step)
[[ $restarted =~ ^[0-9]+$ ]] && [ "$restarted" = "$stopped" ] || fail "run.json of the restart: restart.step '$restarted', the run stopped at '$stopped'"
$compare "$tmp/full/$final" "$tmp/sig/$final" || fail "signal + restart differs from the uninterrupted run"

# 2. A checkpoint from a shorter run of the same scenario continues identically.
"$granite" run "$cfg" --output "$tmp/short" --set run.end_time=0.02 > "$tmp/short.log" 2>&1 || fail "short run"
"$granite" run "$cfg" --output "$tmp/short" --restart "$tmp/short/checkpoint.h5" > "$tmp/short2.log" 2>&1 \
  || fail "restart of the short run: $(tail -3 "$tmp/short2.log")"
$compare "$tmp/full/$final" "$tmp/short/$final" || fail "short run + restart differs from the uninterrupted run"

# 3. Another rank count: the run completes with the bodies redistributed.
cp -r "$tmp/short" "$tmp/two"
mpiexec -n 2 --oversubscribe "$granite" run "$cfg" --output "$tmp/two" --restart "$tmp/short/checkpoint.h5" \
  > "$tmp/two.log" 2>&1 || fail "restart on 2 ranks: $(tail -3 "$tmp/two.log")"
[ -f "$tmp/two/$final" ] || fail "the 2-rank continuation did not reach the end"
$compare "$tmp/full/$final" "$tmp/two/$final" --tolerance 1e-3 > "$tmp/two.cmp" \
  || echo "note (not a failure): 2-rank continuation differs by relaxation order: $(cat "$tmp/two.cmp")"

# 5. Continuations after particles have migrated (issue 43): a run to 0.06 s, when the flow
#    (1 m/s) has carried particles 6 cm, across every cut, continues to 0.065 s bit for bit to
#    the uninterrupted run (the same decomposition each time): with each alone of warm start,
#    neighbour lists (a skin), the locality sort alone (no skin: sorted at every step) and
#    dynamic load balance on 2 ranks, and with all of them at once on 1 rank. All of them on 2
#    and 3 ranks, interrupted three times each, is restart_soak_test.sh.
# continuation LABEL RANKS ARGS...: the check for one setting on each rank count of RANKS.
continuation() {
  local label=$1 ranks=$2; shift 2
  for n in $ranks; do
    local launch=("$granite"); [ "$n" -gt 1 ] && launch=(mpiexec -n "$n" --oversubscribe "$granite")
    local out=$tmp/$label$n
    local common=(--set output.snapshot_interval=0 "$@")
    "${launch[@]}" run "$cfg" --output "$out-full" "${common[@]}" --set run.end_time=0.065 > "$out-full.log" 2>&1 || fail "$label run on $n rank(s): $(tail -3 "$out-full.log")"
    "${launch[@]}" run "$cfg" --output "$out-short" "${common[@]}" --set run.end_time=0.06 > "$out-short.log" 2>&1 || fail "short $label run on $n rank(s)"
    "${launch[@]}" run "$cfg" --output "$out-short" "${common[@]}" --set run.end_time=0.065 --restart "$out-short/checkpoint.h5" > "$out-restart.log" 2>&1 \
      || fail "$label restart on $n rank(s): $(tail -3 "$out-restart.log")"
    $compare "$out-full/snapshot_00001625.h5" "$out-short/snapshot_00001625.h5" || fail "$label: restart on $n rank(s) differs from the uninterrupted run"
  done
}
balance=(--set domain.balance=dynamic --set domain.balance_every=20 --set domain.imbalance_threshold=1)
continuation warm 2 --set solver.warm_start=1 --set contact.skin=0 --set contact.locality_sort=none
continuation skin 2 --set contact.skin=2e-4 --set contact.locality_sort=none
continuation sort 2 --set contact.skin=0
continuation balance 2 "${balance[@]}" --set contact.skin=0 --set contact.locality_sort=none
continuation all 1 --set solver.warm_start=1 --set contact.skin=2e-4 "${balance[@]}"
grep -q "balance at step .* -> " "$tmp/balance2-full.log" || fail "the balanced run never moved its cuts: $(grep balance "$tmp/balance2-full.log" | head -3)"
grep -q "neighbour lists: skin 0.0002 m, rebuilt at" "$tmp/skin2-full.log" || fail "the skin run's closing line has no neighbour-list figures"

# 4. A truncated checkpoint.
head -c 2000 "$tmp/short/checkpoint.h5" > "$tmp/bad.h5"
out=$("$granite" run "$cfg" --output "$tmp/bad" --restart "$tmp/bad.h5" 2>&1 >/dev/null); rc=$?
[ "$rc" -eq 2 ] || fail "truncated checkpoint: exit code $rc, expected 2"
[ "$(grep -c . <<<"$out")" -eq 1 ] && grep -q "bad.h5" <<<"$out" || fail "truncated checkpoint: expected one line naming the file: $out"

[ "$failures" -eq 0 ] && echo "all restart checks passed" || { echo "$failures restart check(s) failed"; exit 1; }
