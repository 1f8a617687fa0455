#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""recount's bg_plays.csv against GNU Backgammon's analysis of the same
matches (the bg-plays.csv that scripts/gnubg_play_oracle.py writes):

    python3 scripts/compare_plays.py GNUBG_PLAYS.csv RECOUNT_OUT_DIR

Prints the plays compared, how many differ from gnubg's by more than 1e-5
in loss (unforced plays) and in luck, the largest differences, and how
many have the same best play score to 1e-5 (``TOL=1e-4`` for 2-ply). Exits 1 when a play is
missing or misaligned. Uses the standard library only.
"""

import csv
import os
import sys

TOL = float(os.environ.get("TOL", "1e-5"))


def main(oracle_path, out_dir):
    key = lambda r: (r["source"], r["game"], r["play"])  # noqa: E731
    ours = {key(r): r for r in csv.DictReader(open(f"{out_dir}/bg_plays.csv"))}
    n = unforced = loss_off = luck_off = missing = best_off = 0
    worst_loss = worst_luck = 0.0
    for o in csv.DictReader(open(oracle_path)):
        u = ours.get(key(o))
        if u is None or u["player"] != o["player"]:
            missing += 1
            continue
        n += 1
        if o["luck"] and u["luck"]:
            d = abs(float(o["luck"]) - float(u["luck"]))
            worst_luck = max(worst_luck, d)
            luck_off += d > 1e-5
        if int(o["choices"]) > 1 and u["loss"]:
            unforced += 1
            d = abs(float(o["best_score"]) - float(o["played_score"]) - float(u["loss"]))
            worst_loss = max(worst_loss, d)
            loss_off += d > TOL
            best_off += abs(float(o["best_score"]) - float(u["best_equity"])) > TOL
    print(f"plays compared: {n}, unforced: {unforced}, missing or misaligned: {missing}")
    print(f"loss differs by more than {TOL:g}: {loss_off} (largest {worst_loss:.2e})")
    print(f"best play's score differs by more than {TOL:g}: {best_off}")
    print(f"luck differs by more than 1e-5: {luck_off} (largest {worst_luck:.2e})")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
