#!/usr/bin/python3
"""Fuzzing of Granite's inputs (ctest: fuzz_inputs).

Mutates the shipped configurations (configs/*.yaml), `--set` overrides, `granite contact` JSON
Lines, the FCLIB test problems (tests/data/fclib/problems/*.hdf5) and the mesh files of mesh walls
(configs/meshes/: binary and ASCII STL, and an OBJ made from them) a few hundred ways with a
fixed seed, runs the matching command on each and checks that it ends with exit code 0, or 2
with exactly one line on stderr starting with "error: " -- never a signal, another exit code,
a stray line or a hang. Prints one summary line (cases per family, exit-code histogram) and
every failure with the input that caused it (kept under --keep DIR if given).

usage: fuzz_inputs.py GRANITE_BINARY SOURCE_DIR [--seed N] [--cases N] [--keep DIR]
"""
import argparse
import collections
import copy
import glob
import os
import random
import shutil
import subprocess
import sys
import tempfile

import yaml

TIMEOUT = 10.0  # s per run; the inputs are small, so anything longer is a hang

# Values that a mutation puts where a number, string, list or map is expected.
BAD_VALUES = [
    float("nan"), float("inf"), -float("inf"), 1e308, -1e308, 1e-320, 0, 0.0, -0.0, -1, -1e-300,
    2**31, 2**31 - 1, -2**31 - 1, 2**63, 2**64, -2**63 - 1, 10**30, "", "x", "glass", "nan",
    "1e999", "-", True, False, None, [], {}, [0], [1, 2], [1, 2, 3, 4], ["a", "b", "c"],
    [float("nan"), 0, 0], [1e308, 1e308, 1e308], [[1, 2, 3]], {"a": 1}, {"x": [1, 2, 3]},
    "x" * 100000, [0] * 1000,
]

# `--set` values as text: YAML fragments, valid and not.
BAD_SET_VALUES = [
    "", "0", "-1", "1e999", ".nan", ".inf", "-.inf", "nan", "1e-320", "18446744073709551616",
    "99999999999999999999999", "[", "]", "{", "}", "[1, 2", "{a: 1", "*a", "&a", "&a [*a]",
    "!!int abc", "!!float x", "!!binary ~~~", "!!map [1]", "? a", "a: b: c", "{a: 1, a: 2}",
    "[1, 2, 3]", "[.nan, 0, 0]", "{}", "[]", "~", "null", "true", "'quoted'", "\"\\x00\"",
    "- a\n- b", "x" * 100000, "[" * 5000, "{a: " * 3000, "\x01\x02", "\xff\xfe", "coulomb", "mdp", "glass", "0x10",
    "1_000",
]

BAD_SET_KEYS = [
    "", ".", "..", "a..b", "[0]", "run.", ".run", "run..dt", "run.dt.x", "run[0]", "run.0",
    "materials[999].friction", "materials.-1.friction", "materials[18446744073709551616].name",
    "materials[99999999999999999999999].name", "materials[0][0]", "materials[].name",
    "materials[0.5].name", "particles[0].position[3]", "particles[0].position[0].x", "[0][0]",
    "nonsense", "nonsense.deeper.still", "x" * 10000, "domain.min[0]", "gravity[2]",
    "gravity[-1]", "bodies[1].parts[0].radius", "materials[0]", "materials",
]

