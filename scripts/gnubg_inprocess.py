# SPDX-License-Identifier: GPL-3.0-or-later
"""GNU Backgammon (the PyPI ``gnubg`` package) in this process, with its
printing under control, for the oracle scripts.

gnubg prints on the C-level stdout, and says some things (such as "You
cannot double.") on stderr. Importing this module sends the C-level stdout
to stderr before gnubg loads, so a script's own stdout stays clean (``OUT``
writes to it); ``quiet``
and ``run`` capture what gnubg prints during one call. ``Checks`` collects
an oracle's failed checks and says them on stderr.
"""

import ctypes
import os
import sys
import tempfile

sys.stdout.flush()
_stdout = os.dup(1)
os.dup2(2, 1)
#: The script's own standard output, for what it writes.
OUT = os.fdopen(_stdout, "w", buffering=1, newline="")
import gnubg  # noqa: E402,F401  (after the redirection: it prints when loading)

_libc = ctypes.CDLL(None)
_capture = tempfile.TemporaryFile()
_stderr = os.dup(2)


def quiet(fn, *args, **kwargs):
    """fn(*args, **kwargs) with gnubg's printing captured; returns fn's
    value and what gnubg printed (on stdout and stderr)."""
    _libc.fflush(None)
    sys.stdout.flush()
    sys.stderr.flush()
    _capture.seek(0)
    _capture.truncate()
    os.dup2(_capture.fileno(), 1)
    os.dup2(_capture.fileno(), 2)
    try:
        value = fn(*args, **kwargs)
    finally:
        _libc.fflush(None)
        os.dup2(_stderr, 2)
        os.dup2(_stderr, 1)
    _capture.seek(0)
    return value, _capture.read().decode("utf-8", "replace")


def run(cmd):
    """gnubg.command(cmd); returns what gnubg printed."""
    return quiet(gnubg.command, cmd)[1]


class Checks:
    """An oracle's messages on stderr, prefixed with its name, and the
    checks that failed (the oracle exits non-zero when there are any)."""

    def __init__(self, name):
        self.name = name
        self.failures = []

    def warn(self, msg):
        print(self.name + ": " + msg, file=sys.stderr)

    def fail(self, msg):
        self.failures.append(msg)
        self.warn("CHECK FAILED: " + msg)


def setup_zero_ply_cube():
    """gnubg set up for recount's cube oracles: one thread, both players
    human, 0-ply cubeful cube decisions with no pruning and no noise, six
    decimals of equity (not percentages)."""
    for c in ("set threads 1", "set player 0 human", "set player 1 human",
              "set confirm new off", "set display off",
              "set evaluation cubedecision evaluation plies 0",
              "set evaluation cubedecision evaluation cubeful on",
              "set evaluation cubedecision evaluation prune off",
              "set evaluation cubedecision evaluation deterministic on",
              "set evaluation cubedecision evaluation noise 0",
              "set evaluation chequerplay evaluation plies 0",
              "set output digits 6", "set output matchpc off",
              "set output mwc off", "set output winpc off"):
        run(c)
