"""Readers of Granite's output files, shared by every script (stdlib, numpy and h5py only).

  load_snapshot(path)    snapshot_<step>.h5: the /particles datasets and the root attributes
  load_checkpoint(path)  checkpoint.h5: the same, plus the /state and /fixes datasets
  open_particles(path)   the validated HDF5 datasets, for reading huge files in blocks
  load_contacts(path)    a snapshot's /contacts group (output.contacts: true): {name: array}
  snapshot_series(dir)   [(step, path), ...] of the snapshot_<step>.h5 files, by step
  load_table(path, ...)  thermo.csv, statistics.csv: {column: array}
  load_run(dir_or_path)  OUTPUT/run.json, the machine-readable record of a run (a dict)
  run_field(run, key)    one field of it by dotted key ("steps.last", "decomposition.0")

The particle fields are read from the file, not from a list kept here: a caller names only the
fields it needs (`required`, with their column counts). Every problem with a file raises
GraniteIOError("<file>: <what>"); command-line scripts print it with print_error(), one line
"error: <file>: <what>" on stderr, and exit with status 2. h5py and numpy are imported only by
the functions that need them, so run records can be read where they are not installed.
"""
import contextlib
import json
import os
import re
import sys
import warnings

SNAPSHOT_FORMAT = "granite-snapshot"
CHECKPOINT_FORMAT = "granite-checkpoint"
RUN_FORMAT = "granite-run"
RUN_FORMAT_VERSION = 1
RUN_FILE = "run.json"
SNAPSHOT_NAME = re.compile(r"^snapshot_(\d+)\.h5$")
KIND = {SNAPSHOT_FORMAT: "snapshot", CHECKPOINT_FORMAT: "checkpoint"}


class GraniteIOError(Exception):
    """A problem with an input file, as one line "<file>: <what>"."""


def print_error(error):
    """Prints `error` as the one line "error: ..." on stderr; returns the exit status 2."""
    print(f"error: {error}", file=sys.stderr)
    return 2


def _modules():
    """(h5py, numpy), or a GraniteIOError saying which is missing."""
    try:
        import h5py
        import numpy
    except ImportError as missing:
        raise GraniteIOError(f"{missing.name} is not installed "
                             "(Debian: apt-get install python3-h5py)") from None
    return h5py, numpy


def _check_file(path, expected):
    if not os.path.exists(path):
        raise GraniteIOError(f"{path}: no such file")
    if os.path.isdir(path):
        raise GraniteIOError(f"{path}: is a directory, expected {expected}")