CONTACT_LINES = [
    '{"A": [[2,0,0],[0,2,0],[0,0,2]], "b": [1, 0, 0], "mu": 0.5}',
    '{"A": [[2,0,0],[0,2,0],[0,0,2]], "b": [-1, 0.3, 0.1], "mu": 0.5}',
    '{"A": [[1e308,0,0],[0,1e308,0],[0,0,1e308]], "b": [1e308, -1e308, 1e308], "mu": 1e308}',
    '{"A": [[1e-308,0,0],[0,1e-308,0],[0,0,1e-308]], "b": [-1, 1, 1], "mu": 0.5}',
    '{"A": [[4.9e-324,0,0],[0,4.9e-324,0],[0,0,4.9e-324]], "b": [-1e308, 1e308, 0], "mu": 1e308}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [-1e300, 1e300, -1e300], "mu": 1e-300}',
    '{"A": [[2,1,0],[1,2,0],[0,0,2]], "b": [-1, 1, 0], "mu": 0}',
    '{"A": 1}', '{}', '[]', '1', '"x"', 'null', '{"A": [[1,2,3]], "b": [1], "mu": 1}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2], "mu": 1}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": -1}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": "0.5"}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": NaN}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": 1e999}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": 18446744073709551616}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": -18446744073709551617}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": 0.5, "c": 1}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": 0.5, "mu": 0.7}',
    '{"A": [[0,0,0],[0,0,0],[0,0,0]], "b": [1, 2, 3], "mu": 0.5}',
    '{"A": [[-1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": 0.5}',
    '{"A": [[1,5,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": 0.5}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [true, null, {}], "mu": 0.5}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": [0.5]}',
    '{"A": ' + '[' * 10000 + ']' * 10000 + '}', '[' * 100000, '{"A": "' + 'x' * 1000000 + '"}',
    # Issue 23: a deeply nested value where a number is expected (printing it recursed).
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 0, 0], "mu": ' + '[' * 100000 + ']' * 100000 + '}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 0, 0], "mu": ' + '{"a":' * 50000 + '1' + '}' * 50000 + '}',
    '\x00\x01\x02', '\xff\xfe', '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": 0.5',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": 0.5}}', '{"\\ud800": 1}',
    '{"A": [[1,0,0],[0,1,0],[0,0,1]], "b": [1, 2, 3], "mu": 0.5} {"x": 1}', '   ', '',
]


def paths_of(node, prefix=()):
    """Every (path, value) of a parsed YAML document, maps and lists included."""
    yield prefix, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths_of(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths_of(value, prefix + (index,))


def parent_of(doc, path):
    for key in path[:-1]:
        doc = doc[key]
    return doc


def set_path(doc, path, value):
    parent_of(doc, path)[path[-1]] = value


def dump(doc):
    return yaml.safe_dump(doc, default_flow_style=None, sort_keys=False, width=1000)


def structural_mutation(rng, text):
    """Deletes a key or list entry, or puts a bad value somewhere; returns (description, text)."""
    doc = yaml.safe_load(text)
    paths = [p for p, _ in paths_of(doc) if p]
    path = rng.choice(paths)
    kind = rng.choice(["delete", "value", "value", "value", "section"])
    if kind == "delete":
        parent = parent_of(doc, path)
        del parent[path[-1]]
        return f"delete {path}", dump(doc)
    if kind == "section":
        path = (rng.choice(list(doc)),)
    value = copy.deepcopy(rng.choice(BAD_VALUES))
    set_path(doc, path, value)
    shown = repr(value) if len(repr(value)) < 40 else repr(value)[:40] + "..."
    return f"{path} = {shown}", dump(doc)


def textual_mutation(rng, text):
    """Byte- and line-level damage that a structural mutation cannot produce."""
    lines = text.splitlines(keepends=True)
    keyed = [i for i, line in enumerate(lines) if ":" in line and not line.lstrip().startswith("#")]
    kind = rng.choice(["duplicate line", "duplicate flow key", "truncate", "junk bytes", "nul",
                       "anchor", "alias bomb", "undefined alias", "deep nesting", "long key",
                       "long value", "tab indent", "second document", "swap lines", "bom"])
    if kind == "duplicate line":
        i = rng.choice(keyed)
        return f"{kind} {i + 1}", "".join(lines[:i + 1] + [lines[i]] + lines[i + 1:])
    if kind == "duplicate flow key":
        return kind, text.replace("{name: ", "{name: dup, name: ", 1)
    if kind == "truncate":
        cut = rng.randrange(len(text))
        return f"{kind} at {cut}", text[:cut]
    if kind == "junk bytes":
        at = rng.randrange(len(text))
        junk = "".join(chr(rng.randrange(1, 256)) for _ in range(rng.randrange(1, 20)))
        return f"{kind} at {at}", text[:at] + junk + text[at:]
    if kind == "nul":
        at = rng.randrange(len(text))
        return f"{kind} at {at}", text[:at] + "\x00" + text[at:]
    if kind == "anchor":
        # A section given by an anchor and an alias.
        doc_text = text.replace("materials:", "materials: &m", 1)
        return kind, doc_text + "extra: *m\n"
    if kind == "alias bomb":
        bomb = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]\n"
            for i in range(1, 12))
        return kind, bomb + text
    if kind == "undefined alias":
        return kind, text.replace("material: glass", "material: *nothing", 1) + "run: *nothing\n"
    if kind == "deep nesting":
        depth = rng.choice([100, 1000, 5000])
        return f"{kind} {depth}", text + "deep: " + "[" * depth + "]" * depth + "\n"
    if kind == "long key":
        return kind, text + "k" * 200000 + ": 1\n"
    if kind == "long value":
        return kind, text.replace("name: glass", "name: " + "g" * 200000, 1)
    if kind == "tab indent":
        i = rng.choice(keyed)
        return f"{kind} {i + 1}", "".join(lines[:i] + ["\t" + lines[i]] + lines[i + 1:])
    if kind == "second document":
        return kind, text + "---\nrun: {dt: -1}\n"
    if kind == "swap lines":
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return f"{kind} {i + 1} {j + 1}", "".join(lines)
    return kind, "\ufeff" + text


