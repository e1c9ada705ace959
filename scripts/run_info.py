#!/usr/bin/python3
"""Print fields of a Granite run record (OUTPUT/run.json), one per line, for shell scripts.

usage: run_info.py RUN KEY [KEY ...]

RUN is a run's output directory or its run.json (or a copy of it); KEY a dotted path into the
record: status, ranks, steps.last, timings.total.avg, decomposition.0, ... Strings are printed
as they are; numbers, true, false and null as in JSON; lists and objects as one line of JSON.
A missing or invalid record or an unknown key: one "error: ..." line, exit status 2.
"""
import json
import sys

import granite_io


def text(value):
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"))


def main(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) < 3:
        return granite_io.print_error("usage: run_info.py RUN KEY [KEY ...]")
    try:
        run = granite_io.load_run(argv[1])
        path = granite_io.run_json_path(argv[1])
        values = [text(granite_io.run_field(run, key, path)) for key in argv[2:]]
    except granite_io.GraniteIOError as e:
        return granite_io.print_error(e)
    print("\n".join(values))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
