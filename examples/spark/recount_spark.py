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

What totals the run is made once, on the driver, as one run over all the
files makes it: each task hands back its part (``recount.run_part``), and
``recount.totals`` adds the parts up into ``summary``, ``settings``,
``go_interpretations`` and the ``player`` rows of ``bg_stats``;
``go_games.duplicate_of`` (the first game with the same ``game_id`` in the
run's input order) and ``bg_games.duplicate_of`` (the same game of the first
match with the same ``match_hash``) are filled again over all the games, in
Spark.
"""

import argparse
import json
import os
import re
import shutil
import sys

import pyarrow as pa
from pyspark.sql import SparkSession, Window
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

import recount

#: Separates the report name from a column's name in the one wide schema
#: mapInArrow gives every task's rows.
SEP = "__"

#: The reports made on the driver from the tasks' parts (and, for
#: ``bg_stats``, its ``player`` rows).
TOTALS = ("summary", "settings", "go_interpretations")

#: A row's place among its task's rows of the same report (input order).
ORD = "_ord"


def wide_schema(schemas):
    """One Arrow schema holding every report's columns, the report name, the
    row's place in its task's report, and the task's part (on a row of its
    own, report ``_part``)."""
    fields = [pa.field("report", pa.string()), pa.field(ORD, pa.int64()), pa.field("part", pa.string())]
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
        elif field.name == ORD:
            columns.append(pa.array(range(n), pa.int64()))
        elif field.name.startswith(name + SEP):
            columns.append(table.column(field.name[len(name) + len(SEP):]).combine_chunks())
        else:
            columns.append(pa.nulls(n, field.type))
    yield pa.RecordBatch.from_arrays(columns, schema=wide)


def source_name(path):
    """A file's name in the reports: a local file as a plain path (as the
    command line names it), any other as Spark's URI."""
    return path[len("file:"):] if path.startswith("file:") else path


def fail_once(marker):
    """Fails the first task to get here, when ``marker`` (a file path,
    from RECOUNT_SPARK_FAIL_ONCE) is set: the test that Spark's retry of a
    failed task gives the same rows. The marker's creation is atomic, so
    exactly one task fails."""
    if not marker:
        return
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    raise RuntimeError(f"a failure for the test of retries ({marker})")


def run_arrow(spark, paths, options, wide):
    """The mapInArrow run: a DataFrame of (report, every report's columns)."""

    def task(batches):
        # In the worker: recount over this task's files, in memory.
        fail_once(os.environ.get("RECOUNT_SPARK_FAIL_ONCE"))
        for batch in batches:
            sources = list(
                zip(
                    (source_name(p) for p in batch.column("path").to_pylist()),
                    batch.column("content").to_pylist(),
                )
            )
            if not sources:
                continue
            tables, part = recount.run_part(sources=sources, options=options)
            for name, table in tables.items():
                yield from widen(name, table, wide)
            yield pa.RecordBatch.from_pylist([{"report": "_part", "part": part}], schema=wide)

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


def frames_arrow(df, schemas):
    """Each report's rows (its columns and ORD) and the tasks' parts."""
    frames = {}
    for name, schema in schemas.items():
        cols = [df[f"{name}{SEP}{f.name}"].alias(f.name) for f in schema] + [df[ORD]]
        frames[name] = df.filter(df.report == name).select(*cols)
    parts = [r.part for r in df.filter(df.report == "_part").select("part").collect()]
    return frames, parts