def _value(value, numpy):
    """An HDF5 attribute as a Python value: str, int, float, or a numpy array."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    if isinstance(value, numpy.generic):
        return value.item()
    return value


def _check_rows(path, kind, datasets, required):
    """Every dataset has one row per particle; `required` {name: columns} are there and have
    that many columns (1: a one-dimensional dataset)."""
    damaged = f"{path}: damaged Granite {kind}"
    for name, columns in {"id": 1, **required}.items():
        dataset = datasets.get(name)
        if dataset is None:
            raise GraniteIOError(f"{damaged} (no dataset /particles/{name})")
        if not (dataset.ndim == 1 if columns == 1 else
                dataset.ndim == 2 and dataset.shape[1] == columns):
            raise GraniteIOError(f"{damaged} (/particles/{name} has shape {dataset.shape})")
    rows = datasets["id"].shape[0]
    for name, dataset in datasets.items():
        if dataset.ndim == 0:
            raise GraniteIOError(f"{damaged} (/particles/{name} has shape {dataset.shape})")
        if dataset.shape[0] != rows:
            raise GraniteIOError(f"{damaged} (/particles/{name} has {dataset.shape[0]} rows, "
                                 f"/particles/id has {rows})")


@contextlib.contextmanager
def open_particles(path, file_format=SNAPSHOT_FORMAT, required=None):
    """Opens a snapshot (or, with CHECKPOINT_FORMAT, a checkpoint) and yields
    (attributes, datasets, handle): the root attributes as Python values, {name: h5py dataset}
    of /particles (checked as in _check_rows), and the open h5py file."""
    h5py, numpy = _modules()
    kind = KIND[file_format]
    _check_file(path, f"a {kind} .h5 file")
    try:
        handle = h5py.File(path, "r")
    except OSError:
        raise GraniteIOError(f"{path}: not an HDF5 file") from None
    with handle:
        attributes = {key: _value(value, numpy) for key, value in handle.attrs.items()}
        if attributes.get("format") != file_format:
            raise GraniteIOError(f"{path}: not a Granite {kind} "
                                 f"(no attribute format = '{file_format}')")
        group = handle.get("particles")
        if not isinstance(group, h5py.Group):
            raise GraniteIOError(f"{path}: not a Granite {kind} (no group /particles)")
        datasets = {name: item for name, item in group.items() if isinstance(item, h5py.Dataset)}
        _check_rows(path, kind, datasets, required or {})
        yield attributes, datasets, handle


def _read(path, kind, name, dataset):
    try:
        return dataset[...]
    except OSError as e:  # e.g. a chunk whose checksum does not match
        raise GraniteIOError(f"{path}: damaged Granite {kind} (cannot read {name}: "
                             f"{str(e).splitlines()[0]})") from None


class ParticleFile(dict):
    """{name: numpy array} of the /particles datasets (rows in file order, i.e. rank order:
    use "id" to identify particles), with the file's `path`, its root `attrs` (str, int,
    float or numpy array), `time` and `step`; `state` holds a checkpoint's /state datasets
    (uint8 data as bytes, "config" as text) and `fixes` the restart state of its end-of-step
    objects ({name: bytes} from /fixes); both are None for a snapshot."""

    def __init__(self, path, attrs, arrays, state=None, fixes=None):
        super().__init__(arrays)
        self.path = path
        self.attrs = attrs
        self.state = state
        self.fixes = fixes

    @property
    def time(self):
        return float(self.attrs.get("time", float("nan")))

    @property
    def step(self):
        return int(self.attrs.get("step", -1))


def _load(path, file_format, fields, required):
    kind = KIND[file_format]
    with open_particles(path, file_format, required) as (attributes, datasets, handle):
        names = datasets if fields is None else fields
        missing = [name for name in names if name not in datasets]
        if missing:
            raise GraniteIOError(f"{path}: damaged Granite {kind} "
                                 f"(no dataset /particles/{missing[0]})")
        arrays = {name: _read(path, kind, f"/particles/{name}", datasets[name]) for name in names}
        state = fixes = None
        if file_format == CHECKPOINT_FORMAT:
            state = _load_state(path, handle)
            fixes = _load_group(path, handle, "fixes")
    return ParticleFile(path, attributes, arrays, state, fixes)


def _load_group(path, handle, name):
    """{dataset name: data} of a checkpoint group (uint8 data as bytes)."""
    h5py, numpy = _modules()
    group = handle.get(name)
    if not isinstance(group, h5py.Group):
        raise GraniteIOError(f"{path}: damaged Granite checkpoint (no group /{name})")
    out = {}
    for key, item in group.items():
        if isinstance(item, h5py.Dataset):
            data = _read(path, "checkpoint", f"/{name}/{key}", item)
            out[key] = data.tobytes() if data.dtype == numpy.uint8 else data
    return out


def _load_state(path, handle):
    state = _load_group(path, handle, "state")
    if isinstance(state.get("config"), bytes):
        state["config"] = state["config"].decode("utf-8", "replace")
    return state


def load_snapshot(path, fields=None, required=None):
    """A snapshot as a ParticleFile: every /particles dataset, or only `fields`; `required`
    {name: columns} checks the shapes of the fields the caller relies on."""
    return _load(path, SNAPSHOT_FORMAT, fields, required)


def load_checkpoint(path, fields=None, required=None):
    """A checkpoint as a ParticleFile, with its /state datasets in `state`."""
    return _load(path, CHECKPOINT_FORMAT, fields, required)


CONTACT_DATASETS = {"body1": 1, "body2": 1, "point1": 3, "point2": 3, "normal": 3,
                    "impulse": 3, "force": 3, "gap": 1}


class ContactFile(dict):
    """{name: numpy array} of a snapshot's /contacts datasets (one row per contact of the
    snapshot's step; see docs/output.md), with `path`, `dt` and the file's root `attrs`."""

    def __init__(self, path, attrs, arrays, dt):
        super().__init__(arrays)
        self.path = path
        self.attrs = attrs
        self.dt = dt


def load_contacts(path):
    """A snapshot's /contacts group as a ContactFile. A snapshot written without
    output.contacts: true raises GraniteIOError saying so."""
    with open_particles(path) as (attributes, _, handle):
        h5py, numpy = _modules()
        group = handle.get("contacts")
        if not isinstance(group, h5py.Group):
            raise GraniteIOError(f"{path}: no /contacts group (run with output.contacts: true)")
        damaged = f"{path}: damaged Granite snapshot"
        arrays = {}
        for name, columns in CONTACT_DATASETS.items():
            dataset = group.get(name)
            if not isinstance(dataset, h5py.Dataset):
                raise GraniteIOError(f"{damaged} (no dataset /contacts/{name})")
            if not (dataset.ndim == 1 if columns == 1 else
                    dataset.ndim == 2 and dataset.shape[1] == columns):
                raise GraniteIOError(f"{damaged} (/contacts/{name} has shape {dataset.shape})")
            arrays[name] = _read(path, "snapshot", f"/contacts/{name}", dataset)
        rows = {len(a) for a in arrays.values()}
        if len(rows) != 1:
            raise GraniteIOError(f"{damaged} (/contacts datasets differ in length)")
        dt = float(_value(group.attrs.get("dt", float("nan")), numpy))
    return ContactFile(path, attributes, arrays, dt)


def snapshot_series(directory):
    """[(step, path), ...] of the snapshot_<step>.h5 files in `directory`, ordered by step
    (numerically: steps beyond 8 digits are not zero-padded)."""
    try:
        names = os.listdir(directory)
    except FileNotFoundError:
        raise GraniteIOError(f"{directory}: no such directory") from None
    except NotADirectoryError:
        raise GraniteIOError(f"{directory}: not a directory") from None
    except OSError as e:
        raise GraniteIOError(f"{directory}: {e.strerror}") from None
    return sorted((int(m[1]), os.path.join(directory, name))
                  for name in names if (m := SNAPSHOT_NAME.match(name)))


class Table(dict):
    """{column: numpy array} of a Granite CSV table, with its `path`."""

    def __init__(self, path, columns):
        super().__init__(columns)
        self.path = path


def load_table(path, kind, required=()):
    """A CSV table written by Granite (thermo.csv, statistics.csv: a header line, then rows of
    numbers); `kind` names the file in messages, `required` the columns that must be there."""
    _, numpy = _modules()
    _check_file(path, f"a Granite {kind}")
    try:
        with open(path, encoding="utf-8") as f:
            header = f.readline().strip().split(",")
            missing = [c for c in required if c not in header]
            if missing:
                raise GraniteIOError(f"{path}: not a Granite {kind} (no column {missing[0]})")
            with warnings.catch_warnings():  # no rows: reported below, not as a warning
                warnings.simplefilter("ignore", UserWarning)
                rows = numpy.loadtxt(f, delimiter=",", ndmin=2)
    except ValueError as e:  # also UnicodeDecodeError
        raise GraniteIOError(f"{path}: not a Granite {kind} ({str(e).splitlines()[0]})") from None
    except OSError as e:
        raise GraniteIOError(f"{path}: {e.strerror or e}") from None
    if rows.shape[0] == 0:
        raise GraniteIOError(f"{path}: {kind} has no samples")
    if rows.shape[1] != len(header):
        raise GraniteIOError(f"{path}: not a Granite {kind} "
                             f"({rows.shape[1]} values, {len(header)} columns)")
    return Table(path, {name: rows[:, i] for i, name in enumerate(header)})


def run_json_path(dir_or_path):
    """OUTPUT/run.json for a run's output directory; a file path as it is."""
    return os.path.join(dir_or_path, RUN_FILE) if os.path.isdir(dir_or_path) else dir_or_path


