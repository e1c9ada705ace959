#!/usr/bin/env bash
# What a mesh wall costs against the plane it replaces (issue 40's "a mesh of 10^5 triangles
# costs about as much per particle as a plane"): configs/resting_pile.yaml (2 000 spheres
# falling into a 2 cm x 2 cm box and settling on its floor) to END (default 0.15 s) on one
# rank, its floor once the half-space z = 0 and then the same square cut into 2 k^2 triangles
# (a k x k grid of squares, each split along a diagonal; binary STL written here) for k = 1,
# 32 and 224 (2, 2 048 and 100 352 triangles). The runs are the same bit for bit (every face
# normal of the flat floor is exactly +z): the script checks the final kinetic energy. Prints
# the whole run's and the detection phase's time and their ratios to the plane's, measured in
# the same invocation (the machine is shared: compare ratios, not seconds).
# usage: benchmarks/mesh_floor_cost.sh [BUILD_DIR] [END]
set -euo pipefail
build=${1:-build}
end=${2:-0.15}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cfg=$src/configs/resting_pile.yaml
common=(--quiet --set run.end_time="$end" --set output.snapshot_interval=0
        --set output.snapshot_initial=false --set output.checkpoint_interval=0)

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

run_one() {  # run_one LABEL ARGS...: prints total, detection, kinetic energy
  local label=$1; shift
  "$build/granite" run "$cfg" --output "$tmp/$label" "${common[@]}" "$@" > "$tmp/$label.log" 2>&1 \
    || { echo "$label: the run failed: $(tail -2 "$tmp/$label.log")" >&2; exit 1; }
  /usr/bin/python3 -c "
import json
r = json.load(open('$tmp/$label/run.json'))
t = r['timings']
print(t['total']['avg'], t['detection']['avg'], repr(r['final']['kinetic_energy_J']))"
}

printf "%-10s %10s %10s %8s %10s %8s\n" floor triangles total[s] ratio detect[s] ratio
read -r base_total base_detect base_energy < <(run_one plane)
printf "%-10s %10s %10.2f %8s %10.2f %8s\n" plane - "$base_total" 1.00 "$base_detect" 1.00
for k in 1 32 224; do
  grid_stl "$k" "$tmp/floor$k.stl"
  read -r total detect energy < <(run_one "mesh$k" \
    --set "bodies[0]={type: mesh, file: $tmp/floor$k.stl, material: glass}")
  [ "$energy" = "$base_energy" ] || echo "note: the mesh floor's run differs (kinetic energy $energy J, plane $base_energy J)"
  printf "%-10s %10d %10.2f %8.2f %10.2f %8.2f\n" mesh $((2 * k * k)) "$total" \
    "$(/usr/bin/python3 -c "print($total / $base_total)")" "$detect" \
    "$(/usr/bin/python3 -c "print($detect / $base_detect)")"
done
