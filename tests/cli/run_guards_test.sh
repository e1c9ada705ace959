#!/usr/bin/env bash
# A run is right or it stops (issue 23): subdomains thinner than the ghost width, overflowing
# step counts and intervals, restarts and output directories that cannot lose work. Each case
# asserts the exit code, the one error line and the file system afterwards.
# usage: run_guards_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE PATTERN RANKS COMMAND_ARGS...: `granite ARGS` on RANKS ranks exits CODE; for
# CODE 2 stderr has exactly one "error: ..." line (printed once, by rank 0; mpiexec adds its
# own report of the exit code), matching PATTERN; otherwise one line of the output matches.
expect() {
  local code=$1 pattern=$2 ranks=$3; shift 3
  local cmd=("$granite" "$@") rc
  [ "$ranks" -gt 1 ] && cmd=(mpiexec -n "$ranks" --oversubscribe "${cmd[@]}")
  "${cmd[@]}" >"$tmp/stdout" 2>"$tmp/stderr"; rc=$?
  [ "$rc" -eq "$code" ] || { fail "granite $* at $ranks rank(s) exited $rc, expected $code: $(cat "$tmp/stderr")"; return 1; }
  if [ "$code" -eq 2 ]; then
    local lines; lines=$(grep -c '^error:' "$tmp/stderr")
    [ "$lines" -eq 1 ] || { fail "granite $* printed $lines error lines, expected 1: $(cat "$tmp/stderr")"; return 1; }
    grep -Eq -- "^error: .*$pattern" "$tmp/stderr" || { fail "granite $*: the error line does not match /$pattern/: $(cat "$tmp/stderr")"; return 1; }
  else
    grep -Eq -- "$pattern" "$tmp/stdout" "$tmp/stderr" || { fail "granite $*: no line matches /$pattern/: $(cat "$tmp/stdout" "$tmp/stderr")"; return 1; }
  fi
  echo "ok: granite $1 ... at $ranks rank(s): exit $rc"
}

json() {  # json FILE PYTHON_EXPRESSION_OF_r
  python3 -c "import json, sys; r = json.load(open(sys.argv[1])); print($2)" "$1"
}

# --- 1. Subdomains thinner than the ghost width ------------------------------------------------
# Two glass spheres of radius 5.5 mm, one at rest, one at -1 m/s, in a 30 x 20 x 20 mm box:
# a plastic head-on collision of equal masses halves the kinetic energy.
cat > "$tmp/two.yaml" <<'YAML'
run: {dt: 1.0e-5, end_time: 0.01}
domain: {min: [0, 0, 0], max: [0.03, 0.02, 0.02]}
gravity: [0, 0, 0]
contact: {threshold: 1.0e-4}
materials: [{name: glass, density: 2650, friction: 0}]
particles:
  - {type: sphere, position: [0.0095, 0.01, 0.01], radius: 0.0055, material: glass}
  - {type: sphere, position: [0.0215, 0.01, 0.01], radius: 0.0055, material: glass, velocity: [-1, 0, 0]}
YAML
# Subdomains 10 mm wide along x, ghost width 2 x 5.5 mm + 0.1 mm = 11.1 mm: refused before
# anything is written, on every rank.
thin="domain.decomposition \[3, 1, 1\] on 3 ranks: the subdomains are 0.01 m wide along x, thinner than the ghost width 0.0111 m \(2 × largest radius 0.0055 m \+ contact.threshold 0.0001 m\)"
expect 2 "$thin" 3 run "$tmp/two.yaml" --output "$tmp/thin3" --set 'domain.decomposition=[3, 1, 1]'
[ ! -e "$tmp/thin3" ] || fail "the refused run created its output directory"
# No factorisation of 3 holds it (x: 10 mm, y and z: 6.7 mm).
expect 2 "no decomposition of the domain into 3 subdomains holds the ghost width; with the best, \[3, 1, 1\], the subdomains are 0.01 m wide along x" \
  3 run "$tmp/two.yaml" --output "$tmp/auto3"
# A periodic axis with one subdomain is its own neighbour: it must hold the ghost width too.
expect 2 "domain.decomposition \[1, 1, 1\] on 1 ranks: the subdomains are 0.01 m wide along y" \
  1 run "$tmp/two.yaml" --output "$tmp/periodic" --set 'domain.max=[0.03, 0.01, 0.02]' \
  --set 'domain.periodic=[false, true, false]' --set 'domain.decomposition=[1, 1, 1]'
