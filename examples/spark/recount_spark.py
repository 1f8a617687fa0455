#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""recount on Spark: a list of archives in, one Parquet dataset per report out.

    spark-submit examples/spark/recount_spark.py --out OUT [--pipe BIN] \
        [--option=--dead-stones --option=estimate ...] PATH...

PATH: files as Spark sees them (``/data/kgs.tar.gz``, ``file:/data/...``,
``s3a://bucket/kgs.tar.gz``), or ``@LIST`` for a file holding one a line.
Spark packs the files into tasks (by size: ``spark.sql.files.maxPartitionBytes``
and ``openCostInBytes``; with ``--pipe``, the files in ``defaultParallelism``
slices); the rows do not depend on how. OUT gets ``OUT/<report>/part-*.parquet`` for
each of recount's reports, with the columns and types of
``recount --format parquet``.

Two ways to run the tasks:

* default, ``mapInArrow``: Spark reads each file's bytes (``binaryFile``:
  any file system Spark reaches) and the task runs recount's Python package
  on them in memory; the reports come back as Arrow batches.
* ``--pipe BIN``: ``RDD.pipe`` feeds each task's paths to the recount
  binary BIN on the worker, which reads them itself (so they must be local
  or mounted paths), and its CSV reports are read back with the package's
  schemas.

Either way nothing is computed here: the rows are recount's, the types
recount's. A record that cannot be read is an ``errors`` row, never a
failed task; a task that fails (a lost worker) is run again by Spark on the
same files and gives the same rows.

Rows that total a run (``summary``, ``settings``, ``go_interpretations``,
the ``player`` scope of ``bg_stats``) and ``go_games.duplicate_of`` (a game
seen before *in the same run*) are per task here: one set per task.
"""

import argparse
import os
import re
import shutil
import sys

import pyarrow as pa
from pyspark.sql import SparkSession
from pyspark.sql.pandas.types import from_arrow_schema

import recount

#: Separates the report name from a column's name in the one wide schema
#: mapInArrow gives every task's rows.
SEP = "__"


def wide_schema(schemas):
    """One Arrow schema holding every report's columns, and the report name."""
    fields = [pa.field("report", pa.string())]
    for name, schema in schemas.items():
        fields += [pa.field(f"{name}{SEP}{f.name}", f.type) for f in schema]
    return pa.schema(fields)


def widen(name, table, wide):
    """The report's rows as batches of the wide schema (other reports' columns null)."""
    n = table.num_rows
    if n == 0:
        return
    columns = []
    for field in wide:
        if field.name == "report":
            columns.append(pa.array([name] * n, pa.string()))
        elif field.name.startswith(name + SEP):
            columns.append(table.column(field.name[len(name) + len(SEP):]).combine_chunks())
        else:
            columns.append(pa.nulls(n, field.type))
    yield pa.RecordBatch.from_arrays(columns, schema=wide)


def source_name(path):
    """A file's name in the reports: a local file as a plain path (as the
    command line names it), any other as Spark's URI."""
    return path[len("file:"):] if path.startswith("file:") else path


def run_arrow(spark, paths, options, wide):
    """The mapInArrow run: a DataFrame of (report, every report's columns)."""

    def task(batches):
        # In the worker: recount over this task's files, in memory.
        for batch in batches:
            sources = list(
                zip(
                    (source_name(p) for p in batch.column("path").to_pylist()),
                    batch.column("content").to_pylist(),
                )
            )
            if not sources:
                continue
            for name, table in recount.run(sources=sources, options=options).items():
                yield from widen(name, table, wide)

    # Hadoop reads paths as globs: each one is meant as it is written.
    literal = [re.sub(r"([\\\[\]{}*?])", r"\\\1", p) for p in paths]
    files = spark.read.format("binaryFile").load(literal).select("path", "content")
    return files.mapInArrow(task, from_arrow_schema(wide))


def run_pipe(spark, paths, options, binary):
    """The RDD.pipe run: lines ``report,csv row`` from the binary, per task."""
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "pipe_task.sh")
    command = ["bash", script, binary] + options
    sc = spark.sparkContext
    names = [source_name(p) for p in paths]
    rdd = sc.parallelize(names, numSlices=max(1, min(len(names), sc.defaultParallelism)))
    return rdd.pipe(" ".join(_quote(c) for c in command))


def _quote(s):
    return "'" + s.replace("'", "'\\''") + "'"


def write_arrow(df, schemas, out):
    """Each report's rows, its own columns, to OUT/<report>/."""
    df = df.persist()
    for name, schema in schemas.items():
        cols = [df[f"{name}{SEP}{f.name}"].alias(f.name) for f in schema]
        df.filter(df.report == name).select(*cols).write.mode("overwrite").parquet(
            os.path.join(out, name)
        )
    df.unpersist()


def write_pipe(spark, lines, schemas, out):
    """Each report's CSV lines, read with its schema, to OUT/<report>/."""
    lines = lines.map(lambda l: l.split(",", 1)).persist()
    for name, schema in schemas.items():
        rows = lines.filter(lambda kv, n=name: kv[0] == n).map(lambda kv: kv[1])
        # recount's CSV: quotes doubled, an empty cell null (as in the
        # Parquet reports), infinities as Rust writes them; a row that does
        # not parse fails the task rather than turning into nulls.
        df = spark.read.csv(
            rows,
            schema=from_arrow_schema(schema),
            header=False,
            quote='"',
            escape='"',
            positiveInf="inf",
            negativeInf="-inf",
            mode="FAILFAST",
        )
        df.write.mode("overwrite").parquet(os.path.join(out, name))
    lines.unpersist()


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("paths", nargs="+", metavar="PATH")
    ap.add_argument("--out", required=True, help="output directory (replaced)")
    ap.add_argument("--pipe", metavar="BIN", help="run the recount binary BIN with RDD.pipe")
    ap.add_argument(
        "--option",
        action="append",
        default=[],
        help="a recount option, one word each: --option=--dead-stones --option=estimate",
    )
    ap.add_argument("--master", default=None, help="Spark master (default: spark-submit's)")
    ap.add_argument(
        "--threads", type=int, default=1, help="recount worker threads per task (default 1)"
    )
    a = ap.parse_args(argv)
    paths = []
    for p in a.paths:
        if p.startswith("@"):
            with open(p[1:]) as f:
                paths += [line.strip() for line in f if line.strip()]
        else:
            paths.append(p)
    # Local paths as absolute URIs, so binaryFile and the binary agree.
    paths = [p if "://" in p or p.startswith("file:") else "file:" + os.path.abspath(p) for p in paths]
    options = a.option + ["-j", str(a.threads)]
    # Workers run this interpreter (the one with the package) unless told otherwise.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName("recount")
    if a.master:
        builder = builder.master(a.master)
    spark = builder.getOrCreate()
    schemas = recount.schemas(options=a.option)
    if os.path.isdir(a.out):
        shutil.rmtree(a.out)
    if a.pipe:
        write_pipe(spark, run_pipe(spark, paths, options, a.pipe), schemas, a.out)
    else:
        write_arrow(run_arrow(spark, paths, options, wide_schema(schemas)), schemas, a.out)
    spark.stop()


if __name__ == "__main__":
    sys.exit(main())
