#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every legal play of a sample of the fixtures' (position, roll) pairs, as
GNU Backgammon writes it (drawboard.c FormatMove, through the Python binding
``gnubg.movetupletostring``): the oracle for recount's notation of plays.

Regenerate fixtures/expected/bg-notation.csv (from the repository root,
after fixtures/expected/bg-legal.csv; a few seconds):

    bash scripts/gnubg-venv.sh
    .venv-gnubg/bin/python scripts/gnubg_notation.py fixtures/expected/bg-legal.csv \\
        > fixtures/expected/bg-notation.csv

Usage: gnubg_notation.py [BG_LEGAL_CSV]   (default fixtures/expected/bg-legal.csv)

Output columns: ``position_id,dice,plays``, one row for every eighth
(position, dice) pair of the input with two or more legal plays (most have
hits or the bar), and for every pair one of whose plays gnubg writes with a
hit on the way (``13/9*/7``) or a move repeated three or four times
(``6/4(3)``), in the input's order; but none with a play that bears off.
The binding's move tuples end at the first checker borne off (its point 0
is their end mark), so what such a play moves after it is lost; recount's
tests check bear-offs against texts gnubg gave for tuples written out in
full (``movetupletostring((5, 4, 4, 1, 1, 0), board)``: ``5/4*/off``).

* ``position_id``, ``dice``: as in the input, from the side on roll.
* ``plays``: gnubg's text of each legal play (``findbestmoves`` lists one
  per distinct resulting position), sorted, joined by ``;``.
"""

import csv
import sys

from gnubg_inprocess import OUT, gnubg  # gnubg loaded, its printing on stderr

MARKS = ("*/", "(3)", "(4)")


def main(argv):
    src = argv[0] if argv else "fixtures/expected/bg-legal.csv"
    ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)  # cubeless, 0-ply, no noise
    ci = gnubg.cubeinfo()
    OUT.write("position_id,dice,plays\n")
    with open(src, newline="") as f:
        for n, row in enumerate(csv.DictReader(f)):
            if int(row["legal_count"]) < 2:
                continue
            board = gnubg.positionfromid(row["position_id"])
            dice = (int(row["dice"][0]), int(row["dice"][1]))
            moves = [p["move"] for p in gnubg.findbestmoves(board, ci, ec, dice)]
            if any(len(m) % 2 for m in moves):
                continue  # a bear-off: the tuple is cut short
            plays = sorted(gnubg.movetupletostring(m, board) for m in moves)
            if n % 8 == 0 or any(m in p for p in plays for m in MARKS):
                OUT.write("%s,%s,%s\n" % (row["position_id"], row["dice"], ";".join(plays)))
    OUT.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