class Runner:
    def __init__(self, granite, keep):
        self.granite = granite
        self.keep = keep
        self.counts = collections.Counter()
        self.exits = collections.Counter()
        self.failures = []

    def run(self, family, description, args, stdin=b"", inputs=()):
        self.counts[family] += 1
        try:
            done = subprocess.run([self.granite] + args, input=stdin, capture_output=True,
                                  timeout=TIMEOUT)
            code, err = done.returncode, done.stderr.decode("utf-8", "replace")
        except subprocess.TimeoutExpired:
            code, err = "timeout", ""
        self.exits[code] += 1
        lines = err[:-1].split("\n") if err.endswith("\n") else err.split("\n") if err else []
        problem = None
        if code == "timeout":
            problem = f"no exit within {TIMEOUT:g} s"
        elif code < 0:
            problem = f"killed by signal {-code}"
        elif code == 2:
            if len(lines) != 1 or not lines[0].startswith("error: "):
                problem = f"exit 2 with {len(lines)} stderr line(s)"
        elif code == 0:
            if lines:
                problem = f"exit 0 with {len(lines)} stderr line(s)"
        else:
            problem = f"exit {code}"
        if problem:
            kept = self.keep_inputs(family, inputs, stdin)
            shown = " | ".join(line[:200] for line in lines[:3])
            self.failures.append(f"{family}: {description}: {problem}: {shown}{kept}")

    def keep_inputs(self, family, inputs, stdin):
        if not self.keep:
            return ""
        target = os.path.join(self.keep, f"{family}_{self.counts[family]}")
        os.makedirs(target, exist_ok=True)
        for path in inputs:
            shutil.copy(path, target)
        if stdin:
            with open(os.path.join(target, "stdin"), "wb") as f:
                f.write(stdin)
        return f" (kept in {target})"


def fuzz_configs(rng, runner, configs, tmp, cases):
    for case in range(cases):
        source = rng.choice(configs)
        with open(source, encoding="utf-8") as f:
            text = f.read()
        mutate = structural_mutation if case % 2 == 0 else textual_mutation
        description, mutated = mutate(rng, text)
        path = os.path.join(tmp, f"config_{case}.yaml")
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(mutated)
        runner.run("config", f"{os.path.basename(source)}: {description}", ["check", path],
                   inputs=[path])


def fuzz_overrides(rng, runner, configs, cases):
    for case in range(cases):
        source = rng.choice(configs)
        with open(source, encoding="utf-8") as f:
            doc = yaml.safe_load(f)
        sets = []
        for _ in range(rng.choice([1, 1, 2, 3])):
            if rng.random() < 0.6:
                path = rng.choice([p for p, _ in paths_of(doc) if p])
                key = ""
                for part in path:
                    key += f"[{part}]" if isinstance(part, int) else ("." if key else "") + part
                if rng.random() < 0.3:
                    key += rng.choice([".x", "[0]", "[7]", ".0", "[", "]"])
            else:
                key = rng.choice(BAD_SET_KEYS)
            value = rng.choice(BAD_SET_VALUES + [yaml.safe_dump(v, default_flow_style=True).strip()
                                                 for v in BAD_VALUES[:30]])
            sets += ["--set", f"{key}={value}"]
        shown = " ".join(s[:60] for s in sets)
        runner.run("set", f"{os.path.basename(source)} {shown}", ["check", source] + sets)


