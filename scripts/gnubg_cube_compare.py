#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""recount's cube decisions (bg_cube.csv) against GNU Backgammon's 0-ply
`eval` of the same positions: how many decisions differ, by evaluator.

    NO_APT=1 bash scripts/gnubg-venv.sh
    target/release/recount ../shared/data/bg --all-cube-decisions --out OUT
    .venv-gnubg/bin/python scripts/gnubg_cube_compare.py OUT/bg_cube.csv [MORE.csv ...]

gnubg (the PyPI package of .venv-gnubg, set up as in
scripts/gnubg_cube_oracle.py: 0-ply cubeful cube decisions, no pruning, no
noise) evaluates every distinct (position_id, match_id) of the first CSV
once; each CSV given is then compared with those evaluations (all must
hold the same decisions, e.g. the reports of two recount binaries).

A decision differs when recount's nd, or its dt when gnubg prints a double
(a cube recount and gnubg both offer), is more than TOL (default 1e-5,
``TOL=...``) from gnubg's six-decimal value, or the proper action differs
(gnubg's "Proper cube action"; when gnubg says "You cannot double." only
nd is compared). Equities are per unit cube (match play: gnubg's
normalised money equivalents, its default display), as bg_cube.csv holds
them. Rows recount did not evaluate are counted apart.

Environment: TOL=x, ONLY=evaluator (compare the rows of one evaluator
only, e.g. gnubg_ts), SHOW=n (list the first n differing rows).
"""

import collections
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gnubg_inprocess import run, setup_zero_ply_cube  # noqa: E402

TOL = float(os.environ.get("TOL", "1e-5"))
ONLY = os.environ.get("ONLY", "")
SHOW = int(os.environ.get("SHOW", "10"))
NUM = r"([-+]?\d+\.\d+)"


def gnubg_eval(pid, mid, beavers):
    run("set beavers %d" % (3 if beavers else 0))
    run("set gnubgid %s:%s" % (pid, mid))
    text = run("eval")
    cube = dict(re.findall(r"^\d\. (No double|Double, take|Double, pass)\s+" + NUM,
                           text, re.M))
    m = re.search(r"^Proper cube action: (.*?)(?: \(\d+\.\d%\))?\s*$", text, re.M)
    if cube:
        return (float(cube["No double"]), float(cube["Double, take"]), m.group(1))
    m = re.search(r"^static:\s+(.*)$", text, re.M)
    return (float(m.group(1).split()[6]), None, None)


def main(paths):
    setup_zero_ply_cube()
    tables = []
    for p in paths:
        with open(p, newline="") as f:
            tables.append(list(csv.DictReader(f)))
    gn = {}
    for r in tables[0]:
        if ONLY and r["evaluator"] != ONLY:
            continue
        if r["nd"] == "":
            continue
        key = (r["position_id"], r["match_id"], r["beavers"])
        if key not in gn:
            gn[key] = gnubg_eval(r["position_id"], r["match_id"], r["beavers"] == "true")
    print("gnubg evaluated %d distinct decisions" % len(gn))
    for path, rows in zip(paths, tables):
        total = skipped = 0
        differ = collections.Counter()
        by_eval = collections.Counter()
        action = 0
        worst = 0.0
        shown = []
        for r in rows:
            if ONLY and r["evaluator"] != ONLY:
                continue
            if r["nd"] == "":
                skipped += 1
                continue
            total += 1
            by_eval[r["evaluator"]] += 1
            nd, dt, proper = gn[(r["position_id"], r["match_id"], r["beavers"])]
            d = abs(float(r["nd"]) - nd)
            if dt is not None:
                d = max(d, abs(float(r["dt"]) - dt))
            bad_action = proper is not None and proper != r["proper_action"]
            worst = max(worst, d)
            if d > TOL or bad_action:
                differ[r["evaluator"]] += 1
                action += bad_action
                if len(shown) < SHOW:
                    shown.append("  %s:%s %s nd %s (gnubg %.6f) dt %s (gnubg %s) %r / %r"
                                 % (r["position_id"], r["match_id"], r["evaluator"], r["nd"],
                                    nd, r["dt"], dt, r["proper_action"], proper))
        n = sum(differ.values())
        print("%s: %d decisions (%d not evaluated), %d differ (%.3f%% agree; tolerance %g), "
              "%d proper actions differ, largest difference %.6f"
              % (path, total, skipped, n, 100.0 * (total - n) / max(total, 1), TOL, action, worst))
        for e in sorted(by_eval):
            print("  %-10s %6d decisions, %5d differ" % (e, by_eval[e], differ[e]))
        for s in shown:
            print(s)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
