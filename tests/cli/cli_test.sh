#!/usr/bin/env bash
# End-to-end checks of the `granite` command line: exit codes (0 ok, 2 bad input), one-line
# error messages naming what is wrong, and a tiny run producing its thermo table.
# usage: cli_test.sh GRANITE_BINARY SOURCE_DIR
set -u
granite=$1; src=$2
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0

fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# expect CODE PATTERN_ON_STDERR_OR_STDOUT -- command...
expect() {
  local code=$1 pattern=$2; shift 3
  local out rc
  out=$("$@" 2>"$tmp/err"); rc=$?
  local all; all="$out$(cat "$tmp/err")"
  [ "$rc" -eq "$code" ] || { fail "'$*' exited $rc, expected $code: $all"; return; }
  grep -Eq -- "$pattern" <<<"$all" || fail "'$*' output does not match /$pattern/: $all"
  if [ "$code" -eq 2 ]; then
    local lines; lines=$(grep -c . "$tmp/err")
    [ "$lines" -eq 1 ] || fail "'$*' printed $lines error lines, expected 1: $(cat "$tmp/err")"
  fi
}

cat > "$tmp/drop.yaml" <<'YAML'
run: {dt: 1.0e-3, end_time: 0.05, thermo_every: 10}
domain: {min: [-1, -1, 0], max: [1, 1, 1]}
materials: [{name: m, density: 1000, friction: 0.5}]
bodies: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: m}]
particles: [{type: sphere, position: [0, 0, 0.1], radius: 0.01, material: m}]
YAML

expect 0 "usage: granite COMMAND"          -- "$granite" --help
expect 2 "missing COMMAND"                 -- "$granite"
expect 2 "unknown command 'frobnicate'"     -- "$granite" frobnicate
expect 0 "hdf5 .*\(parallel\)"              -- "$granite" version
expect 0 "mpi .*Open MPI"                   -- "$granite" version
expect 0 "usage: granite run CONFIG"        -- "$granite" run --help
expect 2 "unrecognised option|unrecognized option" -- "$granite" run "$tmp/drop.yaml" --frobnicate
expect 2 "missing CONFIG"                   -- "$granite" run
expect 0 "model: mdp"                       -- "$granite" check "$tmp/drop.yaml"
expect 0 "model: coulomb"                   -- "$granite" check "$tmp/drop.yaml" --set contact.model=coulomb
expect 2 "--set contact.model=fast: contact.model: expected one of" -- "$granite" check "$tmp/drop.yaml" --set contact.model=fast
sed 's/dt: 1.0e-3/dt: -1/' "$tmp/drop.yaml" > "$tmp/bad.yaml"
expect 2 "bad.yaml:1:11: run.dt: expected a number > 0; got -1" -- "$granite" check "$tmp/bad.yaml"
expect 2 "bad.yaml:1:11: run.dt"            -- "$granite" run "$tmp/bad.yaml" --output "$tmp/out"
expect 2 "cannot open the configuration file" -- "$granite" run "$tmp/none.yaml"
expect 0 "Granite configuration reference"  -- "$granite" check --schema

# Every path the CLI opens is checked: missing, a directory, empty, unreadable.
mkdir "$tmp/dir"; : > "$tmp/empty.yaml"; : > "$tmp/empty.h5"
expect 2 "^error: .*/dir: cannot open the configuration file \(it is a directory\)$" -- "$granite" check "$tmp/dir"
expect 2 "^error: .*/dir: cannot open the configuration file \(it is a directory\)$" -- "$granite" run "$tmp/dir"
expect 2 "^error: .*/none.yaml: cannot open the configuration file \(no such file\)$" -- "$granite" check "$tmp/none.yaml"
expect 2 "^error: .*/empty.yaml: the configuration file is empty$" -- "$granite" check "$tmp/empty.yaml"
if [ "$(id -u)" -eq 0 ]; then
  echo "note: running as root, who can read any file: the unreadable-file check is skipped (empty files are checked instead)"
  expect 2 "^error: .*/empty.yaml: the configuration file is empty$" -- "$granite" run "$tmp/empty.yaml"
