#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes eXtreme Gammon files (.xg, .xgp) from a .mat match, from XG's
published layout, for recount's fixtures (there are no .xg files with a
licence to copy):

    python3 scripts/xg_write.py IN.mat OUT.xg
    python3 scripts/xg_write.py --position GAME PLAY IN.mat OUT.xgp

Standard library only. The .mat is read in GNU Backgammon's export layout
(a score line per game, numbered lines, the right column where the second
name starts); the moves are made on a board here, so every move record
states its positions (PositionI, PositionEnd) as XG does.

The layout (XG's "xgformat" description, the Delphi records of
xg_format.pas; the byte offsets below are those of the packed records
with Delphi's alignment):

* the file: a 8,232-byte RichGameFormat header (magic RGMH, version 1,
  header size, thumbnail offset and size, a GUID, four UTF-16 strings of
  1,024 characters), then a ZLibArchive: each member zlib-compressed, the
  directory (532 bytes a member: name and path as Delphi short strings of
  255, original size, stored size, offset, CRC-32, a byte 0 = compressed,
  the level), compressed too, and a 36-byte archive record (CRC-32 of
  members and directory, member count, version, directory size, members'
  size, directory compressed);
* members temp.xgi (the first record) and temp.xg (the game: records of
  2,560 bytes, the type in byte 8: 0 match header, 1 game header, 2 cube,
  3 move, 4 game footer, 5 match footer).

Positions are 26 signed bytes from player 1's side (XG's player 1 is the
.mat's left column): player 1's checkers positive on their points 1-24,
index 25 their bar, player 2's negative, index 0 their bar. A move is four
(from, to) pairs of 32-bit integers in the mover's numbering, 0-based, 24
the bar, -1 off; a from of -1 ends the list.

XG's analysis in the records is made up here, deterministic and marked as
such in fixtures/LICENSES.md: each move's error is -0.001 * (k mod 13)
and its luck 0.05 * ((k mod 9) - 4) for the k-th move record, analysed at
3-ply; each cube record's no-double and double/take equities are
0.1 + 0.01 * (k mod 7) and 2 * that - 0.3, its win chance 0.5 + 0.01 *
(k mod 5), analysed by XG Roller+. A roll that could have been doubled
gets a cube record with no double before it.
"""

import re
import struct
import sys
import zlib

RECORD = 2560


def parse_mat(text):
    """The match: players, length, tags, and per game its score and actions
    (player, kind, value) in order."""
    m = {"players": ["", ""], "length": 0, "tags": {}, "games": []}
    right = 33
    for raw in text.splitlines():
        line = raw.rstrip()
        t = line.strip()
        if not t:
            continue
        if t.startswith(";"):
            tag = re.match(r';\s*\[(\w[\w ]*) "(.*)"\]', t)
            if tag:
                m["tags"][tag.group(1)] = tag.group(2)
            continue
        pm = re.match(r"(\d+) point match$", t)
        if pm:
            m["length"] = int(pm.group(1))
            continue
        gm = re.match(r"Game (\d+)$", t)
        if gm:
            m["games"].append({"number": int(gm.group(1)), "score": None, "actions": []})
            continue
        g = m["games"][-1]
        if g["score"] is None:
            sm = re.match(r"\s*(.*?) : (\d+)(\s+)(.*?) : (\d+)$", line)
            right = sm.start(4)
            g["score"] = (int(sm.group(2)), int(sm.group(5)))
            if not any(m["players"]):
                m["players"] = [sm.group(1).strip(), sm.group(4).strip()]
            continue
        num = re.match(r"\s*\d+\)", line)
        body_start = num.end() if num else 0
        # Entries: dice, or a cube or result keyword, with their columns.
        for e in re.finditer(r"(\d\d:(?:\s+[\dbarof*]+/[\dbarof*/()]+)*)|(Doubles => \d+|Takes|Drops|Wins \d+ points?(?: and the match)?)",
                             line[body_start:]):
            col = body_start + e.start()
            player = 1 if col >= right - 4 else 0
            word = e.group(0).strip()
            if e.group(1):
                dice = (int(word[0]), int(word[1]))
                g["actions"].append((player, "roll", (dice, word[3:].split())))
            elif word.startswith("Doubles"):
                g["actions"].append((player, "double", int(word.split()[-1])))
            elif word == "Takes":
                g["actions"].append((player, "take", None))
            elif word == "Drops":
                g["actions"].append((player, "drop", None))
            else:
                g["actions"].append((player, "wins", int(word.split()[1])))
    return m


def start_board():
    row = [0] * 25
    row[23], row[12], row[7], row[5] = 2, 5, 3, 5
    return [row[:], row[:]]


def point(s):
    s = s.rstrip("*")
    return {"bar": 25, "off": 0}.get(s, None) if not s.isdigit() else int(s)


def steps_of(words):
    """`13/9 24/23*`, `8/4(2)` -> (from, to) steps in the mover's numbering
    (25 the bar, 0 off)."""
    out = []
    for w in words:
        times = 1
        rep = re.match(r"(.*)\((\d)\)$", w)
        if rep:
            w, times = rep.group(1), int(rep.group(2))
        parts = [point(p) for p in w.split("/")]
        for _ in range(times):
            out.extend(zip(parts, parts[1:]))
    return out


def apply(board, p, steps):
    for frm, to in steps:
        board[p][24 if frm == 25 else frm - 1] -= 1
        if to:
            opp = board[1 - p]
            if opp[24 - to] == 1:
                opp[24 - to] = 0
                opp[24] += 1
            board[p][to - 1] += 1


def engine(board):
    """The board as XG's PositionEngine, from player 1's (our 0's) side."""
    raw = [0] * 26
    for i in range(1, 25):
        raw[i] = board[0][i - 1] - board[1][24 - i]
    raw[25] = board[0][24]
    raw[0] = -board[1][24]
    return raw


def gammon(board, winner):
    loser = board[1 - winner]
    if sum(loser) < 15:
        return 1
    return 3 if loser[24] or any(loser[18:24]) else 2


def short(s, n):
    b = s.encode("cp1252", "replace")[:n]
    return bytes([len(b)]) + b + bytes(n - len(b))


def wide(s, n):
    b = s.encode("utf-16-le")[: 2 * (n - 1)]
    return b + bytes(2 * n - len(b))


def delphi_days(date):
    """`YYYY.MM.DD` as days since 1899-12-30."""
    import datetime
    y, mo, d = (int(x) for x in date.split("."))
    return float((datetime.date(y, mo, d) - datetime.date(1899, 12, 30)).days)


def match_header(m):
    r = bytearray(RECORD)
    r[8] = 0
    r[9:50] = short(m["players"][0], 40)
    r[50:91] = short(m["players"][1], 40)
    length = m["length"] or 99999
    crawford = m["tags"].get("Crawford", "On" if m["length"] else "Off") == "On"
    jacoby = m["tags"].get("Jacoby", "Off") == "On"
    beaver = m["tags"].get("Beaver", "Off") == "On"
    struct.pack_into("<ii4B", r, 92, length, 0, crawford, jacoby, beaver, 0)
    if "EventDate" in m["tags"]:
        struct.pack_into("<d", r, 128, delphi_days(m["tags"]["EventDate"]))
    struct.pack_into("<iiI", r, 548, 0, 30, 0x494C4D44)
    struct.pack_into("<i", r, 608, -1)
    r[880:1138] = wide(m["players"][0], 129)
    r[1138:1396] = wide(m["players"][1], 129)
    event = m["tags"].get("Event", "")
    r[622:880] = wide(event, 129)
    return r


def game_header(g, board):
    r = bytearray(RECORD)
    r[8] = 1
    struct.pack_into("<iiB", r, 12, g["score"][0], g["score"][1], g["crawford"])
    struct.pack_into("<26b", r, 21, *engine(board))
    struct.pack_into("<i", r, 48, g["number"])
    struct.pack_into("<ii", r, 56, -1, -1)
    return r


def cube_record(k, p, cube_log, double, take, board):
    r = bytearray(RECORD)
    r[8] = 2
    owner = cube_log
    struct.pack_into("<6i", r, 12, 1 if p == 0 else -1, double, take, 0, 0, owner)
    struct.pack_into("<26b", r, 36, *engine(board))
    # The analysis (made up): EngineStructDoubleAction from byte 64.
    nd = 0.1 + 0.01 * (k % 7)
    p_win = 0.5 + 0.01 * (k % 5)
    struct.pack_into("<26b", r, 64, *engine(board))
    struct.pack_into("<h", r, 64 + 56, 0)
    struct.pack_into("<7f", r, 64 + 60, 0.01, 0.1, 1 - p_win, p_win, 0.15, 0.02, nd)
    struct.pack_into("<fff", r, 64 + 88, nd, 2 * nd - 0.3, 1.0)
    struct.pack_into("<d", r, 200, -0.002 * (k % 3) if double else -1000.0)
    struct.pack_into("<d", r, 216, -0.001 * (k % 4) if double else -1000.0)
    struct.pack_into("<i", r, 232, 1001)
    struct.pack_into("<i", r, 292, -1)
    return r


def move_record(k, p, dice, steps, before, after, cube_log):
    r = bytearray(RECORD)
    r[8] = 3
    struct.pack_into("<26b", r, 9, *engine(before))
    struct.pack_into("<26b", r, 35, *engine(after))
    pairs = []
    for frm, to in steps:
        pairs += [24 if frm == 25 else frm - 1, -1 if to == 0 else to - 1]
    pairs += [-1] * (8 - len(pairs))
    struct.pack_into("<i8i2ii", r, 64, 1 if p == 0 else -1, *pairs, *dice, cube_log)
    struct.pack_into("<B", r, 2308, 1)
    struct.pack_into("<dd", r, 2312, -0.001 * (k % 13), 0.05 * ((k % 9) - 4))
    struct.pack_into("<ii", r, 2472, 2, 2)
    struct.pack_into("<i", r, 2524, -1)
    return r


def game_footer(score, winner, points, termination, crawford_next):
    r = bytearray(RECORD)
    r[8] = 4
    struct.pack_into("<iiB", r, 12, score[0], score[1], crawford_next)
    struct.pack_into("<iii", r, 24, 1 if winner == 0 else -1, points, termination)
    struct.pack_into("<dd", r, 40, -1000.0, -1000.0)
    return r


def match_footer(score, winner):
    r = bytearray(RECORD)
    r[8] = 5
    struct.pack_into("<iii", r, 12, score[0], score[1], 1 if winner == 0 else -1)
    return r


def records(m, position=None):
    """The game file's records; with `position` = (game, play), a position
    file: that game's header with the position before the play, its cube
    record and its move record."""
    out = [match_header(m)]
    score = [0, 0]
    crawford_done = False
    counters = {"move": 0, "cube": 0}
    for gi, g in enumerate(m["games"], 1):
        length = m["length"]
        crawford = bool(length) and not crawford_done and (
            (score[0] + 1 == length) != (score[1] + 1 == length))
        crawford_done = crawford_done or crawford
        g["crawford"] = crawford
        board = start_board()
        game = [game_header(dict(g, score=tuple(score)), board)]
        cube, owner, pending = 1, None, None
        plays, dropped = 0, False
        for p, kind, value in g["actions"]:
            if kind == "roll":
                dice, words = value
                steps = steps_of(words)
                plays += 1
                if position and (gi, plays) == position:
                    counters["cube"] += 1
                    head = game_header(dict(g, score=tuple(score)), board)
                    return [out[0], head,
                            cube_record(counters["cube"], p, 0, 0, 0, board),
                            move_record(counters["move"] + 1, p, dice, steps, board,
                                        after_of(board, p, steps), 0)]
                if plays > 2 and owner != 1 - p and not crawford:
                    counters["cube"] += 1
                    game.append(cube_record(counters["cube"], p, log_cube(cube, owner),
                                            0, 0, board))
                before = [row[:] for row in board]
                apply(board, p, steps)
                counters["move"] += 1
                game.append(move_record(counters["move"], p, dice, steps, before, board,
                                        log_cube(cube, owner)))
            elif kind == "double":
                pending = p
            elif kind in ("take", "drop"):
                counters["cube"] += 1
                game.append(cube_record(counters["cube"], pending, log_cube(cube, owner),
                                        1, 1 if kind == "take" else 0, board))
                if kind == "take":
                    cube, owner = cube * 2, p
                else:
                    dropped = True
                pending = None
            elif kind == "wins":
                if pending is not None:
                    counters["cube"] += 1
                    game.append(cube_record(counters["cube"], pending,
                                            log_cube(cube, owner), 1, -1, board))
                if dropped:
                    termination = 0
                elif sum(board[p]) == 0:
                    termination = gammon(board, p)
                else:
                    termination = 100 + max(1, value // cube)
                score[p] += value
                game.append(game_footer(score, p, value, termination,
                                        False))
        out += game
    if m["length"] and max(score) >= m["length"]:
        out.append(match_footer(score, 0 if score[0] > score[1] else 1))
    return out


def after_of(board, p, steps):
    b = [row[:] for row in board]
    apply(b, p, steps)
    return b


def log_cube(cube, owner):
    """XG's cube: log2 of the value, signed by its owner (0 centred)."""
    n = cube.bit_length() - 1
    return 0 if owner is None else (n if owner == 0 else -n)


def archive(members):
    """A ZLibArchive of (name, bytes) members."""
    data = b""
    directory = b""
    for name, raw in members:
        packed = zlib.compress(raw, 9)
        directory += (short(name, 255) + short("", 255)
                      + struct.pack("<iiiIBBxx", len(raw), len(packed), len(data),
                                    zlib.crc32(raw), 0, 9))
        data += packed
    directory = zlib.compress(directory, 9)
    crc = zlib.crc32(data + directory)
    return data + directory + struct.pack("<Iiiiii12x", crc, len(members), 1,
                                          len(directory), len(data), 1)


def rich_header(name):
    head = b"RGMH" + struct.pack("<iiQi", 1, 8232, 0, 0) + bytes(16)
    for s in (name, name, "", ""):
        head += wide(s, 1024)
    assert len(head) == 8232
    return head


def main(argv):
    position = None
    if argv and argv[0] == "--position":
        position = (int(argv[1]), int(argv[2]))
        argv = argv[3:]
    src, dst = argv
    with open(src, encoding="utf-8-sig") as f:
        m = parse_mat(f.read())
    recs = records(m, position)
    game = b"".join(recs)
    body = archive([("temp.xgi", bytes(recs[0])), ("temp.xg", game)])
    name = " - ".join(m["players"])
    with open(dst, "wb") as f:
        f.write(rich_header(name) + body)


if __name__ == "__main__":
    main(sys.argv[1:])
