#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GNU Backgammon's 0-ply cubeless evaluations of real positions: the oracle
for our port of gnubg's evaluator (neural nets and bearoff databases).
Writes fixtures/expected/bg-nn-cases.csv.

Regenerate (from the repository root; a few seconds once the venv
exists; the output is deterministic):

    NO_APT=1 bash scripts/gnubg-venv.sh
    .venv-gnubg/bin/python scripts/gnubg_nn_oracle.py [ARCHIVE]

ARCHIVE: the real matches, a .tar.gz of Jellyfish .txt/.mat match files
(default ../shared/data/bg/real-matches-dev.tar.gz, or $RECOUNT_BG_DATA).
Self-checks print on stderr; the exit status is 1 when one failed.

Positions
---------
Every match file of the archive (sorted by member name) is imported by
gnubg itself (``import mat``, the PyPI package ``gnubg`` 1.1.0a16 of
.venv-gnubg), both players human. For every checker play of every game,
by either player, the position before the play is taken, from the side of
the player on roll: the ``board`` gnubg records for the play in
``gnubg.match()`` (the position ID gnubg shows before that play; the same
as ``gnubg.positionid()`` when the match is walked with
``gnubg.navigate``, which scripts/gnubg_ids.py checks on the fixtures, and
which this script checks on every CHECK_NAVIGATE_EVERY-th file). Positions
are kept once, in the order first met (file, game, play).

The 529 matches of real-matches-dev hold 74,054 plays and 68,970 distinct
positions; most are contact positions, so a subset is kept: per class,
QUOTAS[class] positions (all of them when the class has fewer), picked
evenly spaced in first-met order, written in first-met order.

Columns
-------
``position_id,class,p_win,p_win_gammon,p_win_backgammon,p_lose_gammon,
p_lose_backgammon``