# At 1 rank the energy halves; at 2 ranks Granite cuts x (15 mm >= 11.1 mm) rather than y
# (10 mm) and gives the 1-rank result.
if expect 0 "^done:" 1 run "$tmp/two.yaml" --output "$tmp/one" &&
   expect 0 "2 ranks as 2x1x1" 2 run "$tmp/two.yaml" --output "$tmp/two"; then
  e0=$(python3 -c "import math; m = 2650 * 4 / 3 * math.pi * 0.0055**3; print(0.5 * m)")
  e1=$(json "$tmp/one/run.json" "r['final']['kinetic_energy_J']")
  e2=$(json "$tmp/two/run.json" "r['final']['kinetic_energy_J']")
  # A single frictionless contact is solved exactly: the energy is half the initial one to
  # round-off (1e-9 relative); the 2-rank run relaxes the same single contact (1e-9 relative).
  python3 -c "import sys; e0, e1, e2 = map(float, sys.argv[1:]); sys.exit(not (abs(e1 - e0 / 2) <= 1e-9 * e0 and abs(e2 - e1) <= 1e-9 * e1))" \
    "$e0" "$e1" "$e2" || fail "kinetic energy: initial $e0 J, 1 rank $e1 J, 2 ranks $e2 J (expected half the initial at both)"
  [ "$(json "$tmp/two/run.json" "r['final']['particles']")" = 2 ] || fail "the 2-rank run lost a particle"
fi

