#!/usr/bin/env bash
# configs/channel_small.yaml (the demo's job) reaches a steady flow on 2 ranks: over the
# averaged part of the run (t >= statistics.average_from) the mean particle count of the last
# third differs from that of the first third by less than 5% (the inflow adds a layer of 80
# particles, 1.7% of the ~4.6e3 in the channel, every 4 ms; a flow that piles up keeps most of
# the inflow, +50-80% per 0.1 s). The same criterion must catch the pile-up of the variant with
# the paper's floor friction (mu = 0.4), run for 0.35 s and averaged from 0.15 s.
# usage: channel_steady_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
cfg=$src/configs/channel_small.yaml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# Prints the drift in per cent (as summary.txt does: +0.3) from the run's run.json, where
# statistics.particle_count_drift is relative (0.003).
drift_of() {
  /usr/bin/python3 "$src/scripts/run_info.py" "$1" statistics.particle_count_drift \
    | awk '{printf "%+.1f", 100 * $1}'
}

run() {  # run NAME [--set ...]
  local name=$1; shift
  mpiexec -n 2 --oversubscribe "$granite" run "$cfg" --output "$tmp/$name" "$@" > "$tmp/$name.log" 2>&1 \
    || { fail "$name: granite run failed: $(tail -3 "$tmp/$name.log")"; return 1; }
  [ -f "$tmp/$name/summary.txt" ] || { fail "$name: no summary.txt"; return 1; }
  sed 's/^/    /' "$tmp/$name/summary.txt"
}

if run steady; then
  d=$(drift_of "$tmp/steady")
  echo "channel_small: particle count drift $d % over 0.4-0.8 s"
  awk -v d="$d" 'BEGIN { exit !(d != "" && d > -5 && d < 5) }' || fail "channel_small is not steady: drift '$d' %"
fi

if run rough_floor --set 'materials[1].friction=0.4' --set run.end_time=0.35 --set statistics.average_from=0.15; then
  d=$(drift_of "$tmp/rough_floor")
  echo "channel_small with the paper's floor friction: particle count drift $d % over 0.15-0.35 s"
  awk -v d="$d" 'BEGIN { exit !(d != "" && d > 5) }' || fail "the pile-up with mu = 0.4 on the floor was not detected: drift '$d' %"
fi

[ "$failures" -eq 0 ] && echo "all steady-flow checks passed" || { echo "$failures steady-flow check(s) failed"; exit 1; }
