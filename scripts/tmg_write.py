#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a TrueMoneyGames .tmg match log from a .mat match, for recount's
fixtures (the layout GNU Backgammon's `import tmg` reads, import.c):

    python3 scripts/tmg_write.py IN.mat OUT.tmg

Option lines (`MatchID: 1`, `Player1: 0 NAME_1 1500.00`,
`Player2: 0 NAME_2 1500.00`, `Startdate: 2025-11-08`, `Jacoby: 0`,
`Crawford: 1`, `Cube: 1`, `Length: 7`, `Variant: 1`), then per game
`Game 1: 0-0` and one record per line: the action's number (negative for
NAME_2), the record type, its text: `1 41:` (roll), `4 13/9 24/23`
(play; `0/0` no play), `5 Double to 2`, `7 Take`, `10 Pass`,
`14 2 NAME wins 2 points` (15 a gammon, 16 a backgammon). gnubg swaps
the players after reading, so NAME_2 is its player 0: the .mat's left
column. Standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xg_write import apply, gammon, parse_mat, start_board, steps_of  # noqa: E402


def main(src, dst):
    with open(src, encoding="utf-8-sig") as f:
        m = parse_mat(f.read())
    p0, p1 = m["players"]
    length = m["length"]
    out = ["MatchID: 1", "Player1: 0 %s 1500.00" % p1, "Player2: 0 %s 1500.00" % p0]
    date = m["tags"].get("EventDate")
    if date:
        out.append("Startdate: %s" % date.replace(".", "-"))
    out += ["Jacoby: %d" % (m["tags"].get("Jacoby") == "On"), "Crawford: 1", "Cube: 1",
            "Length: %d" % length, "Variant: 1"]
    score = [0, 0]
    for gi, g in enumerate(m["games"]):
        out.append("")
        out.append("Game %d: %d-%d" % (gi + 1, score[1], score[0]))
        board = start_board()
        cube = 1
        n = 0
        for p, kind, value in g["actions"]:
            n += 1
            num = "%3d" % (-n if p == 0 else n)
            if kind == "roll":
                dice, words = value
                steps = steps_of(words)
                out.append("%s 1 %d%d:" % (num, dice[0], dice[1]))
                apply(board, p, steps)
                play = " ".join("%d/%d" % s for s in steps) or "0/0"
                out.append("%s 4 %s" % (num, play))
            elif kind == "double":
                cube *= 2
                out.append("%s 5 Double to %d" % (num, cube))
            elif kind == "take":
                out.append("%s 7 Take" % num)
            elif kind == "drop":
                out.append("%s 10 Pass" % num)
            elif kind == "wins":
                kind = 13 + (gammon(board, p) if sum(board[p]) == 0 else 1)
                if g["actions"][-2][1] != "drop" and sum(board[p]):
                    kind = 13 + min(3, max(1, value // cube))
                out.append("%s %d %d %s wins %d point%s" % (
                    num, kind, value, m["players"][p], value, "" if value == 1 else "s"))
                score[p] += value
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
