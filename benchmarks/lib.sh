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
