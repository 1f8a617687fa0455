#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent replay oracle for the Go fixtures, driven by GNU Go over GTP.

For every SGF file given, GNU Go (``gnugo --mode gtp``, one process, talking
over a pipe) is asked to

    loadsgf FILE            plays the whole main line (first child at every
                            branch), including setup stones AB/AW
    captures black          see "Meaning of `captures`" below
    captures white
    list_stones black       final position
    list_stones white
    move_history            to check that the whole main line was played

and one CSV row is written:

    file,captures_by_black,captures_by_white,final_position

* ``file`` is the path relative to the repository root.
* ``captures_by_black`` is the number of WHITE stones that Black captured
  (the prisoners Black holds); ``captures_by_white`` likewise.
* ``final_position`` lists the rows from the top (SGF row 'a') to the
  bottom, separated by '/'. Inside a row, from the left (SGF column 'a'):
  'X' black stone, 'O' white stone, and a run of k empty points is written
  as the decimal number k. A 5x5 board with a white stone at SGF 'aa' and a
  black one at 'cc' is ``O4/5/2X2/5/5``.

If GNU Go refuses a file, reports a warning while loading it, or did not play
every move of the main line, the row is written with empty values and a
warning goes to stderr; the run goes on.

Meaning of `captures`
---------------------
GNU Go's documentation only says "List the number of captures taken by
either color". Its source (interface/play_gtp.c, gtp_captures) is explicit:

    if (color == BLACK)
      return gtp_success("%d", white_captured);
    else
      return gtp_success("%d", black_captured);

where ``white_captured`` counts white stones removed from the board. So
``captures black`` = white stones captured BY Black = captures_by_black, and
``captures white`` = captures_by_white. ``--self-test`` checks this (and the
orientation) on a hand-made 5x5 game, see SELF_TEST below; the derive script
runs it before every run.

Orientation
-----------
GTP vertices are a column letter (A..T, the letter I is skipped) and a row
number counted from the BOTTOM (row 1 is the last line ``showboard`` prints).
SGF coordinates count from the top-left corner: 'aa' is the top-left point,
the second letter is the row from the top. Hence for a board of size N:

    sgf_x = column index (A=0, B=1, ..., H=7, J=8, ...)
    sgf_y = N - gtp_row          (gtp row N = SGF row 'a' = the top row)

Known GNU Go loading behaviour (GNU Go 3.8, gameinfo_play_sgftree_rot)
--------------------------------------------------------------------
* A move on an occupied point (or off the board) stops the loading with
  "WARNING: Move off board or on occupied position found in sgf-file." on
  stderr -> detected here (stderr text, and move_history compared with the
  main line read by our own small SGF reader) -> empty row.
* 'B[]' and, on boards up to 19x19, 'B[tt]' are passes.
* AE (remove stones) is ignored by GNU Go -> files with AE get an empty row.
* If the first move is White while the board is still empty, GNU Go first
  puts HA fixed handicap stones on the board, which a literal replay would
  not do -> such files get an empty row.
"""

import argparse
import csv
import os
import shutil
import subprocess
import sys
import tempfile

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP skips the letter I


# --------------------------------------------------------------------------
# A small SGF reader, only for the sanity checks (never for the values).
# --------------------------------------------------------------------------

def sgf_main_line(text):
    """Return the main line of the first game tree as a list of nodes, each a
    list of (property identifier, [values]) pairs. The main line is the root
    sequence followed by the first child at every branch point: we enter
    every '(' we meet (it is always the first child of the sequence just
    read) and stop at the first ')' (the end of a sequence without
    children). Property values are skipped as a whole, escapes included, so
    brackets or parentheses inside comments do not count."""
    i, n = text.find("("), len(text)
    if i < 0:
        raise ValueError("no SGF game tree in the file")
    nodes = []
    while i < n:
        c = text[i]
        if c == ")":
            break
        if c == ";":
            nodes.append([])
            i += 1
        elif c.isalpha():
            j = i
            while j < n and text[j].isalpha():
                j += 1
            # FF[3] allows lower-case letters in identifiers (AddBlack = AB).
            ident = "".join(ch for ch in text[i:j] if ch.isupper())
            values = []
            while True:
                while j < n and text[j].isspace():
                    j += 1
                if j >= n or text[j] != "[":
                    break
                j += 1
                buf = []
                while j < n and text[j] != "]":
                    if text[j] == "\\" and j + 1 < n:
                        j += 1
                    buf.append(text[j])
                    j += 1
                j += 1
                values.append("".join(buf))
            if not nodes:
                raise ValueError("property outside a node")
            nodes[-1].append((ident, values))
            i = j
        else:  # '(' and white space
            i += 1
    return nodes


def main_line_facts(path):
    """Facts about the main line used to check GNU Go's loading."""
    with open(path, encoding="utf-8", errors="replace") as f:
        nodes = sgf_main_line(f.read())
    size, ha = 19, 0
    moves = []                  # GTP notation, e.g. "black D4", "white PASS"
    has_ae = False
    setup_before_first_move = False
    for idx, node in enumerate(nodes):
        for ident, values in node:
            if idx == 0 and ident in ("SZ", "HA") and values:
                try:
                    number = int(values[0].split(":")[0].strip())
                except ValueError:
                    continue
                if ident == "SZ":
                    size = number
                else:
                    ha = number
            if ident in ("AB", "AW") and not moves:
                setup_before_first_move = True
            if ident == "AE":
                has_ae = True
            if ident in ("B", "W"):
                color = "black" if ident == "B" else "white"
                moves.extend("%s %s" % (color, sgf_to_gtp(v, size)) for v in values)
    return {
        "moves": moves,
        "has_ae": has_ae,
        "fixed_handicap_quirk": bool(moves) and moves[0].startswith("white")
                                and not setup_before_first_move and ha > 1,
    }


