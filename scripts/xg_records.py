#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""eXtreme Gammon files decoded by another reader: the PyPI package
``xgdatatools`` (Michael Petch's XG import modules, from the Delphi records
XG's author published), as the oracle for recount's .xg reader.

Regenerate fixtures/expected/xg-records.csv (from the repository root):

    python3 -m venv .venv-xg && .venv-xg/bin/pip install xgdatatools==0.0.1
    .venv-xg/bin/python scripts/xg_records.py fixtures/bg/xg/*.xg* \\
        > fixtures/expected/xg-records.csv

Columns: ``file,record,type`` (1-based record of temp.xg; ``match``,
``game``, ``cube``, ``move``, ``game_end``, ``match_end``), then what the
test compares, empty where a type has none: ``player`` (XG's player 1 is
0, player 2 is 1), ``a``, ``b``: per type the match length and players,
the game number and score, the cube's double and take, the move's dice and
its eight (from, to) integers, the footer's points and termination;
``error``, ``luck``: XG's move error and luck, or the cube's double and
take errors (six decimals; -1000, not analysed, as written).
"""

import csv
import sys

from xgdatatools import xgimport, xgstruct

TYPES = {
    xgstruct.HeaderMatchEntry: "match",
    xgstruct.HeaderGameEntry: "game",
    xgstruct.CubeEntry: "cube",
    xgstruct.MoveEntry: "move",
    xgstruct.FooterGameEntry: "game_end",
    xgstruct.FooterMatchEntry: "match_end",
}


def who(v):
    return {1: 0, -1: 1, 2: 1}.get(v, "")


def text(v):
    return v.decode("utf-8") if isinstance(v, bytes) else v


def rows(path):
    version = -1
    for seg in xgimport.Import(path).getfilesegment():
        if seg.type != xgimport.Import.Segment.XG_GAMEFILE:
            continue
        seg.fd.seek(0)
        n = 0
        while True:
            rec = xgstruct.GameFileRecord(version=version).fromstream(seg.fd)
            if rec is None:
                break
            n += 1
            kind = TYPES.get(type(rec), "other")
            row = {"file": path, "record": n, "type": kind, "player": "", "a": "", "b": "",
                   "error": "", "luck": ""}
            if kind == "match":
                version = rec.Version
                row["a"] = rec.MatchLength
                row["b"] = "%s|%s|%d%d%d" % (text(rec.Player1), text(rec.Player2),
                                             rec.Crawford, rec.Jacoby, rec.Beaver)
            elif kind == "game":
                row["a"] = rec.GameNumber
                row["b"] = "%d-%d" % (rec.Score1, rec.Score2)
            elif kind == "cube":
                row["player"] = who(rec.ActiveP)
                row["a"], row["b"] = rec.Double, rec.Take
                row["error"] = "%.6f" % rec.ErrCube
                row["luck"] = "%.6f" % rec.ErrTake
            elif kind == "move":
                row["player"] = who(rec.ActiveP)
                row["a"] = "%d%d" % tuple(rec.Dice)
                row["b"] = " ".join(str(v) for v in rec.Moves)
                row["error"] = "%.6f" % rec.ErrMove
                row["luck"] = "%.6f" % rec.ErrLuck
            elif kind == "game_end":
                row["player"] = who(rec.Winner)
                row["a"], row["b"] = rec.PointsWon, rec.Termination
            yield row


def main(paths):
    out = csv.DictWriter(sys.stdout, ["file", "record", "type", "player", "a", "b",
                                      "error", "luck"], lineterminator="\n")
    out.writeheader()
    for p in paths:
        for r in rows(p):
            out.writerow(r)


if __name__ == "__main__":
    main(sys.argv[1:])