else
  cp "$tmp/drop.yaml" "$tmp/unreadable.yaml"; chmod 000 "$tmp/unreadable.yaml"
  expect 2 "^error: .*/unreadable.yaml: cannot open the configuration file \(Permission denied\)$" -- "$granite" check "$tmp/unreadable.yaml"
fi
expect 2 "^error: .*/none.h5: cannot open the checkpoint \(no such file\)$" -- "$granite" run "$tmp/drop.yaml" --output "$tmp/r" --restart "$tmp/none.h5"
expect 2 "^error: .*/dir: cannot open the checkpoint \(it is a directory\)$" -- "$granite" run "$tmp/drop.yaml" --output "$tmp/r" --restart "$tmp/dir"
expect 2 "^error: .*/empty.h5: the checkpoint is empty$" -- "$granite" run "$tmp/drop.yaml" --output "$tmp/r" --restart "$tmp/empty.h5"
expect 2 "^error: .*/dir: cannot open the FCLIB file \(it is a directory\)$" -- "$granite" fclib solve "$tmp/dir"
expect 2 "^error: .*/empty.h5: the FCLIB file is empty$" -- "$granite" fclib solve "$tmp/empty.h5"
expect 2 "^error: .*/dir/Box_Stacks-i0122-82-5.h5: cannot open the reference solution \(no such file\)$" -- \
  "$granite" fclib solve "$src/tests/data/fclib/problems/Box_Stacks-i0122-82-5.hdf5" --reference "$tmp/dir"
# A key given twice (top level, nested, in a list entry) is an error naming both lines.
{ cat "$tmp/drop.yaml"; echo "run: {dt: 1.0}"; } > "$tmp/dup.yaml"
expect 2 "^error: .*/dup.yaml:6:1: duplicate key 'run' \(first at line 1\)$" -- "$granite" check "$tmp/dup.yaml"
sed 's/material: m}]/material: m, radius: 0.02}]/' "$tmp/drop.yaml" > "$tmp/dup2.yaml"
expect 2 "^error: .*/dup2.yaml:5:78: duplicate key 'radius' \(first at line 5\)$" -- "$granite" check "$tmp/dup2.yaml"
expect 2 "^error: --set run=\{dt: 1, dt: 2\}: duplicate key 'dt'$" -- "$granite" check "$tmp/drop.yaml" --set "run={dt: 1, dt: 2}"
# A --set of a node that a YAML alias shares with another key would set both: refused, one
# line; the key beside it, and the same key where it is written out, can be set.
sed 's/^bodies: .*/bodies: [{type: plane, point: \&p [0, 0, 0], normal: [0, 0, 1], material: m},\
         {type: plane, point: *p, normal: [0, 0, -1], material: m}]/' "$tmp/drop.yaml" > "$tmp/alias.yaml"
expect 0 "valid" -- "$granite" check "$tmp/alias.yaml"
expect 2 "^error: --set bodies\[1\]\.point=\[0, 0, 1\]: bodies\[1\]\.point is shared with another key through a YAML alias" -- \
  "$granite" check "$tmp/alias.yaml" --set "bodies[1].point=[0, 0, 1]"
expect 2 "bodies\[0\]\.point is shared" -- "$granite" check "$tmp/alias.yaml" --set "bodies[0].point[2]=1"
expect 0 "valid" -- "$granite" check "$tmp/alias.yaml" --set "bodies[1].normal=[0, 1, 0]"
# Found by tests/cli/fuzz_inputs.py (--seed 21): an alias that holds itself is a cycle, not a
# crash of the walk that looks for shared nodes.
expect 2 "^error: --set solver.tolerance=1: solver is shared with another key through a YAML alias" -- \
  "$granite" check "$tmp/drop.yaml" --set "solver=&a [*a]" --set solver.tolerance=1
# Found by tests/cli/fuzz_inputs.py: an index beyond size_t, a value with a line break.
expect 2 "^error: .*materials has no entry 99999999999999999999999$" -- "$granite" check "$tmp/drop.yaml" --set "materials[99999999999999999999999].name=x"
expect 2 "^error: --set run.dt=-1[\\]n\.\.\.: run.dt: expected a number > 0" -- "$granite" check "$tmp/drop.yaml" --set "run.dt=-1
..."

