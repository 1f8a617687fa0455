#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a FIBS "oldmoves" log from a .mat match, for recount's fixtures
(the layout GNU Backgammon's `import oldmoves` reads, import.c):

    python3 scripts/oldmoves_write.py IN.mat OUT.fibs

Per game: `Score is A-B in a N point match.` (X's score first; money: no
length), `  X_NAME is X - O_NAME is O`, then one line per action:
`X: (3 1) 8-5 6-5` (X in its own numbering, 25 written `bar`, 0 `off`),
`O: (4 1) 12-16 1-2` (O in FIBS's numbering, ascending: its point p is
25 - p), `O: doubles`, `X: accepts` / `X: rejects`, `O: wins 2 points`,
and a blank line. X is the .mat's left column. Standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xg_write import parse_mat, steps_of  # noqa: E402


def point(p, player):
    if p == 25:
        return "bar"
    if p == 0:
        return "off"
    return str(p if player == 0 else 25 - p)


def main(src, dst):
    with open(src, encoding="utf-8-sig") as f:
        m = parse_mat(f.read())
    out = []
    score = [0, 0]
    side = "XO"
    for g in m["games"]:
        length = " in a %d point match." % m["length"] if m["length"] else "."
        out.append("Score is %d-%d%s" % (score[0], score[1], length))
        out.append("  %s is X - %s is O" % tuple(m["players"]))
        for p, kind, value in g["actions"]:
            if kind == "roll":
                dice, words = value
                steps = steps_of(words)
                play = " ".join("%s-%s" % (point(a, p), point(b, p)) for a, b in steps)
                out.append("%s: (%d %d) %s" % (side[p], dice[0], dice[1],
                                               play or "can't move"))
            elif kind == "double":
                out.append("%s: doubles" % side[p])
            elif kind == "take":
                out.append("%s: accepts" % side[p])
            elif kind == "drop":
                out.append("%s: rejects" % side[p])
            elif kind == "wins":
                out.append("%s: wins %d point%s" % (side[p], value, "" if value == 1 else "s"))
                score[p] += value
        out.append("")
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
