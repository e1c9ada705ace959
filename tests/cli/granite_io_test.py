#!/usr/bin/python3
"""Self-test of scripts/granite_io.py and of the scripts that read run.json (ctest: python_io).

Writes, in a temporary directory, snapshots and a checkpoint with h5py in the layout Granite
writes (include/granite/io/snapshot.hpp, checkpoint.hpp, docs/output.md) plus a field the
loader does not know (`group`), a thermo.csv and a run.json (the record of the channel_ci run
on 2 ranks), and checks what the loader returns, the one-line errors (exit status 2) of the
command-line scripts for a missing file or a wrong format, and the scaling record made from
the run.json.

usage: granite_io_test.py SOURCE_DIR
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

import h5py
import numpy as np

SOURCE = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                         os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "scripts"))
import granite_io  # noqa: E402

N = 5
PHASE_TIMES = {"detection": (2.0859, 2.1910, 2.2960), "setup": (0.8164, 0.8419, 0.8675),
               "relaxation": (3.2675, 3.4518, 3.6360), "communication": (26.4865, 26.6896, 26.8926),
               "integration": (0.0844, 0.0859, 0.0874), "output": (0.8274, 0.8280, 0.8286),
               "other": (1.9050, 1.9845, 2.0640)}

# The run.json the channel_ci run on 2 ranks would write (the figures of its log).
RUN = {
    "format": "granite-run", "format_version": 1, "status": "completed",
    "granite": {"version": "0.1.0", "git_commit": "cfc7a0ce5a9c"},
    "config_file": "configs/channel_ci.yaml",
    "config": {"run": {"dt": 4e-05, "end_time": 0.05, "thermo_every": 250, "seed": 1},
               "contact": {"model": "mdp", "threshold": 4e-05, "error_reduction": 0.2},
               "statistics": {"interval": 0.002, "average_from": 0.0}},
    "output_directory": "out/ci", "ranks": 2, "decomposition": [2, 1, 1], "restart": None,
    "steps": {"first": 0, "last": 1250, "done": 1250, "planned": 1250, "dt": 4e-05},
    "time": {"start": 0.0, "end": 0.049999999999998636, "end_time": 0.05},
    "wall_seconds": 36.491, "steps_per_second": 34.3,
    "particles": {"initial": 2810, "final": 2875, "generated": 960, "deleted": 895, "lost": 0,
                  "moved_beyond_radius": 0},
    "relaxation": {"sweeps": 11492, "bytes_per_sweep": 5831.25, "unconverged_steps": 1250},
    "timings": {**{k: {"min": v[0], "avg": v[1], "max": v[2]} for k, v in PHASE_TIMES.items()},
                "total": {"avg": 36.0726}},
    "final": {"step": 1250, "time": 0.049999999999998636, "particles": 2876, "contacts": 2148,
              "sweeps": 10, "residual": 0.01538, "max_penetration_m": 4.4619e-07,
              "kinetic_energy_J": 0.01037602, "converged": False},
    "fixes": [{"name": "inflow", "description": "resetting piston (body 4)"},
              {"name": "outflow", "description": "x+"}],
    "statistics": {"samples": 25, "average_from": 0.0, "particles": 2825.2,
                   "solid_fraction_bed": 0.058, "solid_fraction_channel": 0.0526,
                   "contacts": 1323.2, "contacts_per_particle": 0.4674,
                   "max_penetration_m": 1.496e-06, "max_penetration_percent_radius": 0.16,
                   "particle_count_drift": 0.014},
}

failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL: {what}")


def expect_error(call, *words):
    """call() raises GraniteIOError whose message contains every word."""
    try:
        call()
    except granite_io.GraniteIOError as e:
        check(all(w in str(e) for w in words), f"error {str(e)!r} should name {words}")
        return
    check(False, f"no GraniteIOError (expected one naming {words})")


def particles(rng, checkpoint=False):
    """A particle block as Granite writes it: rows in rank order, not id order."""
    rows = {
        "id": np.array([7, 3, 9, 1, 4], dtype=np.int64),
        "position": rng.uniform(0, 0.1, (N, 3)), "velocity": rng.normal(size=(N, 3)),
        "angular_velocity": rng.normal(size=(N, 3)),
        "orientation": np.tile([1.0, 0.0, 0.0, 0.0], (N, 1)),
        "radius": np.full(N, 9.4e-4), "material": np.zeros(N, dtype=np.uint32),
        "owner_rank": np.array([0, 0, 0, 1, 1], dtype=np.int32),
        "group": np.array([0, 1, 1, 2, 0], dtype=np.int32),  # a field the loader does not know
    }
    if checkpoint:
        rows.update(force=rng.normal(size=(N, 3)), torque=rng.normal(size=(N, 3)),
                    mass=np.full(N, 9.1e-6), body_inertia=rng.normal(size=(N, 9)))
    return rows


def write_particle_file(path, file_format, rows, step, extra_attributes):
    with h5py.File(path, "w") as f:
        f.attrs["format"] = file_format
        f.attrs["format_version"] = np.int32(1)
        f.attrs["time"] = step * 4e-5
        f.attrs["step"] = np.int64(step)
        f.attrs["particle_count"] = np.int64(N)
        f.attrs["granite_version"] = "0.1.0"
        f.attrs["git_commit"] = "cfc7a0ce5a9c"
        f.attrs["ranks"] = np.int32(2)
        for key, value in extra_attributes.items():
            f.attrs[key] = value
        group = f.create_group("particles")
        for name, data in rows.items():
            group[name] = data


def write_snapshot(path, rows, step):
    write_particle_file(path, "granite-snapshot", rows, step,
                        {"units": "SI: m, s, kg", "config": "run: {dt: 4.0e-5}\n",
                         "decomposition": np.array([2, 1, 1], dtype=np.int32),
                         "compression": np.int32(0)})


def write_checkpoint(path, rows, step):
    write_particle_file(path, "granite-checkpoint", rows, step, {})
    with h5py.File(path, "a") as f:
        state = f.create_group("state")
        state["rank_counts"] = np.array([3, 2], dtype=np.int64)
        state["global_anchors"] = np.arange(6, dtype=np.float64)
        state["config"] = np.frombuffer("run: {dt: 4.0e-5}\n".encode(), dtype=np.uint8)
        fixes = f.create_group("fixes")
        fixes["inflow"] = np.frombuffer(b"0x1p-3 7 42", dtype=np.uint8)


def script(name, *args):
    """(exit status, stdout, stderr lines) of a script run with this interpreter."""
    path = os.path.join(SOURCE, name)
    done = subprocess.run([sys.executable, path, *args], capture_output=True, text=True)
    return done.returncode, done.stdout, done.stderr.splitlines()


def expect_cli_error(name, args, *words):
    """The script exits 2 with one line "error: ..." naming the words."""
    rc, _, err = script(name, *args)
    ok = (rc == 2 and len(err) == 1 and err[0].startswith("error: ")
          and all(w in err[0] for w in words))
    check(ok, f"{name} {' '.join(args)}: expected exit 2 and one 'error:' line naming {words}, "
              f"got {rc}: {err}")


def snapshot_name(step):
    return f"snapshot_{step:08d}.h5"


def test_snapshots(tmp, rng):
    rows = particles(rng)
    path = os.path.join(tmp, snapshot_name(100))
    write_snapshot(path, rows, 100)
    snap = granite_io.load_snapshot(path)
    check(set(snap) == set(rows), f"snapshot fields {sorted(snap)} != {sorted(rows)}")
    for name, data in rows.items():
        check(np.array_equal(snap[name], data) and snap[name].dtype == data.dtype,
              f"/particles/{name} read back differently")
    check(snap.path == path and snap.step == 100 and snap.time == 100 * 4e-5, "path, step, time")
    check(snap.attrs["format"] == "granite-snapshot" and isinstance(snap.attrs["step"], int)
          and snap.attrs["git_commit"] == "cfc7a0ce5a9c", f"attributes: {snap.attrs}")
    check(list(snap.attrs["decomposition"]) == [2, 1, 1], "decomposition attribute")
    check(snap.state is None, "a snapshot has no state")
    subset = granite_io.load_snapshot(path, fields=["position", "group"], required={"position": 3})
    check(sorted(subset) == ["group", "position"], f"fields= subset: {sorted(subset)}")
    with granite_io.open_particles(path, required={"velocity": 3}) as (attrs, datasets, _):
        check(datasets["velocity"][1:3].shape == (2, 3) and attrs["ranks"] == 2, "open_particles")

    expect_error(lambda: granite_io.load_snapshot(path, required={"position": 4}),
                 path, "/particles/position has shape (5, 3)")
    expect_error(lambda: granite_io.load_snapshot(path, fields=["mass"]),
                 path, "no dataset /particles/mass")
    short = dict(rows, group=rows["group"][:3])
    write_snapshot(os.path.join(tmp, "short.h5"), short, 1)
    expect_error(lambda: granite_io.load_snapshot(os.path.join(tmp, "short.h5")),
                 "damaged Granite snapshot", "/particles/group has 3 rows, /particles/id has 5")
    none = os.path.join(tmp, "none.h5")
    expect_error(lambda: granite_io.load_snapshot(none), "none.h5: no such file")
    expect_error(lambda: granite_io.load_snapshot(tmp), "is a directory")
    with open(os.path.join(tmp, "text.h5"), "w") as f:
        f.write("not hdf5\n")
    expect_error(lambda: granite_io.load_snapshot(os.path.join(tmp, "text.h5")), "not an HDF5 file")
    with h5py.File(os.path.join(tmp, "plain.h5"), "w") as f:
        f["data"] = np.arange(3.0)
    expect_error(lambda: granite_io.load_snapshot(os.path.join(tmp, "plain.h5")),
                 "not a Granite snapshot (no attribute format = 'granite-snapshot')")

    # The series: by step, numerically (steps beyond 8 digits are not padded); .tmp ignored.
    for step in (50, 123456789):
        write_snapshot(os.path.join(tmp, snapshot_name(step)), rows, step)
    open(os.path.join(tmp, "snapshot_00000200.h5.tmp"), "w").close()
    open(os.path.join(tmp, "series.xdmf"), "w").close()
    series = granite_io.snapshot_series(tmp)
    check([s for s, _ in series] == [50, 100, 123456789], f"series steps {series}")
    check(series[1][1] == path, "series paths")
    expect_error(lambda: granite_io.snapshot_series(os.path.join(tmp, "nodir")),
                 "no such directory")

    # Command line: the same file summarised, and its errors.
    rc, out, err = script("scripts/read_snapshot.py", path)
    check(rc == 0 and "particles      5" in out and "step           100" in out,
          f"read_snapshot: {rc} {out} {err}")
    rc, out, _ = script("tests/support/compare_snapshots.py", path, path)
    check(rc == 0 and "identical within 0: 5 particles at step 100" in out,
          f"compare_snapshots: {rc} {out}")
    changed = dict(rows, group=rows["group"] + 1)
    write_snapshot(os.path.join(tmp, "changed.h5"), changed, 100)
    rc, out, _ = script("tests/support/compare_snapshots.py", path, os.path.join(tmp, "changed.h5"))
    check(rc == 1 and "group: max difference 1.000e+00 > 0" in out,
          f"compare_snapshots sees group: {rc} {out}")
    expect_cli_error("scripts/read_snapshot.py", [none], f"{none}: no such file")
    expect_cli_error("scripts/read_snapshot.py", [os.path.join(tmp, "plain.h5")],
                     "plain.h5: not a Granite snapshot")
    expect_cli_error("tests/support/compare_snapshots.py", [path, none], f"{none}: no such file")
    return path


def test_checkpoint(tmp, rng, snapshot_path):
    rows = particles(rng, checkpoint=True)
    path = os.path.join(tmp, "checkpoint.h5")
    write_checkpoint(path, rows, 250)
    cp = granite_io.load_checkpoint(path, required={"body_inertia": 9})
    check(set(cp) == set(rows), f"checkpoint fields {sorted(cp)}")
    check(np.array_equal(cp["body_inertia"], rows["body_inertia"]) and cp.step == 250,
          "checkpoint data")
    check(cp.state["config"] == "run: {dt: 4.0e-5}\n", f"state config {cp.state.get('config')!r}")
    check(cp.fixes == {"inflow": b"0x1p-3 7 42"}, f"fixes as bytes {cp.fixes}")
    check(list(cp.state["rank_counts"]) == [3, 2]
          and cp.state["global_anchors"].dtype == np.float64, "state rank_counts, global_anchors")
    expect_error(lambda: granite_io.load_snapshot(path), path, "not a Granite snapshot")
    expect_error(lambda: granite_io.load_checkpoint(snapshot_path), "not a Granite checkpoint")
    expect_cli_error("scripts/read_snapshot.py", [path], "checkpoint.h5: not a Granite snapshot")


def test_table(tmp):
    path = os.path.join(tmp, "thermo.csv")
    with open(path, "w") as f:
        f.write("step,time_s,particles,contacts\n250,0.01,2810,857\n500,0.02,2807,1159\n")
    table = granite_io.load_table(path, "thermo.csv", ["time_s", "contacts"])
    check(list(table["contacts"]) == [857, 1159] and table.path == path, "thermo.csv columns")
    expect_error(lambda: granite_io.load_table(path, "thermo.csv", ["kinetic_energy_J"]),
                 "not a Granite thermo.csv (no column kinetic_energy_J)")
    with open(path, "w") as f:
        f.write("step,time_s,particles,contacts\n")
    expect_error(lambda: granite_io.load_table(path, "thermo.csv"), "thermo.csv has no samples")
    none = os.path.join(tmp, "none.csv")
    expect_cli_error("scripts/plot_thermo.py", [none, os.path.join(tmp, "t.png")],
                     f"{none}: no such file")


def write_json(path, data):
    with open(path, "w") as f:
        json.dump(data, f, indent=2)
    return path


def expected_record(source):
    """The scaling record of RUN (cluster/README.md), as the log parser made it."""
    return {"format": "granite-scaling-record/1", "source": source, "mode": "strong",
            "config": "configs/channel_ci.yaml", "ranks": 2, "decomposition": "2x1x1",
            "model": "mdp", "dt": 4e-05, "particles_initial": 2810, "particles": 2875,
            "contacts": 2148, "contacts_avg": 1323.2, "total_steps": 1250, "steps": 1250,
            "wall_s": 36.491, "bytes_per_sweep": 5831, "sweeps": 11492,
            "phases": {**{k: {"min": v[0], "avg": v[1], "max": v[2]}
                          for k, v in PHASE_TIMES.items()},
                       "total": {"min": 36.0726, "avg": 36.0726, "max": 36.491}}}


def test_run(tmp):
    run_dir = os.path.join(tmp, "run")
    os.makedirs(run_dir)
    path = write_json(os.path.join(run_dir, "run.json"), RUN)
    check(granite_io.load_run(run_dir) == RUN and granite_io.load_run(path) == RUN, "load_run")
    check(granite_io.run_field(RUN, "steps.last") == 1250, "run_field steps.last")
    check(granite_io.run_field(RUN, "decomposition.0") == 2, "run_field decomposition.0")
    expect_error(lambda: granite_io.run_field(RUN, "steps.lost", path), path, "no field steps.lost")
    expect_error(lambda: granite_io.load_run(tmp), os.path.join(tmp, "run.json"), "no such file")
    wrong = write_json(os.path.join(tmp, "wrong.json"),
                       dict(RUN, format="granite-scaling-record/1"))
    expect_error(lambda: granite_io.load_run(wrong), wrong, "not a Granite run record")
    newer = write_json(os.path.join(tmp, "newer.json"), dict(RUN, format_version=2))
    expect_error(lambda: granite_io.load_run(newer), newer, "format_version 2")
    with open(os.path.join(tmp, "broken.json"), "w") as f:
        f.write('{"format": "granite-run", ')
    expect_error(lambda: granite_io.load_run(os.path.join(tmp, "broken.json")),
                 "broken.json: not JSON")

    # run_info.py: fields one per line; errors as one line, exit status 2.
    rc, out, err = script("scripts/run_info.py", run_dir, "status", "ranks", "steps.last",
                          "decomposition", "restart", "final.converged", "config_file")
    expected = ["completed", "2", "1250", "[2,1,1]", "null", "false", "configs/channel_ci.yaml"]
    check(rc == 0 and out.splitlines() == expected, f"run_info.py: {rc} {out!r} {err}")
    expect_cli_error("scripts/run_info.py", [tmp, "status"], f"{tmp}/run.json: no such file")
    expect_cli_error("scripts/run_info.py", [wrong, "status"], f"{wrong}: not a Granite run record")
    expect_cli_error("scripts/run_info.py", [newer, "status"],
                     f"{newer}: run record format_version 2")
    expect_cli_error("scripts/run_info.py", [run_dir, "steps.lost"], f"{path}: no field steps.lost")

    # scaling_collect.py record: the record the log parser made, from run.json.
    out_json = os.path.join(tmp, "record.json")
    rc, _, err = script("scripts/scaling_collect.py", "record", run_dir, "--mode", "strong",
                        "--out", out_json)
    record = json.load(open(out_json)) if rc == 0 else None
    check(record == expected_record(path),
          f"scaling record: {rc} {err}\n{record}\n!= {expected_record(path)}")
    stopped = copy.deepcopy(RUN)
    stopped.update(status="stopped",
                   restart={"from": "out/ci/checkpoint.h5", "step": 250, "time": 0.01})
    stopped["steps"].update(first=250, last=750, done=500)
    stopped_path = write_json(os.path.join(tmp, "stopped.json"), stopped)
    rc, out, err = script("scripts/scaling_collect.py", "record", stopped_path)
    record = json.loads(out) if rc == 0 else {}
    check(record.get("stopped_at_step") == 750 and record.get("restarted_at_step") == 250
          and record.get("steps") == 500 and record.get("mode") is None,
          f"stopped record: {rc} {err} {record}")
    rc, out, err = script("scripts/scaling_collect.py", "report", run_dir, "--no-plot",
                          "--out", os.path.join(tmp, "scaling"))
    check(rc == 0 and "2x1x1" in out and os.path.exists(os.path.join(tmp, "scaling.csv")),
          f"report from run.json: {rc} {out} {err}")
    running = write_json(os.path.join(tmp, "running.json"), dict(RUN, status="running"))
    expect_cli_error("scripts/scaling_collect.py", ["record", running], running, "did not finish")
    expect_cli_error("scripts/scaling_collect.py", ["record", tmp], f"{tmp}/run.json: no such file")
    expect_cli_error("scripts/scaling_collect.py", ["record", wrong],
                     f"{wrong}: not a Granite run record")


def main():
    rng = np.random.default_rng(1)
    with tempfile.TemporaryDirectory() as tmp:
        snapshot_path = test_snapshots(tmp, rng)
        test_checkpoint(tmp, rng, snapshot_path)
        test_table(tmp)
        test_run(tmp)
    if failures:
        print(f"{len(failures)} granite_io check(s) failed")
        return 1
    print("all granite_io checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
