#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a GamesGrid .sgg match log from a .mat match, for recount's
fixtures (the layout GNU Backgammon's `import sgg` reads, import.c):

    python3 scripts/sgg_write.py IN.mat OUT.sgg

`NAME_A vs. NAME_B`, option lines (`Saturday, November 8, 2025`,
`Jacoby: No`, `Crawford: Yes`, `Doubling Cube: Yes`, `Match Length: 7`,
`Variant: Backgammon`), then per game `Game 1. 0-0/7` (a `*` after the
score of the player at match point in the Crawford game) and one line per
action: the turn's number, a tab, a second tab for NAME_B, then `41:`
(the roll), the same again with the play (`41: 13/9, 24/23`), `62: O-O`
(no play), `Doubles`, `Accepts`, `Passes`, `Resigns`, and
`NAME wins 2 points`. gnubg swaps GamesGrid's players after reading, so
NAME_B is its player 0: the .mat's left column. Standard library only.
"""

import datetime
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xg_write import apply, parse_mat, start_board, steps_of  # noqa: E402


def point(p):
    return {25: "bar", 0: "off"}.get(p, str(p))


def main(src, dst):
    with open(src, encoding="utf-8-sig") as f:
        m = parse_mat(f.read())
    p0, p1 = m["players"]
    length = m["length"]
    out = ["%s vs. %s" % (p1, p0)]
    date = m["tags"].get("EventDate")
    if date:
        d = datetime.date(*map(int, date.split(".")))
        out.append(d.strftime("%A, %B ") + "%d, %d" % (d.day, d.year))
    out += ["Jacoby: %s" % ("Yes" if m["tags"].get("Jacoby") == "On" else "No"), "Crawford: Yes", "Doubling Cube: Yes",
            "Match Length: %d" % length, "Variant: Backgammon"]
    score = [0, 0]
    crawford_done = False
    for gi, g in enumerate(m["games"]):
        mark = ["", ""]
        if length > 1 and not crawford_done and (length - 1) in score:
            crawford_done = True
            mark[score.index(length - 1)] = "*"
        if gi:
            out.append("")
        out.append("Game %d. %d%s-%d%s/%d" % (gi + 1, score[1], mark[1],
                                              score[0], mark[0], length))
        board = start_board()
        turn = 0
        last = None
        for p, kind, value in g["actions"]:
            if p == 1 or last is None:
                turn += 1
            last = p
            # One tab for NAME_A (the .mat's player 1), two for NAME_B.
            lead = "%d\t%s" % (turn, "\t" if p == 0 else "")
            if kind == "roll":
                dice, words = value
                steps = steps_of(words)
                roll = "%d%d:" % dice
                if not steps:
                    out.append("%s%s O-O" % (lead, roll))
                    continue
                apply(board, p, steps)
                play = ", ".join("%s/%s" % (point(a), point(b)) for a, b in steps)
                out.append(lead + roll)
                out.append("%s%s %s" % (lead, roll, play))
            elif kind == "double":
                out.append(lead + "Doubles")
            elif kind == "take":
                out.append(lead + "Accepts")
            elif kind == "drop":
                out.append(lead + "Passes")
            elif kind == "wins":
                loser = 1 - p
                over = sum(board[p]) == 0 or g["actions"][-2][1] == "drop"
                if not over:
                    out.append("%d\t%sResigns" % (turn, "\t" if loser == 0 else ""))
                out.append("%s wins %d point%s" % (m["players"][p], value,
                                                   "" if value == 1 else "s"))
                score[p] += value
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
