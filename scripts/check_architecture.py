#!/usr/bin/python3
"""Granite's architecture rules, checked on the sources (run by ctest as architecture_rules).

  check_architecture.py SOURCE_DIR     check the tree; exit 1 on a violation
  check_architecture.py --self-test    check that planted violations are caught

Rules, for every file under src/ and include/ except CMakeLists.txt:
  mpi     `MPI_` appears only under comm/ and parallel/ folders (MPI is called only there),
          except on lines that set up HDF5's MPI-IO driver (H5Pset_fapl_mpio,
          H5Pset_dxpl_mpio, H5FD_MPIO);
  layers  a file of module m (src/m/, include/granite/m/) includes "granite/<module>/..." only
          for a module at or below m in the layer order, the fenced ```layers block of
          docs/architecture.md (one module per line, lowest first); other quoted includes
          must name a sibling (private) header in the same folder.
A violation is printed as "file:line: what (rule)".
"""
import os
import re
import sys
import tempfile

LAYERS_DOC = os.path.join("docs", "architecture.md")
MPI_MODULES = ("comm", "parallel")
MPI_IO_SETUP = ("H5Pset_fapl_mpio", "H5Pset_dxpl_mpio", "H5FD_MPIO")
MPI_FOLDERS = " and ".join(module + "/" for module in MPI_MODULES)
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^">]+)[">]')


def read_layers(root):
    """The layer order from docs/architecture.md, lowest first; raises ValueError if absent."""
    path = os.path.join(root, LAYERS_DOC)
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as error:
        raise ValueError(f"{LAYERS_DOC}: cannot read ({error.strerror})") from None
    stripped = [line.strip() for line in lines]
    if "```layers" not in stripped:
        raise ValueError(f"{LAYERS_DOC}: no ```layers block")
    start = stripped.index("```layers") + 1
    layers = []
    for number, line in enumerate(lines[start:], start + 1):
        name = line.strip()
        if name == "```":
            break
        if not re.fullmatch(r"[a-z_][a-z0-9_]*", name):
            raise ValueError(f"{LAYERS_DOC}:{number}: '{name}' is not a module name")
        if name in layers:
            raise ValueError(f"{LAYERS_DOC}:{number}: module '{name}' listed twice")
        layers.append(name)
    else:
        raise ValueError(f"{LAYERS_DOC}: the ```layers block is not closed")
    if not layers:
        raise ValueError(f"{LAYERS_DOC}: the ```layers block is empty")
    return layers


def source_files(root):
    """(relative path, module) of every checked file under src/ and include/; the module is the
    folder below src/ or include/granite/ (None for a file outside such a folder)."""
    for top, prefix in (("src", ["src"]), ("include", ["include", "granite"])):
        for directory, dirs, files in os.walk(os.path.join(root, top)):
            dirs.sort()
            for name in sorted(files):
                if name == "CMakeLists.txt":
                    continue
                relative = os.path.relpath(os.path.join(directory, name), root)
                parts = relative.split(os.sep)
                inside = parts[:len(prefix)] == prefix and len(parts) > len(prefix) + 1
                yield relative, parts[len(prefix)] if inside else None