* position_id: gnubg's position ID (14 characters), player on roll second
  in the key (gnubg's anBoard[1]).
* class: ``gnubg.classify`` of the position (gnubg's ClassifyPosition),
  named as in scripts/gnubg_cube_oracle.py: contact (CLASS_CONTACT, the
  contact net), crashed (CLASS_CRASHED, the crashed net), race
  (CLASS_RACE, the race net), bearoff_os (CLASS_BEAROFF1: both sides
  within their home boards, one-sided database gnubg_os0.bd), bearoff_ts
  (CLASS_BEAROFF2: both sides at most 6 chequers within their home boards,
  two-sided database gnubg_ts0.bd).
* p_*: gnubg's 0-ply cubeless evaluation for the player on roll: win, win
  gammon, win backgammon, lose gammon, lose backgammon (gammon rates
  include backgammons). The PyPI package has no ``gnubg.probabilities``
  (the old gnubg-nn module's function); this is
  ``gnubg.evaluate(board, cubeinfo, evalcontext(0, 0, 1, 0, 0.0))``
  (cubeless, 0 plies, deterministic, no pruning, no noise), whose first five
  values are the float outputs of gnubg's EvaluatePosition: the net outputs
  or database values after gnubg's own corrections (the race net's
  backgammon override and SanityCheck for the race, crashed and contact
  classes). Written as the shortest decimal (at most 9 significant digits,
  no exponent) that reads back to the same 32-bit float.

Self-checks: probabilities within [0, 1] and ordered (backgammon <= gammon,
gammon <= win / loss); every class present; on every CHECK_EVAL_EVERY-th row
gnubg's own ``eval`` command (6 decimals) agrees with the written values;
the position IDs read back to the boards evaluated.
"""

import collections
import os
import re
import struct
import sys
import tarfile
import tempfile
from decimal import Decimal

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUT_CSV = os.path.join(ROOT, "fixtures/expected/bg-nn-cases.csv")
DEFAULT_ARCHIVE = os.environ.get(
    "RECOUNT_BG_DATA", os.path.join(ROOT, "../shared/data/bg/real-matches-dev.tar.gz"))

# gnubg's positionclass numbers (eval.h) and our names for them.
CLASS_NAMES = {0: "over", 1: "hypergammon1", 2: "hypergammon2", 3: "hypergammon3",
               4: "bearoff_ts", 5: "bearoff_ts_large", 6: "bearoff_os",
               7: "bearoff_os_large", 8: "race", 9: "crashed", 10: "contact"}
# What gnubg's `eval` prints on its "Evaluator:" line for each class.
GNUBG_EVALUATOR = {4: "Bearoff2", 6: "Bearoff1", 8: "Race", 9: "Crashed", 10: "Contact"}
REQUIRED = ("contact", "crashed", "race", "bearoff_os", "bearoff_ts")

# Positions per class (the classes' sizes in real-matches-dev: contact
# 53,123, race 5,270, crashed 5,128, bearoff_os 4,587, bearoff_ts 862).
QUOTAS = {"contact": 6000, "crashed": 2000, "race": 2000, "bearoff_os": 1100,
          "bearoff_ts": 900}
CHECK_EVAL_EVERY = 60
CHECK_NAVIGATE_EVERY = 25

COLUMNS = ["position_id", "class", "p_win", "p_win_gammon", "p_win_backgammon",
           "p_lose_gammon", "p_lose_backgammon"]

# --------------------------------------------------------------------------
# gnubg in this process (it prints on the C-level stdout: sent to stderr)

from gnubg_inprocess import Checks, gnubg, quiet, run  # noqa: E402  (gnubg with its printing captured)

CHECKS = Checks("gnubg_nn_oracle")
warn, fail, FAILURES = CHECKS.warn, CHECKS.fail, CHECKS.failures


def match_record():
    # gnubg says "No game in progress." when there is none: not worth showing.
    return quiet(gnubg.match, analysis=0, boards=1, statistics=0, verbose=0)[0]


def setup_gnubg():
    # threads 1: with the build's default of 0 calculation threads `eval`
    # never returns.
    for c in ("set threads 1", "set player 0 human", "set player 1 human",
              "set confirm new off", "set confirm save off", "set display off",
              "set evaluation chequerplay evaluation plies 0",
              "set evaluation chequerplay evaluation cubeful off",
              "set evaluation chequerplay evaluation prune off",
              "set evaluation chequerplay evaluation deterministic on",
              "set evaluation chequerplay evaluation noise 0",
              "set evaluation cubedecision evaluation plies 0",
              "set evaluation cubedecision evaluation cubeful off",
              "set evaluation cubedecision evaluation prune off",
              "set evaluation cubedecision evaluation deterministic on",
              "set evaluation cubedecision evaluation noise 0",
              "set output digits 6", "set output winpc off", "set output mwc off",
              "set output matchpc off"):
        run(c)


def f32(x):
    """Shortest decimal (at most 9 significant digits, no exponent) that
    reads back to the same 32-bit float."""
    x = struct.unpack("<f", struct.pack("<f", x))[0]
    if x == 0:
        return "0"
    for p in range(1, 10):
        s = "%.*g" % (p, x)
        if struct.unpack("<f", struct.pack("<f", float(s)))[0] == x:
            break
    if "e" in s:
        s = format(Decimal(s), "f")
    return s


# --------------------------------------------------------------------------
# positions from the matches


def archive_members(archive, into):
    """Extracts the regular .txt/.mat members of ARCHIVE into INTO; returns
    their paths sorted by member name."""
    paths = []
    with tarfile.open(archive, "r:gz") as tar:
        for m in tar.getmembers():
            if not m.isfile() or not m.name.lower().endswith((".txt", ".mat")):
                continue
            name = os.path.normpath(m.name)
            if name.startswith("..") or os.path.isabs(name):
                continue
            dest = os.path.join(into, name)
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            with tar.extractfile(m) as src, open(dest, "wb") as out:
                out.write(src.read())
            paths.append((m.name, dest))
    paths.sort()
    return [p for _, p in paths]


def import_match(path):
    run("new session")
    before = match_record()
    run('import mat "%s"' % path)
    # An import may name a player as the computer: keep both human so that
    # gnubg never plays on by itself.
    run("set player 0 human")
    run("set player 1 human")
    m = match_record()
    if not m or not m.get("games") or m == before:
        return None
    return m


def check_navigate(path, m):
    """The position before each play, walking the match with
    gnubg.navigate, is the board that match() records for the play."""
    def navigate(**kwargs):
        # gnubg says "No game in progress." stepping past a game's end.
        return quiet(gnubg.navigate, **kwargs)[0]

    for gi, game in enumerate(m["games"]):
        navigate()
        if gi:
            navigate(game=gi)
        navigate(next=0)
        for ri, rec in enumerate(game["game"]):
            if rec.get("action") == "move":
                pid = gnubg.positionid()
                if pid != rec.get("board"):
                    fail("%s game %d record %d: positionid %s, match() board %s"
                         % (path, gi + 1, ri, pid, rec.get("board")))
                    return
            short = navigate(next=1)
            if ri + 1 < len(game["game"]) and short and short[0]:
                fail("%s game %d record %d: could not step on" % (path, gi + 1, ri))
                return


def collect_positions(paths):
    """Distinct position IDs before every play, in first-met order."""
    seen = {}
    plays = 0
    imported = 0
    for n, path in enumerate(paths):
        m = import_match(path)
        if m is None:
            fail("%s: gnubg imported no match" % path)
            continue
        imported += 1
        if n % CHECK_NAVIGATE_EVERY == 0:
            check_navigate(path, m)
        for game in m["games"]:
            for rec in game["game"]:
                if rec.get("action") != "move":
                    continue
                plays += 1
                pid = rec.get("board")
                if not pid or len(pid) != 14:
                    fail("%s: play without a position ID: %r" % (path, rec))
                    continue
                seen.setdefault(pid, len(seen))
    warn("%d match files imported, %d plays, %d distinct positions"
         % (imported, plays, len(seen)))
    return list(seen)


def select(pids):
    """Per class, QUOTAS[class] positions evenly spaced in first-met order;
    returns [(pid, class name)] in first-met order and the class sizes."""
    by_class = collections.defaultdict(list)
    for i, pid in enumerate(pids):
        cls = CLASS_NAMES[gnubg.classify(gnubg.positionfromid(pid))]
        by_class[cls].append(i)
    sizes = {c: len(v) for c, v in by_class.items()}
    warn("distinct positions by class: %s" % ", ".join(
        "%s %d" % (c, sizes[c]) for c in sorted(sizes, key=lambda c: -sizes[c])))
    keep = []
    for cls, idx in by_class.items():
        q = QUOTAS.get(cls, 0)
        if q == 0:
            warn("class %s (%d positions) not kept" % (cls, len(idx)))
            continue
        if len(idx) <= q:
            keep.extend((i, cls) for i in idx)
        else:
            keep.extend((idx[k * len(idx) // q], cls) for k in range(q))
    keep.sort()
    return [(pids[i], cls) for i, cls in keep], sizes


# --------------------------------------------------------------------------
# evaluation and checks

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def money_match_id():
    """gnubg match ID: money game playing, cube 1 centred, player 0 on roll
    and to move, no dice (gnubg's matchid.c bit fields; the other rule
    flags are left 0: cubeless probabilities do not depend on them)."""
    key = [0] * 9

    def put(pos, n, v):
        for i in range(n):
            if v >> i & 1:
                key[(pos + i) // 8] |= 1 << ((pos + i) % 8)

    put(4, 2, 3)    # cube owner: centred
    put(8, 3, 1)    # game state: playing
    bits = int.from_bytes(bytes(key), "big")
    return "".join(B64[(bits >> (6 * (11 - i))) & 63] for i in range(12))


def parse_eval(text):
    m = re.search(r"^Evaluator:\s*(\S+)", text, re.M)
    evaluator = m.group(1) if m else None
    m = re.search(r"^static:\s+(.*)$", text, re.M)
    if not m:
        raise RuntimeError("no static row in gnubg's eval:\n" + text)
    return evaluator, [float(v) for v in m.group(1).split()[:5]]


# gnubg does not clamp the bearoff databases' sums: a one-sided bearoff
# win chance can come out as 1.0000001 (f32 rounding of the sum of the
# roll distributions' products), a win-gammon chance 1.0 above a win chance
# 0.99999994. Such rounding slips (at most TOLERANCE) are counted, not
# failed.
TOLERANCE = 1e-6
SLIPS = collections.Counter()


def check_probs(pid, cls, p):
    w, wg, wbg, lg, lbg = p
    tests = [("outside [0, 1]", all(0.0 <= v <= 1.0 for v in p),
              all(-TOLERANCE <= v <= 1.0 + TOLERANCE for v in p)),
             ("out of order", wbg <= wg <= w and lbg <= lg <= 1.0 - w,
              wbg <= wg + TOLERANCE and wg <= w + TOLERANCE and lbg <= lg + TOLERANCE
              and lg <= 1.0 - w + TOLERANCE)]
    for what, exact, near in tests:
        if not near:
            fail("%s: probabilities %s: %r" % (pid, what, p))
        elif not exact:
            SLIPS[(cls, what)] += 1


def evaluate_all(chosen):
    ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0)
    ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    mid = money_match_id()
    rows = []
    for n, (pid, cls) in enumerate(chosen):
        board = gnubg.positionfromid(pid)
        if gnubg.positionid(board) != pid:
            fail("%s: reads back as %s" % (pid, gnubg.positionid(board)))
        p = gnubg.evaluate(board, ci, ec)[:5]
        check_probs(pid, cls, p)
        if n % CHECK_EVAL_EVERY == 0:
            run("set gnubgid %s:%s" % (pid, mid))
            if gnubg.positionid() != pid:
                fail("%s: set gnubgid gave position %s" % (pid, gnubg.positionid()))
            evaluator, shown = parse_eval(run("eval"))
            code = {v: k for k, v in CLASS_NAMES.items()}[cls]
            if evaluator != GNUBG_EVALUATOR.get(code):
                fail("%s: eval's evaluator %s, classify %s" % (pid, evaluator, cls))
            if any(abs(a - b) > 6e-7 for a, b in zip(p, shown)):
                fail("%s: evaluate %r, eval %r" % (pid, p, shown))
        rows.append([pid, cls] + [f32(v) for v in p])
    return rows


def main(argv):
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(__doc__, file=sys.stderr)
        return 2
    archive = argv[0] if argv else DEFAULT_ARCHIVE
    if not os.path.isfile(archive):
        warn("no match archive %s (give its path, or set RECOUNT_BG_DATA)" % archive)
        return 2
    setup_gnubg()
    warn("gnubg %s, archive %s" % (gnubg.__version__, archive))
    with tempfile.TemporaryDirectory() as tmp:
        paths = archive_members(archive, tmp)
        if not paths:
            warn("no .txt/.mat match files in %s" % archive)
            return 1
        pids = collect_positions(paths)
    chosen, sizes = select(pids)
    counts = collections.Counter(cls for _, cls in chosen)
    for cls in REQUIRED:
        if not counts[cls]:
            fail("no position of class %s" % cls)
    rows = evaluate_all(chosen)
    with open(OUT_CSV, "w", newline="") as f:
        f.write(",".join(COLUMNS) + "\n")
        for r in rows:
            f.write(",".join(r) + "\n")
    warn("wrote %s: %d rows (%s), %d bytes" % (
        os.path.relpath(OUT_CSV, ROOT), len(rows),
        ", ".join("%s %d" % (c, counts[c]) for c in REQUIRED), os.path.getsize(OUT_CSV)))
    for (cls, what), n in sorted(SLIPS.items()):
        warn("%d %s position(s) with probabilities %s by f32 rounding (gnubg's values, kept)"
             % (n, cls, what))
    if FAILURES:
        warn("%d check(s) failed" % len(FAILURES))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
