#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Position and match IDs of every action of backgammon matches, per GNU
Backgammon itself: the oracle for src/bg/ids.rs and for our replay.

Regenerate fixtures/expected/bg-ids.csv (from the repository root; a few
seconds once the venv exists):

    bash scripts/gnubg-venv.sh
    find fixtures/bg -type f \\( -name '*.txt' -o -name '*.mat' -o -name '*.sgf' \\) \\
        | LC_ALL=C sort | tr '\\n' '\\0' \\
        | xargs -0 .venv-gnubg/bin/python scripts/gnubg_ids.py \\
        > fixtures/expected/bg-ids.csv

Usage: gnubg_ids.py FILE...    (CSV on stdout, gnubg's chatter on stderr)

How it works
------------
GNU Backgammon reads the files itself, with its own command interpreter
(``gnubg.command``): ``import mat FILE`` for Jellyfish text (.mat, .txt),
``load match FILE`` for its own .sgf, ``import oldmoves FILE`` for FIBS
oldmoves logs (.fibs), ``import sgg FILE`` for GamesGrid logs (.sgg),
``import tmg FILE`` for TrueMoneyGames logs (.tmg), ``import snowietxt
FILE`` for Snowie text positions (a .txt whose first line has 40 fields
separated by ``;``). So the oracle does not rely on our
parser or replay at all. The script then walks the games with
``gnubg.navigate`` (the stepping of gnubg's ``next`` command: one move
record at a time, setting the dice of a coming checker play) and, before
each move record, asks gnubg for ``gnubg.positionid()`` and
``gnubg.matchid()`` of its current match state: what gnubg shows for the
position in which that action is taken. The record list comes from
``gnubg.match()``.

Two builds of gnubg do this:

* .mat/.txt: the PyPI package ``gnubg`` (gnubg as a Python extension, in
  the venv that scripts/gnubg-venv.sh makes), in this process.
* .sgf: that package cannot read SGF (its build stubs out gnubg's SGF
  parser; ``load match`` crashes it), so these files go to the gnubg
  program itself, Debian's package ``gnubg`` (/usr/games/gnubg, which
  scripts/gnubg-venv.sh also installs), which runs this same script with
  its embedded Python: ``gnubg -t -q -p scripts/gnubg_ids.py``, the files
  and the output file passed in GNUBG_IDS_FILES and GNUBG_IDS_OUT. Set
  GNUBG_CLI to use another gnubg program.

Columns: ``file,game,record,player,kind,dice,position_id,match_id``

* ``file``: the path as given on the command line.
* ``game``: 1-based game number.
* ``record``: 0-based index of the move record in the game's record list
  as ``gnubg.match()["games"][game-1]["game"]`` gives it (gnubg's game
  list without its leading game-info record).
* ``player``: gnubg's player making the action, 0 or 1 (the binding's "X"
  is player 0, the left column of a .mat file, PW in gnubg's SGF; "O" is
  player 1). Empty for a record without a player.