def check(root):
    """Returns (violations, files checked, includes checked)."""
    layers = read_layers(root)
    level = {module: k for k, module in enumerate(layers)}
    violations = []
    files = includes = 0
    for relative, module in source_files(root):
        files += 1
        if module is None:
            violations.append(f"{relative}:1: file outside a module folder (layers)")
            continue
        if module not in level:
            violations.append(f"{relative}:1: module folder '{module}' is not in the layer "
                              f"order of {LAYERS_DOC} (layers)")
            continue
        with open(os.path.join(root, relative), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        folder = os.path.dirname(os.path.join(root, relative))
        for number, line in enumerate(lines, 1):
            where = f"{relative}:{number}"
            if ("MPI_" in line and module not in MPI_MODULES
                    and not any(call in line for call in MPI_IO_SETUP)):
                violations.append(f"{where}: MPI used in {module}/, outside {MPI_FOLDERS} (mpi)")
            match = INCLUDE.match(line)
            if not match:
                continue
            delimiter, target = match.groups()
            if target.startswith("granite/"):
                includes += 1
                parts = target.split("/")
                used = parts[1] if len(parts) > 2 else None
                if used not in level:
                    violations.append(f"{where}: {module} includes {target}, which is not in a "
                                      f"module of the layer order (layers)")
                elif level[used] > level[module]:
                    violations.append(f"{where}: {module} includes {target}, but {used} is "
                                      f"above {module} in the layer order (layers)")
            elif delimiter == '"':
                includes += 1
                # A private header of the same module: beside the file or in one of the
                # module's own subfolders (src/<module>/...).
                resolved = os.path.abspath(os.path.join(folder, target))
                own = os.path.abspath(os.path.join(root, "src", module)) + os.sep
                if not (os.path.isfile(resolved) and resolved.startswith(own)):
                    violations.append(f"{where}: {module} includes \"{target}\", which is "
                                      f"neither granite/<module>/... nor a header of its own "
                                      f"module's folder (layers)")
    return violations, files, includes


def report(root):
    try:
        violations, files, includes = check(root)
    except ValueError as error:
        print(f"{error} (layers)")
        return 1
    for line in violations:
        print(line)
    if violations:
        print(f"architecture: {len(violations)} violation(s) in {files} files")
        return 1
    print(f"architecture OK: {files} files and {includes} includes checked "
          f"(MPI only in {MPI_FOLDERS}, includes follow {LAYERS_DOC})")
    return 0


def self_test():
    """Plants a violation of each rule (and a module missing from the layer order) in a small
    tree and expects exactly those."""
    def write(root, relative, text):
        path = os.path.join(root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)

    with tempfile.TemporaryDirectory() as root:
        write(root, LAYERS_DOC, "# Architecture\n\n```layers\ncore\ncomm\nsolver\nio\n```\n")
        write(root, "src/CMakeLists.txt", "target_link_libraries(x MPI::MPI_CXX)\n")
        write(root, "src/comm/collectives.cpp", "#include <mpi.h>\nint n = MPI_SUM;\n")
        write(root, "include/granite/solver/relax.hpp", '#include "granite/core/types.hpp"\n')
        write(root, "src/io/hdf5_util.hpp", "#pragma once\n")
        write(root, "src/io/file.cpp",
              '#include "granite/solver/relax.hpp"\n#include "hdf5_util.hpp"\n'
              "H5Pset_fapl_mpio(access, comm, MPI_INFO_NULL);\n")
        write(root, "src/io/fclib/fclib.cpp", '#include "../hdf5_util.hpp"\n')
        clean, _, includes = check(root)
        if clean or includes != 4:
            print(f"self-test: the clean tree gave {clean} with {includes} includes")
            return 1
        write(root, "src/solver/relax.cpp",
              '#include "granite/solver/relax.hpp"\n#include "granite/io/file.hpp"\n')
        write(root, "src/io/reduce.cpp", "MPI_Allreduce(MPI_IN_PLACE, &x, 1, t, op, c);\n")
        write(root, "src/tools/tool.cpp", '#include "granite/core/types.hpp"\n')
        write(root, "src/solver/peek.cpp", '#include "../io/hdf5_util.hpp"\n')
        found, _, _ = check(root)
        expected = [
            "src/io/reduce.cpp:1: MPI used in io/, outside comm/ and parallel/ (mpi)",
            "src/solver/peek.cpp:1: solver includes \"../io/hdf5_util.hpp\", which is neither "
            "granite/<module>/... nor a header of its own module's folder (layers)",
            "src/solver/relax.cpp:2: solver includes granite/io/file.hpp, but io is above "
            "solver in the layer order (layers)",
            "src/tools/tool.cpp:1: module folder 'tools' is not in the layer order of "
            "docs/architecture.md (layers)",
        ]
        if sorted(found) != expected:
            print("self-test: expected\n  " + "\n  ".join(expected) + "\ngot\n  " +
                  "\n  ".join(found))
            return 1
    print("self-test OK: the planted violations (mpi, layers, another module's private header, "
          "unknown module) are caught, the clean tree passes")
    return 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: check_architecture.py SOURCE_DIR | --self-test", file=sys.stderr)
        return 2
    return report(argv[0])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
