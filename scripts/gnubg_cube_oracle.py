#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""GNU Backgammon as the oracle for cube analysis, the one-sided bearoff
database and the race evaluator: writes the fixtures

    fixtures/expected/bg-cube-cases.csv   gnubg's 0-ply cube decisions
    fixtures/expected/bearoff-os.csv      gnubg_os0.bd, decoded
    fixtures/expected/bg-race-cases.csv   gnubg's 0-ply race/bearoff evaluations

and checks data/met/Kazaross-XG2.xml against the MET the gnubg package ships
(it copies the file there only when it is missing; it never overwrites it).

Regenerate every output (from the repository root; about a minute once the
venv exists; the outputs are deterministic):

    NO_APT=1 bash scripts/gnubg-venv.sh
    .venv-gnubg/bin/python scripts/gnubg_cube_oracle.py

or one of them: ``... gnubg_cube_oracle.py cube|bearoff|race|met ...``.
Self-checks print on stderr; the exit status is 1 when one failed.

gnubg used
----------
The PyPI package ``gnubg`` 1.1.0a16 (scripts/gnubg-venv.sh pins it; it
reports itself as "GNU Backgammon 1.1.0a16", a Python build of gnubg's
1.08-era engine) with its own data files: gnubg.wd (nets), gnubg_os0.bd,
gnubg_ts0.bd and met/Kazaross-XG2.xml, all under
``.venv-gnubg/lib/python3.11/site-packages/gnubg/data/``.

