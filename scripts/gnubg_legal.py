#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Number of legal plays, per GNU Backgammon, of every (position, dice) in
which a checker play was recorded: the oracle for our move generator.

Regenerate fixtures/expected/bg-legal.csv (from the repository root, after
fixtures/expected/bg-ids.csv; about a second):

    bash scripts/gnubg-venv.sh
    .venv-gnubg/bin/python scripts/gnubg_legal.py fixtures/expected/bg-ids.csv \\
        > fixtures/expected/bg-legal.csv

Usage: gnubg_legal.py [BG_IDS_CSV]   (default fixtures/expected/bg-ids.csv)

Output columns: ``position_id,dice,legal_count``, one row per distinct
(position_id, dice) pair of the input's rows with kind=play, in order of
first appearance.

* ``position_id``: gnubg's position ID, from the side of the player on roll.
* ``dice``: as in the input (``41``); the order of the dice does not matter.
* ``legal_count``: the number of distinct positions the player on roll can
  reach with a legal play of those dice. gnubg's move generator
  (eval.c GenerateMoves, through the Python binding
  ``gnubg.findbestmoves(board, cubeinfo, evalcontext, dice)``, which lists
  every legal play: FindnSaveBestMoves restores the full list after its
  move filters) keeps only plays that use as many dice as possible (and
  the larger die when only one can be played) and merges plays that reach
  the same position. 0 when the player cannot move at all.

The evaluation it also does is cubeless 0-ply (cheap); its scores are not
used.
"""

import csv
import sys

from gnubg_inprocess import OUT, gnubg  # gnubg loaded, its printing on stderr


def main(argv):
    src = argv[0] if argv else "fixtures/expected/bg-ids.csv"
    ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)  # cubeless, 0-ply, no noise
    ci = gnubg.cubeinfo()
    seen = set()
    OUT.write("position_id,dice,legal_count\n")
    with open(src, newline="") as f:
        for row in csv.DictReader(f):
            if row["kind"] != "play":
                continue
            key = (row["position_id"], row["dice"])
            if key in seen:
                continue
            seen.add(key)
            board = gnubg.positionfromid(row["position_id"])
            dice = (int(row["dice"][0]), int(row["dice"][1]))
            plays = gnubg.findbestmoves(board, ci, ec, dice)
            OUT.write("%s,%s,%d\n" % (key[0], key[1], len(plays)))
    OUT.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