# Single-contact problems as JSON Lines.
good='{"A": [[2,0,0],[0,2,0],[0,0,2]], "b": [1, 0, 0], "mu": 0.5}'
expect 0 '"case": ?"sticking"|"case": ?"frictionless"' -- bash -c "echo '$good' | '$granite' contact --model mdp"
expect 2 "line 2"                           -- bash -c "printf '%s\n%s\n' '$good' '{\"A\": 1}' | '$granite' contact --model mdp"
expect 2 "mdp"                              -- bash -c "echo '$good' | '$granite' contact --model nonsense"
expect 2 "^error: cannot read the standard input \(Is a directory\)$" -- bash -c "'$granite' contact --model mdp < '$tmp/dir'"

# FCLIB problems: solved against the Siconos reference; a missing file is one error line.
fclib=$src/tests/data/fclib
expect 0 "Box_Stacks-i0122-82-5 +82 "     -- "$granite" fclib solve "$fclib/problems/Box_Stacks-i0122-82-5.hdf5" --reference "$fclib/references"
expect 2 "none.hdf5"                        -- "$granite" fclib solve "$tmp/none.hdf5"
# --solution: the final r and u in the reference form; read back as the reference, the same
# solve differs from it by exactly 0 (the solve is deterministic), and its error matches.
mkdir -p "$tmp/solutions"
expect 0 "CubeH8 +" -- "$granite" fclib solve "$fclib/problems/CubeH8.hdf5" --solution "$tmp/solutions"
expect 0 "CubeH8 .* 0\.00e\+00$" -- "$granite" fclib solve "$fclib/problems/CubeH8.hdf5" --reference "$tmp/solutions"
expect 2 "^granite fclib: --solution $tmp/none is not a directory$" -- \
  "$granite" fclib solve "$fclib/problems/CubeH8.hdf5" --solution "$tmp/none"
# --output: a CSV with the header and one row per problem, written through a planted link's
# name without touching the link's target; an unwritable destination is an input error.
echo keep > "$tmp/target.txt"; ln -s "$tmp/target.txt" "$tmp/results.csv"
expect 0 "PerioBox" -- "$granite" fclib solve "$fclib/problems/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5" \
  "$fclib/problems/CubeH8.hdf5" --output "$tmp/results.csv"
[ "$(cat "$tmp/target.txt")" = keep ] || fail "fclib solve --output wrote through a symbolic link"
[ ! -L "$tmp/results.csv" ] || fail "fclib solve --output left the planted link in place"
[ "$(grep -c . "$tmp/results.csv")" -eq 3 ] || fail "fclib solve --output: expected a header and 2 rows: $(cat "$tmp/results.csv")"
head -1 "$tmp/results.csv" | grep -q '^problem,form,contacts,model,sweeps' || fail "fclib solve --output: header $(head -1 "$tmp/results.csv")"
expect 2 "^error: cannot write '$tmp/no/such/dir/r.csv" -- "$granite" fclib solve "$fclib/problems/CubeH8.hdf5" --output "$tmp/no/such/dir/r.csv"
# Lemke on the polyhedral LCP (29): small problems only, the polyhedral model only.
expect 0 "LMGC_GlobalFrictionContactProblem00046: Lemke, k = 8, LCP size 90: solution after" -- \
  "$granite" fclib solve "$fclib/problems/LMGC_GlobalFrictionContactProblem00046.hdf5" --solver lemke
expect 0 "LCP size 180: solution after" -- \
  "$granite" fclib solve "$fclib/problems/LMGC_GlobalFrictionContactProblem00046.hdf5" --solver lemke --friction-directions 18
expect 2 "^granite fclib: --solver lemke: .*Capsules-i125-1213.hdf5 has 286 contacts, more than --max-contacts 200" -- \
  "$granite" fclib solve "$fclib/problems/Capsules-i125-1213.hdf5" --solver lemke
expect 2 "more than --max-contacts 5" -- \
  "$granite" fclib solve "$fclib/problems/LMGC_GlobalFrictionContactProblem00046.hdf5" --solver lemke --max-contacts 5
