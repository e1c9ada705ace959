#!/usr/bin/env bash
# What a mesh wall costs against the plane it replaces (issue 40's benchmark: "µs per
# particle-step of a settled bed on a tessellated floor of 10^2, 10^4 and 10^6 triangles, against
# a plane; goal: within 1.5x at 10^6"): configs/resting_pile.yaml (2 000 spheres in a 2 cm box)
# settled on its plane floor to 0.3 s once, then continued (--from) for STEPS steps (default
# 500) on one rank with the floor the half-space z = 0, and with the floor the same square cut
# into 2 k^2 triangles (a k x k grid of squares, each split along a diagonal; binary STL written
# here) for k = 7, 71 and 707 (98, 10 082 and 999 698 triangles). The runs are the same bit for
# bit (every face normal of the flat floor is exactly +z): the script checks the final kinetic
# energy. Prints µs per particle-step (the whole run, including reading the mesh and building
# its tree), the detection phase's time, and their ratios to the plane's, measured in the same
# invocation (the machine is shared: compare ratios, not seconds).
# usage: benchmarks/mesh_floor_cost.sh [BUILD_DIR] [STEPS]
set -euo pipefail
build=${1:-build}
steps=${2:-500}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$src/benchmarks/lib.sh"
cfg=$src/configs/resting_pile.yaml
settle "$cfg" 0.3 "$tmp/settled"
common=(--from "$settled" "${quiet[@]}" --set output.checkpoint_interval=0
        --set run.end_time="$(/usr/bin/python3 -c "print($steps * $dt)")")

grid_stl() {  # grid_stl K PATH: the floor square [0, 0.02]^2 as 2 K^2 triangles
  /usr/bin/python3 - "$1" "$2" <<'EOF'
import sys
import numpy as np
k, path = int(sys.argv[1]), sys.argv[2]
x = np.linspace(0.0, 0.02, k + 1).astype("<f4")  # float32 once: shared corners match bit for bit
i, j = np.meshgrid(np.arange(k), np.arange(k), indexing="ij")
i, j = i.ravel(), j.ravel()
def corner(a, b):
    return np.stack([x[a], x[b], np.zeros_like(x[a])], axis=1)
lower = np.stack([corner(i, j), corner(i + 1, j), corner(i + 1, j + 1)], axis=1)
upper = np.stack([corner(i, j), corner(i + 1, j + 1), corner(i, j + 1)], axis=1)
tris = np.concatenate([lower, upper])
facet = np.zeros(len(tris), dtype=[("n", "<f4", (3,)), ("v", "<f4", (3, 3)), ("a", "<u2")])
facet["n"][:, 2] = 1.0
facet["v"] = tris
with open(path, "wb") as f:
    f.write(b"granite benchmark floor".ljust(80, b" "))
    f.write(np.uint32(len(tris)).tobytes())
    f.write(facet.tobytes())
EOF
}

run_one() {  # run_one LABEL ARGS...: prints µs per particle-step, detection, kinetic energy
  local label=$1; shift
  "$build/granite" run "$cfg" --output "$tmp/$label" "${common[@]}" "$@" > "$tmp/$label.log" 2>&1 \
    || { echo "$label: the run failed: $(tail -2 "$tmp/$label.log")" >&2; exit 1; }
  /usr/bin/python3 -c "
import json
r = json.load(open('$tmp/$label/run.json'))
t = r['timings']
us = 1e6 * r['wall_seconds'] / (r['steps']['done'] * r['particles']['final'])
print(us, t['detection']['avg'], repr(r['final']['kinetic_energy_J']))"
}

printf "%-10s %10s %14s %8s %10s %8s\n" floor triangles us/p-step ratio detect[s] ratio
read -r base_us base_detect base_energy < <(run_one plane)
printf "%-10s %10s %14.3f %8s %10.3f %8s\n" plane - "$base_us" 1.00 "$base_detect" 1.00
for k in 7 71 707; do
  grid_stl "$k" "$tmp/floor$k.stl"
  read -r us detect energy < <(run_one "mesh$k" \
    --set "bodies[0]={type: mesh, file: $tmp/floor$k.stl, material: glass}")
  [ "$energy" = "$base_energy" ] || echo "note: the mesh floor's run differs (kinetic energy $energy J, plane $base_energy J)"
  printf "%-10s %10d %14.3f %8.2f %10.3f %8.2f\n" mesh $((2 * k * k)) "$us" \
    "$(/usr/bin/python3 -c "print($us / $base_us)")" "$detect" \
    "$(/usr/bin/python3 -c "print($detect / $base_detect)")"
done
