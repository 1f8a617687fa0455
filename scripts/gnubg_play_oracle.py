#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GNU Backgammon as the oracle for recount's play analysis: runs gnubg's
own ``analyse match`` at 0-ply on match files and writes what it finds:

    fixtures/expected/bg-plays.csv   per play: distinct plays, the played
                                     one's place, its loss, the roll's luck
    fixtures/expected/bg-stats.csv   per match: gnubg's ``show statistics
                                     match``, each line as printed (its
                                     section, label, the two players')

``PLIES=1`` or ``PLIES=2`` analyses at that depth instead (pruning nets,
the "large" move filter), on two of the matches unless files are named,
and writes ``bg-plays-1ply.csv`` and ``bg-stats-1ply.csv`` (or ``-2ply``).
``MET=FILE`` takes that match equity table (``set matchequitytable``, as
recount's ``--met FILE``), reads the match-play files only, and adds
``-met`` to the names (the tests' table: scripts/make_test_met.py).

Regenerate (from the repository root, about ten seconds once the venv
exists; the outputs are deterministic):

    NO_APT=1 bash scripts/gnubg-venv.sh
    .venv-gnubg/bin/python scripts/gnubg_play_oracle.py [FILE.mat ...]

Without arguments it reads the fixtures the tests use (the list below).
Extra files are useful for comparisons on data the tests do not carry
(``OUT=DIR`` writes the two CSVs there instead of fixtures/expected, and
``analyse-time.txt``: ``PLAYS SECONDS``, the move nodes analysed and the
time gnubg spent in ``analyse match`` alone, for scripts/bench-plays.sh).

How gnubg is run
----------------
The PyPI package ``gnubg`` 1.1.0a16 in-process (scripts/gnubg_inprocess.py):
one thread, ``set cache 0`` (gnubg's evaluation cache changes its own
results by up to 3.4e-4 at 0-ply; without it two runs are identical),
chequer play, cube decisions and luck at 0-ply, cubeful, no pruning nets,
no noise. The Jacoby rule is set from the file's ``[Jacoby "On"]`` tag,
else off, as recount reads it (gnubg's own default is on); beavers on,
recount's default. Each file is read with ``import mat``, analysed with
``analyse match``, written with ``save match`` to a temporary SGF, and the
figures are read from that SGF: each move node's ``A[i][...]`` lists every
legal play with its score (the 6th number after ``E ver 3``: normalised
cubeful equity for the mover, six decimals), ``i`` the played one, best
first; ``LU[x]`` is the roll's luck (five decimals). The PyPI build's
``gnubg.match()`` carries no analysis, so the SGF is the way out.

Players: gnubg's player 0 is ``W`` in its SGF and the left column of a
.mat file, recount's player 0 too.
"""

import csv
import glob
import os
import re
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gnubg_inprocess import Checks, run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = (["fixtures/bg/gnubg/charlot1-charlot2_7p_2025-11-08-2305.mat"]
            + sorted(glob.glob("fixtures/bg/real/*.txt"))
            + sorted(glob.glob("fixtures/bg/money/*.mat")))
# At 1- and 2-ply (a hundred times the work) a money session and a match.
FIXTURES_PLIED = ["fixtures/bg/money/match10013413-money.mat",
                  "fixtures/bg/real/match3029786.txt"]

PLIES = int(os.environ.get("PLIES", "0"))
# Another match equity table (an XML file), as recount's --met reads it.
MET = os.environ.get("MET")

SETUP = ("set threads 1", "set player 0 human", "set player 1 human",
         "set confirm new off", "set display off", "set cache 0",
         "set beavers on",
         "set analysis chequerplay evaluation plies 0",
         "set analysis chequerplay evaluation cubeful on",
         "set analysis chequerplay evaluation prune off",
         "set analysis chequerplay evaluation deterministic on",
         "set analysis chequerplay evaluation noise 0",
         "set analysis cubedecision evaluation plies 0",
         "set analysis cubedecision evaluation cubeful on",
         "set analysis cubedecision evaluation prune off",
         "set analysis cubedecision evaluation deterministic on",
         "set analysis cubedecision evaluation noise 0",
         "set analysis luck on", "set analysis moves on",
         "set analysis cube on", "set output digits 3",
         "set output mwc off", "set output matchpc on")

# At 2-ply: gnubg's "world class" analysis, its pruning nets and the
# "large" move filter it analyses with (16 plays within 0.32 after 0-ply,
# no 1-ply step); at 1-ply the same filter's row for 1-ply (16 within
# 0.32). The luck stays 0-ply.
PLIED = tuple(
    f"set analysis {kind} evaluation {what}"
    for kind in ("chequerplay", "cubedecision")
    for what in (f"plies {PLIES}", "prune on")) + (
    "set analysis movefilter 1 0 0 16 0.32",
    "set analysis movefilter 2 0 0 16 0.32",
    "set analysis movefilter 2 1 -1 0 0")

MOVE = re.compile(r"^([BW])\[(\d)(\d)([a-z]*)\]")
PROP = re.compile(r"([A-Z]+)((?:\[(?:[^\]\\]|\\.)*\])+)")


def jacoby(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    m = re.search(r'\[Jacoby\s+"(\w+)"\]', text)
    return bool(m) and m.group(1).lower() in ("on", "yes", "true", "1")


def moves_of(sgf):
    """(game, play, player, dice, choices, played, best, chosen, luck) of
    each move node of gnubg's SGF, games and plays 1-based."""
    out = []
    for game, tree in enumerate(sgf.split("(;FF[4]")[1:], 1):
        play = 0
        for node in tree.split("\n;")[1:]:
            m = MOVE.match(node)
            if not m:
                continue
            play += 1
            colour, d0, d1 = m.group(1), m.group(2), m.group(3)
            props = dict(PROP.findall(node))
            scores, chosen = [], ""
            if "A" in props:
                vals = re.findall(r"\[((?:[^\]\\]|\\.)*)\]", props["A"])
                chosen = int(vals[0])
                for entry in vals[1:]:
                    t = entry.split()
                    scores.append(float(t[9]))
            luck = props.get("LU", "[]")[1:-1]
            out.append((game, play, 0 if colour == "W" else 1, d0 + d1,
                        len(scores), chosen,
                        f"{scores[0]:.6f}" if scores else "",
                        f"{scores[chosen]:.6f}" if scores else "", luck))
    return out


def stats_of(text):
    """(section: label, value 0, value 1) of each line of ``show
    statistics``; the sections are its headings (Chequerplay, Luck, Cube,
    Overall), which repeat some labels."""
    rows, section = [], ""
    for line in text.splitlines():
        if line.strip().endswith(" statistics") and not line[41:].strip():
            section = line.split()[0]
            continue
        if len(line) < 42 or not line[41:].strip():
            continue
        label = line[:41].strip()
        v0, v1 = line[41:65].strip(), line[65:].strip()
        if label and label != "Player":
            rows.append((f"{section}: {label}", v0, v1))
    return rows


def main(files):
    checks = Checks("gnubg_play_oracle")
    setup = SETUP
    if os.environ.get("GNUBG_CACHE") == "default":
        # gnubg as its users run it, for timing: its cache on.
        setup = tuple(c for c in SETUP if c != "set cache 0")
    met = (f'set matchequitytable "{os.path.abspath(MET)}"',) if MET else ()
    for c in setup + (PLIED if PLIES else ()) + met:
        said = run(c)
        if "rror" in said or "nknown" in said:
            checks.fail(f"{c}: {said.strip()[:200]}")
    out_dir = os.environ.get("OUT", os.path.join(ROOT, "fixtures/expected"))
    suffix = (f"-{PLIES}ply" if PLIES else "") + ("-met" if MET else "")
    plays = open(os.path.join(out_dir, f"bg-plays{suffix}.csv"), "w", newline="")
    stats = open(os.path.join(out_dir, f"bg-stats{suffix}.csv"), "w", newline="")
    pw, sw = csv.writer(plays, lineterminator="\n"), csv.writer(stats, lineterminator="\n")
    pw.writerow(["source", "game", "play", "player", "dice", "choices", "chosen_index",
                 "best_score", "played_score", "luck"])
    sw.writerow(["source", "statistic", "player_0", "player_1"])
    analysing, plays_done = 0.0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            run("set jacoby " + ("on" if jacoby(path) else "off"))
            said = run(f'import mat "{os.path.abspath(path)}"')
            if "rror" in said:
                checks.fail(f"{path}: gnubg could not import it: {said.strip()[:200]}")
                continue
            t0 = time.perf_counter()
            run("analyse match")
            analysing += time.perf_counter() - t0
            sgf = os.path.join(tmp, "m.sgf")
            run(f'save match "{sgf}"')
            with open(sgf, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for row in moves_of(text):
                pw.writerow([path, *row])
                plays_done += 1
            for row in stats_of(run("show statistics match")):
                sw.writerow([path, *row])
    plays.close()
    stats.close()
    if "OUT" in os.environ:
        with open(os.path.join(out_dir, "analyse-time.txt"), "w") as f:
            f.write(f"{plays_done} {analysing:.3f}\n")
    return 1 if checks.failures else 0


if __name__ == "__main__":
    os.chdir(ROOT)
    default = FIXTURES_PLIED if PLIES else FIXTURES
    if MET:
        # A match equity table changes nothing in money play.
        default = [f for f in default if "/money/" not in f]
    sys.exit(main(sys.argv[1:] or default))
