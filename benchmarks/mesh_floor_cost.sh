#!/usr/bin/env bash
# What a mesh wall costs against the plane it replaces (issue 40's benchmark: "µs per
# particle-step of a settled bed on a tessellated floor of 10^2, 10^4 and 10^6 triangles, against
# a plane; goal: within 1.5x at 10^6"): configs/resting_pile.yaml (2 000 spheres in a 2 cm box)
# settled on its plane floor to 0.3 s once, then continued (--from) for STEPS steps (default
# 500) on one rank with the floor the half-space z = 0, and with the floor a square of z = 0
# centred under the box, of side S, cut into 2 k^2 triangles (a k x k grid of squares, each
# split along a diagonal; binary STL written here): k = 7 and 71 over the box's 2 cm (98 and
# 10 082 triangles, legs of 2.9 and 0.28 mm), and k = 707 over 20 cm (999 698 triangles, the
# 10^4 case's 0.28 mm legs on a mesh 100 times larger). The large mesh keeps the triangles'
# size: a mesh's cost per particle is meant to grow with the triangles a sphere touches (a
# sphere of radius 1 mm within the contact threshold reaches about 8 triangles of 0.28 mm), not
# with the mesh's size (the tree's depth). The runs are the same bit for bit (every face normal
# of the flat floor is exactly +z): the script checks the final kinetic energy. Prints µs per
# particle-step (the whole run, including reading the mesh and building its tree), the
# detection phase's time, their ratios to the plane's, measured in the same invocation (the
# machine is shared: compare ratios, not seconds), and the memory high-water mark.
# Then what the 10^6-triangle floor costs each rank's memory at 1, 2 and 4 ranks (2 x 1 x 1 and
# 2 x 2 x 1 subdomains, 4 oversubscribed; 50 steps): the triangles each rank keeps (the run
# log), its part's bytes (the banner's estimate), and the largest rank's resident size at the
# end and high-water mark, each minus the plane floor's at the same rank count. The high-water
# mark holds the whole mesh, built on every rank at setup (docs/global_bodies.md); the resident
# size at the end, the part the run keeps.
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

grid_stl() {  # grid_stl K SIDE PATH: the floor square of SIDE centred at (0.01, 0.01) as 2 K^2 triangles
  /usr/bin/python3 - "$1" "$2" "$3" <<'EOF'
import sys
import numpy as np
k, side, path = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
# float32 once: shared corners match bit for bit
x = np.linspace(0.01 - side / 2, 0.01 + side / 2, k + 1).astype("<f4")
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
  ${launch:-} "$build/granite" run "$cfg" --output "$tmp/$label" "${common[@]}" "$@" \
    > "$tmp/$label.log" 2>&1 \
    || { echo "$label: the run failed: $(tail -2 "$tmp/$label.log")" >&2; exit 1; }
  /usr/bin/python3 -c "
import json
r = json.load(open('$tmp/$label/run.json'))
t = r['timings']
us = 1e6 * r['wall_seconds'] / (r['steps']['done'] * r['particles']['final'])
print(us, t['detection']['avg'], repr(r['final']['kinetic_energy_J']), r['memory']['peak_resident_bytes']['max'] / 1e6)"
}

printf "%-10s %10s %8s %12s %8s %10s %8s %10s\n" floor triangles side[m] us/p-step ratio \
  detect[s] ratio peak[MB]
read -r base_us base_detect base_energy rss < <(run_one plane)
printf "%-10s %10s %8s %12.3f %8s %10.3f %8s %10.0f\n" plane - - "$base_us" 1.00 "$base_detect" \
  1.00 "$rss"
for floor in "7 0.02" "71 0.02" "707 0.2"; do
  read -r k side <<<"$floor"
  grid_stl "$k" "$side" "$tmp/floor$k.stl"
  read -r us detect energy rss < <(run_one "mesh$k" \
    --set "bodies[0]={type: mesh, file: $tmp/floor$k.stl, material: glass}")
  [ "$energy" = "$base_energy" ] || echo "note: the mesh floor's run differs (kinetic energy $energy J, plane $base_energy J)"
  printf "%-10s %10d %8s %12.3f %8.2f %10.3f %8.2f %10.0f\n" mesh $((2 * k * k)) "$side" "$us" \
    "$(/usr/bin/python3 -c "print($us / $base_us)")" "$detect" \
    "$(/usr/bin/python3 -c "print($detect / $base_detect)")" "$rss"
done

echo
echo "== the 999 698-triangle floor per rank (50 steps; memory minus the plane floor's)"
printf "%-6s %-8s %14s %10s %14s %10s\n" ranks grid kept/rank part[MB] resident[MB] peak[MB]
common=(--from "$settled" "${quiet[@]}" --set output.checkpoint_interval=0
        --set run.end_time="$(/usr/bin/python3 -c "print(50 * $dt)")")
export OMPI_MCA_mpi_yield_when_idle=1
for layout in "1 [1,1,1]" "2 [2,1,1]" "4 [2,2,1]"; do
  read -r n grid <<<"$layout"
  launch="mpirun --oversubscribe -np $n"
  run_one "plane$n" --set "domain.decomposition=$grid" > /dev/null
  run_one "big$n" --set "domain.decomposition=$grid" \
    --set "bodies[0]={type: mesh, file: $tmp/floor707.stl, material: glass}" > /dev/null
  /usr/bin/python3 - "$tmp/plane$n/run.json" "$tmp/big$n/run.json" "$tmp/big$n.log" "$n" "$grid" <<'EOF'
import json, re, sys
plane, big = (json.load(open(p))["memory"]["peak_resident_bytes"] for p in sys.argv[1:3])
log = open(sys.argv[3]).read()
kept = re.search(r"each rank keeps (\d+)\.\.(\d+)", log)
part = re.search(r"\+ mesh walls ([\d.]+) (kB|MB|GB)", log)
part_mb = float(part.group(1)) * {"kB": 1e-3, "MB": 1.0, "GB": 1e3}[part.group(2)]
resident = (big["resident_now_max"] - plane["resident_now_max"]) / 1e6
peak = (big["max"] - plane["max"]) / 1e6
print(f"{sys.argv[4]:<6} {sys.argv[5]:<8} {kept.group(1) + '..' + kept.group(2):>14} "
      f"{part_mb:10.1f} {resident:14.1f} {peak:10.1f}")
EOF
done