def load_run(dir_or_path):
    """The run record (a dict) of a run's output directory or of a run.json file."""
    path = run_json_path(dir_or_path)
    _check_file(path, "a run.json file")
    try:
        with open(path, encoding="utf-8") as f:
            run = json.load(f)
    except ValueError as e:  # also UnicodeDecodeError
        raise GraniteIOError(f"{path}: not JSON ({str(e).splitlines()[0]})") from None
    except OSError as e:
        raise GraniteIOError(f"{path}: {e.strerror or e}") from None
    if not isinstance(run, dict) or run.get("format") != RUN_FORMAT:
        raise GraniteIOError(f"{path}: not a Granite run record (no format = '{RUN_FORMAT}')")
    version = run.get("format_version")
    if isinstance(version, bool) or version != RUN_FORMAT_VERSION:
        raise GraniteIOError(f"{path}: run record format_version {json.dumps(version)}, "
                             f"this reader knows {RUN_FORMAT_VERSION}")
    return run


def run_field(run, key, path=RUN_FILE):
    """The value at dotted `key` of a run record ("steps.last", "decomposition.0");
    GraniteIOError naming `path` if it is not there."""
    value = run
    for part in key.split("."):
        if isinstance(value, dict) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            raise GraniteIOError(f"{path}: no field {key}")
    return value
