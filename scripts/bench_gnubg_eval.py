#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Peer of our 0-ply evaluator's benchmark: GNU Backgammon (PyPI package
gnubg 1.1.0a16, in .venv-gnubg) evaluating every position of
fixtures/expected/bg-nn-cases.csv once, at 0 ply, cubeless, on one core.

    .venv-gnubg/bin/python scripts/bench_gnubg_eval.py [CSV]

prints "evaluations seconds" on stdout.

What is timed: one loop of ``gnubg.evaluate(board, cubeinfo,
evalcontext(0, 0, 1, 0, 0.0))`` over the positions (the package has no
``gnubg.probabilities``); boards, cubeinfo and evalcontext are made before
the clock starts. Each call is gnubg's whole 0-ply path: the binding's
argument conversion, ClassifyPosition, a lookup in gnubg's evaluation
cache (a miss: the positions are distinct and this process evaluated none
before), the net's inputs and forward pass or the bearoff database, the
race backgammon override and SanityCheck, the cubeless equity, and the
Python tuple of the result. ``set threads 1``: gnubg's calculation
threads are not used by ``evaluate`` anyway.
"""

import csv
import os
import sys
import time

# gnubg prints on the C-level stdout: keep the result line on the real
# stdout and send the rest to /dev/null.
sys.stdout.flush()
saved = os.dup(1)
devnull = os.open(os.devnull, os.O_WRONLY)
os.dup2(devnull, 1)
out = os.fdopen(saved, "w")

import gnubg  # noqa: E402

for c in ("set threads 1", "set display off", "set player 0 human",
          "set player 1 human"):
    gnubg.command(c)

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    root, "fixtures/expected/bg-nn-cases.csv")
with open(path, newline="") as f:
    boards = [gnubg.positionfromid(r["position_id"]) for r in csv.DictReader(f)]
if not boards:
    sys.exit("bench_gnubg_eval: no positions in %s" % path)

ci = gnubg.cubeinfo(1, -1, 0, 0, (0, 0), 0)
ec = gnubg.evalcontext(0, 0, 1, 0, 0.0)
evaluate = gnubg.evaluate

start = time.perf_counter()
for b in boards:
    evaluate(b, ci, ec)
elapsed = time.perf_counter() - start
print(len(boards), "%.3f" % elapsed, file=out)
