#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peer of examples/bench_cube.rs: GNU Backgammon (PyPI gnubg) making 0-ply
cube decisions (`eval`, cubeful, as gnubg prints them) on the bearoff
positions of fixtures/expected/bg-cube-cases.csv, ROUNDS times over.

Usage: bench_gnubg_cube.py [ROUNDS]   prints "decisions seconds" on stdout.
"""

import csv
import os
import sys
import time

sys.stdout.flush()
saved = os.dup(1)
devnull = os.open(os.devnull, os.O_WRONLY)
os.dup2(devnull, 1)
os.dup2(devnull, 2)
out = os.fdopen(saved, "w")

import gnubg  # noqa: E402

for c in ("set threads 1", "set player 0 human", "set player 1 human",
          "set confirm new off", "set display off",
          "set evaluation cubedecision evaluation plies 0",
          "set evaluation cubedecision evaluation cubeful on",
          "set evaluation chequerplay evaluation plies 0"):
    gnubg.command(c)

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
with open(os.path.join(root, "fixtures/expected/bg-cube-cases.csv"), newline="") as f:
    cases = [(r["position_id"], r["match_id"]) for r in csv.DictReader(f)
             if r["evaluator"].startswith("bearoff") and r["dt"]]

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 5
gnubg.command("new session")
start = time.perf_counter()
n = 0
for _ in range(rounds):
    for pid, mid in cases:
        gnubg.command("set gnubgid %s:%s" % (pid, mid))
        gnubg.command("eval")
        n += 1
print(n, "%.3f" % (time.perf_counter() - start), file=out)