def sgf_to_gtp(value, size):
    """'dp' on 19x19 -> 'D4'; '' and (up to 19x19) 'tt' -> 'PASS'."""
    value = value.strip()
    if value == "" or (value == "tt" and size <= 19):
        return "PASS"
    x, y = ord(value[0]) - ord("a"), ord(value[1]) - ord("a")
    return "%s%d" % (GTP_COLUMNS[x], size - y)


# --------------------------------------------------------------------------
# GTP over a pipe
# --------------------------------------------------------------------------

class GtpError(Exception):
    pass


class Gnugo:
    def __init__(self, exe):
        self.exe = exe
        self.err = tempfile.TemporaryFile(mode="w+")
        self.proc = None
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            [self.exe, "--mode", "gtp"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.err,
            text=True, bufsize=1)

    def stderr_since(self, pos):
        self.err.flush()
        self.err.seek(pos)
        text = self.err.read()
        return text

    def stderr_pos(self):
        self.err.flush()
        self.err.seek(0, os.SEEK_END)
        return self.err.tell()

    def cmd(self, line):
        """Send one command; return the response text (without '= ') or
        raise GtpError with GNU Go's message."""
        if self.proc.poll() is not None:
            self.start()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            out = self.proc.stdout.readline()
            if out == "":
                self.proc.wait()
                self.start()
                raise GtpError("GNU Go exited while answering %r" % line)
            out = out.rstrip("\r\n")
            if out == "" and lines:
                break
            if out == "" and not lines:
                continue
            lines.append(out)
        head = lines[0]
        body = "\n".join([head[1:].lstrip()] + lines[1:]).strip()
        if head.startswith("="):
            return body
        raise GtpError(body)

    def close(self):
        try:
            self.cmd("quit")
        except GtpError:
            pass
        self.proc.wait(timeout=10)


# --------------------------------------------------------------------------
# Conversion
# --------------------------------------------------------------------------

def gtp_to_sgf_xy(vertex, size):
    """'D4' on a 19x19 board -> (3, 15): column from the left, row from the
    top, both 0-based, as in SGF 'dp'."""
    col = GTP_COLUMNS.index(vertex[0].upper())
    row = int(vertex[1:])
    return col, size - row


def encode_position(size, black, white):
    grid = [[None] * size for _ in range(size)]
    for stones, mark in ((black, "X"), (white, "O")):
        for x, y in stones:
            if not (0 <= x < size and 0 <= y < size):
                raise ValueError("stone off the board")
            if grid[y][x] is not None:
                raise ValueError("two stones on one point")
            grid[y][x] = mark
    rows = []
    for y in range(size):
        out, run = [], 0
        for x in range(size):
            if grid[y][x] is None:
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(grid[y][x])
        if run:
            out.append(str(run))
        rows.append("".join(out))
    return "/".join(rows)


def replay(gg, path):
    """Return (captures_by_black, captures_by_white, final_position) for one
    file, or raise GtpError/ValueError with a reason."""
    facts = main_line_facts(path)
    if facts["has_ae"]:
        raise ValueError("file uses AE, which GNU Go's loadsgf ignores")
    if facts["fixed_handicap_quirk"]:
        raise ValueError("first move is White on an empty board with HA>1: "
                         "GNU Go would add fixed handicap stones")
    pos = gg.stderr_pos()
    gg.cmd("loadsgf " + os.path.abspath(path))
    size = int(gg.cmd("query_boardsize"))
    by_black = int(gg.cmd("captures black"))   # white stones Black captured
    by_white = int(gg.cmd("captures white"))   # black stones White captured
    black = [gtp_to_sgf_xy(v, size) for v in gg.cmd("list_stones black").split()]
    white = [gtp_to_sgf_xy(v, size) for v in gg.cmd("list_stones white").split()]
    # move_history lists the moves played, the last one first. GNU Go keeps
    # at most about 500 of them (board.c, MAX_MOVE_HISTORY), so a longer game
    # only shows its tail: compare what is there with the main line's tail.
    history = [l.strip() for l in gg.cmd("move_history").splitlines() if l.strip()]
    history.reverse()
    errors = gg.stderr_since(pos).strip()
    if errors:
        raise ValueError("GNU Go said: " + " | ".join(errors.splitlines()))
    expected = facts["moves"]
    complete = (history == expected
                or (len(history) >= 450 and len(history) < len(expected)
                    and history == expected[len(expected) - len(history):]))
    if not complete:
        raise ValueError("GNU Go played %d moves ending %r, the main line has %d ending %r"
                         % (len(history), history[-1:], len(expected), expected[-1:]))
    return by_black, by_white, encode_position(size, black, white)


