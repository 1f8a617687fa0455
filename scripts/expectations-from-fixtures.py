#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the expectations files of fixtures/expectations/ that restate the
expected values of fixtures/expected/*.csv, so that `recount check` checks
them (docs/expectations.md):

    seed-counts.toml        diagrams.csv: the seed's counted diagrams
    song.toml               song.csv: the Song-dynasty examples (Lu, chips, term)
    scores.toml             scores.csv: GNU Go's final_score, KGS markup results
    gnugo-replay.toml       gnugo-replay.csv: GNU Go's replay of every game
    gnubg-cube.toml         bg-cube-cases.csv: gnubg's 0-ply cube decisions
                            whose position and settings are a bundled match's

Run from the repository root after changing one of those CSV files:

    cargo build --release && python3 scripts/expectations-from-fixtures.py

The values come from the CSV files only. recount is run once, on
fixtures/bg with --all-cube-decisions, to find which row of which match
holds each cube case's position (its Position ID, match length, score and
cube); the hand-written files (seed-move-values.toml, beavers-raccoons.toml)
are left alone. The output is deterministic.
"""

import csv
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXPECTED = os.path.join(ROOT, "fixtures", "expected")
OUT = os.path.join(ROOT, "fixtures", "expectations")
RECOUNT = os.environ.get("RECOUNT", os.path.join(ROOT, "target", "release", "recount"))

# Records recount does not count: a set-up position with no move (see
# docs/scoring.md, which games are counted). Left out, named in the file.
NOT_COUNTED = {"fixtures/go/scoring/gnugo/seki_score.sgf"}

SEED_COUNT = "go-endgame-count-and-move-values.txt"
SEED_SONG = "song-dynasty-lu-and-chips-scoring.txt"


def rows(name):
    with open(os.path.join(EXPECTED, name), newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def q(text):
    """A TOML basic string."""
    out = text.replace("\\", "\\\\").replace('"', '\\"')
    out = out.replace("\n", "\\n").replace("\t", "\\t")
    return '"' + out + '"'


def value(v):
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, tuple):
        return "{ value = %s, tolerance = %s }" % (value(v[0]), value(v[1]))
    return q(v)


def rel(path):
    """A fixture path relative to fixtures/expectations/."""
    return os.path.relpath(os.path.join(ROOT, path), OUT)


def entry(name, source, record, expect, **more):
    lines = ["[[entry]]", "name = " + q(name), "source = " + q(source)]
    lines.append("file = " + q(rel(record)))
    for k in ("game", "options", "report", "where"):
        if k in more:
            v = more[k]
            if isinstance(v, list):
                lines.append("%s = [%s]" % (k, ", ".join(q(x) for x in v)))
            elif isinstance(v, dict):
                lines.append("%s = { %s }" % (k, ", ".join("%s = %s" % (a, value(b)) for a, b in v.items())))
            else:
                lines.append("%s = %s" % (k, value(v)))
    lines.append("[entry.expect]")
    for k, v in expect.items():
        lines.append("%s = %s" % (k, value(v)))
    return "\n".join(lines) + "\n"


def write(name, header, entries):
    head = "\n".join(("# " + l).rstrip() for l in header.strip().split("\n"))
    body = head + "\n# Written by scripts/expectations-from-fixtures.py; rerun it, do not edit.\n\n"
    body += "\n".join(entries)
    with open(os.path.join(OUT, name), "w", encoding="utf-8") as f:
        f.write(body)
    print("%s: %d entries" % (name, len(entries)), file=sys.stderr)


def number(text):
    x = float(text.lstrip("+"))
    return int(x) if x == int(x) else x


def seed_quote(notes, marker):
    at = notes.rfind(marker)
    return notes[at + len(marker):].strip() if at >= 0 else ""


def seed_counts():
    out = []
    for r in rows("diagrams.csv"):
        path = os.path.join(ROOT, r["file"])
        with open(path, encoding="utf-8") as f:
            text = f.read()
        drawn = [l for l in text.splitlines() if not l.startswith("#")]
        if not r["count"] or any(c.isdigit() for l in drawn for c in l):
            continue  # initial positions and sequences: seed-move-values.toml
        name = os.path.basename(r["file"])[:-4]
        source = "%s: %s" % (SEED_COUNT, seed_quote(r["notes"], "seed: "))
        out.append(entry(name, source, r["file"], {
            "score_count": number(r["count"]),
            "traditional": r["traditional"],
        }, report="go_scores"))
    write("seed-counts.toml", """
The settled diagrams of go-endgame-count-and-move-values.txt (all outer
stones alive, dead stones in lower case): the count, Black's points minus
White's (territory plus prisoners), and its traditional statement
(fixtures/expected/diagrams.csv).""", out)


def song():
    terms = {"赢局", "输筹", "赢筹", "实局", "芇"}
    out = []
    for r in rows("song.csv"):
        name = os.path.basename(r["file"])[:-4]
        quote = seed_quote(r["notes"], "Seed: seed ")
        expect = {
            "song_lu_black": int(r["black_lu"]),
            "song_lu_white": int(r["white_lu"]),
            "song_chips_black": int(r["black_chips"]),
            "song_chips_white": int(r["white_chips"]),
            "song_score": int(r["score"]),
        }
        if r["term_zh"] in terms:
            expect["song_term_zh"] = r["term_zh"]
        out.append(entry(name, "%s, %s" % (SEED_SONG, quote), r["file"], expect,
                         report="go_scores"))
    write("song.toml", """
The Song-dynasty examples of song-dynasty-lu-and-chips-scoring.txt, counted
by hand (fixtures/expected/song.csv): each side's Lu (empty points of its
territory less two basic eyes per living group, the other side's prisoners
filled in) and chips, the score, and the Thirteen Chapters' term.""", out)


def signed(result):
    if result in ("0", "Draw"):
        return 0
    x = number(result[2:])
    return x if result.startswith("B") else -x


def scores():
    column = {"territory": "score_japanese", "area": "score_chinese", "area-aga": "score_aga"}
    out = []
    for r in rows("scores.csv"):
        if r["file"] in NOT_COUNTED:
            continue
        name = os.path.basename(r["file"])[:-4]
        expect = {column[r["scoring"]]: signed(r["expected_score"])}
        if "/kgs-markup/" in r["file"]:
            expect["dead_source"] = "markup"
        out.append(entry(name, r["source"], r["file"], expect, report="go_scores"))
    write("scores.toml", """
GNU Go's final_score on its regression games (score.tst) and the results of
KGS games whose territory markup fixes the dead stones, under the game's own
rules (fixtures/expected/scores.csv). Left out: %s, a set-up position
with no move, which recount does not count.""" % ", ".join(sorted(os.path.basename(f) for f in NOT_COUNTED)), out)


def gnugo_replay():
    out = []
    for r in rows("gnugo-replay.csv"):
        name = r["file"][len("fixtures/go/"):]
        out.append(entry(name, "GNU Go 3.8's replay of the record (scripts/derive-replay-oracle.sh)",
                         r["file"], {
                             "captures_by_black": int(r["captures_by_black"]),
                             "captures_by_white": int(r["captures_by_white"]),
                             "final_position": r["final_position"],
                         }, report="go_games", game=1))
    write("gnugo-replay.toml", """
Every bundled Go game replayed by GNU Go 3.8: the stones each side captured
and the final position (fixtures/expected/gnugo-replay.csv).""", out)


CUBE_KEYS = ["match_length", "away_on_roll", "away_opponent", "cube", "cube_owner"]


def gnubg_cube():
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([RECOUNT, "fixtures/bg", "--all-cube-decisions", "-q", "--out", tmp],
                       cwd=ROOT, check=True)
        with open(os.path.join(tmp, "bg_cube.csv"), newline="", encoding="utf-8") as f:
            ours = list(csv.DictReader(f))
    where = {}
    for r in ours:
        where.setdefault((r["position_id"],) + tuple(r[k] for k in CUBE_KEYS), r)
    out = []
    for c in rows("bg-cube-cases.csv"):
        r = where.get((c["position_id"],) + tuple(c[k] for k in CUBE_KEYS))
        if r is None or c["crawford"] != "0" or c["jacoby"] != "0":
            continue
        expect = {k: (number(c[k]), 2e-5) for k in ("nd", "dt", "dp") if c[k]}
        for k in ("nd_mwc", "dt_mwc", "dp_mwc"):
            if c[k]:
                expect[k] = (number(c[k]), 2e-5)
        expect["proper_action"] = c["proper_action"]
        expect["position_id"] = c["position_id"]
        source = ("GNU Backgammon 1.1.0a16, 0-ply eval (scripts/gnubg_cube_oracle.py): "
                  "fixtures/expected/bg-cube-cases.csv case %s" % c["case"])
        out.append(entry("case %s" % c["case"], source, r["source"], expect,
                         game=int(r["game"]), options=["--all-cube-decisions"],
                         report="bg_cube", where={"line": int(r["line"]), "player": int(r["player"])}))
    write("gnubg-cube.toml", """
GNU Backgammon's 0-ply cube decisions (fixtures/expected/bg-cube-cases.csv)
whose position, match length, score and cube are those of a decision in a
bundled match: its no double / double, take / double, pass equities (and
match winning chances) to 2e-5, and its proper action.""", out)


def main():
    os.makedirs(OUT, exist_ok=True)
    seed_counts()
    song()
    scores()
    gnugo_replay()
    gnubg_cube()


if __name__ == "__main__":
    main()
