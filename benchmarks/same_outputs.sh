#!/usr/bin/env bash
# Refactoring guard: runs configs/channel_ci.yaml at 1, 2, 3 and 4 ranks with two granite
# binaries and requires byte-identical summary.txt, thermo.csv and statistics.csv, and equal
# snapshot datasets (every dataset, element for element, in file order).
# usage: benchmarks/same_outputs.sh REFERENCE_BINARY NEW_BINARY [--set KEY=VALUE ...]
set -u
ref=$1 new=$2; shift 2
src=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
failures=0
for n in 1 2 3 4; do
  for which in ref new; do
    binary=$ref; [ "$which" = new ] && binary=$new
    mpiexec -n "$n" --oversubscribe "$binary" run "$src/configs/channel_ci.yaml" \
      --output "$tmp/$which$n" "$@" > "$tmp/$which$n.log" 2>&1 \
      || { echo "FAIL: $which binary on $n ranks: $(tail -2 "$tmp/$which$n.log")"; failures=$((failures + 1)); }
  done
  for f in summary.txt thermo.csv statistics.csv; do
    cmp -s "$tmp/ref$n/$f" "$tmp/new$n/$f" || { echo "FAIL: $n ranks: $f differs"; failures=$((failures + 1)); }
  done
  /usr/bin/python3 - "$tmp/ref$n" "$tmp/new$n" <<'PY' || failures=$((failures + 1))
import glob, os, sys
import h5py, numpy as np
a, b = sys.argv[1:3]
names = sorted(os.path.basename(p) for p in glob.glob(os.path.join(a, "snapshot_*.h5")))
if names != sorted(os.path.basename(p) for p in glob.glob(os.path.join(b, "snapshot_*.h5"))):
    sys.exit(f"FAIL: {b}: other snapshot files than {a}")
bad = 0
for name in names:
    fa, fb = h5py.File(os.path.join(a, name)), h5py.File(os.path.join(b, name))
    sets = []
    fa.visit(lambda k: sets.append(k) if isinstance(fa[k], h5py.Dataset) else None)
    for k in sets:
        if k not in fb or not np.array_equal(fa[k][()], fb[k][()]):
            print(f"FAIL: {name}: dataset {k} differs"); bad += 1
sys.exit(1 if bad else 0)
PY
  echo "$n ranks: compared"
done
[ "$failures" -eq 0 ] && echo "same outputs at 1-4 ranks" || { echo "$failures difference(s)"; exit 1; }