What the bindings expose, and how each number is got
----------------------------------------------------
``gnubg.evaluate(board, cubeinfo, evalcontext)`` returns the five cubeless
probabilities and the cubeless equity only (not the cubeful equity), and
``gnubg.hint()`` refuses cube decisions ("Hints for cube actions not yet
implemented"); there is no calcdecision-like function. So:

* p_win .. p_lose_backgammon: ``gnubg.evaluate`` at 0 ply (cubeless,
  deterministic, no noise), written as the shortest decimal that reads back
  to the same 32-bit float gnubg computed. gnubg's order and meaning: win,
  win gammon, win backgammon, lose gammon, lose backgammon, for the player on
  roll; gammon rates include backgammons. The script checks them against
  the 6-decimal probabilities gnubg prints in the same case.
* nd, dt, dp, proper_action: gnubg's own ``eval`` command (the text gnubg
  prints: "static" row, then "Cube analysis ... Cubeful equities ...
  Proper cube action"), run through ``gnubg.command`` with gnubg's C-level
  stdout redirected into a file, with ``set output digits 6`` (gnubg's
  maximum: 6 decimals) and the cube decision context at 0 plies, cubeful,
  no pruning, no noise. ``hint`` prints the same cube analysis (checked
  for every case); ``eval`` also names the evaluator.
  - Money rows: equity per unit of the current cube (normalised, as gnubg
    prints "Cubeful equities"): dp is always +1.000000; dt is gnubg's
    2 x (cubeful equity with the cube doubled and owned by the opponent).
  - Match rows: nd, dt, dp are normalised money equivalents (gnubg's EMG,
    its default display, mwc2eq of the MWCs; dp is then +1.000000 too);
    nd_mwc, dt_mwc, dp_mwc are the match winning chances of the player on
    roll as gnubg prints them with ``set output mwc on`` and
    ``set output matchpc off`` (fractions, 7 decimals). Empty on money rows.
  - When the cube is not available to the player on roll (Crawford game,
    dead cube, cube owned by the opponent) ``hint`` says "You cannot
    double." and ``eval`` prints no cube analysis: nd (and nd_mwc) is then
    the cubeful equity of the "static" row of ``eval``, dt and dp are
    empty, and proper_action is the name gnubg's FindBestCubeDecision
    gives that case (not printed by gnubg here), chosen by its rule: "Never
    double, take (dead cube)" / "Never redouble, take (dead cube)" in match
    play when the cube is centred or the roller's, else "Cube not
    available".
  - proper_action otherwise is gnubg's text after "Proper cube action: ",
    without its " (NN.N%)" suffix.

What gnubg's 0-ply cube decision uses (gnubg's eval.c, and
``show cubeefficiency`` of this build: "Parameters for cube evaluations
(2+ ply/0-1 ply): crashed 0.68/0.76, contact 0.68/0.76, one sided bearoff
0.60/0.60, race x = pips * 0.00125/0.00250 + 0.55/0.60 (min 0.60/0.60,
max 0.70/0.80)"):

* cubeful equity = cubeless 0-ply probabilities turned cubeful by
  Janowski's formula (money: Cl2CfMoney; match: Cl2CfMatch, gnubg's
  generalisation with live-cube MWCs from the MET), with cube efficiency x:
  - contact and crashed: 0.76 (the 0.68 is for evaluations of 2+ plies);
  - race: x = 0.60 + 0.0025 * pips of the player on roll, clamped to
    [0.60, 0.80] (so 0.80 from 80 pips up; the opponent's pips do not fit
    gnubg's numbers);
  - one-sided bearoff (gnubg_os0.bd, class "Bearoff1"): 0.60;
  - two-sided bearoff (gnubg_ts0.bd, class "Bearoff2", both sides at most
    6 chequers in the home board): no x in money play, the exact cubeful
    money equities stored in the database; in match play x is derived from
    those exact money equities, (cubeful - cubeless) / (live - cubeless),
    clipped to [0, 0.60].
  The script recomputes every money row of the contact, crashed, race and
  one-sided classes from the printed probabilities with these x and
  Janowski's formula, and checks nd and dt against gnubg's.
* money: gammon and backgammon count 1 each (0 with the Jacoby rule and a
  centred cube, for the dead-cube part and the cubeless utility); live cube
  win/loss sizes W and L from the gammon and backgammon rates; dp = 1.
* match play: the MET, and the gammon values it implies
  (cubeinfo.arGammonPrice from getGammonPrice: MWCs after winning/losing
  1, 2 and 3 x cube points, at this score and cube level), both for the
  dead-cube part and for the live-cube cash/take points; dp is the MET's MWC
  after the opponent passes. Default MET: "Kazaross XG2 25 point MET",
  read from gnubg/data/met/Kazaross-XG2.xml inside the installed package
  (``show matchequitytable``); the library's built-in default name is
  met/zadeh.xml, but this build loads Kazaross-XG2.xml.

MET file format (data/met/Kazaross-XG2.xml, verbatim copy of the package's)
--------------------------------------------------------------------------
``<met>``: ``<info>`` (name, description, ``<length>25</length>``), then
``<pre-crawford-table type="explicit">`` with 25 ``<row>``s of 25 ``<me>``:
row i, column j = MWC of the player (i+1)-away against (j+1)-away,
pre-Crawford; then ``<post-crawford-table type="explicit" player="both">``
with one ``<row>`` of 25 ``<me>``: entry n = MWC of the trailer (n+1)-away
when the leader is 1-away, post-Crawford (entry 0 = 0.5). Values are
fractions with 5 or 6 decimals. gnubg uses only the first 24 post-Crawford
entries (length - 1) and recomputes the rest with a gammon rate of 0.25,
pc[n] = 0.125 * pc[n-4] + 0.375 * pc[n-2] (so 25-away is 0.00118125 in
gnubg, not the file's 0.00123; checked with ``gnubg.met``), and extends
both tables past 25 itself. The file holds no gammon rates or other
parameters (a table of ``type="zadeh"`` would carry
``<parameters><parameter name="...">`` instead of rows); gnubg derives the
gammon values it uses from the table.

Cases (bg-cube-cases.csv)
-------------------------
About 150 distinct positions from fixtures/expected/bg-ids.csv rows of kind
play or double (the position before the action, before the roll, player on
roll second in the position key), picked evenly in file order per
gnubg class: contact, crashed, race, one-sided and two-sided bearoff, half
of each from positions where a double was recorded when there are enough.
Each in every SETTING below with cube 1 centred; every CUBE2_EVERY-th
position also with a 2-cube owned by the player on roll and by the
opponent, in the CUBE2_SETTINGS. Match play is a 7-point match; the player
on roll is gnubg's player 0 (match ID built here, read back and checked).
Then EXTRA_TS more two-sided bearoff positions (not among those, picked
the same way), each in every match-play SETTING with cube 1 centred and
in the match-play CUBE2_SETTINGS with a 2-cube owned by either side.
Columns: case,position_id,match_id,match_length (0 = money),away_on_roll,
away_opponent,crawford,jacoby,beavers (the rules gnubg applies: both 0 in
match play),cube,cube_owner,p_win,p_win_gammon,p_win_backgammon,
p_lose_gammon,p_lose_backgammon,nd,dt,dp,proper_action,nd_mwc,dt_mwc,
dp_mwc,evaluator (gnubg's class of the position: contact, crashed, race,
bearoff_os, bearoff_ts).

bearoff-os.csv
--------------
gnubg_os0.bd is gnubg's one-sided bearoff database for up to 15 chequers on
the six home points (header "gnubg-OS-06-15-1-1-0": 6 points, 15 chequers,
gammon distributions included, compressed, exact (not normal-approximated)).
Layout (gnubg's bearoff.c): a 40-byte ASCII header; then one 8-byte index
entry per position, in PositionBearoff order (the combinatorial index of the
six counts, 54,264 positions): a little-endian u32 offset in 16-bit words
into the data area, then 4 bytes: number of stored non-zero "bear-off"
probabilities, index of the first, number of stored "gammon" (first chequer
off) probabilities, index of the first; then the data: little-endian u16
values, value / 65535 = probability, for at most 32 roll counts (0..31).
So the stored precision is 1/65535 (about 1.5e-5) per probability.
Decoded here in Python from the file; the index is checked against
``gnubg.positionbearoff``, and the distributions against gnubg's own
one-sided bearoff evaluations (win and gammon chances of two-sided
positions of class Bearoff1, recomputed from the decoded distributions).
Columns: points (ace point first, "0-2-3-0-0-1"), index (gnubg's
PositionBearoff), mean_rolls, p0..p18, mean_rolls_gammon, g0..g6: 18 and 6
are the largest roll counts with a non-zero entry anywhere in the file
(the format has room for 0..31).
p<n> and g<n> are the stored u16 numerators (probability = value / 65535):
the exact stored values. mean_rolls = sum n * p<n> / 65535 (gnubg's
AverageRolls, here in double precision), likewise mean_rolls_gammon.
p<n> is the chance of needing exactly n rolls to bear off all chequers, g<n>
of needing exactly n rolls to bear off the first one. Sample: the empty
position, one chequer on each point, 15 chequers on each point, then random
positions of 1..15 chequers in turn (fixed seed), 1,500 in all, sorted by
index.

bg-race-cases.csv
-----------------
Every distinct position of fixtures/expected/bg-ids.csv (all kinds) without
contact (gnubg's ClassifyPosition: not contact or crashed, i.e. the
furthest-back chequers of the two sides have passed each other; checked
here too), not over. Columns: position_id,p_win,p_win_gammon,
p_win_backgammon,p_lose_gammon,p_lose_backgammon (cubeless 0-ply, player on
roll, gnubg.evaluate as above),evaluator: race_net (class Race: the race
neural net), bearoff_os (class Bearoff1: both sides home, one-sided
database gnubg_os0.bd, win chance as P(we need <= rolls than they)),
bearoff_ts (class Bearoff2: both sides at most 6 chequers home, two-sided
database gnubg_ts0.bd). The class is gnubg's ``classify`` and the
``Evaluator:`` line of its ``eval``, which agree (checked).

Running gnubg from Python, as scripts/gnubg_ids.py: both players human,
``set threads 1`` (with the build's default of 0 calculation threads
``eval``/``hint`` never return).
"""

import csv
import io
import os
import random
import re
import shutil
import struct
import sys
from decimal import Decimal
from math import comb

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
IDS_CSV = os.path.join(ROOT, "fixtures/expected/bg-ids.csv")
CUBE_CSV = os.path.join(ROOT, "fixtures/expected/bg-cube-cases.csv")
BEAROFF_CSV = os.path.join(ROOT, "fixtures/expected/bearoff-os.csv")
RACE_CSV = os.path.join(ROOT, "fixtures/expected/bg-race-cases.csv")
MET_COPY = os.path.join(ROOT, "data/met/Kazaross-XG2.xml")

MATCH_LENGTH = 7
N_BEAROFF_SAMPLE = 1500
CUBE2_EVERY = 7

# (name, match length (0 = money), away on roll, away opponent, crawford,
#  jacoby, beavers)
SETTINGS = [
    ("money", 0, None, None, 0, 0, 1),
    ("money-jacoby", 0, None, None, 0, 1, 1),
    ("7a7a", MATCH_LENGTH, 7, 7, 0, 0, 0),
    ("3a5a", MATCH_LENGTH, 3, 5, 0, 0, 0),
    ("2a4a", MATCH_LENGTH, 2, 4, 0, 0, 0),
    ("5a2a", MATCH_LENGTH, 5, 2, 0, 0, 0),
    ("1a3a-crawford", MATCH_LENGTH, 1, 3, 1, 0, 0),
    ("2a1a-postcrawford", MATCH_LENGTH, 2, 1, 0, 0, 0),
    ("2a2a", MATCH_LENGTH, 2, 2, 0, 0, 0),
]
CUBE2_SETTINGS = ("money", "7a7a", "3a5a", "5a2a", "2a4a")

# Positions per gnubg class in the cube cases.
CLASS_TARGETS = [("contact", 80), ("crashed", 15), ("race", 30),
                 ("bearoff_os", 15), ("bearoff_ts", 10)]
# More two-sided bearoff positions, in the match-play settings only (their
# cube efficiency comes from the database's exact money equities), as cases
# after all the others.
EXTRA_TS = 20

# gnubg's positionclass numbers (eval.h) and our names for them.
CLASS_NAMES = {0: "over", 1: "hypergammon1", 2: "hypergammon2", 3: "hypergammon3",
               4: "bearoff_ts", 5: "bearoff_ts_large", 6: "bearoff_os",
               7: "bearoff_os_large", 8: "race", 9: "crashed", 10: "contact"}
# What gnubg's `eval` prints on its "Evaluator:" line for each class.
GNUBG_EVALUATOR = {0: "Over", 4: "Bearoff2", 5: "Bearoff-TS", 6: "Bearoff1",
                   7: "Bearoff-OS", 8: "Race", 9: "Crashed", 10: "Contact"}
RACE_EVALUATOR = {8: "race_net", 6: "bearoff_os", 4: "bearoff_ts",
                  7: "bearoff_os_large", 5: "bearoff_ts_large"}

# --------------------------------------------------------------------------
# gnubg in this process

from gnubg_inprocess import Checks, gnubg, run, setup_zero_ply_cube  # noqa: E402  (gnubg with its printing captured)

CHECKS = Checks("gnubg_cube_oracle")
warn, fail, FAILURES = CHECKS.warn, CHECKS.fail, CHECKS.failures


def setup_gnubg():
    setup_zero_ply_cube()
    run("set beavers 3")


EC0 = None  # 0-ply cubeless, deterministic, no pruning, no noise


def evaluate_current():
    return gnubg.evaluate(gnubg.board(), gnubg.cubeinfo(), EC0)[:5]


def f32(x):
    """Shortest decimal that reads back to the same 32-bit float."""
    x = struct.unpack("<f", struct.pack("<f", x))[0]
    if x == 0:
        return "0"
    for p in range(6, 10):
        s = "%.*g" % (p, x)
        if struct.unpack("<f", struct.pack("<f", float(s)))[0] == x:
            break
    if "e" in s:
        s = format(Decimal(s), "f")
    return s


# --------------------------------------------------------------------------
# match IDs (gnubg's matchid.c: 9 bytes of little-endian bit fields)

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def make_match_id(cube, owner, move, crawford, match_to, score0, score1, jacoby):
    """Pre-roll state, player `move` on roll; owner -1 centred."""
    key = [0] * 9

    def put(pos, n, v):
        for i in range(n):
            if v >> i & 1:
                key[(pos + i) // 8] |= 1 << ((pos + i) % 8)

    put(0, 4, cube.bit_length() - 1)
    put(4, 2, owner & 3)
    put(6, 1, move)
    put(7, 1, crawford)
    put(8, 3, 1)          # game state: playing
    put(11, 1, move)      # turn
    put(21, 15, match_to)
    put(36, 15, score0)
    put(51, 15, score1)
    put(66, 1, 0 if jacoby else 1)
    bits = int.from_bytes(bytes(key), "big")
    return "".join(B64[(bits >> (6 * (11 - i))) & 63] for i in range(12))


# --------------------------------------------------------------------------
# parsing gnubg's `eval` output

NUM = r"([-+]?\d+\.\d+)"


def parse_eval(text):
    out = {}
    m = re.search(r"^Evaluator:\s*(\S+)", text, re.M)
    out["evaluator"] = m.group(1) if m else None
    m = re.search(r"^static:\s+(.*)$", text, re.M)
    if not m:
        raise RuntimeError("no static row in gnubg's eval:\n" + text)
    vals = [float(v) for v in m.group(1).split()]
    out["static_probs"] = vals[:5]
    out["static_cubeful"] = vals[6]
    cube = {}
    for name, v in re.findall(r"^\d\. (No double|Double, take|Double, pass)\s+" + NUM,
                              text, re.M):
        cube[name] = v
    out["cube"] = cube
    m = re.search(r"^Proper cube action: (.*?)(?: \(\d+\.\d%\))?\s*$", text, re.M)
    out["proper"] = m.group(1) if m else None
    return out


# --------------------------------------------------------------------------
# Janowski's money formula (gnubg's Cl2CfMoney/MoneyLive), for the checks


def janowski_money(p, owner, jacoby, x):
    """owner: 'centred', 'on_roll' or 'opponent'."""
    w, wg, wbg, lg, lbg = p
    price = 0.0 if (jacoby and owner == "centred") else 1.0
    dead = 2 * w - 1 + (wg - lg) * price + (wbg - lbg) * price
    if w <= 1e-7 or w >= 0.9999999:
        return dead
    rw = 1 + (wg + wbg) / w
    rl = 1 + (lg + lbg) / (1 - w)
    tp = (rl - 0.5) / (rw + rl + 0.5)
    cp = (rl + 1.0) / (rw + rl + 0.5)
    if owner == "centred":
        if w < tp:
            live = -1.0 if jacoby else -rl + (-1 + rl) * w / tp
        elif w < cp:
            live = -1 + 2 * (w - tp) / (cp - tp)
        else:
            live = 1.0 if jacoby else 1 + (rw - 1) * (w - cp) / (1 - cp)
    elif owner == "on_roll":
        if w < cp:
            live = -rl + (1 + rl) * w / cp
        else:
            live = 1 + (rw - 1) * (w - cp) / (1 - cp)
    else:
        if w < tp:
            live = -rl + (-1 + rl) * w / tp
        else:
            live = -1 + (rw + 1) * (w - tp) / (1 - tp)
    return dead * (1 - x) + live * x


def pips(side):
    return sum((i + 1) * n for i, n in enumerate(side))


def cube_efficiency(cls, board):
    """gnubg's EvalEfficiency at 0 ply, player on roll = board[1]."""
    if cls in ("contact", "crashed"):
        return 0.76
    if cls == "race":
        return min(0.80, max(0.60, 0.60 + 0.0025 * pips(board[1])))
    if cls == "bearoff_os":
        return 0.60
    return None


# --------------------------------------------------------------------------
# MET (for the checks)


def read_met(path):
    text = open(path).read()
    pre = re.search(r"<pre-crawford-table[^>]*>(.*?)</pre-crawford-table>", text, re.S).group(1)
    post = re.search(r"<post-crawford-table[^>]*>(.*?)</post-crawford-table>", text, re.S).group(1)

    def rows(t):
        return [[float(v) for v in re.findall(r"<me>\s*([0-9.]+)\s*</me>", r)]
                for r in re.findall(r"<row>(.*?)</row>", t, re.S)]

    return rows(pre), rows(post)[0]


def met_mwc(met, away_me, away_opp, post_crawford):
    """MWC of the player away_me-away against away_opp-away at the start of
    the next game; post_crawford: that game is after the Crawford game
    (gnubg's getME: the current game is the Crawford game or after it)."""
    pre, post = met
    if away_me <= 0:
        return 1.0
    if away_opp <= 0:
        return 0.0
    if post_crawford and (away_me == 1 or away_opp == 1):
        if away_me == 1:
            return 1.0 - post[away_opp - 1]
        return post[away_me - 1]
    return pre[away_me - 1][away_opp - 1]


def met_path():
    return os.path.join(os.path.dirname(gnubg.__file__), "data", "met", "Kazaross-XG2.xml")


# --------------------------------------------------------------------------
# cube cases


def read_ids():
    with open(IDS_CSV, newline="") as f:
        return list(csv.DictReader(f))


def classify_pid(pid):
    return gnubg.classify(gnubg.positionfromid(pid))


def pick_even(items, n):
    if n >= len(items):
        return list(items)
    return [items[(2 * i + 1) * len(items) // (2 * n)] for i in range(n)]


def positions_met(rows):
    """Each play or double position's first-met rank, and the kinds of
    row it was met in."""
    first = {}
    kinds = {}
    for r in rows:
        if r["kind"] not in ("play", "double"):
            continue
        pid = r["position_id"]
        first.setdefault(pid, len(first))
        kinds.setdefault(pid, set()).add(r["kind"])
    return first, kinds


def select_cube_positions(rows):
    first, kinds = positions_met(rows)
    by_class = {}
    for pid in sorted(first, key=first.get):
        cls = CLASS_NAMES[classify_pid(pid)]
        by_class.setdefault(cls, []).append(pid)
    chosen = []
    for cls, n in CLASS_TARGETS:
        pids = by_class.get(cls, [])
        doubles = [p for p in pids if "double" in kinds[p]]
        plays = [p for p in pids if "double" not in kinds[p]]
        nd = min(len(doubles), n // 2)
        pick = pick_even(doubles, nd) + pick_even(plays, n - nd)
        if len(pick) < n:
            warn("class %s: only %d positions" % (cls, len(pick)))
        chosen.extend(sorted(pick, key=first.get))
    return chosen


def select_extra_ts(rows, chosen):
    """EXTRA_TS two-sided bearoff positions not in `chosen`, picked evenly
    in first-met order, half of them from positions where a double was
    recorded when there are enough."""
    first, kinds = positions_met(rows)
    taken = set(chosen)
    pids = [p for p in sorted(first, key=first.get)
            if p not in taken and CLASS_NAMES[classify_pid(p)] == "bearoff_ts"]
    doubles = [p for p in pids if "double" in kinds[p]]
    plays = [p for p in pids if "double" not in kinds[p]]
    nd = min(len(doubles), EXTRA_TS // 2)
    pick = pick_even(doubles, nd) + pick_even(plays, EXTRA_TS - nd)
    if len(pick) < EXTRA_TS:
        warn("extra two-sided bearoffs: only %d positions" % len(pick))
    return sorted(pick, key=first.get)


def unavailable_action(match_to, owner):
    if match_to and owner in ("centred", "on_roll"):
        return ("Never double, take (dead cube)" if owner == "centred"
                else "Never redouble, take (dead cube)")
    return "Cube not available"


def cube_case(pid, setting, cube, owner):
    name, match_to, away_me, away_opp, crawford, jacoby, beavers = setting
    fowner = {"centred": -1, "on_roll": 0, "opponent": 1}[owner]
    if match_to:
        s0, s1 = match_to - away_me, match_to - away_opp
    else:
        s0 = s1 = 0
    mid = make_match_id(cube, fowner, 0, crawford, match_to, s0, s1, jacoby)
    run("set beavers %d" % (3 if beavers else 0))
    run("set gnubgid %s:%s" % (pid, mid))
    if gnubg.positionid() != pid or gnubg.matchid() != mid:
        fail("%s %s: gnubg holds %s:%s" % (pid, mid, gnubg.positionid(), gnubg.matchid()))
    ci = gnubg.cubeinfo()
    if (ci["cube"], ci["cubeowner"], ci["move"], ci["matchto"], tuple(ci["score"]),
            ci["crawford"]) != (cube, fowner, 0, match_to, (s0, s1), crawford):
        fail("%s %s: cubeinfo %r" % (pid, mid, ci))
    probs = evaluate_current()
    ev = parse_eval(run("eval"))
    evm = None
    if match_to:
        run("set output mwc on")
        evm = parse_eval(run("eval"))
        run("set output mwc off")

    for a, b in zip(probs, ev["static_probs"]):
        if abs(a - b) > 6e-7:
            fail("%s %s: gnubg.evaluate %r vs eval %r" % (pid, mid, probs, ev["static_probs"]))
            break
    row = {
        "position_id": pid, "match_id": mid, "match_length": match_to,
        "away_on_roll": away_me or "", "away_opponent": away_opp or "",
        "crawford": crawford, "jacoby": jacoby if not match_to else 0,
        "beavers": beavers if not match_to else 0, "cube": cube, "cube_owner": owner,
        "p_win": f32(probs[0]), "p_win_gammon": f32(probs[1]),
        "p_win_backgammon": f32(probs[2]), "p_lose_gammon": f32(probs[3]),
        "p_lose_backgammon": f32(probs[4]),
        "nd_mwc": "", "dt_mwc": "", "dp_mwc": "",
    }
    cls = classify_pid(pid)
    row["evaluator"] = CLASS_NAMES[cls]
    if ev["evaluator"] != GNUBG_EVALUATOR.get(cls):
        fail("%s: eval says evaluator %s, classify %d" % (pid, ev["evaluator"], cls))
    c = ev["cube"]
    hint = run("hint")
    if c:
        hint_cube = dict(re.findall(r"^\d\. (No double|Double, take|Double, pass)\s+" + NUM,
                                    hint, re.M))
        if hint_cube != c or ("Proper cube action: " + ev["proper"]) not in hint:
            fail("%s %s: hint and eval disagree:\n%s" % (pid, mid, hint))
        row["nd"] = c["No double"]
        row["dt"] = c["Double, take"]
        row["dp"] = c["Double, pass"]
        row["proper_action"] = ev["proper"]
        if abs(float(c["No double"]) - ev["static_cubeful"]) > 1.5e-6:
            fail("%s %s: ND %s vs static cubeful %s" % (pid, mid, c["No double"], ev["static_cubeful"]))
        if evm:
            row["nd_mwc"] = "%.7f" % float(evm["cube"]["No double"])
            row["dt_mwc"] = "%.7f" % float(evm["cube"]["Double, take"])
            row["dp_mwc"] = "%.7f" % float(evm["cube"]["Double, pass"])
    else:
        if "You cannot double." not in hint:
            fail("%s %s: no cube analysis, yet hint does not say "
                 "'You cannot double.'" % (pid, mid))
        row["nd"] = "%+.6f" % ev["static_cubeful"]
        row["dt"] = row["dp"] = ""
        row["proper_action"] = unavailable_action(match_to, owner)
        if evm:
            row["nd_mwc"] = "%.7f" % evm["static_cubeful"]
    return row


CUBE_COLUMNS = ("case,position_id,match_id,match_length,away_on_roll,away_opponent,"
                "crawford,jacoby,beavers,cube,cube_owner,p_win,p_win_gammon,"
                "p_win_backgammon,p_lose_gammon,p_lose_backgammon,nd,dt,dp,"
                "proper_action,nd_mwc,dt_mwc,dp_mwc,evaluator").split(",")


def check_cube_rows(rows, met):
    """Relations every row must satisfy; returns nothing, records failures."""
    n_jan = 0
    worst = 0.0
    by_key = {}
    for r in rows:
        by_key[(r["position_id"], r["match_length"], r["away_on_roll"], r["away_opponent"],
                r["crawford"], r["jacoby"], r["cube"], r["cube_owner"])] = r
    for r in rows:
        money = r["match_length"] == 0
        if r["dp"] != "" and money and r["dp"] != "+1.000000":
            fail("case %s: money DP %s" % (r["case"], r["dp"]))
        if r["dp"] != "" and not money and r["dp"] != "+1.000000":
            fail("case %s: match DP (EMG) %s" % (r["case"], r["dp"]))
        if not money and r["dp_mwc"] != "":
            a, b = int(r["away_on_roll"]), int(r["away_opponent"])
            cube = int(r["cube"])
            # the roller wins `cube` points; the next game is post-Crawford
            # when this one is the Crawford game or after it
            exp = met_mwc(met, a - cube, b, bool(int(r["crawford"])) or a == 1 or b == 1)
            if abs(float(r["dp_mwc"]) - exp) > 2e-6:
                fail("case %s: DP MWC %s, MET says %.6f" % (r["case"], r["dp_mwc"], exp))
        # DT = the same position with the cube doubled and turned
        if r["dt"] != "" and r["cube_owner"] == "centred":
            k = (r["position_id"], r["match_length"], r["away_on_roll"], r["away_opponent"],
                 r["crawford"], r["jacoby"], 2 * int(r["cube"]), "opponent")
            o = by_key.get(k)
            if o is None and money:  # the Jacoby rule does not touch an owned cube
                o = by_key.get(k[:5] + (0,) + k[6:])
            if o is not None:
                if money:
                    if abs(float(r["dt"]) - 2 * float(o["nd"])) > 2.5e-6:
                        fail("case %s: DT %s but 2 x ND(2-cube, opponent's) = 2 x %s"
                             % (r["case"], r["dt"], o["nd"]))
                elif abs(float(r["dt_mwc"]) - float(o["nd_mwc"])) > 5e-7:
                    fail("case %s: DT MWC %s but ND MWC (2-cube, opponent's) %s"
                         % (r["case"], r["dt_mwc"], o["nd_mwc"]))
        # Janowski with gnubg's 0-ply cube efficiencies, money only
        if money:
            x = cube_efficiency(r["evaluator"], gnubg.positionfromid(r["position_id"]))
            if x is None:
                continue
            p = [float(r[k]) for k in ("p_win", "p_win_gammon", "p_win_backgammon",
                                       "p_lose_gammon", "p_lose_backgammon")]
            jac = bool(int(r["jacoby"]))
            nd = janowski_money(p, r["cube_owner"], jac, x)
            d = abs(nd - float(r["nd"]))
            if r["dt"] != "":
                dt = 2 * janowski_money(p, "opponent", jac, x)
                d = max(d, abs(dt - float(r["dt"])))
            worst = max(worst, d)
            n_jan += 1
            if d > 5e-6:
                fail("case %s: Janowski with x=%.4f gives ND %.6f (gnubg %s)"
                     % (r["case"], x, nd, r["nd"]))
    warn("Janowski recomputation of %d money rows: largest difference %.2g" % (n_jan, worst))


def write_cube_cases():
    rows_ids = read_ids()
    pids = select_cube_positions(rows_ids)
    warn("cube cases: %d positions" % len(pids))
    settings = {s[0]: s for s in SETTINGS}
    out = []
    for k, pid in enumerate(pids):
        for s in SETTINGS:
            out.append(cube_case(pid, s, 1, "centred"))
        if k % CUBE2_EVERY == 0:
            for name in CUBE2_SETTINGS:
                for owner in ("on_roll", "opponent"):
                    out.append(cube_case(pid, settings[name], 2, owner))
    extra = select_extra_ts(rows_ids, pids)
    warn("extra two-sided bearoff cases: %d positions, match play" % len(extra))
    for pid in extra:
        for s in SETTINGS:
            if s[1]:
                out.append(cube_case(pid, s, 1, "centred"))
        for name in CUBE2_SETTINGS:
            if settings[name][1]:
                for owner in ("on_roll", "opponent"):
                    out.append(cube_case(pid, settings[name], 2, owner))
    for i, r in enumerate(out, 1):
        r["case"] = i
    check_cube_rows(out, read_met(met_path()))
    actions = {}
    for r in out:
        actions[r["proper_action"]] = actions.get(r["proper_action"], 0) + 1
    warn("proper actions: %s" % sorted(actions.items(), key=lambda kv: -kv[1]))
    write_csv(CUBE_CSV, CUBE_COLUMNS, out)


def write_csv(path, columns, rows):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)
    with open(path, "w", newline="") as f:
        f.write(buf.getvalue())
    warn("wrote %s: %d rows, %d bytes" % (os.path.relpath(path, ROOT), len(rows),
                                          os.path.getsize(path)))


# --------------------------------------------------------------------------
# one-sided bearoff database


class OneSided:
    def __init__(self, path):
        data = open(path, "rb").read()
        head = data[:40].decode("ascii")
        if not head.startswith("gnubg-OS-"):
            raise RuntimeError("%s: not a one-sided bearoff database: %r" % (path, head))
        self.header = head.rstrip("\n").rstrip("x")
        self.points = int(head[9:11])
        self.chequers = int(head[12:14])
        self.gammon = int(head[15])
        self.compressed = int(head[17])
        self.normal = int(head[19])
        if (self.points, self.chequers, self.gammon, self.compressed, self.normal) != (6, 15, 1, 1, 0):
            raise RuntimeError("%s: unexpected layout %r" % (path, head))
        self.count = comb(self.points + self.chequers, self.points)
        self.data = data
        self.base = 40 + self.count * 8

    def dist(self, index):
        """(bear-off distribution, first-chequer-off distribution): 32 u16 each."""
        e = 40 + index * 8
        off, nz, ioff, nzg, ioffg = struct.unpack_from("<IBBBB", self.data, e)
        if nz > 32 or ioff > 32 or nzg > 32 or ioffg > 32 or ioff + nz > 32 or ioffg + nzg > 32:
            raise RuntimeError("bad index entry %d" % index)
        vals = struct.unpack_from("<%dH" % (nz + nzg), self.data, self.base + 2 * off)
        p = [0] * 32
        g = [0] * 32
        p[ioff:ioff + nz] = vals[:nz]
        g[ioffg:ioffg + nzg] = vals[nz:]
        return p, g


def bearoff_index(counts, points=6, chequers=15):
    """gnubg's PositionBearoff: rank of the chequer counts (ace point first)
    among all positions of at most `chequers` chequers on `points` points,
    in the combinatorial number system of the stars-and-bars string."""
    # Stars and bars over points + chequers slots: a set bit for each of
    # the `points` separators; the last separator sits after all chequers.
    total = sum(counts)
    pos = points - 1 + total
    bits = [pos]
    for c in counts[:-1]:
        pos -= c + 1
        bits.append(pos)
    rank = 0
    r = points
    for b in sorted(bits, reverse=True):
        # walking down from the top slot: each set bit at slot b contributes
        # C(b, r) (sets of r slots below b) and uses one separator.
        rank += comb(b, r)
        r -= 1
    return rank


def bearoff_sample():
    rng = random.Random(20240607)
    out = [[0] * 6]
    for i in range(6):
        out.append([1 if j == i else 0 for j in range(6)])
    for i in range(6):
        out.append([15 if j == i else 0 for j in range(6)])
    seen = {tuple(c) for c in out}
    n = 0
    while len(out) < N_BEAROFF_SAMPLE:
        n = n % 15 + 1
        if comb(n + 5, 5) <= sum(1 for c in seen if sum(c) == n):
            continue
        while True:
            bars = sorted(rng.sample(range(n + 5), 5))
            prev = -1
            c = []
            for b in bars:
                c.append(b - prev - 1)
                prev = b
            c.append(n + 5 - prev - 1)
            if tuple(c) not in seen:
                break
        seen.add(tuple(c))
        out.append(c)
    return out


def check_bearoff_against_gnubg(db, sample):
    """gnubg's own evaluations of positions of class Bearoff1 (both sides
    home, not both within the two-sided database) against win/gammon
    chances recomputed from the decoded distributions."""
    rng = random.Random(7)
    pool = [c for c in sample if sum(c) > 0]
    checked = 0
    worst = 0.0
    while checked < 300:
        us, them = rng.choice(pool), rng.choice(pool)
        board = (tuple(them) + (0,) * 19, tuple(us) + (0,) * 19)
        if gnubg.classify(board) != 6:
            continue
        pu, gu = db.dist(bearoff_index(us))
        pt, gt = db.dist(bearoff_index(them))
        pu = [v / 65535 for v in pu]
        pt = [v / 65535 for v in pt]
        gu = [v / 65535 for v in gu]
        gt = [v / 65535 for v in gt]
        w = sum(pu[i] * pt[j] for i in range(32) for j in range(i, 32))
        wg = lg = 0.0
        if sum(us) == 15 or sum(them) == 15:
            wg = sum(pu[i] * gt[j] for i in range(32) for j in range(i, 32))
            lg = sum(pt[i] * gu[j] for i in range(32) for j in range(i + 1, 32))
        e = gnubg.evaluate(board, gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0), EC0)
        d = max(abs(e[0] - w), abs(e[1] - wg), abs(e[3] - lg), abs(e[2]), abs(e[4]))
        worst = max(worst, d)
        if d > 2e-6:
            fail("bearoff %s vs %s: gnubg %r, decoded %r" % (us, them, e[:5], (w, wg, lg)))
        checked += 1
    warn("bearoff: %d gnubg one-sided evaluations recomputed, largest difference %.2g"
         % (checked, worst))


def write_bearoff():
    path = os.path.join(os.path.dirname(gnubg.__file__), "data", "gnubg_os0.bd")
    db = OneSided(path)
    warn("%s: header %r, %d positions, %d bytes"
         % (path, db.header, db.count, len(db.data)))
    top_p = top_g = 0
    for i in range(db.count):
        p, g = db.dist(i)
        for n in range(32):
            if p[n]:
                top_p = max(top_p, n)
            if g[n]:
                top_g = max(top_g, n)
    warn("bearoff: largest roll count with a stored non-zero value: %d "
         "(bear-off) / %d (first chequer off)" % (top_p, top_g))
    sample = bearoff_sample()
    rows = []
    for c in sample:
        idx = bearoff_index(c)
        gidx = gnubg.positionbearoff(tuple(c) + (0,) * 19, 6, 15)
        if gidx != idx:
            fail("bearoff index of %s: ours %d, gnubg %d" % (c, idx, gidx))
        back = gnubg.positionfrombearoff(idx, 15, 6)
        if list(back[:6]) != c:
            fail("positionfrombearoff(%d) = %r, not %s" % (idx, back[:6], c))
        p, g = db.dist(idx)
        if abs(sum(p) - 65535) > 32 or (sum(c) and abs(sum(g) - 65535) > 32):
            fail("bearoff %s: distributions sum to %d / %d" % (c, sum(p), sum(g)))
        row = {"points": "-".join(map(str, c)), "index": idx,
               "mean_rolls": "%.6f" % (sum(n * v for n, v in enumerate(p)) / 65535),
               "mean_rolls_gammon": "%.6f" % (sum(n * v for n, v in enumerate(g)) / 65535)}
        for n in range(top_p + 1):
            row["p%d" % n] = p[n]
        for n in range(top_g + 1):
            row["g%d" % n] = g[n]
        rows.append(row)
    rows.sort(key=lambda r: r["index"])
    check_bearoff_against_gnubg(db, sample)
    cols = (["points", "index", "mean_rolls"] + ["p%d" % n for n in range(top_p + 1)]
            + ["mean_rolls_gammon"] + ["g%d" % n for n in range(top_g + 1)])
    write_csv(BEAROFF_CSV, cols, rows)


# --------------------------------------------------------------------------
# race cases


def no_contact(board):
    """All chequers of one side have passed all of the other's."""
    opp, me = board
    my_back = max((i for i in range(25) if me[i]), default=-1)
    opp_back = max((i for i in range(25) if opp[i]), default=-1)
    if my_back < 0 or opp_back < 0:
        return False
    # my point i (0-based from my ace) is the opponent's point 23 - i
    return my_back + opp_back <= 22


def write_race():
    pids = []
    seen = set()
    for r in read_ids():
        if r["position_id"] not in seen:
            seen.add(r["position_id"])
            pids.append(r["position_id"])
    rows = []
    counts = {}
    for pid in pids:
        board = gnubg.positionfromid(pid)
        cls = gnubg.classify(board)
        nc = no_contact(board)
        if nc != (cls in RACE_EVALUATOR):
            if cls != 0:
                fail("%s: class %d but no_contact=%s" % (pid, cls, nc))
        if cls not in RACE_EVALUATOR:
            continue
        p = gnubg.evaluate(board, gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0), EC0)[:5]
        # the same through gnubg's own eval, in a game with player 0 on roll
        run("set gnubgid %s:%s" % (pid, make_match_id(1, -1, 0, 0, 0, 0, 0, True)))
        ev = parse_eval(run("eval"))
        if ev["evaluator"] != GNUBG_EVALUATOR[cls]:
            fail("%s: eval evaluator %s, classify %d" % (pid, ev["evaluator"], cls))
        if any(abs(a - b) > 6e-7 for a, b in zip(p, ev["static_probs"])):
            fail("%s: evaluate %r vs eval %r" % (pid, p, ev["static_probs"]))
        name = RACE_EVALUATOR[cls]
        counts[name] = counts.get(name, 0) + 1
        rows.append({"position_id": pid, "p_win": f32(p[0]), "p_win_gammon": f32(p[1]),
                     "p_win_backgammon": f32(p[2]), "p_lose_gammon": f32(p[3]),
                     "p_lose_backgammon": f32(p[4]), "evaluator": name})
    warn("race cases by evaluator: %r" % counts)
    write_csv(RACE_CSV, ["position_id", "p_win", "p_win_gammon", "p_win_backgammon",
                         "p_lose_gammon", "p_lose_backgammon", "evaluator"], rows)


# --------------------------------------------------------------------------
# MET


def check_met():
    src = met_path()
    shown = run("show matchequitytable 1")
    if "Kazaross-XG2.xml" not in shown:
        fail("gnubg's current MET is not Kazaross-XG2.xml:\n" + shown)
    if not os.path.exists(MET_COPY):
        os.makedirs(os.path.dirname(MET_COPY), exist_ok=True)
        shutil.copyfile(src, MET_COPY)
        warn("copied %s to %s" % (src, os.path.relpath(MET_COPY, ROOT)))
    elif open(src, "rb").read() != open(MET_COPY, "rb").read():
        fail("%s differs from the package's %s (left as it is)" % (MET_COPY, src))
    else:
        warn("%s is the package's file, byte for byte" % os.path.relpath(MET_COPY, ROOT))
    # gnubg's table as it uses it, against the XML
    pre, post = read_met(src)
    met = gnubg.met(25)
    for i in range(25):
        for j in range(25):
            if abs(met[0][i][j] - pre[i][j]) > 1e-6:
                fail("MET pre-Crawford %d-away %d-away: gnubg %r, XML %r"
                     % (i + 1, j + 1, met[0][i][j], pre[i][j]))
    for n in range(24):
        if abs(met[1][n] - post[n]) > 1e-6 or abs(met[2][n] - post[n]) > 1e-6:
            fail("MET post-Crawford %d-away: gnubg %r/%r, XML %r"
                 % (n + 1, met[1][n], met[2][n], post[n]))
    pc25 = 0.125 * met[1][20] + 0.375 * met[1][22]
    if abs(met[1][24] - pc25) > 1e-7:
        fail("MET post-Crawford 25-away: gnubg %r, not its extension %r" % (met[1][24], pc25))
    warn("MET: gnubg's table is the XML's, but post-Crawford 25-away %.8f (XML %.5f)"
         % (met[1][24], post[24]))


def main(argv):
    global EC0
    what = set(argv) or {"cube", "bearoff", "race", "met"}
    unknown = what - {"cube", "bearoff", "race", "met"}
    if unknown:
        print(__doc__, file=sys.stderr)
        return 2
    setup_gnubg()
    EC0 = gnubg.evalcontext(0, 0, 1, 0, 0.0)
    warn("gnubg %s; %s" % (gnubg.__version__, run("show cubeefficiency").strip().replace("\n", "; ")))
    if "met" in what:
        check_met()
    if "bearoff" in what:
        write_bearoff()
    if "race" in what:
        write_race()
    if "cube" in what:
        write_cube_cases()
    if FAILURES:
        warn("%d check(s) failed" % len(FAILURES))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
