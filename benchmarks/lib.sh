# Shared by the benchmark scripts (source it): settling a scenario once, then running settings
# from its checkpoint.
#
# settle CONFIG END_TIME OUT [ARGS...]: runs CONFIG on one rank to END_TIME (s) into OUT,
#   quietly (no snapshots, no thermo.csv); sets `settled` (its final checkpoint) and `dt`
#   (the configuration's time step, from run.json). Needs `build` set.
quiet=(--quiet --set output.snapshot_interval=0 --set output.snapshot_initial=false
       --set output.thermo_file=false)
settle() {
  local config=$1 end=$2 out=$3; shift 3
  echo "== settling $(basename "$config") to t = $end s (1 rank)"
  "$build/granite" run "$config" --output "$out" "${quiet[@]}" --set run.end_time="$end" "$@" \
    > "$out.log"
  settled=$out/checkpoint.h5
  dt=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["steps"]["dt"])' \
    "$out/run.json")
}

# heap_row LABEL CONFIG OUT [ARGS...]: runs the heap CONFIG on one rank into OUT, fits its
#   flanks with scripts/repose_angle.py and prints one row: LABEL, left, right and mean angle
#   (degrees), the grains left, the wall time (s) and µs per grain-step (at the final count).
#   Needs `build` and `src` set.
heap_row() {
  local label=$1 config=$2 out=$3; shift 3
  local start; start=$(date +%s.%N)
  "$build/granite" run "$config" --output "$out" --quiet "$@" > "$out.log" 2>&1 \
    || { echo "$label: the run failed: $(tail -2 "$out.log")"; return 1; }
  local wall cost
  wall=$(/usr/bin/python3 -c "import time; print(f'{time.time() - $start:.0f}')")
  cost=$(/usr/bin/python3 -c "
import json; r = json.load(open('$out/run.json'))
print(f\"{1e6 / r['steps_per_second'] / max(r['particles']['final'], 1):.2f}\")")
  /usr/bin/python3 "$src/scripts/repose_angle.py" "$out" > "$out.angle" \
    || { echo "$label: no angle: $(cat "$out.angle")"; return 0; }
  printf "%-8s %8s %8s %8s %10s %8s %12s\n" "$label" \
    "$(awk '/^left:/ {print $2}' "$out.angle")" "$(awk '/^right:/ {print $2}' "$out.angle")" \
    "$(awk '/^angle of repose:/ {print $4}' "$out.angle")" "$(awk 'NR == 1 {print $6}' "$out.angle")" \
    "$wall" "$cost"
}

# lattice_deck N STEPS FILE: writes issue 44's dense lattice deck to FILE: touching spheres of
#   radius 1 mm, simple cubic with spacing 2 mm, an N x N x N block on a floor, gravity, glass,
#   dt 1e-4 s, STEPS steps, at most 10 sweeps per step, contact.threshold 1e-8 m (side
#   neighbours touch), no snapshots.
lattice_deck() {
  local side steps=$2
  side=$(/usr/bin/python3 -c "print($1 * 2e-3)")
  py() { /usr/bin/python3 -c "print($1)"; }
  cat > "$3" <<YAML
run: {dt: 1.0e-4, end_time: $(py "$steps * 1e-4"), thermo_every: 1000000}
domain: {min: [0, 0, 0], max: [$side, $side, $(py "$side + 0.01")]}
gravity: [0, 0, -9.81]
contact: {threshold: 1.0e-8}
solver: {max_sweeps: 10}
materials: [{name: glass, density: 2500, friction: 0.5}]
bodies: [{type: plane, point: [0, 0, 0], normal: [0, 0, 1], material: glass}]
particles:
  - {type: lattice, min: [0, 0, 0], max: [$side, $side, $side], spacing: 0.002, radius: 0.001, material: glass}
output: {snapshot_interval: 0, snapshot_initial: false, thermo_file: false}
YAML
}
