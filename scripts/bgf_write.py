#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a BGBlitz .bgf match file from a .mat match, for recount's
fixtures (there are no .bgf files with a licence to copy), following the
one public description (the notes of the Go package kevung/bgfparser):

    python3 scripts/bgf_write.py [--encoding smile|json] [--compression gzip|none]
        [--header bgfparser] [--no-shared-values] IN.mat OUT.bgf

Standard library only: a small SMILE encoder of its own (the published
Smile format specification: the `:)` header and flags byte, shared
property names and string values, small ints, zigzag VInts, doubles in
7-bit groups, strings by length class, arrays, objects) and gzip.

The file is a JSON header line, `{"version": "1.0", "compression":
"gzip", "encoding": "smile"}` (with --header bgfparser the spelling
bgfparser's own test uses: `{"format": "BGF", "version": "1.0",
"compress": true, "useSmile": true}`), then the match object: matchlen
(0 for money), nameGreen and nameRed (the .mat's left and right
columns), date (`Nov 8, 2025`), finalGreen/finalRed, useCube,
useCrawford, useJacoby, useBeaver, cubeLimit (when the .mat has the tag),
and games: scoreGreen, scoreRed, wonPoints, wasForfeit, wasResignation
and moves (a game the .mat ends with Galaxy's `Losses n points`, a
concession, has wasForfeit). A roll is {"type": "amove", "player": 1 (green) or -1 (red),
"red": first die, "green": second die, "from": [4], "to": [4] (the
mover's numbering: 25 the bar, 0 off, -1 unused), "equity": {"cube":
the cube's value}}. What the description does not give is written as
recount's reader guesses it (docs/backgammon.md): a double is
{"type": "adouble", "player": P, "hasAccepted": true/false} (the key left
out when the double is not answered); a take or pass without its double
is an "atake" or "apass" record. With --analysis each roll carries a
made-up, deterministic moveAnalysis (the played move and one
alternative; see --help), marked as such where it is used.
"""

import argparse
import datetime
import gzip
import json
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xg_write import apply, parse_mat, start_board, steps_of  # noqa: E402

SHARED = 1024


class Smile:
    """SMILE encoding of JSON values, with shared property names (always)
    and shared string values (when asked)."""

    def __init__(self, shared_values=True):
        self.shared_values = shared_values
        self.out = bytearray(b":)\n" + bytes([1 | (2 if shared_values else 0)]))
        self.names, self.name_list = {}, []
        self.values, self.value_list = {}, []

    @staticmethod
    def vint(n):
        groups = [0x80 | (n & 0x3F)]
        n >>= 6
        while n:
            groups.append(n & 0x7F)
            n >>= 7
        return bytes(reversed(groups))

    @staticmethod
    def zigzag(v):
        return v << 1 if v >= 0 else ((-v) << 1) - 1

    @staticmethod
    def share(table, order, s):
        if len(order) >= SHARED:
            table.clear()
            order.clear()
        table[s] = len(order)
        order.append(s)

    def key(self, k):
        b = k.encode("utf-8")
        if not b:
            self.out.append(0x20)
            return
        if k in self.names:
            i = self.names[k]
            self.out += bytes([0x40 | i]) if i < 64 else bytes([0x30 | (i >> 8), i & 0xFF])
            return
        if len(b) <= 64 and all(c < 0x80 for c in b):
            self.out.append(0x80 | (len(b) - 1))
            self.out += b
        elif 2 <= len(b) <= 57 and any(c >= 0x80 for c in b):
            self.out.append(0xC0 | (len(b) - 2))
            self.out += b
        else:
            self.out.append(0x34)
            self.out += b + b"\xfc"
        self.share(self.names, self.name_list, k)

    def string(self, s):
        b = s.encode("utf-8")
        if not b:
            self.out.append(0x20)
            return
        if self.shared_values and s in self.values:
            i = self.values[s]
            self.out += bytes([i + 1]) if i < 31 else bytes([0xEC | (i >> 8), i & 0xFF])
            return
        ascii_only = all(c < 0x80 for c in b)
        n = len(b)
        if ascii_only and n <= 32:
            self.out.append(0x40 | (n - 1))
        elif ascii_only and n <= 64:
            self.out.append(0x60 | (n - 33))
        elif not ascii_only and n <= 33:
            self.out.append(0x80 | (n - 2))
        elif not ascii_only and n <= 65:
            self.out.append(0xA0 | (n - 34))
        else:
            self.out.append(0xE0 if ascii_only else 0xE4)
            self.out += b + b"\xfc"
            return
        self.out += b
        if self.shared_values:
            self.share(self.values, self.value_list, s)

    def value(self, v):
        if v is None:
            self.out.append(0x21)
        elif v is True:
            self.out.append(0x23)
        elif v is False:
            self.out.append(0x22)
        elif isinstance(v, int):
            if -16 <= v <= 15:
                self.out.append(0xC0 | self.zigzag(v))
            else:
                self.out.append(0x24 if -(1 << 31) <= v < (1 << 31) else 0x25)
                self.out += self.vint(self.zigzag(v))
        elif isinstance(v, float):
            bits = struct.unpack(">Q", struct.pack(">d", v))[0]
            self.out.append(0x29)
            self.out += bytes((bits >> (7 * k)) & 0x7F for k in range(9, -1, -1))
        elif isinstance(v, str):
            self.string(v)
        elif isinstance(v, list):
            self.out.append(0xF8)
            for x in v:
                self.value(x)
            self.out.append(0xF9)
        elif isinstance(v, dict):
            self.out.append(0xFA)
            for k, x in v.items():
                self.key(k)
                self.value(x)
            self.out.append(0xFB)
        else:
            raise TypeError(type(v))


def date_of(tag):
    d = datetime.date(*map(int, tag.split(".")))
    return "%s %d, %d" % (d.strftime("%b"), d.day, d.year)


def conceded(text):
    """The games (0-based) with a `Losses n point(s)` line: Backgammon
    Galaxy's concession, written as BGBlitz's wasForfeit."""
    games, g = set(), -1
    for line in text.splitlines():
        if line.strip().startswith("Game "):
            g += 1
        elif "Losses " in line:
            games.add(g)
    return games


def bgblitz(m, forfeits=frozenset(), analysis=False):
    """The match as BGBlitz's match object; with `analysis`, each roll
    carries a made-up moveAnalysis (see main's --analysis)."""
    tags = m["tags"]
    length = m["length"]
    match = {"matchlen": length, "nameGreen": m["players"][0], "nameRed": m["players"][1]}
    if "EventDate" in tags:
        match["date"] = date_of(tags["EventDate"])
    games = []
    score = [0, 0]
    rolls = 0
    for gi, g in enumerate(m["games"]):
        if g["score"] is not None:
            score = list(g["score"])
        game = {"scoreGreen": score[0], "scoreRed": score[1], "wonPoints": 0,
                "wasForfeit": False, "wasResignation": False, "moves": []}
        moves = game["moves"]
        board = start_board()
        cube = 1
        acts = g["actions"]
        i = 0
        while i < len(acts):
            p, kind, value = acts[i]
            who = 1 if p == 0 else -1
            if kind == "roll":
                dice, words = value
                steps = steps_of(words)
                if len(steps) > 4:
                    raise ValueError("a play of more than four steps: %s" % " ".join(words))
                apply(board, p, steps)
                pad = [-1] * (4 - len(steps))
                frm, to = [a for a, _ in steps] + pad, [b for _, b in steps] + pad
                rec = {"type": "amove", "player": who, "red": dice[0], "green": dice[1],
                       "from": frm, "to": to, "equity": {"cube": cube}}
                rolls += 1
                if analysis:
                    eq = round(0.1 - 0.01 * (rolls % 7), 6)
                    rec["moveAnalysis"] = [{"move": {"from": frm, "to": to}, "eq": {"equity": eq},
                                            "played": True, "ply": 2}]
                    if steps:
                        rec["moveAnalysis"].append({"move": {"from": [-1] * 4, "to": [-1] * 4},
                                                    "eq": {"equity": round(eq + 0.001 * (rolls % 5), 6)},
                                                    "played": False, "ply": 2})
                moves.append(rec)
            elif kind == "double":
                rec = {"type": "adouble", "player": who}
                answer = acts[i + 1][1] if i + 1 < len(acts) else None
                if answer in ("take", "drop"):
                    rec["hasAccepted"] = answer == "take"
                    i += 1
                    if answer == "take":
                        cube *= 2
                moves.append(rec)
            elif kind in ("take", "drop"):
                moves.append({"type": "atake" if kind == "take" else "apass", "player": who})
            elif kind == "wins":
                over = sum(board[p]) == 0 or (i and acts[i - 1][1] == "drop")
                game["wonPoints"] = value
                game["wasResignation"] = not over and gi not in forfeits
                game["wasForfeit"] = gi in forfeits
                score[p] += value
            i += 1
        games.append(game)
    match["finalGreen"], match["finalRed"] = score
    match["useCube"] = True
    match["useCrawford"] = tags.get("Crawford", "On") == "On"
    match["useJacoby"] = tags.get("Jacoby", "Off") == "On"
    match["useBeaver"] = tags.get("Beaver", "On") == "On"
    if "CubeLimit" in tags:
        match["cubeLimit"] = int(tags["CubeLimit"])
    match["games"] = games
    return match


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--encoding", choices=["smile", "json"], default="smile")
    ap.add_argument("--compression", choices=["gzip", "none"], default="gzip")
    ap.add_argument("--header", choices=["description", "bgfparser"], default="description")
    ap.add_argument("--no-shared-values", action="store_true")
    ap.add_argument("--analysis", action="store_true",
                    help="made-up BGBlitz analysis: the k-th roll's moveAnalysis has the played "
                    "move at equity 0.1 - 0.01 * (k mod 7), 2-ply, and (unless a dance) a dance "
                    "0.001 * (k mod 5) better")
    ap.add_argument("src")
    ap.add_argument("dst")
    a = ap.parse_args(argv)
    with open(a.src, encoding="utf-8-sig") as f:
        text = f.read()
    match = bgblitz(parse_mat(text), conceded(text), a.analysis)
    if a.encoding == "smile":
        enc = Smile(shared_values=not a.no_shared_values)
        enc.value(match)
        body = bytes(enc.out)
    else:
        body = json.dumps(match, ensure_ascii=False).encode("utf-8")
    if a.compression == "gzip":
        body = gzip.compress(body, mtime=0)
    if a.header == "bgfparser":
        header = {"format": "BGF", "version": "1.0", "compress": a.compression == "gzip",
                  "useSmile": a.encoding == "smile"}
    else:
        header = {"version": "1.0", "compression": a.compression, "encoding": a.encoding}
    with open(a.dst, "wb") as f:
        f.write(json.dumps(header).encode() + b"\n" + body)


if __name__ == "__main__":
    main(sys.argv[1:])