expect 2 "--solver lemke solves the polyhedral-cone LCP of the step; it needs contact.model: polyhedral \(got coulomb\)" -- \
  "$granite" fclib solve "$fclib/problems/CubeH8.hdf5" --solver lemke --model coulomb
# A damaged matrix size (on a CSR matrix the column count is not bounded by the pointer array;
# it hung allocating gigabytes) is one error line.
cp "$fclib/problems/local_problem_test.hdf5" "$tmp/huge_n.hdf5"
/usr/bin/python3 -c 'import h5py, sys; h5py.File(sys.argv[1], "r+")["fclib_local/W/n"][...] = 2**31 - 1' "$tmp/huge_n.hdf5"
expect 2 "^error: .*/huge_n.hdf5: /fclib_local/W: size 144 x 2147483647 larger than /fclib_local/vectors/q \(144 entries\)$" -- \
  "$granite" fclib solve "$tmp/huge_n.hdf5"
# Found by tests/cli/fuzz_inputs.py (--seed 2): one damaged byte in the superblock region
# makes H5Fopen fail and leak, and HDF5 printed "infinite loop closing library" at exit.
cp "$fclib/problems/local_problem_test.hdf5" "$tmp/damaged.hdf5"
printf '\002' | dd of="$tmp/damaged.hdf5" bs=1 seek=106 conv=notrunc status=none
expect 2 "^error: .*/damaged.hdf5: cannot open as HDF5$" -- "$granite" fclib solve "$tmp/damaged.hdf5"

# A tiny run: a sphere dropped onto a floor for 50 steps.
expect 0 "done: 50 steps"                   -- "$granite" run "$tmp/drop.yaml" --output "$tmp/out"
[ -f "$tmp/out/thermo.csv" ] && [ "$(wc -l < "$tmp/out/thermo.csv")" -eq 6 ] \
  || fail "thermo.csv should have a header and 5 rows: $(cat "$tmp/out/thermo.csv" 2>&1)"
[ -f "$tmp/out/config.yaml" ] || fail "the resolved config was not written to the output directory"
# Export of a step's contact problem (a sphere resting on the floor) and its FCLIB solution.
expect 0 "done: 50 steps"                   -- "$granite" run "$tmp/drop.yaml" --output "$tmp/export" \
  --set "particles.0.position=[0, 0, 0.01]" --set "output.export_fclib_steps=[50]"
expect 0 "contact_problem_50 +1 "           -- "$granite" fclib solve "$tmp/export/contact_problem_50.hdf5"
# The shipped configs are valid.
for cfg in "$src"/configs/*.yaml; do
  expect 0 "valid" -- "$granite" check "$cfg"
done
# The heaps of shapes start, pour their first grains and stop cleanly at 1 and 2 ranks (the
# full runs are benchmarks/heap_shapes.sh).
for shape in ball tetra brick; do
  for n in 1 2; do
    expect 0 "done: 50 steps" -- mpiexec -n $n --oversubscribe "$granite" run \
      "$src/configs/heap_shapes.yaml" --output "$tmp/heap-$shape-$n" \
      --set "particles[0].shape=$shape" --set run.end_time=0.005
  done
done
# The silo of rods fills and stops cleanly at 1 and 2 ranks (the full runs are
# benchmarks/silo_rods.sh and benchmarks/mdp_vs_coulomb.sh).
for n in 1 2; do
  expect 0 "done: 30 steps .* 900 particles left" -- mpiexec -n $n --oversubscribe "$granite" run \
    "$src/configs/silo_rods.yaml" --output "$tmp/silo-rods-$n" --set run.end_time=0.003
done
# The channel of capsules fills its lattice, takes an inflow layer (the piston moves 4 mm in
# 4 ms) and stops cleanly at 1 and 2 ranks with every particle kept.
for n in 1 2; do
  expect 0 "done: 120 steps" -- mpiexec -n $n --oversubscribe "$granite" run \
    "$src/configs/channel_shapes.yaml" --output "$tmp/channel-shapes-$n" --set run.end_time=0.0048
done

[ "$failures" -eq 0 ] && echo "all CLI checks passed" || { echo "$failures CLI check(s) failed"; exit 1; }
