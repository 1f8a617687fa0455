#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a Snowie text position (the layout GNU Backgammon's
`import snowietxt` reads, import.c) from a position of a .mat match, for
recount's fixtures:

    python3 scripts/snowie_write.py IN.mat GAME ROLL OUT.txt

The position is the one before the ROLL-th roll (from 1) of game GAME, its
dice rolled: one line of 40 fields separated by `;`: match length, Jacoby,
0, 0, the player on roll, their name, the other's, Crawford game, the
scores (on roll first), cube value, cube owner (1 on roll, -1 the other,
0 centred), the other's bar (negative), points 1-24 from the side on roll
(positive theirs, negative the other's), the bar of the player on roll,
the dice: as gnubg's `export position snowietxt` writes them (export.c;
its notes in import.c call the first bar field the roller's, but its
import and export both use it for the other player).
Standard library only.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xg_write import apply, parse_mat, start_board, steps_of  # noqa: E402


def main(src, game, roll, dst):
    game, roll = int(game), int(roll)
    with open(src, encoding="utf-8-sig") as f:
        m = parse_mat(f.read())
    length = m["length"]
    score = [0, 0]
    crawford_done = False
    for g in m["games"][:game - 1]:
        if length > 1 and not crawford_done and (length - 1) in score:
            crawford_done = True
        for p, kind, value in g["actions"]:
            if kind == "wins":
                score[p] += value
    crawford = int(length > 1 and not crawford_done and (length - 1) in score)
    board = start_board()
    cube, owner, rolls = 1, None, 0
    for p, kind, value in m["games"][game - 1]["actions"]:
        if kind == "roll":
            rolls += 1
            if rolls == roll:
                turn, dice = p, value[0]
                break
            apply(board, p, steps_of(value[1]))
        elif kind == "double":
            cube *= 2
            doubler = p
        elif kind == "take":
            owner = 1 - doubler
    else:
        sys.exit("game %d has fewer than %d rolls" % (game, roll))
    other = 1 - turn
    points = []
    for i in range(24):
        if board[turn][i]:
            points.append(board[turn][i])
        else:
            points.append(-board[other][23 - i])
    fields = [length, int(m["tags"].get("Jacoby") == "On" and not length), 0, 0, turn,
              m["players"][turn], m["players"][other], crawford, score[turn], score[other],
              cube, {None: 0, turn: 1, other: -1}[owner], -board[other][24]]
    fields += points + [board[turn][24], dice[0], dice[1]]
    with open(dst, "w") as f:
        f.write(";".join(str(x) for x in fields) + "\n")


if __name__ == "__main__":
    main(*sys.argv[1:])