def fuzz_contact(rng, runner, cases):
    for case in range(cases):
        lines = [rng.choice(CONTACT_LINES) for _ in range(rng.choice([1, 1, 2, 5]))]
        if rng.random() < 0.3:  # damage one line
            i = rng.randrange(len(lines))
            line = lines[i]
            at = rng.randrange(len(line) + 1)
            lines[i] = line[:at] + rng.choice(["", "x", ",", "]", "[", "\x00", "1e999", "-"]) + \
                line[at + rng.randrange(3):]
        model = rng.choice(["mdp", "mdp", "coulomb", "coulomb_all_solutions", "mdp_golden"])
        stdin = "\n".join(lines).encode("utf-8", "surrogateescape") + b"\n"
        args = ["contact", "--model", model]
        runner.run("contact", f"{model}: {lines[0][:80]!r} ... ({len(lines)} lines)", args,
                   stdin=stdin)


def corrupt(rng, data):
    kind = rng.choice(["truncate", "flip", "flip", "zero block", "random block"])
    data = bytearray(data)
    if kind == "truncate":
        cut = rng.randrange(len(data))
        return f"{kind} at {cut}", bytes(data[:cut])
    if kind == "flip":
        count = rng.choice([1, 4, 32])
        # Most of an HDF5 file's metadata sits in its first few kilobytes.
        limit = len(data) if rng.random() < 0.5 else min(len(data), 4096)
        positions = [rng.randrange(limit) for _ in range(count)]
        for p in positions:
            data[p] ^= 1 << rng.randrange(8)
        return f"flip {count} bits at {positions[:4]}", bytes(data)
    at = rng.randrange(len(data))
    size = rng.choice([8, 64, 512])
    fill = bytes(size) if kind == "zero block" else bytes(rng.randrange(256) for _ in range(size))
    data[at:at + size] = fill[:len(data) - at]
    return f"{kind} of {size} at {at}", bytes(data)


def fuzz_fclib(rng, runner, problems, tmp, cases):
    for case in range(cases):
        source = rng.choice(problems)
        with open(source, "rb") as f:
            description, data = corrupt(rng, f.read())
        path = os.path.join(tmp, os.path.basename(source))
        with open(path, "wb") as f:
            f.write(data)
        runner.run("fclib", f"{os.path.basename(source)}: {description}",
                   ["fclib", "solve", path, "--max-sweeps", "20"], inputs=[path])
        os.remove(path)


# Issue 23: statistics regions and column widths against the domain (region_min > region_max,
# a region of +-1e300 crashed), YAML nesting depth, and FCLIB files whose declared sizes
# exceed what they store.
REGION_VALUES = ["[-1e300, -1e300, -1e300]", "[1e300, 1e300, 1e300]", "[0.1, 0.03, 0.01]",
                 "[0, 0, 0]", "[0.15, 0.065, 0.02]", "[.nan, 0, 0]", "[-1, -1, -1]", "[1, 1, 1]"]


def fuzz_regions(rng, runner, configs, cases):
    channel = [c for c in configs if "channel" in os.path.basename(c)] or configs
    for case in range(cases):
        source = rng.choice(channel)
        sets = ["--set", f"statistics.region_min={rng.choice(REGION_VALUES)}",
                "--set", f"statistics.region_max={rng.choice(REGION_VALUES)}"]
        if rng.random() < 0.5:
            sets += ["--set", f"statistics.column_width={rng.choice(['1e-300', '1e-9', '1e300', '0.01'])}"]
        if rng.random() < 0.2:
            sets += ["--set", "statistics.region_min=" + "[" * rng.choice([100, 5000]) + "0"]
        runner.run("region", f"{os.path.basename(source)} {' '.join(sets)[:200]}",
                   ["check", source] + sets)


