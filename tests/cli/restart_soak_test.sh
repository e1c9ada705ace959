#!/usr/bin/env bash
# A run interrupted three times and restarted each time ends where the uninterrupted run ends,
# bit for bit, with every default of the engine on and particles migrating between the stops
# (issue 43): configs/channel_ci.yaml with warm start, neighbour lists (automatic skin), the
# Morton locality sort, dynamic load balance every 20 steps and a checkpoint every 0.005 s.
#  - SIGTERM on 2 ranks: each stop checkpoints after the current step;
#  - SIGKILL on 3 ranks: each segment dies without a word and continues from the last periodic
#    checkpoint; the final segment's particle accounting closes (final - initial = generated -
#    deleted - lost).
# The stops fall at moments not aligned with the checkpoint interval (125 steps).
# usage: restart_soak_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
cfg=$src/configs/channel_ci.yaml
compare="/usr/bin/python3 $src/tests/support/compare_snapshots.py"
run_info() { /usr/bin/python3 "$src/scripts/run_info.py" "$@" 2>&1; }  # fields of OUTPUT/run.json
tmp=$(mktemp -d); trap 'pkill -KILL -f "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
settings=(--set run.end_time=0.16 --set run.thermo_every=10 --set output.snapshot_interval=0
          --set output.checkpoint_interval=0.005 --set solver.warm_start=1
          --set domain.balance=dynamic --set domain.balance_every=20
          --set domain.imbalance_threshold=1)
last=snapshot_00004000.h5

# wait_for_step DIR STEP PID: until DIR/thermo.csv has a row at or after STEP (or PID ended).
wait_for_step() {
  local dir=$1 step=$2 pid=$3
  for _ in $(seq 1200); do
    kill -0 "$pid" 2> /dev/null || return 1
    [ -f "$dir/thermo.csv" ] && awk -F, -v s="$step" 'NR > 1 && $1 >= s { found = 1 } END { exit !found }' "$dir/thermo.csv" && return 0
    sleep 0.05
  done
  return 1
}

# soak RANKS SIGNAL: the uninterrupted run, then the interrupted one; compares the two.
soak() {
  local n=$1 signal=$2
  local launch=(mpiexec -n "$n" --oversubscribe "$granite")
  local full=$tmp/full$n out=$tmp/soak$n
  "${launch[@]}" run "$cfg" --output "$full" "${settings[@]}" > "$full.log" 2>&1 \
    || fail "uninterrupted run on $n ranks: $(tail -3 "$full.log")"
  grep -q "balance at step .* -> " "$full.log" || fail "the run on $n ranks never moved its cuts"
  local restart=()
  for stop in 1130 2370 3610; do
    "${launch[@]}" run "$cfg" --output "$out" "${settings[@]}" "${restart[@]}" > "$out-$stop.log" 2>&1 &
    local pid=$!
    if wait_for_step "$out" "$stop" "$pid"; then
      # To the ranks, as a batch system's `scancel --signal` does (mpiexec's own forwarding
      # makes it exit 1); SIGKILL: the ranks die at once, as on a failed node.
      pkill "-$signal" -P "$pid"
    else
      fail "$n ranks: the segment to step $stop ended early: $(tail -3 "$out-$stop.log")"
    fi
    wait "$pid"; local rc=$?
    if [ "$signal" = TERM ]; then
      [ "$rc" -eq 0 ] || fail "$n ranks: the run stopped by SIGTERM at step $stop exited $rc"
      [ "$(run_info "$out" status)" = stopped ] || fail "$n ranks: run.json after SIGTERM: $(run_info "$out" status)"
    fi
    [ -f "$out/checkpoint.h5" ] || fail "$n ranks: no checkpoint after the stop at step $stop"
    restart=(--restart "$out/checkpoint.h5")
  done
  "${launch[@]}" run "$cfg" --output "$out" "${settings[@]}" "${restart[@]}" > "$out-last.log" 2>&1 \
    || fail "$n ranks: the last segment: $(tail -3 "$out-last.log")"
  local from; from=$(run_info "$out" restart.step)
  if [ "$signal" = KILL ]; then
    [[ $from =~ ^[0-9]+$ ]] && [ $((from % 125)) -eq 0 ] \
      || fail "$n ranks: after SIGKILL the run continued from step '$from', not a periodic checkpoint"
  fi
  local initial final generated deleted lost
  initial=$(run_info "$out" particles.initial); final=$(run_info "$out" particles.final)
  generated=$(run_info "$out" particles.generated); deleted=$(run_info "$out" particles.deleted)
  lost=$(run_info "$out" particles.lost)
  [ $((final - initial)) -eq $((generated - deleted - lost)) ] \
    || fail "$n ranks: particles final $final - initial $initial != generated $generated - deleted $deleted - lost $lost"
  $compare "$full/$last" "$out/$last" || fail "$n ranks, SIG$signal: the interrupted run differs from the uninterrupted one"
}

soak 2 TERM
soak 3 KILL

[ "$failures" -eq 0 ] && echo "all soak checks passed" || { echo "$failures soak check(s) failed"; exit 1; }
