#!/usr/bin/python3
"""Write a SLURM batch script for one Granite run, with chained restarts.

The script runs `granite run CONFIG --output OUTPUT` under `srun --mpi=pmix` or `mpirun`,
asks SLURM for USR1 a few minutes before the time limit (`--signal=B:USR1@SECONDS`, delivered
to the batch shell, which forwards it to the launcher and so to every rank), and when the
run stopped early (status "stopped" in the run record OUTPUT/run.json, read with
scripts/run_info.py, and a checkpoint present) it submits itself again with
`--dependency=afterany:$SLURM_JOB_ID` to continue from OUTPUT/checkpoint.h5. The chain ends
when the run reaches its end time, when a run fails, when a segment makes no progress, or
after --max-chain follow-ups.

usage: make_job.py --config CONFIG --output DIR [options]   (see --help; cluster/README.md)
"""
import argparse
import os
import re
import shlex
import shutil
import stat
import sys

TIME_RE = re.compile(r"^(\d+-)?\d+(:\d+){0,2}$")


def parse_args(argv):
    p = argparse.ArgumentParser(description="Write a SLURM batch script for a Granite run "
                                "(chained restarts on the time limit).")
    p.add_argument("--config", required=True, help="scenario YAML")
    p.add_argument("--output", required=True, help="run output directory (created)")
    p.add_argument("--script", help="job script to write (default: OUTPUT/granite.sbatch)")
    p.add_argument("--granite", default=None,
                   help="granite binary (default: `granite` on PATH, e.g. after `module load "
                   "granite`; else the installation this kit belongs to; else build/granite of "
                   "this checkout)")
    p.add_argument("--nodes", type=int, default=1)
    p.add_argument("--ntasks", type=int, default=1, help="MPI ranks in all")
    p.add_argument("--ntasks-per-node", type=int, default=None)
    p.add_argument("--cpus-per-task", type=int, default=1)
    p.add_argument("--time", default="01:00:00", help="SLURM time limit ([D-]HH:MM:SS or MM)")
    p.add_argument("--account", default=None)
    p.add_argument("--partition", default=None)
    p.add_argument("--job-name", default="granite")
    p.add_argument("--launcher", choices=["srun", "mpirun"], default="srun",
                   help="srun --mpi=pmix (default) or OpenMPI's mpirun")
    p.add_argument("--mpi", default="pmix", help="srun --mpi= plugin (default pmix)")
    p.add_argument("--launcher-args", default="",
                   help="extra arguments for the launcher, e.g. '--oversubscribe' (one string)")
    p.add_argument("--signal-seconds", type=int, default=300,
                   help="USR1 this many seconds before the time limit (default 300)")
    p.add_argument("--max-chain", type=int, default=20,
                   help="at most this many follow-up jobs (default 20)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="config override passed to granite (repeatable)")
    p.add_argument("--env", action="append", default=[], metavar="NAME=VALUE",
                   help="environment variable exported by the job (repeatable)")
    p.add_argument("--setup", action="append", default=[], metavar="LINE",
                   help="shell line run before the launch, e.g. 'module load openmpi' (repeatable)")
    p.add_argument("--post", action="append", default=[], metavar="LINE",
                   help="shell line run after Granite exits ($log: its log; $rc: exit code; "
                   "$run_json: its run record) (repeatable)")
    p.add_argument("--sbatch", action="append", default=[], metavar="OPTION",
                   help="extra #SBATCH option, e.g. --sbatch=--mem=0 (repeatable)")
    p.add_argument("--restart", action="store_true",
                   help="the first job already continues from OUTPUT/checkpoint.h5")
    args = p.parse_args(argv)
    problems = []
    if args.nodes < 1 or args.ntasks < 1:
        problems.append("--nodes and --ntasks must be >= 1")
    if args.ntasks < args.nodes:
        problems.append(f"--ntasks {args.ntasks} < --nodes {args.nodes}: a node would have no rank")
    if args.ntasks_per_node is not None and args.ntasks_per_node * args.nodes < args.ntasks:
        problems.append(f"--ntasks-per-node {args.ntasks_per_node} x --nodes {args.nodes} "
                        f"< --ntasks {args.ntasks}")
    if not TIME_RE.match(args.time):
        problems.append(f"--time {args.time!r}: expected MM, HH:MM:SS or D-HH:MM:SS")
    if args.signal_seconds < 0 or args.signal_seconds > 65535:
        problems.append("--signal-seconds must be in 0..65535 (SLURM's limit)")
    for kv in args.set + args.env:
        if "=" not in kv:
            problems.append(f"{kv!r}: expected NAME=VALUE")
    for kv in args.env:
        if not re.match(r"^[A-Za-z_][A-Za-z0-9_]*=", kv):
            problems.append(f"--env {kv!r}: not a valid variable name")
    if not os.path.isfile(args.config):
        problems.append(f"--config {args.config}: no such file")
    if problems:
        for m in problems:
            print(f"error: {m}", file=sys.stderr)
        sys.exit(2)
    return args


def time_seconds(t):
    days = 0
    if "-" in t:
        d, t = t.split("-", 1)
        days = int(d)
    parts = [int(x) for x in t.split(":")]
    if days and len(parts) == 1:      # D-HH
        h, m, s = parts[0], 0, 0
    elif days and len(parts) == 2:    # D-HH:MM
        h, m, s = parts[0], parts[1], 0
    elif len(parts) == 1:             # MM
        h, m, s = 0, parts[0], 0
    elif len(parts) == 2:             # MM:SS
        h, m, s = 0, parts[0], parts[1]
    else:
        h, m, s = parts
    return ((days * 24 + h) * 60 + m) * 60 + s


def q(s):
    return shlex.quote(str(s))


def default_granite(repo):
    """The granite a job runs without --granite: the one on PATH (an installed Granite, e.g.
    after `module load granite`); else, for the kit installed as PREFIX/share/granite/cluster
    (repo = PREFIX/share/granite), PREFIX/bin/granite; else the checkout's build/granite."""
    on_path = shutil.which("granite")
    if on_path:
        return os.path.abspath(on_path)
    installed = os.path.normpath(os.path.join(repo, "..", "..", "bin", "granite"))
    if os.path.basename(os.path.dirname(repo)) == "share" and os.access(installed, os.X_OK):
        return installed
    return os.path.join(repo, "build", "granite")


def render(args, script_path):
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    granite = os.path.abspath(args.granite or default_granite(repo))
    run_info = os.path.join(repo, "scripts", "run_info.py")
    config = os.path.abspath(args.config)
    output = os.path.abspath(args.output)
    sb = [f"--job-name={args.job_name}", f"--nodes={args.nodes}", f"--ntasks={args.ntasks}",
          f"--cpus-per-task={args.cpus_per_task}", f"--time={args.time}",
          f"--signal=B:USR1@{args.signal_seconds}",
          f"--output={output}/slurm-%j.out", "--open-mode=append"]
    if args.ntasks_per_node:
        sb.append(f"--ntasks-per-node={args.ntasks_per_node}")
    if args.account:
        sb.append(f"--account={args.account}")
    if args.partition:
        sb.append(f"--partition={args.partition}")
    sb += args.sbatch
    header = "\n".join(f"#SBATCH {o}" for o in sb)
    sets = " ".join(f"--set {q(kv)}" for kv in args.set)
    envs = "\n".join(f"export {k}={q(v)}" for k, v in (kv.split("=", 1) for kv in args.env))
    setup = "\n".join(args.setup)
    post = "\n".join(args.post)
    if args.launcher == "srun":
        launch = f"srun --mpi={q(args.mpi)} {args.launcher_args}".rstrip()
    else:
        launch = f'mpirun -n "$ntasks" {args.launcher_args}'.rstrip()
    return TEMPLATE.format(
        header=header, granite=q(granite), run_info=q(run_info), config=q(config),
        output=q(output), script=q(script_path), sets=sets, envs=envs or "# (none)",
        setup=setup or "# (none)", post=post or "# (none)",
        launch=launch, ntasks=args.ntasks, max_chain=args.max_chain,
        first_restart=1 if args.restart else 0, signal=args.signal_seconds,
        timelimit=time_seconds(args.time))


# The job script. {...} are filled in by render(); $... and ${...} are bash.
TEMPLATE = r"""#!/bin/bash
# Granite batch job written by cluster/make_job.py; see cluster/README.md.
{header}

# --- parameters (written by make_job.py) -------------------------------------------------
GRANITE={granite}
RUN_INFO={run_info}   # prints fields of a run record
CONFIG={config}
OUTPUT={output}
SCRIPT={script}                # this file: the follow-up job is submitted from it
MAX_CHAIN={max_chain}                # follow-up jobs at most
SETS=({sets})
{envs}
{setup}

# --- state handed from job to job ---------------------------------------------------------
chain=${{GRANITE_CHAIN:-0}}          # 0 for the first job, n for the n-th follow-up
restart=${{GRANITE_RESTART:-{first_restart}}}    # 1: continue from $OUTPUT/checkpoint.h5
last_step=${{GRANITE_LAST_STEP:--1}}  # step the previous segment stopped at
job=${{SLURM_JOB_ID:-local$$}}
ntasks=${{SLURM_NTASKS:-{ntasks}}}
log=$OUTPUT/granite-$job.log
run_json=$OUTPUT/run-$job.json   # this segment's run record (the next one rewrites run.json)
mkdir -p "$OUTPUT"
say() {{ echo "[granite-job $job $(date +%H:%M:%S)] $*"; }}

# A job SLURM requeued (node failure, preemption: SLURM_RESTART_COUNT > 0) continues from the
# checkpoint its earlier attempt left instead of starting over (granite run refuses to start
# afresh over the checkpoint of an unfinished run).
if [ "${{SLURM_RESTART_COUNT:-0}}" -gt 0 ] && [ -f "$OUTPUT/checkpoint.h5" ]; then
  say "requeued (SLURM_RESTART_COUNT=$SLURM_RESTART_COUNT): continuing from $OUTPUT/checkpoint.h5"
  restart=1
fi
args=(run "$CONFIG" --output "$OUTPUT" "${{SETS[@]}}")
if [ "$restart" = 1 ]; then
  if [ ! -f "$OUTPUT/checkpoint.h5" ]; then
    say "error: asked to restart but $OUTPUT/checkpoint.h5 does not exist"; exit 1
  fi
  args+=(--restart "$OUTPUT/checkpoint.h5")
fi
say "segment $chain of at most $MAX_CHAIN follow-ups, $ntasks ranks, restart=$restart, log $log"

# The launcher runs in the background so that this shell can take SLURM's signal
# (--signal=B:USR1@{signal}: only the batch shell gets it) and pass it on; srun and mpirun
# both forward USR1 to every rank, and Granite agrees on the stop over all ranks,
# checkpoints after the current step and exits 0.
{launch} "$GRANITE" "${{args[@]}}" > "$log" 2>&1 &
pid=$!
forward() {{ say "got SIG$1, asking Granite to checkpoint and stop"; kill -"$1" "$pid" 2>/dev/null; }}
trap 'forward USR1' USR1
trap 'forward TERM' TERM
while true; do
  wait "$pid"; rc=$?
  kill -0 "$pid" 2>/dev/null || break    # wait was interrupted by a trapped signal
done
trap - USR1 TERM
say "granite exited with $rc"
[ "$rc" -eq 0 ] && cp "$OUTPUT/run.json" "$run_json"
tail -n 12 "$log"
{post}

if [ "$rc" -ne 0 ]; then
  say "the run failed (exit $rc): no follow-up"; exit "$rc"
fi
status=$(/usr/bin/python3 "$RUN_INFO" "$run_json" status 2>&1) || {{
  say "$status: no follow-up"; exit 1; }}
if [ "$status" = completed ]; then
  say "the run reached its end time: chain complete"; exit 0
fi
if [ "$status" != stopped ]; then
  say "run status '$status' in $run_json: no follow-up"; exit 1
fi
stopped=$(/usr/bin/python3 "$RUN_INFO" "$run_json" steps.last)
if [ ! -f "$OUTPUT/checkpoint.h5" ]; then
  say "stopped at step $stopped but no checkpoint: no follow-up"; exit 1
fi
if [ "$stopped" -le "$last_step" ]; then
  say "no progress (stopped at step $stopped, previous segment at $last_step): no follow-up"; exit 1
fi
if [ "$chain" -ge "$MAX_CHAIN" ]; then
  say "stopped at step $stopped; MAX_CHAIN=$MAX_CHAIN follow-ups reached: no follow-up"; exit 1
fi
if [ -z "${{SLURM_JOB_ID:-}}" ]; then
  say "stopped at step $stopped (not under SLURM): continue with GRANITE_RESTART=1 bash $SCRIPT"; exit 0
fi
next=$(GRANITE_CHAIN=$((chain + 1)) GRANITE_RESTART=1 GRANITE_LAST_STEP=$stopped \
       sbatch --parsable --export=ALL --dependency=afterany:"$SLURM_JOB_ID" "$SCRIPT") || {{
  say "error: sbatch of the follow-up failed"; exit 1; }}
say "stopped at step $stopped; follow-up job ${{next%%;*}} continues from $OUTPUT/checkpoint.h5"
"""


def main(argv):
    args = parse_args(argv)
    if args.signal_seconds >= time_seconds(args.time):
        print(f"warning: --signal-seconds {args.signal_seconds} >= --time {args.time}: the "
              "run is signalled as soon as SLURM checks it", file=sys.stderr)
    os.makedirs(args.output, exist_ok=True)
    script = os.path.abspath(args.script or os.path.join(args.output, "granite.sbatch"))
    os.makedirs(os.path.dirname(script), exist_ok=True)
    text = render(args, script)
    with open(script, "w") as f:
        f.write(text)
    os.chmod(script, os.stat(script).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    print(script)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