def fuzz_fclib_sizes(rng, runner, problems, tmp, cases):
    import h5py
    import numpy as np
    for case in range(cases):
        source = rng.choice(problems)
        path = os.path.join(tmp, f"sizes_{case}.hdf5")
        shutil.copy(source, path)
        with h5py.File(path, "r+") as f:
            group = "fclib_local" if "fclib_local" in f else "fclib_global"
            matrices = [f"{group}/{m}" for m in ("W", "M", "H", "R") if f"{group}/{m}" in f]
            vectors = [f"{group}/vectors/{v}" for v in ("q", "f", "w", "mu")
                       if f"{group}/vectors/{v}" in f]
            kind = rng.choice(["matrix size", "matrix size", "vector extent"])
            if kind == "matrix size":
                name = f"{rng.choice(matrices)}/{rng.choice(['m', 'n', 'nz'])}"
                value = rng.choice([2**30, 2**31 - 1, -1, 0])
                del f[name]
                f[name] = np.array([value], dtype=np.int32)
            else:  # declared but never written: a few bytes in the file
                name = rng.choice(vectors)
                value = rng.choice([2**30, 2**33])
                del f[name]
                f.create_dataset(name, shape=(value,), dtype="f8", chunks=(1024,))
        runner.run("fclib size", f"{os.path.basename(source)}: {name} = {value}",
                   ["fclib", "solve", path, "--max-sweeps", "20"], inputs=[path])
        os.remove(path)


# Issue 40: mesh walls from damaged STL and OBJ files. A one-sphere scene whose floor is the
# damaged mesh, checked (`granite check` builds the mesh) or run for two steps.
MESH_SCENE = """run: {{dt: 1.0e-4, end_time: 2.0e-4, seed: 1}}
domain: {{min: [-0.1, -0.1, -0.1], max: [0.1, 0.1, 0.2]}}
materials: [{{name: glass, density: 2500, friction: 0.5}}]
bodies:
  - {{type: mesh, file: {path}, scale: {scale}, material: glass}}
particles:
  - {{type: sphere, position: [0, 0, 0.05], radius: 0.001, material: glass}}
output: {{snapshot_initial: false}}
"""


def binary_mutation(rng, data):
    """Damage to a binary STL: its size, its declared count, its coordinates."""
    import struct
    count = struct.unpack_from("<I", data, 80)[0]
    kind = rng.choice(["truncate", "count", "coordinate", "flip bytes", "degenerate"])
    if kind == "truncate":
        cut = rng.randrange(len(data))
        return f"{kind} at {cut}", data[:cut]
    if kind == "count":
        value = rng.choice([0, 1, count - 1, count + 1, 2**31, 2**32 - 1])
        return f"count {value}", data[:80] + struct.pack("<I", value) + data[84:]
    if kind == "coordinate":
        at = 84 + 50 * rng.randrange(count) + 12 + 4 * rng.randrange(9)
        value = rng.choice([float("nan"), float("inf"), -float("inf"), 3e38, 1e-45, 0.0])
        return f"coordinate {value} at {at}", data[:at] + struct.pack("<f", value) + data[at + 4:]
    if kind == "flip bytes":
        out = bytearray(data)
        for _ in range(rng.randrange(1, 30)):
            out[rng.randrange(len(out))] = rng.randrange(256)
        return kind, bytes(out)
    # every facet the same point: nothing of non-zero area
    first = data[84 + 12:84 + 24]
    facets = b"".join(b"\0" * 12 + first * 3 + b"\0\0" for _ in range(count))
    return kind, data[:84] + facets


def mesh_text_mutation(rng, text):
    """Damage to an ASCII STL or an OBJ: lines lost, repeated or changed, bad numbers."""
    lines = text.splitlines(keepends=True)
    i = rng.randrange(len(lines))
    kind = rng.choice(["drop line", "repeat line", "bad token", "truncate", "bad index"])
    if kind == "drop line":
        return f"{kind} {i + 1}", "".join(lines[:i] + lines[i + 1:])
    if kind == "repeat line":
        return f"{kind} {i + 1}", "".join(lines[:i + 1] + lines[i:])
    if kind == "truncate":
        cut = rng.randrange(len(text))
        return f"{kind} at {cut}", text[:cut]
    words = lines[i].split()
    if not words:
        return "unchanged", text
    if kind == "bad index" and lines[i].startswith("f "):
        words[rng.randrange(1, len(words))] = rng.choice(["0", "-999", "99999999999", "1/", "x"])
    else:
        words[rng.randrange(len(words))] = rng.choice(
            ["nan", "inf", "-inf", "1e999", "", "x", "vertex", "endsolid", "facet", "1e-320"])
    lines[i] = " ".join(words) + "\n"
    return f"{kind} on line {i + 1}", "".join(lines)


