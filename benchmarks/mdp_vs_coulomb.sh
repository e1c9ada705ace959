#!/usr/bin/env bash
# Maximum dissipation against Coulomb friction where the contact blocks are anisotropic (issue
# 39; docs/mdp_vs_coulomb.md has the result). The same scenes with contact.model mdp and coulomb
# over several seeds, each run on one rank, two at a time:
#   channel  configs/channel_shapes.yaml (capsules of aspect 2), 0-CHANNEL_END s, averaged
#            from 0.3 s: the paper's Table 2 figures and the kinetic energies;
#   heap     configs/heap_shapes.yaml with bricks: the angle of repose (scripts/repose_angle.py);
#   silo     configs/silo_rods.yaml (rods of aspect 3): the grains discharged;
# then benchmarks/mdp_vs_coulomb.py prints each figure's mean and spread per model and says
# which differences are beyond the spread. The single-contact view: the seed-1 runs export one
# step's contact problem (channel at t = 0.5 s, heap at 0.6 s, and a sphere channel as the
# control); each is solved to fc3d error 1e-8 with mdp, and at that solution every contact's
# local problem (A, b, mu) is solved by both models (scripts/contact_model_difference.py).
# Figures 8-9 of the paper for the two models: OUT/fig_channel_mdp_vs_coulomb.png.
#
# usage: benchmarks/mdp_vs_coulomb.sh [BUILD_DIR] [OUT_DIR] [SEEDS] [SCENES]
#   default build, mdp_vs_coulomb, "1 2 3 4 5", "channel heap silo". Runs already done in
#   OUT_DIR (their run.json exists) are kept, so an interrupted benchmark resumes. About an
#   hour on 2 cores with the defaults.
set -euo pipefail
build=$(cd "${1:-build}" && pwd); out=${2:-mdp_vs_coulomb}; seeds=${3:-1 2 3 4 5}
scenes=${4:-channel heap silo}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"; out=$(cd "$out" && pwd)
export build root out CHANNEL_END=${CHANNEL_END:-0.6}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# run_one SCENE MODEL SEED: one run into OUT/SCENE-MODEL-SEED (skipped if done).
run_one() {
  local scene=$1 model=$2 seed=$3 dir="$out/$1-$2-$3" extra=()
  [ -f "$dir/run.json" ] && return 0
  rm -rf "$dir"
  case $scene in
    channel)
      [ "$seed" = 1 ] && extra=(--set "output.export_fclib_steps=[12500]")
      "$build/granite" run "$root/configs/channel_shapes.yaml" --output "$dir" --quiet \
        --set contact.model="$model" --set run.seed="$seed" --set run.end_time="$CHANNEL_END" \
        --set statistics.average_from=0.3 --set output.snapshot_interval=0.1 "${extra[@]}" ;;
    channel_spheres)
      "$build/granite" run "$root/configs/channel_small.yaml" --output "$dir" --quiet \
        --set contact.model="$model" --set run.seed="$seed" --set run.end_time=0.5 \
        --set output.snapshot_interval=0 --set "output.export_fclib_steps=[12500]" ;;
    heap)
      [ "$seed" = 1 ] && extra=(--set "output.export_fclib_steps=[6000]")
      "$build/granite" run "$root/configs/heap_shapes.yaml" --output "$dir" --quiet \
        --set contact.model="$model" --set run.seed="$seed" --set "particles[0].shape=brick" \
        "${extra[@]}"
      /usr/bin/python3 "$root/scripts/repose_angle.py" "$dir" > "$dir.angle" || true ;;
    silo)
      "$build/granite" run "$root/configs/silo_rods.yaml" --output "$dir" --quiet \
        --set contact.model="$model" --set run.seed="$seed" ;;
  esac > "$dir.log" 2>&1 || { echo "$scene $model seed $seed failed: $(tail -1 "$dir.log")"; return 0; }
  echo "$scene $model seed $seed: $(grep -m1 '^done:' "$dir.log" || true)"
}
export -f run_one

echo "== runs into $out (one rank each, two at a time)"
{
  for scene in $scenes; do
    for seed in $seeds; do for model in mdp coulomb; do echo "$scene $model $seed"; done; done
  done
  case " $scenes " in *" channel "*) echo "channel_spheres mdp 1" ;; esac
} | xargs -P 2 -L 1 bash -c 'run_one "$@"' _

echo
/usr/bin/python3 "$root/benchmarks/mdp_vs_coulomb.py" "$out"

echo "== the single-contact view: each contact's (A, b, mu) at the step's mdp solution"
mkdir -p "$out/solutions"
for case in channel_spheres-mdp-1:12500 channel-mdp-1:12500 heap-mdp-1:6000; do
  run=${case%%:*}; step=${case##*:}
  problem="$out/$run/contact_problem_$step.hdf5"
  [ -f "$problem" ] || continue
  "$build/granite" fclib solve "$problem" --model mdp --tolerance 1e-8 --max-sweeps 20000 \
    --solution "$out/solutions" > "$out/solutions/$run.log"
  grep "contact_problem" "$out/solutions/$run.log" | tail -1
  cp "$out/solutions/contact_problem_$step.h5" "$out/solutions/$run.h5"
  /usr/bin/python3 "$root/scripts/contact_model_difference.py" --granite "$build/granite" \
    --label "${run%-mdp-1}" --csv "$out/contacts.csv" --plot "$out/contacts_$run.png" \
    "$problem" "$out/solutions/$run.h5"
done

if [ -d "$out/channel-mdp-1" ] && [ -d "$out/channel-coulomb-1" ]; then
  last() { ls "$1"/snapshot_*.h5 | tail -1; }
  /usr/bin/python3 "$root/scripts/postprocess_channel.py" compare \
    "$(last "$out/channel-coulomb-1")" "$(last "$out/channel-mdp-1")" \
    --out "$out/fig_channel_mdp_vs_coulomb.png" --labels coulomb mdp > "$out/compare.txt" \
    && cat "$out/compare.txt"
fi
echo "== cost (us per particle-step at the final count, median over the runs)"
for scene in $scenes; do
  /usr/bin/python3 - "$out" "$scene" <<'PY'
import glob, json, statistics, sys
costs = []
for path in glob.glob(f"{sys.argv[1]}/{sys.argv[2]}-*-*/run.json"):
    r = json.load(open(path))
    costs.append(1e6 / r["steps_per_second"] / max(r["particles"]["final"], 1))
if costs:
    print(f"{sys.argv[2]:8s} {statistics.median(costs):8.2f} us ({len(costs)} runs)")
PY
done
