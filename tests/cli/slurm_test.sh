#!/usr/bin/env bash
# Granite's batch jobs against a real SLURM on localhost (ctest: slurm_end_to_end):
#  - munged with a private key and socket, slurmctld and slurmd with a generated slurm.conf
#    (private ports, state and spool directories), all in a temporary directory;
#  - a 2-rank job written by cluster/make_job.py runs configs/channel_ci.yaml; squeue is
#    polled until it is gone, then its run record (OUTPUT/run.json) and HDF5 snapshot are
#    checked;
#  - a job signalled mid-run with the USR1 its script asks SLURM for before the time limit
#    must checkpoint (its record run-JOBID.json, kept by the job script, says "stopped"), and
#    its chained follow-up (--dependency=afterany) must finish the run.
# Every daemon started here is stopped by its PID on exit, also on failure.
# Needs root and the Debian packages slurm-wlm and munge.
# usage: slurm_test.sh GRANITE_BINARY SOURCE_DIR [LAUNCHER]   (LAUNCHER: srun (default) | mpirun)
#   SLURM_TEST_KEEP=1 keeps the temporary directory; SLURM_TEST_SKIP_CHAIN=1 skips the
#   signal-and-chain part.
set -u
granite=$(readlink -f "$1"); src=$(readlink -f "$2"); launcher=${3:-srun}
tmp=$(mktemp -d /tmp/granite-slurm.XXXXXX); chmod 755 "$tmp"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
note() { echo "== $*"; }
pids=()

cleanup() {
  set +e
  if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ] && [ ${#pids[@]} -gt 0 ]; then
    scancel --full --quiet $(squeue -h -o %i 2>/dev/null) 2>/dev/null
    sleep 1
  fi
  # Reverse start order: slurmd, slurmctld, munged.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do kill -TERM "${pids[i]}" 2>/dev/null; done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$p" 2>/dev/null && { echo "note: PID $p ignored SIGTERM, killing it"; kill -KILL "$p"; }
  done
  # slurmstepd processes of our jobs (children re-parented away from slurmd) are found by
  # the spool directory on their command line... they are gone once the jobs are; report any.
  left=$(ps -eo pid=,args= | grep -F "$tmp" | grep -v -e grep -e slurm_test.sh || true)
  [ -n "$left" ] && echo "note: processes still referring to $tmp:" && echo "$left"
  if [ "$failures" -ne 0 ] || [ "${SLURM_TEST_KEEP:-0}" = 1 ]; then
    echo "daemon logs and job outputs kept in $tmp"
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM

for cmd in munged slurmctld slurmd sbatch squeue scontrol; do
  command -v "$cmd" > /dev/null || { echo "SKIP/FAIL: $cmd not found (apt-get install slurm-wlm munge)"; exit 1; }
done
[ "$(id -u)" -eq 0 ] || { echo "FAIL: the test starts slurmd and needs root"; exit 1; }

free_ports() {  # N free TCP ports on localhost
  /usr/bin/python3 - "$1" <<'EOF'
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
EOF
}

# --- munged -------------------------------------------------------------------------------
note "starting munged"
mkdir -p "$tmp/munge"; chmod 700 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$tmp/munge/munge.key"
munge_socket=$tmp/munge/munge.socket
munged --foreground --force --socket="$munge_socket" --key-file="$tmp/munge/munge.key" \
  --log-file="$tmp/munge/munged.log" --pid-file="$tmp/munge/munged.pid" \
  --seed-file="$tmp/munge/munged.seed" > "$tmp/munge/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$munge_socket" ] && break; sleep 0.1; done
if ! munge --socket="$munge_socket" -n 2>/dev/null | unmunge --socket="$munge_socket" > /dev/null 2>&1; then
  fail "munged does not answer on $munge_socket: $(cat "$tmp/munge/munged.out" "$tmp/munge/munged.log" 2>/dev/null | tail -5)"
  exit 1
fi

# --- slurm.conf ---------------------------------------------------------------------------
read -r ctld_port slurmd_port <<<"$(free_ports 2)"
host=$(hostname -s)
node_line=$(slurmd -C 2>/dev/null | head -n 1)
case $node_line in NodeName=*) ;; *) fail "slurmd -C gave no node line: $node_line"; exit 1 ;; esac
node=$(sed -n 's/^NodeName=\([^ ]*\).*/\1/p' <<<"$node_line")
mkdir -p "$tmp/ctld" "$tmp/spool/slurmd-$node" "$tmp/log" "$tmp/jobs"
export SLURM_CONF=$tmp/slurm.conf
cat > "$SLURM_CONF" <<EOF
ClusterName=granitetest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$munge_socket
StateSaveLocation=$tmp/ctld
SlurmdSpoolDir=$tmp/spool/slurmd-%n
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
EnforcePartLimits=ALL
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
InactiveLimit=0
KillWait=30
MinJobAge=300
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=granite Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF

