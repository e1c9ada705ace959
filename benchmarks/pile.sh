#!/usr/bin/env bash
# Relaxation accuracy on a resting pile of >= 3000 glass spheres (issue 14): for warm start
# off/on x each solver.ordering, mean sweeps and wall time per step to fc3d error 1e-4 and
# 1e-6, fraction of steps meeting them (1e-4 within 200 sweeps), max penetration.
# usage: benchmarks/pile.sh [BUILD_DIR] [nx ny layers settle_steps measured_steps max_sweeps]
#        (defaults: build 15 12 20 30 4 500 -> 3340 spheres, 18 600 contacts; ~15 minutes on
#        a loaded 2-core machine). docs/accuracy.md has the figures.
set -euo pipefail
build=${1:-build}; shift || true
"$build/benchmarks/bench_pile" "$@"