def obj_of_ascii_stl(text):
    """The facets of an ASCII STL as an OBJ (one vertex line per corner)."""
    corners = [line.split()[1:4] for line in text.splitlines() if line.strip().startswith("vertex")]
    out = ["v " + " ".join(c) for c in corners]
    out += [f"f {k + 1} {k + 2} {k + 3}" for k in range(0, len(corners) - 2, 3)]
    return "\n".join(out) + "\n"


def fuzz_meshes(rng, runner, source, tmp, cases):
    meshes = os.path.join(source, "configs", "meshes")
    binary = open(os.path.join(meshes, "hopper.stl"), "rb").read()  # mm: scale 0.001
    ascii_stl = open(os.path.join(meshes, "grain.stl"), encoding="utf-8").read()  # mm
    obj = obj_of_ascii_stl(ascii_stl)
    for case in range(cases):
        kind = rng.choice(["binary", "binary", "ascii", "obj"])
        if kind == "binary":
            description, data = binary_mutation(rng, binary)
            path = os.path.join(tmp, f"mesh_{case}.stl")
        else:
            description, text = mesh_text_mutation(rng, ascii_stl if kind == "ascii" else obj)
            data = text.encode("utf-8", "surrogateescape")
            path = os.path.join(tmp, f"mesh_{case}.{'stl' if kind == 'ascii' else 'obj'}")
        with open(path, "wb") as f:
            f.write(data)
        config = os.path.join(tmp, f"mesh_{case}.yaml")
        with open(config, "w", encoding="utf-8") as f:
            f.write(MESH_SCENE.format(path=path, scale=0.001))
        command = ["check", config] if case % 2 else \
            ["run", config, "--output", os.path.join(tmp, f"mesh_out_{case}"), "--quiet"]
        runner.run("mesh", f"{kind} {description}", command, inputs=[path, config])
        os.remove(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("granite")
    parser.add_argument("source")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--cases", type=int, default=200, help="cases per family (fclib: half)")
    parser.add_argument("--keep", help="copy the input of every failing case here")
    args = parser.parse_args()
    configs = sorted(glob.glob(os.path.join(args.source, "configs", "*.yaml")))
    problems = sorted(glob.glob(os.path.join(args.source, "tests/data/fclib/problems/*.hdf5")))
    if not configs or not problems:
        sys.exit(f"error: no configs/*.yaml or FCLIB problems under {args.source}")
    rng = random.Random(args.seed)
    runner = Runner(os.path.abspath(args.granite), args.keep)
    with tempfile.TemporaryDirectory() as tmp:
        fuzz_configs(rng, runner, configs, tmp, args.cases)
        fuzz_overrides(rng, runner, configs, args.cases)
        fuzz_contact(rng, runner, args.cases)
        fuzz_fclib(rng, runner, problems, tmp, args.cases // 2)
        fuzz_regions(rng, runner, configs, args.cases // 4)
        fuzz_fclib_sizes(rng, runner, problems, tmp, args.cases // 8)
        fuzz_meshes(rng, runner, args.source, tmp, args.cases // 2)
    for failure in runner.failures:
        print("FAIL:", failure)
    cases = ", ".join(f"{family} {n}" for family, n in runner.counts.items())
    exits = ", ".join(f"{code}: {n}" for code, n in sorted(runner.exits.items(), key=str))
    print(f"fuzz_inputs: seed {args.seed}; cases {cases}; exit codes {{{exits}}}; "
          f"{len(runner.failures)} failure(s)")
    sys.exit(1 if runner.failures else 0)


if __name__ == "__main__":
    main()