def frames_pipe(spark, lines, schemas):
    """Each report's CSV lines read with its schema (and ORD), and the
    tasks' parts from their ``_part_*`` lines."""
    # (report, row), numbered in each task's order.
    lines = lines.map(lambda l: l.split(",", 1)).zipWithIndex().persist()
    frames = {}
    for name, schema in schemas.items():
        rows = lines.filter(lambda kv, n=name: kv[0][0] == n).map(lambda kv: f"{kv[1]},{kv[0][1]}")
        schema = pa.schema([pa.field(ORD, pa.int64())] + list(schema))
        # recount's CSV: quotes doubled, an empty cell null (as in the
        # Parquet reports), infinities as Rust writes them; a row that does
        # not parse fails the task rather than turning into nulls.
        frames[name] = spark.read.csv(
            rows,
            schema=from_arrow_schema(schema),
            header=False,
            quote='"',
            escape='"',
            positiveInf="inf",
            negativeInf="-inf",
            mode="FAILFAST",
        )
    # `_part_KIND,TAG,TEXT`: the task's files, its shard.json on one line,
    # the lines of its shard_units.csv that carry players.
    got = lines.filter(lambda kv: kv[0][0].startswith("_part_")).map(lambda kv: (kv[0][0], kv[0][1])).collect()
    parts = {}
    for kind, rest in got:
        tag, text = rest.split(",", 1)
        part = parts.setdefault(tag, {"names": [], "meta": "", "units": ""})
        if kind == "_part_name":
            part["names"].append(text)
        elif kind == "_part_meta":
            part["meta"] = text
        else:
            part["units"] += text + "\n"
    return frames, [json.dumps(p) for p in parts.values()]


def write_reports(spark, frames, parts, schemas, names, options, out):
    """Every report to OUT/<report>/: the tasks' rows, ``duplicate_of``
    over all the games, and the run's totals from the parts."""
    # The run's input order: a file's rank, then its rows' order.
    order = spark.createDataFrame(
        list(enumerate(recount.input_order(names))), "_rank long, source string"
    )
    games = frames["go_games"].drop("duplicate_of").join(F.broadcast(order), "source", "left")
    # A source not among the names (none, when the names are the paths
    # given) comes after them all.
    first = Window.partitionBy("game_id").orderBy(F.asc_nulls_last("_rank"), ORD)
    games = (
        games.withColumn("_first", F.first("game_key").over(first))
        .withColumn("_n", F.row_number().over(first))
        .withColumn("duplicate_of", F.when(F.col("_n") > 1, F.col("_first")))
        .persist()
    )
    rows = games.count()
    distinct = games.select("game_id").distinct().count()
    frames["go_games"] = games
    # A backgammon match repeats the first match of its match_hash: each
    # of its games names the same game of that first match.
    matches = frames["bg_games"].drop("duplicate_of").join(F.broadcast(order), "source", "left")
    first = Window.partitionBy("match_hash").orderBy(F.asc_nulls_last("_rank"), ORD)
    matches = (
        matches.withColumn("_first", F.first("file_key").over(first))
        .withColumn(
            "duplicate_of",
            F.when(
                F.col("file_key") != F.col("_first"),
                F.concat(F.col("_first"), F.lit("#"), F.col("game").cast("string")),
            ),
        )
        .persist()
    )
    bg_distinct = matches.select("match_hash").distinct().count()
    bg_matches = matches.select("file_key").distinct().count()
    frames["bg_games"] = matches
    totals = recount.totals(
        parts,
        options,
        game_ids=(distinct, rows - distinct),
        match_hashes=(bg_distinct, bg_matches - bg_distinct),
    )
    for name, schema in schemas.items():
        cols = [f.name for f in schema]
        if name in totals:
            mine = spark.createDataFrame(totals[name].to_pylist(), schema=from_arrow_schema(schema))
        if name in TOTALS:
            df = mine
        elif name == "bg_stats":
            df = frames[name].filter(F.col("scope") != "player").select(*cols).unionByName(mine)
        else:
            df = frames[name].select(*cols)
        df.write.mode("overwrite").parquet(os.path.join(out, name))
    games.unpersist()
    matches.unpersist()


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
        lines = run_pipe(spark, paths, options, a.pipe)
        frames, parts = frames_pipe(spark, lines, schemas)
    else:
        df = run_arrow(spark, paths, options, wide_schema(schemas)).persist()
        frames, parts = frames_arrow(df, schemas)
    names = [source_name(p) for p in paths]
    write_reports(spark, frames, parts, schemas, names, a.option, a.out)
    spark.stop()


if __name__ == "__main__":
    sys.exit(main())