# --- slurmctld and slurmd -----------------------------------------------------------------
note "starting slurmctld (port $ctld_port) and slurmd (port $slurmd_port) for node $node"
slurmctld -D -i -f "$SLURM_CONF" > "$tmp/log/slurmctld.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do scontrol ping 2>/dev/null | grep -q UP && break; sleep 0.2; done
scontrol ping 2>/dev/null | grep -q UP || {
  fail "slurmctld does not answer: $(tail -5 "$tmp/log/slurmctld.out" "$tmp/log/slurmctld.log" 2>/dev/null)"; exit 1; }
slurmd -D -f "$SLURM_CONF" -N "$node" > "$tmp/log/slurmd.out" 2>&1 &
pids+=($!)
for _ in $(seq 100); do
  state=$(sinfo -h -n "$node" -o %T 2>/dev/null)
  case $state in idle*|mixed*) break ;; esac
  sleep 0.2
done
case $state in idle*|mixed*) note "node $node is $state" ;;
  *) fail "node $node is '$state', not idle: $(tail -5 "$tmp/log/slurmd.out" "$tmp/log/slurmd.log" 2>/dev/null)"; exit 1 ;; esac

# --- helpers ------------------------------------------------------------------------------
make_job() {  # DIR [make_job.py options...]
  local dir=$1; shift
  local extra=()
  [ "$launcher" = mpirun ] && extra=(--launcher mpirun --launcher-args=--oversubscribe)
  /usr/bin/python3 "$src/cluster/make_job.py" --config "$src/configs/channel_ci.yaml" \
    --output "$dir" --granite "$granite" --partition granite --ntasks 2 \
    --env OMPI_ALLOW_RUN_AS_ROOT=1 --env OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 \
    --env OMPI_MCA_rmaps_base_oversubscribe=1 "${extra[@]}" "$@"
}
wait_gone() {  # JOBID SECONDS: poll squeue until the job is neither pending nor running
  local id=$1 deadline=$((SECONDS + $2)) st
  while [ "$SECONDS" -lt "$deadline" ]; do
    st=$(squeue -h -j "$id" -o %T 2>/dev/null)
    case $st in PENDING|RUNNING|CONFIGURING|COMPLETING|SUSPENDED|REQUEUED|RESIZING) sleep 1 ;;
      *) echo "${st:-GONE}"; return 0 ;; esac
  done
  echo TIMEOUT; return 1
}
run_info() {  # RUN KEY...: fields of a run record (OUTPUT/run.json or a job's run-JOBID.json)
  /usr/bin/python3 "$src/scripts/run_info.py" "$@" 2>&1
}
job_ids_of() {  # DIR: every job id that wrote into DIR
  ls "$1"/slurm-*.out 2>/dev/null | sed 's/.*slurm-\([0-9]*\)\.out/\1/' | sort -n
}

# --- 1. a 2-rank job to the end -----------------------------------------------------------
note "job 1: 2 ranks ($launcher), channel_ci to the end"
script=$(make_job "$tmp/jobs/full" --time 10) || { fail "make_job.py failed"; exit 1; }
id=$(sbatch --parsable "$script") || { fail "sbatch failed"; exit 1; }
id=${id%%;*}
st=$(wait_gone "$id" 300) || fail "job $id did not finish in 300 s (squeue: $(squeue -h -j "$id" -o '%T %r'))"
note "job $id: $st; $(scontrol show job "$id" 2>/dev/null | grep -o 'ExitCode=[^ ]*' | head -1)"
log=$tmp/jobs/full/granite-$id.log
ranks=$(run_info "$tmp/jobs/full" ranks)
[ "$ranks" = 2 ] || fail "job 1 run.json: ranks '$ranks', expected 2: $(head -5 "$log" "$tmp/jobs/full/slurm-$id.out" 2>&1)"
last=$(run_info "$tmp/jobs/full" steps.last)
[ "$last" = 1250 ] || fail "job 1 did not reach step 1250 (run.json steps.last '$last'): $(tail -5 "$log" 2>&1; tail -5 "$tmp/jobs/full/slurm-$id.out" 2>&1)"
snap=$tmp/jobs/full/snapshot_00001250.h5
if [ -f "$snap" ]; then
  /usr/bin/python3 -c "import h5py,sys; f=h5py.File(sys.argv[1],'r'); print('snapshot groups:', list(f.keys()))" "$snap" \
    || fail "job 1 snapshot is not readable HDF5"
