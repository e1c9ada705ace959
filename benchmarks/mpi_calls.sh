#!/usr/bin/env bash
# The MPI calls of a run, counted and timed per call site (issue 42: what each remaining
# collective and exchange costs). Builds benchmarks/mpi_calls.c (a PMPI interposer) with mpicc,
# runs CONFIG on RANKS ranks with it preloaded, and prints per rank and call site: calls per
# step, µs per call and seconds in all, the site named by the granite functions that called it
# (addr2line; the innermost first). Wait times include waiting for a slower rank.
# usage: benchmarks/mpi_calls.sh [BUILD_DIR] [CONFIG] [RANKS] [END_TIME] [--set KEY=VALUE ...]
set -euo pipefail
build=${1:-build}; root=$(cd "$(dirname "$0")/.." && pwd)
config=${2:-$root/configs/channel_small.yaml}; ranks=${3:-2}; end=${4:-0.3}
shift $(( $# < 4 ? $# : 4 ))
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$root/benchmarks/lib.sh"
mpicc -shared -fPIC -O2 -o "$tmp/mpi_calls.so" "$root/benchmarks/mpi_calls.c" -ldl
binary=$(cd "$build" && pwd)/granite
extra=(); [ "$ranks" -gt 2 ] && extra=(--oversubscribe)
GRANITE_MPI_CALLS="$tmp/calls" mpiexec -n "$ranks" "${extra[@]}" -x GRANITE_MPI_CALLS \
  -x LD_PRELOAD="$tmp/mpi_calls.so" "$binary" run "$config" --output "$tmp/out" "${quiet[@]}" \
  --set run.end_time="$end" "$@" > "$tmp/log" 2>&1 || { tail -3 "$tmp/log"; exit 1; }
/usr/bin/python3 - "$tmp" "$binary" "$ranks" <<'PY'
import collections, json, subprocess, sys
tmp, binary, ranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
run = json.load(open(f"{tmp}/out/run.json"))
steps, wall = run["steps"]["done"], run["wall_seconds"]
print(f"{run['config_file']}: {ranks} ranks, {steps} steps, {wall:.2f} s wall, "
      f"{run['relaxation']['sweeps'] / max(steps, 1):.2f} sweeps per step")
rows, addresses = [], set()
for r in range(ranks):
    for line in open(f"{tmp}/calls.{r}"):
        kind, calls, seconds, *frames = line.split()
        rows.append((r, kind, int(calls), float(seconds), frames))
        addresses.update(f for f in frames if f != "0x0")
names = {}
if addresses:
    ordered = sorted(addresses)
    out = subprocess.run(["addr2line", "-f", "-C", "-e", binary] + ordered,
                         capture_output=True, text=True).stdout.split("\n")
    for k, a in enumerate(ordered):
        name = out[2 * k].replace("(anonymous namespace)::", "").replace("granite::", "")
        names[a] = name.split("(")[0]
def site(frames):
    chain = [names[f] for f in frames if f in names]
    skip = ("comm::", "PeerExchange::")  # the wrappers: name the caller behind them
    useful = [c for c in chain if not c.startswith(skip)] or chain
    return " < ".join(useful[:2]) if useful else "?"
for r in range(ranks):
    mine = collections.defaultdict(lambda: [0, 0.0])
    for (rank, kind, calls, seconds, frames) in rows:
        if rank == r:
            key = (kind, site(frames))
            mine[key][0] += calls
            mine[key][1] += seconds
    total = sum(v[1] for v in mine.values())
    print(f"rank {r}: {total:.3f} s in MPI calls ({100 * total / wall:.1f} % of the wall time)")
    print("  %-10s %9s %9s %8s  %s" % ("call", "per step", "us/call", "seconds", "site"))
    for (kind, where), (calls, seconds) in sorted(mine.items(), key=lambda kv: -kv[1][1]):
        if seconds < 0.002 * total: continue
        print("  %-10s %9.2f %9.2f %8.3f  %s" % (kind, calls / max(steps, 1),
                                                 1e6 * seconds / calls, seconds, where[:110]))
PY
