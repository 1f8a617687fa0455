#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The backgammon benchmark's peer: GNU Backgammon (PyPI package `gnubg`)
importing .mat match files with its own reader, which parses and replays
every play (its legality checks included). No analysis is asked for.

Usage: bench_gnubg.py FILE...   prints "matches games seconds" on stdout.
"""

import os
import sys
import time

# gnubg prints boards and messages on the C-level stdout: keep the result
# line on the real stdout and send the rest to /dev/null.
sys.stdout.flush()
saved = os.dup(1)
devnull = os.open(os.devnull, os.O_WRONLY)
os.dup2(devnull, 1)
out = os.fdopen(saved, "w")

import gnubg  # noqa: E402

# No prompts, and no computer player that would play on by itself.
for c in ("set display off", "set confirm new off", "set confirm save off",
          "set player 0 human", "set player 1 human"):
    gnubg.command(c)

files = sys.argv[1:]
games = 0
start = time.perf_counter()
for path in files:
    gnubg.command("new session")
    gnubg.command('import mat "%s"' % path)
    # An import may name a player as the computer; keep both human so gnubg
    # never starts playing on its own.
    gnubg.command("set player 0 human")
    gnubg.command("set player 1 human")
    games += len(gnubg.match(analysis=0, boards=0, statistics=0, verbose=0)["games"])
elapsed = time.perf_counter() - start
print(len(files), games, "%.3f" % elapsed, file=out)