# --- 5. Overflowing step counts and intervals ----------------------------------------------
# More than 2^53 steps, or an interval beyond the step counter, is refused by check and run
# alike (one line naming the key), and the run writes nothing.
for set in "run.dt=1e-300|run.dt: run.end_time / run.dt = 0.01 s / 1e-300 s = 1e\+298 steps, more than the 2\^53" \
           "run.end_time=1e300|run.end_time: run.end_time / run.dt = 1e\+300 s / 1e-05 s = 1e\+305 steps" \
           "output.snapshot_interval=1e300|output.snapshot_interval: 1e\+300 s is 1e\+305 steps of run.dt, more than the 2\^53" \
           "output.checkpoint_interval=1e300|output.checkpoint_interval: 1e\+300 s is 1e\+305 steps" \
           "statistics={interval: 1e300}|statistics.interval: 1e\+300 s is 1e\+305 steps"; do
  key=${set%%|*}; pattern=${set#*|}
  expect 2 "--set ${key//[\[\]\{\}]/.}: $pattern" 1 check "$tmp/two.yaml" --set "$key"
  expect 2 "$pattern" 2 run "$tmp/two.yaml" --output "$tmp/overflow" --set "$key"
  [ ! -e "$tmp/overflow" ] || { fail "the refused run ($key) created its output directory"; rm -rf "$tmp/overflow"; }
done
# In the file: file:line:col of the key.
sed 's/end_time: 0.01/end_time: 1.0e+300/' "$tmp/two.yaml" > "$tmp/long.yaml"
expect 2 "long.yaml:1:29: run.end_time: run.end_time / run.dt = 1e\+300 s" 1 check "$tmp/long.yaml"
# 2^53 steps exactly is allowed (check only: nobody waits for it).
expect 0 "valid" 1 check "$tmp/two.yaml" --set run.dt=1 --set run.end_time=9007199254740992

# --- 7. Restarts and output directories that cannot lose work ------------------------------
# An empty restart path (e.g. --restart "$CKPT" with CKPT unset) is an error, not a fresh run.
expect 2 "--restart: empty checkpoint path" 1 run "$tmp/two.yaml" --output "$tmp/empty" --restart ''
[ ! -e "$tmp/empty" ] || fail "--restart '' created the output directory"

# A completed short run (5 ms of the 10 ms), then the same directory as a killed job leaves it
# (run.json still "running"): a fresh run into it is refused naming the restart command, and
# the checkpoint stays byte-identical.
ck="$tmp/unfinished/checkpoint.h5"
expect 0 "^done:" 1 run "$tmp/two.yaml" --output "$tmp/unfinished" --set run.end_time=0.005
expect 0 "^done:" 1 run "$tmp/two.yaml" --output "$tmp/unfinished" --set run.end_time=0.005  # completed: may be redone
python3 -c "import json, sys; r = json.load(open(sys.argv[1])); r['status'] = 'running'; json.dump(r, open(sys.argv[1], 'w'))" "$tmp/unfinished/run.json"
cp "$ck" "$tmp/saved.h5"
expect 2 "$ck is the checkpoint of an unfinished run \(run.json status \"running\"\); continue it with \`granite run $tmp/two.yaml --output $tmp/unfinished --restart $ck\`, or start afresh with --overwrite" \
  2 run "$tmp/two.yaml" --output "$tmp/unfinished"
cmp -s "$ck" "$tmp/saved.h5" || fail "the refused run changed $ck"
[ "$(json "$tmp/unfinished/run.json" "r['status']")" = running ] || fail "the refused run rewrote run.json"

# --restart with a changed configuration is refused, naming what differs; run.end_time may
# change (continuing a run further).
expect 2 "$ck: written with a different configuration than $tmp/two.yaml .*: gravity\[2\]: 0 in the checkpoint, -9.81[0-9]* now$" \
  1 run "$tmp/two.yaml" --output "$tmp/unfinished" --restart "$ck" --set 'gravity=[0, 0, -9.81]'
cmp -s "$ck" "$tmp/saved.h5" || fail "the refused restart changed $ck"
# solver.exchange changes nothing on one rank, where a restart may change it; on two ranks it
# changes the sweep's order and is refused (the checkpoint was written on one rank).
cp "$ck" "$tmp/exchange.h5"
expect 0 "^done:" 1 run "$tmp/two.yaml" --output "$tmp/exchange1" --restart "$tmp/exchange.h5" \
  --set solver.exchange=overlapped --set run.end_time=0.006
expect 2 "written with a different configuration .*solver.exchange: auto in the checkpoint, overlapped now" \
  2 run "$tmp/two.yaml" --output "$tmp/exchange2" --restart "$tmp/exchange.h5" --set solver.exchange=overlapped
# auto resolves to after_sweep on this one node: the log and run.json say so.
expect 0 "solver.exchange: after_sweep \(auto: the ranks share one node\)" \
  2 run "$tmp/two.yaml" --output "$tmp/exchange3" --set run.end_time=0.001
[ "$(json "$tmp/exchange3/run.json" "r['relaxation']['exchange']")" = after_sweep ] \
  || fail "run.json does not record the exchange auto took"

# A damaged checkpoint (a negative radius, a negative step) is refused before use.
cp "$ck" "$tmp/radius.h5"; cp "$ck" "$tmp/step.h5"
/usr/bin/python3 - "$tmp/radius.h5" "$tmp/step.h5" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r+") as f:
    r = f["particles/radius"][...]; r[1] = -r[1]
    del f["particles/radius"]; f.create_dataset("particles/radius", data=r)
with h5py.File(sys.argv[2], "r+") as f:
    f.attrs["step"] = np.int64(-5)
PY
expect 2 "radius.h5.*particle radius must be > 0 m, got -0.0055" 1 run "$tmp/two.yaml" --output "$tmp/dmg" --restart "$tmp/radius.h5"
expect 2 "step.h5: invalid checkpoint: step -5 < 0" 2 run "$tmp/two.yaml" --output "$tmp/dmg" --restart "$tmp/step.h5"

# --overwrite starts afresh anyway.
expect 0 "^done: 1000 steps" 1 run "$tmp/two.yaml" --output "$tmp/unfinished" --overwrite

# The SLURM job script continues from the checkpoint when SLURM requeued the job
# (SLURM_RESTART_COUNT > 0), here run outside SLURM: the run record says it restarted.
expect 0 "^done:" 1 run "$tmp/two.yaml" --output "$tmp/requeued" --set run.end_time=0.005
python3 -c "import json, sys; r = json.load(open(sys.argv[1])); r['status'] = 'running'; json.dump(r, open(sys.argv[1], 'w'))" "$tmp/requeued/run.json"
/usr/bin/python3 "$src/cluster/make_job.py" --config "$tmp/two.yaml" --output "$tmp/requeued" \
  --granite "$granite" --launcher mpirun --launcher-args=--oversubscribe --ntasks 1 > /dev/null \
  || fail "make_job.py failed"
SLURM_RESTART_COUNT=1 bash "$tmp/requeued/granite.sbatch" > "$tmp/job.log" 2>&1 || fail "the requeued job failed: $(tail -5 "$tmp/job.log")"
grep -q "requeued (SLURM_RESTART_COUNT=1): continuing from" "$tmp/job.log" || fail "the job script did not see the requeue: $(cat "$tmp/job.log")"
[ "$(json "$tmp/requeued/run.json" "r['restart']['step']")" = 500 ] || fail "the requeued job did not continue from step 500: $(cat "$tmp/job.log")"
[ "$(json "$tmp/requeued/run.json" "r['status']")" = completed ] || fail "the requeued job did not complete"

# --- 8. solver.method lemke: one rank, the polyhedral model, no periodic axis, few contacts ---
balls=$src/configs/four_balls.yaml
expect 2 "solver.method: lemke runs on one rank" 2 run "$balls" --output "$tmp/lemke2"
[ -e "$tmp/lemke2" ] && fail "the refused 2-rank lemke run created its output directory"
expect 2 "solver.method: lemke .*needs contact.model: polyhedral \(got mdp\)" 1 check "$balls" --set contact.model=mdp
expect 2 "solver.method: lemke takes no periodic axis.*has x" 1 check "$balls" --set "domain.periodic=[true, false, false]"
# A step with more contacts than solver.lemke.max_contacts stops the run: exit 1, one line, run.json failed.
expect 1 "step 1: solver.method lemke: the step has 5 contacts, more than solver.lemke.max_contacts = 3" 1 \
  run "$balls" --output "$tmp/lemke_limit" --set solver.lemke.max_contacts=3 --set run.end_time=0.01
[ "$(json "$tmp/lemke_limit/run.json" "r['status']")" = failed ] || fail "the lemke run over the limit is not recorded as failed"
json "$tmp/lemke_limit/run.json" "r['failure']" | grep -q "more than solver.lemke.max_contacts" || fail "run.json failure does not name the limit"
expect 0 "^done:" 1 run "$balls" --output "$tmp/lemke_ok" --set run.end_time=0.05
[ "$(json "$tmp/lemke_ok/run.json" "r['final']['failed_contacts']")" = 0 ] || fail "run.json final.failed_contacts is not 0"

# --- Memory: a run whose estimate exceeds what a rank may use stops before its first step ----
# GRANITE_MEMORY_LIMIT (bytes per rank) stands in for a small node: the column (249 spheres,
# about 0.56 MB of data per rank, and tens of MB the process holds before its particles)
# against 100 kB, which the process alone exceeds; no snapshot is written.
column=$src/configs/column_collapse.yaml
for n in 1 2; do
  GRANITE_MEMORY_LIMIT=100000 expect 2 \
    "needs an estimated .* on rank [01] but a rank may use 100 kB \(GRANITE_MEMORY_LIMIT\); the process alone holds .* before its particles" \
    "$n" run "$column" --output "$tmp/memory$n"
  [ -e "$tmp/memory$n/snapshot_00000000.h5" ] && fail "memory at $n ranks: a snapshot was written"
done
GRANITE_MEMORY_LIMIT=lots expect 2 "GRANITE_MEMORY_LIMIT: expected bytes > 0, got 'lots'" 1 \
  run "$column" --output "$tmp/memory_bad"
GRANITE_MEMORY_LIMIT=1e12 expect 0 "^done:" 1 run "$column" --output "$tmp/memory_ok" \
  --set run.end_time=0.001

# --- Out of memory during the run: one line naming the step, the rank and the estimate, exit 1 --
# GRANITE_FAIL_ALLOCATION=RANK:STEP throws std::bad_alloc on that rank at the start of that step,
# as a failed allocation would; at 2 ranks the other rank waits in a collective and is aborted.
for n in 1 2; do
  rank=$((n - 1))
  GRANITE_FAIL_ALLOCATION=$rank:3 expect 1 \
    "^error: out of memory at step 3 on rank $rank \(estimate [0-9.]+ [kMG]B, docs/performance.md, memory\)$" \
    "$n" run "$column" --output "$tmp/oom$n"
  grep -q "internal error" "$tmp/stderr" && fail "out of memory at $n ranks: an internal error line"
done
GRANITE_FAIL_ALLOCATION=soon expect 0 "GRANITE_FAIL_ALLOCATION='soon' ignored \(expected RANK:STEP\)" 1 \
  run "$column" --output "$tmp/oom_bad" --set run.end_time=0.001

if [ "$failures" -gt 0 ]; then echo "$failures failure(s)"; exit 1; fi
echo "all run-guard checks passed"
