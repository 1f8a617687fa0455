"""recount's pipeline in Python: Go and backgammon archives re-scored into
Arrow tables, one per report, with the columns and types of the Parquet
reports (``recount --format parquet``).

Everything is done by the Rust library (``recount._recount``); this module
only opens the Parquet bytes it hands back with ``pyarrow``.

    >>> import recount
    >>> reports = recount.run(paths=["games/"], options=["--dead-stones", "estimate"])
    >>> reports["go_games"].num_rows
"""

import pyarrow as pa
import pyarrow.parquet as pq

from . import _recount

__version__ = _recount.__version__

#: The report names, in the order the command line writes them.
REPORTS = tuple(_recount.report_names())

#: Each report's key columns.
KEYS = dict(_recount.report_keys())


def run(paths=(), sources=(), options=()):
    """Run recount and return ``{report name: pyarrow.Table}``.

    paths: files, directories or archives, as on the command line.
    sources: ``(name, bytes)`` pairs, each read as a file of that name
        (``"games.tar.gz"``, ``"a.sgf"``); ``name`` is its ``source`` in
        the reports.
    options: the command line's options, as strings
        (``["--dead-stones", "estimate", "-j", "1"]``); every option of
        ``recount run`` is taken (those that only choose output files have
        no effect).

    The interpreter's lock is released while the run works. Raises
    ValueError for an option or path that cannot be used, OSError when the
    run fails; a record that cannot be read is an ``errors`` row, as on
    the command line.
    """
    return run_part(paths, sources, options)[0]


def run_part(paths=(), sources=(), options=()):
    """``run``, also giving the run's part: ``(tables, part)``.

    ``part`` (a JSON string) holds what the rows that total a run are made
    of; when the input is run in parts whose rows are kept apart (Spark
    tasks), ``totals`` over all the parts gives those rows as one run over
    all the input writes them.
    """
    got, part = _recount.run(
        [str(p) for p in paths],
        [(str(name), bytes(data)) for name, data in sources],
        [str(o) for o in options],
    )
    return _tables(got), part


def totals(parts, options=(), game_ids=(0, 0), match_hashes=(0, 0)):
    """The rows a run writes at its end, for the input of all of ``parts``.

    Returns ``{name: pyarrow.Table}`` for ``summary``, ``settings``,
    ``go_interpretations`` and ``bg_stats`` (its ``player`` rows only).
    parts: the parts ``run_part`` gave, each file in one part only.
    options: the options the parts were run with.
    game_ids: ``(distinct, repeated)``, over all the parts' ``go_games``
        rows: how many distinct ``game_id`` values, and how many rows repeat
        an earlier one (the rows whose ``duplicate_of`` is set).
    match_hashes: ``(distinct, repeated)``, over all the parts' ``bg_games``
        rows: how many distinct ``match_hash`` values, and how many matches
        repeat an earlier one (their rows' ``duplicate_of`` is set).
    """
    distinct, repeated = game_ids
    bg_distinct, bg_repeated = match_hashes
    got = _recount.totals(
        list(parts),
        [str(o) for o in options],
        int(distinct),
        int(repeated),
        int(bg_distinct),
        int(bg_repeated),
    )
    return _tables(got)


def input_order(names):
    """``names`` (files) in the order a run reads them."""
    return [str(p) for p in _recount.input_order([str(n) for n in names])]


def _tables(got):
    return {name: pq.read_table(pa.BufferReader(data)) for name, data in got}


def schemas(options=()):
    """``{report name: pyarrow.Schema}``: each report's columns and types."""
    return {name: table.schema for name, table in run(options=options).items()}