# --------------------------------------------------------------------------
# Self test: a hand-made 5x5 game whose result is known.
# --------------------------------------------------------------------------
#
#   1 B[ba] 2 W[aa] 3 B[ab]   Black takes the white stone at aa (1 prisoner)
#   4 W[de] 5 B[ee] 6 W[dd] 7 B[ed] 8 W[ec]
#                             White takes the two black stones ee, ed
#   9 B[] 10 W[tt]            two passes, in both notations
#
# Final board (SGF rows a..e from the top, columns a..e from the left):
#
#       a b c d e
#    a  . X . . .
#    b  X . . . .
#    c  . . . . O
#    d  . . . O .
#    e  . . . O .
#
# so captures_by_black = 1, captures_by_white = 2 (different, so a swapped
# meaning of `captures` is caught) and final_position = 1X3/X4/4O/3O1/3O1
# (neither left/right nor top/bottom symmetric, so a flipped conversion is
# caught). In GTP terms the black stones are B5 and A4, the white ones E3,
# D2 and D1; GNU Go answers `captures black` with 1 and `captures white`
# with 2, i.e. `captures C` counts the stones captured BY colour C.
#
# Checked by hand (GNU Go 3.8, Debian 3.8-11) by piping `loadsgf`, `captures`,
# `list_stones`, `move_history` and `showboard` into `gnugo --mode gtp`:
# showboard draws X at B5 and A4 in the top-left corner (row 5 printed first)
# and says "WHITE (O) has captured 2 stones", "BLACK (X) has captured 1
# stones", and move_history lists all ten moves, the passes as PASS. Swapping
# the two `captures` commands, or using sgf_y = gtp_row - 1, makes the
# self-test fail.

SELF_TEST_SGF = ("(;GM[1]FF[4]SZ[5]KM[0]"
                 ";B[ba];W[aa];B[ab];W[de];B[ee];W[dd];B[ed];W[ec];B[];W[tt])")
SELF_TEST_EXPECTED = (1, 2, "1X3/X4/4O/3O1/3O1")
SELF_TEST_GTP = {"black": ["A4", "B5"], "white": ["D1", "D2", "E3"]}


def self_test(gg):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "self-test.sgf")
        with open(path, "w") as f:
            f.write(SELF_TEST_SGF)
        got = replay(gg, path)
        raw = {c: sorted(gg.cmd("list_stones " + c).split()) for c in ("black", "white")}
    if got != SELF_TEST_EXPECTED or raw != SELF_TEST_GTP:
        sys.stderr.write("self-test FAILED: got %r / %r, expected %r / %r\n"
                         % (got, raw, SELF_TEST_EXPECTED, SELF_TEST_GTP))
        return False
    sys.stderr.write("self-test passed: captures black=%d, captures white=%d, %s\n" % got)
    return True


def find_gnugo(explicit):
    for cand in (explicit, os.environ.get("GNUGO"), "gnugo", "/usr/games/gnugo"):
        if cand and shutil.which(cand):
            return shutil.which(cand)
    sys.exit("gnugo not found: install it (apt-get install gnugo) or set GNUGO")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gnugo", help="GNU Go executable (default: $GNUGO, gnugo on PATH, /usr/games/gnugo)")
    ap.add_argument("--root", default=".", help="repository root; file names are written relative to it")
    ap.add_argument("--out", help="CSV to write (default: stdout)")
    ap.add_argument("--self-test", action="store_true", help="only run the built-in check")
    ap.add_argument("files", nargs="*", help="SGF files, in the order wanted in the CSV")
    args = ap.parse_args()

    gg = Gnugo(find_gnugo(args.gnugo))
    version = gg.cmd("version")
    sys.stderr.write("GNU Go %s (%s)\n" % (version, gg.exe))
    if not self_test(gg):
        return 2
    if args.self_test:
        gg.close()
        return 0

    out = open(args.out, "w", newline="") if args.out else sys.stdout
    w = csv.writer(out, lineterminator="\n")
    w.writerow(["file", "captures_by_black", "captures_by_white", "final_position"])
    failures = 0
    for path in args.files:
        rel = os.path.relpath(path, args.root).replace(os.sep, "/")
        try:
            row = replay(gg, path)
        except Exception as e:  # noqa: BLE001 -- one bad file must not stop the run
            failures += 1
            sys.stderr.write("WARNING: %s: %s; writing an empty row\n" % (rel, e))
            row = ("", "", "")
        w.writerow([rel, *row])
    if out is not sys.stdout:
        out.close()
    gg.close()
    sys.stderr.write("%d files, %d without values\n" % (len(args.files), failures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
