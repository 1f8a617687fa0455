# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks of the Python package and the Spark recipe against the command
line's reports (tests/tests/python.rs runs them in .venv-python/).

    python python_reports.py package CLI_OUT OPTIONS_JSON PATH...
        recount.run over the paths, and over the same files as bytes, gives
        every report of CLI_OUT (a --format parquet run over the paths with
        the options): the same rows in the same order, the same types.
    python python_reports.py spark CLI_OUT SPARK_OUT
        Each report Spark wrote, sorted by its keys, is CLI_OUT's, the
        run's totals and duplicate_of included.

Prints "ok" or what differs.
"""

import json
import math
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

import recount

def cli_report(out, name):
    return pq.read_table(os.path.join(out, name + ".parquet"))


def same_table(name, got, want, problems):
    if got.schema.remove_metadata() != want.schema.remove_metadata():
        problems.append(f"{name}: schema {got.schema} is not {want.schema}")
    elif not got.equals(want):
        g, w = got.to_pylist(), want.to_pylist()
        diff = next((i for i, (a, b) in enumerate(zip(g, w)) if a != b), min(len(g), len(w)))
        problems.append(
            f"{name}: {len(g)} rows, not {len(w)}; first difference at row {diff}: "
            f"{g[diff] if diff < len(g) else None} / {w[diff] if diff < len(w) else None}"
        )


def check_package(cli_out, options, paths):
    problems = []
    by_path = recount.run(paths=paths, options=options)
    files = []
    for p in paths:
        with open(p, "rb") as f:
            files.append((p, f.read()))
    by_bytes = recount.run(sources=files, options=options)
    if list(by_path) != list(recount.REPORTS):
        problems.append(f"reports {list(by_path)}, not {recount.REPORTS}")
    rows = 0
    for name in recount.REPORTS:
        want = cli_report(cli_out, name)
        rows += want.num_rows
        same_table(name + " (paths)", by_path[name], want, problems)
        same_table(name + " (bytes)", by_bytes[name], want, problems)
    if rows == 0:
        problems.append("the CLI's reports are empty")
    # The schemas alone, and an option the command line refuses.
    if recount.schemas()["go_games"] != by_path["go_games"].schema:
        problems.append("schemas() is not the reports' schema")
    try:
        recount.run(options=["--rules", "no-such-rules"])
        problems.append("an unknown --rules was taken")
    except ValueError as e:
        if "no-such-rules" not in str(e):
            problems.append(f"the --rules error does not name it: {e}")
    return problems


def sort_key(keys):
    def key(row):
        return tuple((row[k] is not None, row[k] if row[k] is not None else 0) for k in keys)

    return key


def canonical(rows, keys):
    """Rows sorted by their keys (then whole), NaN made comparable."""
    def clean(v):
        return "nan" if isinstance(v, float) and math.isnan(v) else v

    rows = [{k: clean(v) for k, v in r.items()} for r in rows]
    return sorted(rows, key=lambda r: (sort_key(keys)(r), repr(sorted(r.items()))))


def check_spark(cli_out, spark_out):
    problems = []
    for name in recount.REPORTS:
        want = cli_report(cli_out, name)
        got = pq.read_table(os.path.join(spark_out, name))
        got = got.select(want.column_names)
        types = [(f.name, f.type) for f in got.schema]
        if types != [(f.name, f.type) for f in want.schema]:
            problems.append(f"{name}: columns {types}")
            continue
        g, w = got.to_pylist(), want.to_pylist()
        if not w and name in ("go_games", "summary"):
            problems.append(f"{name}: the CLI wrote no rows")
        keys = recount.KEYS[name]
        g, w = canonical(g, keys), canonical(w, keys)
        if g != w:
            diff = next((i for i, (a, b) in enumerate(zip(g, w)) if a != b), min(len(g), len(w)))
            problems.append(
                f"{name}: {len(g)} rows, not {len(w)}; first difference: "
                f"{g[diff] if diff < len(g) else None} / {w[diff] if diff < len(w) else None}"
            )
    return problems


def main():
    what = sys.argv[1]
    if what == "package":
        problems = check_package(sys.argv[2], json.loads(sys.argv[3]), sys.argv[4:])
    elif what == "spark":
        problems = check_spark(sys.argv[2], sys.argv[3])
    else:
        raise SystemExit(f"unknown check {what}")
    print("\n".join(problems) if problems else "ok")


if __name__ == "__main__":
    main()
    # Leave without the interpreter's teardown: pyarrow's threads now and
    # then abort it there ("terminate called without an active
    # exception"), after the check has said its word.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