else
  fail "job 1 wrote no $snap"
fi
grep -q "chain complete" "$tmp/jobs/full/slurm-$id.out" 2>/dev/null || fail "job 1 batch output lacks 'chain complete'"

# --- 2. USR1 in the middle of the run, and the chained restart -----------------------------
if [ "${SLURM_TEST_SKIP_CHAIN:-0}" != 1 ]; then
  # The job asks SLURM for USR1 before its time limit (#SBATCH --signal=B:USR1@55). slurmctld
  # checks time limits only every 30 s, so the test sends the same signal to the same process,
  # the batch shell (scancel --batch), as soon as the run has made 250 steps.
  end_time=0.1
  note "job 2: end time $end_time s, USR1 to the batch shell after step 250; chained restart"
  script=$(make_job "$tmp/jobs/chain" --time 10 --signal-seconds 55 --set run.end_time=$end_time \
           --set output.snapshot_interval=0.02) || { fail "make_job.py failed"; exit 1; }
  grep -q '^#SBATCH --signal=B:USR1@55$' "$script" || fail "the job script does not ask for USR1 55 s before its limit: $(grep '^#SBATCH' "$script")"
  id=$(sbatch --parsable "$script") || { fail "sbatch failed"; exit 1; }
  id=${id%%;*}
  deadline=$((SECONDS + 300))
  until awk -F, 'NR > 1 && $1 >= 250 { found = 1 } END { exit !found }' "$tmp/jobs/chain/thermo.csv" 2>/dev/null; do
    [ "$SECONDS" -lt "$deadline" ] || { fail "job 2 made no 250 steps in 300 s: $(squeue)"; break; }
    sleep 0.2
  done
  scancel --batch --signal=USR1 "$id" || fail "scancel --batch --signal=USR1 $id failed"
  deadline=$((SECONDS + 600))
  # Wait for the whole chain: until no job of ours is pending or running.
  while [ "$SECONDS" -lt "$deadline" ]; do
    [ -z "$(squeue -h -o %i)" ] && break
    sleep 1
  done
  [ -z "$(squeue -h -o %i)" ] || fail "chain still running after 600 s: $(squeue)"
  first=$tmp/jobs/chain/run-$id.json   # the first segment's run record
  ids=$(job_ids_of "$tmp/jobs/chain" | tr '\n' ' ')
  note "jobs of the chain: $ids"
  status=$(run_info "$first" status)
  [ "$status" = stopped ] \
    || fail "the first job did not stop on the signal (status '$status'): $(tail -3 "$tmp/jobs/chain/granite-$id.log" 2>&1; tail -5 "$tmp/jobs/chain/slurm-$id.out" 2>&1)"
  [ "$(wc -w <<<"$ids")" -ge 2 ] || fail "no follow-up job was submitted"
  last=$(job_ids_of "$tmp/jobs/chain" | tail -1)
  grep -q "chain complete" "$tmp/jobs/chain/slurm-$last.out" 2>/dev/null \
    || fail "the last job ($last) did not complete the chain: $(tail -5 "$tmp/jobs/chain/slurm-$last.out" 2>&1)"
  final_step=$(printf '%08d' "$(/usr/bin/python3 -c "print(round($end_time / 4e-5))")")
  [ -f "$tmp/jobs/chain/snapshot_$final_step.h5" ] || fail "the chained run wrote no final snapshot (step $final_step)"
  grep -h -e "granite-job" "$tmp"/jobs/chain/slurm-*.out | grep -v "^\s*$"
fi

[ "$failures" -eq 0 ] && echo "all SLURM checks passed" || { echo "$failures SLURM check(s) failed"; exit 1; }