* ``kind``: play, double, take, drop, resign, or other (gnubg's "set"
  records: board, dice or cube set by hand); for a Snowie position file
  one row of kind ``position``: the IDs of the position and match state
  the file sets (``record`` is the number of gnubg's records).
* ``dice``: the two dice of a play in the order gnubg recorded them, e.g.
  ``41``; empty for every other kind.
* ``position_id``, ``match_id``: gnubg's IDs of the position before the
  action. The position ID is written from the side of the player on roll
  (gnubg's fMove; for take/drop that is still the doubler).

Sanity checks (warnings on stderr, the row is written anyway): the position
ID must equal the one gnubg.match() records for plays and doubles, and the
match ID's "turn" bit must name the player making the action.

A file that gnubg does not import gets a warning on stderr and no rows; the
exit status is then 1.

What gnubg makes of the fixtures (worth knowing when comparing):

* A game that a .mat file ends with "Wins N points" before the last checker
  is off gets a "resign" record (by the loser, before the win): gnubg
  infers the resignation. Backgammon Galaxy's "Losses N point" lines are
  not understood ("Unrecognised move ... in .mat file" on stderr) and are
  skipped; the resign record comes from the "Wins" line all the same.
* A take or drop is asked in the doubler's position with the cube still at
  its old value: the match ID has the double flag set and its turn bit on
  the player who takes or drops.
* gnubg 1.07 (Debian, .sgf) and the PyPI build 1.1.0a16 (.mat) give the
  same rows for every .mat/.txt fixture and for the .sgf/.mat pair of the
  same match (checked by hand, running the CLI path on the .mat files).
"""

import csv
import os
import subprocess
import sys
import tempfile

HEADER = "file,game,record,player,kind,dice,position_id,match_id"
INSIDE_CLI = "GNUBG_IDS_FILES" in os.environ


def _redirect_stdout():
    """gnubg prints boards and messages on the C-level stdout: send those to
    stderr and return a text stream on the original stdout for the CSV."""
    sys.stdout.flush()
    saved = os.dup(1)
    os.dup2(2, 1)
    return os.fdopen(saved, "w", buffering=1, newline="")


if INSIDE_CLI:
    OUT = open(os.environ["GNUBG_IDS_OUT"], "w", newline="")
else:
    OUT = _redirect_stdout()

import gnubg  # noqa: E402  (after the redirection: it prints when loading)

KINDS = {
    "move": "play",
    "double": "double",
    "take": "take",
    "drop": "drop",
    "resign": "resign",
}


def is_sgf(path):
    return path.lower().endswith(".sgf")


def is_snowie_txt(path):
    """A Snowie text position: a first line of 40 fields separated by ';'."""
    with open(path, "rb") as f:
        return f.readline().count(b";") >= 39


def import_command(path):
    if is_snowie_txt(path):
        return 'import snowietxt "%s"' % path
    if is_sgf(path):
        return 'load match "%s"' % path
    if path.lower().endswith(".sgg"):
        return 'import sgg "%s"' % path
    if path.lower().endswith(".tmg"):
        return 'import tmg "%s"' % path
    if path.lower().endswith(".fibs"):
        return 'import oldmoves "%s"' % path
    return 'import mat "%s"' % path


def decode_match_id(mid):
    """The match ID fields the sanity checks need (gnubg's matchid.c: 72 bits,
    base64, little-endian bit fields)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    bits = 0
    for ch in mid:
        bits = (bits << 6) | alphabet.index(ch)
    key = bits.to_bytes(9, "big")

    def field(pos, n):
        v = 0
        for i in range(n):
            b = pos + i
            if key[b // 8] >> (b % 8) & 1:
                v |= 1 << i
        return v

    return {"move": field(6, 1), "turn": field(11, 1)}


def setup():
    for c in ("set display off", "set confirm new off", "set confirm save off",
              "set player 0 human", "set player 1 human"):
        gnubg.command(c)


def walk(path):
    """Imports PATH in this gnubg and returns its rows, or None."""
    # A fresh session first, so that a failed import cannot leave the
    # previous file's match in place unnoticed.
    gnubg.command("new session")
    before = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    gnubg.command(import_command(path))
    m = gnubg.match(analysis=0, boards=1, statistics=0, verbose=0)
    if not m or not m.get("games") or m == before:
        print("gnubg_ids: %s: gnubg imported no match" % path, file=sys.stderr)
        return None
    if is_snowie_txt(path):
        # A position file: one row, the position and match state it sets.
        pid, mid = gnubg.positionid(), gnubg.matchid()
        n = len(m["games"][0]["game"])
        return [(path, 1, n, decode_match_id(mid)["turn"], "position", "", pid, mid)]

    rows = []
    for gi, game in enumerate(m["games"]):
        gnubg.navigate()  # first game, before its first record
        if gi:
            gnubg.navigate(game=gi)
        gnubg.navigate(next=0)  # sets the dice of a leading checker play
        for ri, rec in enumerate(game["game"]):
            kind = KINDS.get(rec.get("action"), "other")
            player = {"X": 0, "O": 1}.get(rec.get("player"), "")
            dice = ""
            if kind == "play":
                dice = "%d%d" % tuple(rec["dice"])
            pid = gnubg.positionid()
            mid = gnubg.matchid()
            where = "%s game %d record %d" % (path, gi + 1, ri)
            if kind in ("play", "double") and rec.get("board") != pid:
                print("gnubg_ids: %s: positionid %s but match() board %s"
                      % (where, pid, rec.get("board")), file=sys.stderr)
            if player != "" and kind != "other":
                if decode_match_id(mid)["turn"] != player:
                    print("gnubg_ids: %s: match ID %s: turn is not player %d"
                          % (where, mid, player), file=sys.stderr)
            rows.append((path, gi + 1, ri, player, kind, dice, pid, mid))
            # navigate() answers None when it moved as far as asked, else
            # (records short, games short).
            short = gnubg.navigate(next=1)
            if ri + 1 < len(game["game"]) and short and short[0]:
                print("gnubg_ids: %s: could not step past this record" % where,
                      file=sys.stderr)
                break
    return rows


def format_row(r):
    out = []
    for v in r:
        s = str(v)
        if any(c in s for c in ',"\n'):
            s = '"' + s.replace('"', '""') + '"'
        out.append(s)
    return ",".join(out) + "\n"


def run_cli(paths):
    """Runs this script inside the gnubg program on PATHS; returns the CSV
    lines it wrote (header excluded), or None when it could not run."""
    exe = os.environ.get("GNUBG_CLI", "/usr/games/gnubg")
    if not os.path.exists(exe):
        print("gnubg_ids: %s not found (bash scripts/gnubg-venv.sh installs "
              "it): cannot read %s" % (exe, " ".join(paths)), file=sys.stderr)
        return None
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "rows.csv")
        env = dict(os.environ, GNUBG_IDS_FILES="\n".join(paths), GNUBG_IDS_OUT=out)
        r = subprocess.run([exe, "-t", "-q", "-p", os.path.abspath(__file__)],
                           env=env, stdin=subprocess.DEVNULL, stdout=2)
        if r.returncode != 0 or not os.path.exists(out):
            print("gnubg_ids: %s failed (exit %d) on %s"
                  % (exe, r.returncode, " ".join(paths)), file=sys.stderr)
            return None
        with open(out, newline="") as f:
            return f.read().splitlines(keepends=True)


def main_inside_cli():
    """In gnubg's embedded Python: no argv, files from the environment."""
    setup()
    for path in os.environ["GNUBG_IDS_FILES"].split("\n"):
        rows = walk(path)
        if rows is None:
            OUT.write(format_row(("FAILED", path)))
            continue
        for r in rows:
            OUT.write(format_row(r))
    OUT.close()


def main(argv):
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    setup()
    sgf = [p for p in argv if is_sgf(p)]
    from_cli = {}
    if sgf:
        lines = run_cli(sgf)
        for line in lines or []:
            first = next(csv.reader([line]))[0]
            if first != "FAILED":
                from_cli.setdefault(first, []).append(line)
        if lines is None:
            from_cli = None
    OUT.write(HEADER + "\n")
    ok = True
    for path in argv:
        if is_sgf(path):
            lines = (from_cli or {}).get(path)
            if not lines:  # the gnubg program said why on stderr
                ok = False
                continue
            for line in lines:
                OUT.write(line)
        else:
            rows = walk(path)
            if rows is None:
                ok = False
                continue
            for r in rows:
                OUT.write(format_row(r))
    OUT.flush()
    return 0 if ok else 1


if __name__ == "__main__" or INSIDE_CLI:
    if INSIDE_CLI:
        main_inside_cli()
    else:
        sys.exit(main(sys.argv[1:]))
